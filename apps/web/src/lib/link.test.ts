import { describe, expect, it } from 'vitest';
import { defaultExperiment, EXPERIMENT_VERSION, parseExperiment } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { decodeLink, encodeExperiment, fnv1a, fromBase64Url, hasLink, LINK_FORMAT, toBase64Url } from './link';

async function pack(json: string): Promise<string> {
  const s = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(new Uint8Array(await new Response(s).arrayBuffer()));
}

const sample = parseExperiment({
  version: 1,
  chip: { preset: 'scc', overrides: { clocks: { divisor: 5 } } },
  workload: { name: 'mpb-pingpong', params: { hops: 3, bytes: 128 } },
  seed: 7,
  quantumNs: 500,
  timeline: [{ kind: 'island-divisor', atNs: 2000, island: 2, divisor: 8 }],
});

describe('share links', () => {
  it('round-trips the whole experiment', async () => {
    const frag = await encodeExperiment(sample);
    expect(frag.startsWith(`x=${LINK_FORMAT}.`)).toBe(true);
    expect(frag).toMatch(/^[A-Za-z0-9_.=-]+$/); // URL-safe
    const back = await decodeLink('#' + frag, workloads);
    expect(back).toEqual({ ok: true, experiment: sample });
  });

  it('is short for a default experiment', async () => {
    const frag = await encodeExperiment(defaultExperiment());
    expect(frag.length).toBeLessThan(400);
  });

  it('returns null when there is no link', async () => {
    expect(await decodeLink('', workloads)).toBeNull();
    expect(await decodeLink('#other=1', workloads)).toBeNull();
    expect(hasLink('#x=1.a.b')).toBe(true);
    expect(hasLink('#y=2')).toBe(false);
  });

  it('names a truncated link', async () => {
    const frag = await encodeExperiment(sample);
    const r = await decodeLink(frag.slice(0, frag.length - 12), workloads);
    expect(r?.ok).toBe(false);
    if (r && !r.ok) expect(r.problem).toMatch(/truncated|damaged|altered/);
  });

  it('names a tampered link (checksum mismatch)', async () => {
    const json = JSON.stringify({ ...sample, seed: 8 });
    const frag = `x=1.${fnv1a(JSON.stringify(sample))}.${await pack(json)}`;
    const r = await decodeLink(frag, workloads);
    expect(r).toEqual({ ok: false, problem: expect.stringMatching(/altered/) });
  });

  it('names a future link format and a future experiment version', async () => {
    const frag = await encodeExperiment(sample);
    const r = await decodeLink(frag.replace('x=1.', 'x=2.'), workloads);
    expect(r).toEqual({ ok: false, problem: expect.stringMatching(/newer version.*format 2/) });
    const json = JSON.stringify({ ...sample, version: EXPERIMENT_VERSION + 1 });
    const r2 = await decodeLink(`x=1.${fnv1a(json)}.${await pack(json)}`, workloads);
    expect(r2).toEqual({ ok: false, problem: expect.stringMatching(/newer than this lab understands/) });
  });

  it('names malformed links', async () => {
    for (const [frag, re] of [
      ['x=', /empty/],
      ['x=abc', /malformed/],
      ['x=one.00000000.AAAA', /not a number/],
      ['x=1.zz.AAAA', /checksum/],
      ['x=1.00000000.!!!', /base64url/],
    ] as const) {
      const r = await decodeLink(frag, workloads);
      expect(r?.ok, frag).toBe(false);
      if (r && !r.ok) expect(r.problem, frag).toMatch(re);
    }
  });

  it('validates the experiment inside (schema, workload and chip)', async () => {
    const bad = async (obj: unknown) => {
      const json = JSON.stringify(obj);
      return decodeLink(`x=1.${fnv1a(json)}.${await pack(json)}`, workloads);
    };
    expect(await bad({ ...sample, workload: { name: 'nope', params: {} } })).toEqual({ ok: false, problem: expect.stringMatching(/unknown workload "nope"/) });
    expect(await bad({ ...sample, quantumNs: -1 })).toEqual({ ok: false, problem: expect.stringMatching(/quantumNs/) });
    expect(await bad('<img src=x onerror=alert(1)>')).toEqual({ ok: false, problem: expect.stringMatching(/expected a JSON object/) });
    expect(await bad({ ...sample, chip: { preset: 'scc', overrides: { clocks: { divisor: 99 } } } })).toEqual({
      ok: false,
      problem: expect.stringMatching(/chip\.clocks\.divisor/),
    });
    const notJson = 'not json {';
    expect(await decodeLink(`x=1.${fnv1a(notJson)}.${await pack(notJson)}`, workloads)).toEqual({ ok: false, problem: expect.stringMatching(/not valid JSON/) });
  });

  it('base64url round-trips arbitrary bytes', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 255);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    expect(fromBase64Url('a')).toBeNull();
  });

  it('carries the digest of the run it came from, and refuses a damaged one', async () => {
    const frag = await encodeExperiment(sample, '0123456789abcdef');
    expect(frag).toMatch(/&d=0123456789abcdef$/);
    expect(await decodeLink('#' + frag, workloads)).toEqual({ ok: true, experiment: sample, digest: '0123456789abcdef' });
    const noDigest = await decodeLink('#' + (await encodeExperiment(sample)), workloads);
    expect(noDigest && noDigest.ok && 'digest' in noDigest).toBe(false);
    // a digest that is not 16 hex digits is never written, and is refused when read
    expect(await encodeExperiment(sample, '<b>x</b>')).not.toContain('&d=');
    const bad = await decodeLink('#' + frag.replace(/&d=.*$/, '&d=0123<script>'), workloads);
    expect(bad).toEqual({ ok: false, problem: 'The link\'s results digest "0123<script>" is not 16 hexadecimal digits (it may have been cut or edited).' });
  });
});
