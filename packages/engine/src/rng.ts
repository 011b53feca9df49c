/**
 * Seeded pseudo-random numbers (sfc32 seeded through splitmix32). Deterministic on every
 * host; the only randomness a workload may use. One stream per core: makeRng(seed, core).
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform uint32. */
  u32(): number;
}

function splitmix32(state: number): [number, number] {
  const s = (state + 0x9e3779b9) | 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [s, (z ^ (z >>> 16)) >>> 0];
}

export function makeRng(seed: number, stream = 0): Rng {
  let s = (seed | 0) ^ Math.imul(stream + 1, 0x632be5ab);
  let a: number, b: number, c: number, d: number;
  [s, a] = splitmix32(s);
  [s, b] = splitmix32(s);
  [s, c] = splitmix32(s);
  [s, d] = splitmix32(s);
  const u32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) u32();
  return {
    u32,
    next: () => u32() / 4294967296,
    int: (n: number) => Math.floor((u32() / 4294967296) * n),
  };
}
