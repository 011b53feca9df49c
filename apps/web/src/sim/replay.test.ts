/**
 * Forks at a time: the fork is the original up to the fork time, then diverges; the fork's
 * share link reproduces the fork's digest and the original's link still reproduces the
 * original's (inline runs of the engine). Stop times and fork times are whole picoseconds.
 */
import { describe, expect, it } from 'vitest';
import { CTL, ExperimentError, parseExperiment, Simulation, type Experiment, type Results } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { decodeLink, shareUrl } from '../lib/link';
import { readBoundaries } from './recorder';
import { forkExperiment, nsOfPs, stoppedAt } from './replay';

const ORIGINAL: Experiment = parseExperiment({
  version: 2,
  chip: { preset: 'scc', overrides: {} },
  workload: { name: 'rcce-pair', params: { benchmark: 'shift', pairs: 2, hops: 1, rounds: 20 } },
  quantumNs: 500,
  sampleIntervalNs: 1000,
});

function run(exp: Experiment): { results: Results; sim: Simulation } {
  const sim = new Simulation(exp, workloads);
  return { results: sim.runInline(), sim };
}

async function viaLink(exp: Experiment, digest: string): Promise<{ experiment: Experiment; digest?: string }> {
  const url = await shareUrl('https://lab.example/manycore/', exp, digest);
  const back = await decodeLink(new URL(url).hash, workloads);
  if (!back || !back.ok) throw new Error(`link did not decode: ${back ? back.problem : 'no link'}`);
  return back;
}

describe('fork at a time', () => {
  it('is the original up to the fork time, diverges after, and both links reproduce their digests', async () => {
    const orig = run(ORIGINAL);
    const b = readBoundaries(orig.sim.views);
    const k = Math.floor(b.timesPs.length / 2);
    const atPs = b.timesPs[k]!;
    // slow down the first pair's tile from the fork on
    const tile = Math.floor(orig.sim.run.settings.participants[0]! / orig.sim.run.chip.topo.coresPerTile);
    const forkExp = forkExperiment(ORIGINAL, atPs, { kind: 'tile-divisor', tile, divisor: 12 });
    expect(forkExp.timeline).toEqual([{ kind: 'tile-divisor', atNs: atPs / 1000, tile, divisor: 12 }]);
    expect(ORIGINAL.timeline).toEqual([]); // the original is untouched
    const fork = run(forkExp);
    expect(fork.results.digest).not.toBe(orig.results.digest);
    // the same epochs up to the fork time, and the change logged exactly there
    const fb = readBoundaries(fork.sim.views);
    expect(Array.from(fb.timesPs.subarray(0, k + 1))).toEqual(Array.from(b.timesPs.subarray(0, k + 1)));
    expect(fork.results.simulated.events).toEqual([{ kind: 'tile-divisor', atNs: atPs / 1000, tile, divisor: 12 }]);
    // the same samples up to the fork time, different ones after
    const before = (r: Results) => r.series.timeNs.filter((t) => t * 1000 <= atPs).length;
    const n = before(orig.results);
    expect(n).toBeGreaterThan(1);
    expect(before(fork.results)).toBe(n);
    expect(fork.results.series.chipPowerW.slice(0, n)).toEqual(orig.results.series.chipPowerW.slice(0, n));
    expect(fork.results.series.chipPowerW.slice(n)).not.toEqual(orig.results.series.chipPowerW.slice(n));
    // a run of the original stopped at the fork time is the fork stopped there too
    const stopA = run(stoppedAt(ORIGINAL, atPs)).results;
    const stopB = run(stoppedAt(forkExp, atPs)).results;
    expect(stopB.simulated.cores).toEqual(stopA.simulated.cores);
    expect(Atomics.load(orig.sim.views.ctl, CTL.epochLogCount)).toBe(orig.results.simulated.epochs);

    // links: the fork's reproduces the fork's digest, the original's the original's
    const forkLink = await viaLink(forkExp, fork.results.digest);
    expect(forkLink.digest).toBe(fork.results.digest);
    expect(run(forkLink.experiment).results.digest).toBe(fork.results.digest);
    const origLink = await viaLink(ORIGINAL, orig.results.digest);
    expect(origLink.digest).toBe(orig.results.digest);
    expect(run(origLink.experiment).results.digest).toBe(orig.results.digest);
  });

  it('refuses a fork time that is not whole picoseconds and a change the schema refuses, naming it', () => {
    expect(() => nsOfPs(1500.5)).toThrow(/1500\.5 is not|whole number of ps/);
    expect(() => forkExperiment(ORIGINAL, 4_000_000, { kind: 'island-divisor', island: 0, divisor: 1 })).toThrow(ExperimentError);
    expect(() => forkExperiment(ORIGINAL, 4_000_000, { kind: 'island-divisor', island: 0, divisor: 1 })).toThrow(/timeline\.0\.divisor/);
    // an island the chip does not have: the engine names it when the fork is prepared
    const bad = forkExperiment(ORIGINAL, 4_000_000, { kind: 'island-divisor', island: 9, divisor: 8 });
    expect(() => new Simulation(bad, workloads)).toThrow(/timeline\.0\.island: island 9 does not exist/);
    expect(nsOfPs(4_000_123)).toBe(4000.123);
    expect(stoppedAt(ORIGINAL, 4_000_123).stop.maxTimeNs).toBe(4000.123);
  });
});
