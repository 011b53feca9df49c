/**
 * Share links: the whole experiment, compressed and schema-versioned, in the URL hash.
 *
 *   #x=<format>.<checksum>.<data>
 *   format    link format version (LINK_FORMAT); newer formats are refused with a clear message
 *   checksum  FNV-1a 32-bit of the experiment JSON text, 8 hex digits (detects edits and damage)
 *   data      base64url of the deflate-raw compressed experiment JSON (CompressionStream)
 *
 *   &d=<digest> optional: the results digest of the run the link was copied from (16 hex
 *               digits, digestOf); the lab shows it and, after the run, whether it matches
 *
 * Decoding never evaluates anything: the JSON is parsed with JSON.parse and validated by the
 * engine's experiment schema (and prepareRun, so the chip and workload parameters are checked
 * too). Every failure returns a message naming what is wrong.
 */
import { parseExperiment, prepareRun, type Experiment, type WorkloadRegistry } from '@manycore/engine';

export const LINK_FORMAT = 1;
export const LINK_KEY = 'x';
/** Hash fragments longer than this are refused before any work. */
export const MAX_LINK_CHARS = 64 * 1024;
/** Decompressed JSON larger than this is refused (a link is a few hundred bytes). */
export const MAX_JSON_BYTES = 256 * 1024;

export const DIGEST_KEY = 'd';
const DIGEST_RE = /^[0-9a-f]{16}$/;

/** digest: the results digest the link says its run produced (absent for links made before a run finished). */
export type LinkResult = { ok: true; experiment: Experiment; digest?: string } | { ok: false; problem: string };

export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  const bytes = new TextEncoder().encode(text);
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

async function pump(input: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array> {
  const source = new Blob([input as BlobPart]).stream().pipeThrough(stream);
  const reader = source.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new RangeError('too large');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The canonical JSON of an experiment (what the checksum covers). */
export function experimentJson(exp: Experiment): string {
  return JSON.stringify(exp);
}

/**
 * Encodes an experiment as the hash fragment (without '#'); with `digest` (the results digest
 * of a finished run of exactly this experiment) the link also says what its run must reproduce.
 */
export async function encodeExperiment(exp: Experiment, digest?: string): Promise<string> {
  const json = experimentJson(exp);
  const packed = await pump(new TextEncoder().encode(json), new CompressionStream('deflate-raw'), Infinity);
  const d = digest !== undefined && DIGEST_RE.test(digest) ? `&${DIGEST_KEY}=${digest}` : '';
  return `${LINK_KEY}=${LINK_FORMAT}.${fnv1a(json)}.${toBase64Url(packed)}${d}`;
}

/** A full URL for the experiment: base (without hash) + '#' + fragment. */
export async function shareUrl(base: string, exp: Experiment, digest?: string): Promise<string> {
  return `${base.split('#')[0]}#${await encodeExperiment(exp, digest)}`;
}

/** Does the hash carry an experiment link at all? */
export function hasLink(hash: string): boolean {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  return h.split('&').some((p) => p.startsWith(`${LINK_KEY}=`));
}

/**
 * Decodes a hash fragment ('#x=...' or 'x=...'). Returns null when there is no link in it,
 * else the validated experiment or a message naming the problem.
 */
export async function decodeLink(hash: string, registry: WorkloadRegistry): Promise<LinkResult | null> {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const part = h.split('&').find((p) => p.startsWith(`${LINK_KEY}=`));
  if (part === undefined) return null;
  const value = part.slice(LINK_KEY.length + 1);
  const fail = (problem: string): LinkResult => ({ ok: false, problem });
  const digestPart = h.split('&').find((p) => p.startsWith(`${DIGEST_KEY}=`));
  const digest = digestPart?.slice(DIGEST_KEY.length + 1);
  if (digest !== undefined && !DIGEST_RE.test(digest))
    return fail(`The link's results digest "${digest.slice(0, 24)}" is not 16 hexadecimal digits (it may have been cut or edited).`);
  if (value.length === 0) return fail('The link is empty: nothing follows "#x=". Copy the whole link again.');
  if (value.length > MAX_LINK_CHARS) return fail(`The link is too long (${value.length} characters; at most ${MAX_LINK_CHARS}).`);
  const pieces = value.split('.');
  if (pieces.length !== 3)
    return fail('The link is malformed: expected "format.checksum.data" after "#x=" (it may have been cut or edited).');
  const [fmtText, check, data] = pieces as [string, string, string];
  if (!/^\d{1,6}$/.test(fmtText)) return fail(`The link is malformed: its format version "${fmtText.slice(0, 20)}" is not a number.`);
  const fmt = Number(fmtText);
  if (fmt > LINK_FORMAT)
    return fail(`This link was made by a newer version of Manycore Lab (link format ${fmt}; this lab reads format ${LINK_FORMAT}). Update the lab to open it.`);
  if (fmt < 1) return fail(`The link has an unknown format version ${fmt}.`);
  if (!/^[0-9a-f]{8}$/.test(check)) return fail('The link is malformed: its checksum is not 8 hexadecimal digits.');
  const bytes = fromBase64Url(data);
  if (!bytes || bytes.length === 0) return fail('The link is damaged: its data is not valid base64url (characters were changed or cut).');
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(await pump(bytes, new DecompressionStream('deflate-raw'), MAX_JSON_BYTES));
  } catch (err) {
    if (err instanceof RangeError) return fail(`The link's data unpacks to more than ${MAX_JSON_BYTES / 1024} KB; refused.`);
    return fail('The link is truncated or corrupted: its data could not be decompressed. Copy the whole link again.');
  }
  if (fnv1a(json) !== check) return fail('The link was altered: its checksum does not match its data.');
  let obj: unknown;
  try {
    obj = JSON.parse(json);
  } catch {
    return fail('The link is corrupted: its data is not valid JSON.');
  }
  try {
    const experiment = parseExperiment(obj);
    prepareRun(experiment, registry);
    return digest === undefined ? { ok: true, experiment } : { ok: true, experiment, digest };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return fail(`The experiment in the link is not valid: ${msg}`);
  }
}
