/**
 * Results digest: a 64-bit FNV-1a hash (two 32-bit halves, Math.imul) over a canonical
 * JSON text (object keys sorted, numbers as JS prints them). Not cryptographic; it exists so
 * two runs can be compared by one short string. Same value on every host.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return JSON.stringify(String(value));
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    const arr = Array.from(value as ArrayLike<unknown>);
    return '[' + arr.map(canonicalJson).join(',') + ']';
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(obj[k])).join(',') + '}';
}

export function fnv1a64(text: string): string {
  // 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 2^40 + 0x1b3) in four 16-bit limbs,
  // over the UTF-16 code units of the text (low byte, then high byte when non-zero).
  let h0 = 0x2325,
    h1 = 0x8422,
    h2 = 0x9ce4,
    h3 = 0xcbf2;
  const step = (byte: number): void => {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (t1 >>> 16) + ((h0 << 8) & 0xffff);
    const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h0 >>> 8) + ((h1 << 8) & 0xffff);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    step(c & 0xff);
    if (c > 0xff) step(c >>> 8);
  }
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}

export function digestOf(value: unknown): string {
  return fnv1a64(canonicalJson(value));
}
