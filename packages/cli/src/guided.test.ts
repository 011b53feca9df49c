import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Simulation } from '@manycore/engine';
import { guidedExperiments, workloads } from '@manycore/workloads';
import { parseArgs, UsageError } from './args';
import { entryOf, guided, guidedDocument, listText, outputPaths, runEntry, toCsv, type RunOne } from './guided';

const inline: RunOne = async (experiment) => {
  const r = new Simulation(experiment, workloads).runInline();
  return { experiment, rows: r.workload.rows, digest: r.digest, wallMs: 0 };
};

describe('manycore guided: arguments', () => {
  it('parses list and run', () => {
    expect(parseArgs(['guided', 'list', '--json'])).toMatchObject({ command: 'guided', action: 'list', json: true });
    expect(parseArgs(['guided', 'run', 'pingpong-hops', '--out', 'x/y.json', '--jobs', '2', '--quiet'])).toMatchObject({
      command: 'guided',
      action: 'run',
      id: 'pingpong-hops',
      out: 'x/y.json',
      jobs: 2,
      quiet: true,
      coresPerWorker: 'auto',
    });
  });

  it('names the problem with bad arguments', () => {
    expect(() => parseArgs(['guided'])).toThrow('guided: expected list or run');
    expect(() => parseArgs(['guided', 'go'])).toThrow('guided: unknown action "go" (expected list or run)');
    expect(() => parseArgs(['guided', 'run'])).toThrow(/which entry\?/);
    expect(() => parseArgs(['guided', 'run', 'a', 'b'])).toThrow('guided run: one entry at a time (got a and b)');
    expect(() => parseArgs(['guided', 'run', 'a', '--jobs', '0'])).toThrow('--jobs 0: expected a whole number of at least 1, or auto');
    expect(() => parseArgs(['guided', 'run', 'a', '--fast'])).toThrow('guided run: unknown option --fast');
    expect(() => parseArgs(['guided', 'list', '--all'])).toThrow('guided list: unknown option --all');
  });

  it('rejects an unknown id as a usage error listing the valid ids', () => {
    let err: unknown;
    try {
      entryOf('no-such-entry');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^guided run: unknown entry "no-such-entry" \(valid: dram-stream, memtest-hops, /);
    for (const g of guidedExperiments) expect((err as Error).message).toContain(g.id);
  });
});

describe('manycore guided: output', () => {
  it('lists every entry with its number of runs', () => {
    const lines = listText().trimEnd().split('\n');
    expect(lines).toHaveLength(guidedExperiments.length);
    expect(lines[0]).toMatch(/^dram-stream\s+1 run\s+All 48 cores stream from DRAM$/);
    expect(lines.find((l) => l.startsWith('pingpong-hops'))).toMatch(/\s8 runs\s+MPB round trip vs hops/);
  });

  it('puts the files in a directory, or beside a named .json or .csv', () => {
    expect(outputPaths('a', undefined)).toEqual({ json: 'a.json', csv: 'a.csv' });
    expect(outputPaths('a', 'out/dir')).toEqual({ json: 'out/dir/a.json', csv: 'out/dir/a.csv' });
    expect(outputPaths('a', 'r/sweep.JSON')).toEqual({ json: 'r/sweep.JSON', csv: 'r/sweep.csv' });
    expect(outputPaths('a', 'r/sweep.csv')).toEqual({ json: 'r/sweep.json', csv: 'r/sweep.csv' });
  });

  it('writes RFC 4180 CSV over the union of the fields', () => {
    expect(toCsv([{ a: 1, b: 'x,y' }, { a: 2, c: 'say "hi"' }])).toBe('a,b,c\r\n1,"x,y",\r\n2,,"say ""hi"""\r\n');
  });

  it('runs every experiment once, at most `jobs` at once, and keeps the run order', async () => {
    const entry = entryOf('pingpong-hops');
    let active = 0;
    let most = 0;
    const seen: number[] = [];
    const fake: RunOne = async (experiment) => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      const hops = (experiment.workload.params as { hops: number }).hops;
      if (hops === 5) throw new Error('boom');
      return { experiment, rows: [{ hops, roundTripNs: 100 * hops }], digest: `d${hops}`, wallMs: 1 };
    };
    const { outputs, errors } = await runEntry(entry, fake, 3, (_d, _t, i) => seen.push(i));
    expect(most).toBe(3);
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(outputs.map((o) => o?.digest)).toEqual(['d1', 'd2', 'd3', 'd4', undefined, 'd6', 'd7', 'd8']);
    expect(errors).toEqual([{ run: 4, message: 'boom' }]);
    const doc = guidedDocument(entry, outputs, errors);
    expect(doc.runs[4]).toMatchObject({ run: 4, error: 'boom' });
    expect(doc.rows[0]).toEqual({ run: 0, bytes: 32, iterations: 4, hops: 1, roundTripNs: 100 });
    expect(doc.points.lab.map((p) => p.x)).toEqual([1, 2, 3, 4, 6, 7, 8]);
  });

  describe('guided run on a real entry', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'manycore-guided-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('writes the rows of every run as JSON and CSV, with the swept parameter and run index', async () => {
      const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        await guided({ command: 'guided', action: 'run', id: 'pingpong-hops', out: dir, jobs: 2, coresPerWorker: 'auto', quiet: true, json: false }, inline);
      } finally {
        out.mockRestore();
        err.mockRestore();
      }
      const doc = JSON.parse(readFileSync(join(dir, 'pingpong-hops.json'), 'utf8'));
      expect(doc.schema).toBe('manycore-guided/1');
      expect(doc.runs).toHaveLength(8);
      expect(doc.runs.every((r: { digest?: string }) => typeof r.digest === 'string' && r.digest.length === 16)).toBe(true);
      expect(doc.rows.map((r: { run: number; hops: number }) => [r.run, r.hops])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((h, i) => [i, h]));
      const csv = readFileSync(join(dir, 'pingpong-hops.csv'), 'utf8').split('\r\n');
      expect(csv[0]).toBe('run,iterations,hops,bytes,roundTripNs');
      expect(csv).toHaveLength(10); // header, 8 rows, final empty
      expect(csv[8]!.startsWith('7,4,8,32,')).toBe(true);
    });
  });
});
