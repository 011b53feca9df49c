/**
 * Numbers that agree: every quantity the lab page shows in more than one place (live
 * counters, progress area, results key numbers, core inspector, rows table) is checked
 * against the results JSON the page exports, after the page's own formatting. The totals
 * are recomputed here from the JSON (not with the page's code), so a page that sums the
 * wrong thing or labels one quantity with another's number fails.
 */
import { expect, test } from '@playwright/test';
import { formatField, integer, joules, num, simTime, watts } from '../apps/web/src/lib/format';
import { LabPage } from './lab-page';

interface ResultsJson {
  digest: string;
  simulated: {
    endTimeNs: number;
    epochs: number;
    chip: { energyJ: number; avgPowerW: number; loads: number; stores: number; dramReads: number; flits: number };
    cores: { core: number; runs: boolean; endTimeNs: number; loads: number; stores: number; flits: number; messagesSent: number }[];
    links: { flits: number }[];
    controllers: { requests: number }[];
  };
  series: { timeNs: number[] };
  workload: { name: string; rows: Record<string, unknown>[] };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Runs the lab's current experiment to the end at full speed and returns its results JSON. */
async function runToEnd(lab: LabPage): Promise<ResultsJson> {
  await lab.setSpeed('max');
  await lab.run();
  await lab.waitForDigest();
  await lab.expectStatus('finished');
  return lab.resultsJson<ResultsJson>();
}

/** The checks shared by every run: each quantity shown twice reads the same in both places and matches the JSON. */
async function expectNumbersAgree(lab: LabPage, r: ResultsJson): Promise<void> {
  const s = r.simulated;
  const chipClockNs = r.series.timeNs[r.series.timeNs.length - 1]!;
  const expected: Record<string, string> = {
    flitsInjected: integer(s.chip.flits),
    flitHops: integer(sum(s.links.map((l) => l.flits))),
    loadsStores: integer(s.chip.loads + s.chip.stores),
    controllerRequests: integer(sum(s.controllers.map((c) => c.requests))),
    messagesSent: integer(sum(s.cores.map((c) => c.messagesSent))),
  };
  // live counters (their final values) and the results key numbers: same label, same number
  const counter: Record<string, string> = { flitsInjected: 'counter-flits-injected', flitHops: 'counter-flits', loadsStores: 'counter-ops', controllerRequests: 'counter-dram', messagesSent: 'counter-messages' };
  for (const [id, text] of Object.entries(expected)) {
    await expect(lab.id(counter[id]!), `counter ${id}`).toHaveText(text);
    if (id !== 'loadsStores') await expect(lab.id(`result-${id}`), `result ${id}`).toHaveText(text);
  }
  await expect(lab.id('result-loads')).toHaveText(integer(s.chip.loads));
  await expect(lab.id('result-stores')).toHaveText(integer(s.chip.stores));
  await expect(lab.id('result-dramReads')).toHaveText(integer(s.chip.dramReads));
  // the chip clock: the progress area and the results, the end of the last epoch
  await expect(lab.id('sim-time')).toHaveText(simTime(chipClockNs, 5));
  await expect(lab.id('result-chipClockNs')).toHaveText(simTime(chipClockNs, 5));
  // the workload's finish time, at or before it, under its own label
  await expect(lab.id('result-finishNs')).toHaveText(simTime(s.endTimeNs, 5));
  expect(s.endTimeNs).toBeLessThanOrEqual(chipClockNs);
  // epochs: progress area and results
  await expect(lab.id('epoch')).toHaveText(integer(s.epochs));
  await expect(lab.id('result-epochs')).toHaveText(integer(s.epochs));
  await expect(lab.id('result-avgPowerW')).toHaveText(watts(s.chip.avgPowerW));
  await expect(lab.id('result-energyJ')).toHaveText(joules(s.chip.energyJ));
  const runs = s.cores.filter((c) => c.runs).length;
  await expect(lab.id('cores-finished')).toHaveText(`${runs} / ${runs}`);
  // the rows table formats each cell by the unit in its column's name
  const first = r.workload.rows[0]!;
  const cells = await lab.id('rows-table').locator('tbody tr').first().locator('td').allTextContents();
  expect(cells).toEqual(Object.keys(first).map((k) => formatField(k, first[k])));
  // the inspector of core 0 (on the SCC, 6 tiles a row) against the core's entry in the JSON
  const c0 = s.cores[0]!;
  await lab.clickCore(0, 6);
  await expect(lab.id('inspector')).toBeVisible();
  await expect(lab.id('inspect-clock')).toHaveText(simTime(c0.endTimeNs, 5));
  await expect(lab.id('inspect-flits')).toHaveText(num(c0.flits, 5));
  await expect(lab.id('inspect-loads')).toHaveText(`${num(c0.loads, 5)} / ${num(c0.stores, 5)}`);
}

test('default experiment: counters, progress, key numbers, rows and inspector agree with the results JSON', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await expect(lab.id('workload')).toHaveValue('l1-stream');
  const r = await runToEnd(lab);
  expect(r.workload.name).toBe('l1-stream');
  await expectNumbersAgree(lab, r);
  // every core streams from DRAM: each packet crosses links, so the two flit counts differ and say so
  expect(sum(r.simulated.links.map((l) => l.flits))).toBeGreaterThan(r.simulated.chip.flits);
  // the rows' time column reads as a time, not "404.455k"
  await expect(lab.id('rows-table')).toContainText('µs');
  // the chart plots what the workload declared (l1-stream: time against core)
  await expect(lab.id('rows-x')).toHaveValue('core');
  await expect(lab.id('rows-y')).toHaveValue('timeNs');
});

test('mpb-pingpong across the chip: flits injected and flit-hops on links are told apart and agree everywhere', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setWorkload('mpb-pingpong');
  await lab.setParam('hops', 8);
  await lab.setParam('bytes', 1024);
  const r = await runToEnd(lab);
  expect(r.workload.name).toBe('mpb-pingpong');
  await expectNumbersAgree(lab, r);
  const hops = sum(r.simulated.links.map((l) => l.flits));
  expect(hops).toBeGreaterThan(3 * r.simulated.chip.flits); // 8 hops each way: most flits cross many links
  await expect(lab.id('counters')).toContainText('flit-hops on links');
  await expect(lab.id('counters')).toContainText('flits injected');
  await expect(lab.id('results')).toContainText('flit-hops on links');
  await expect(lab.id('results')).toContainText('flits injected');
  await expect(lab.id('rows-x')).toHaveValue('bytes');
  await expect(lab.id('rows-y')).toHaveValue('roundTripNs');
  // the chart's data table holds the plotted point, formatted with its unit
  await lab.id('table-rows').locator('summary').click();
  const row = r.workload.rows[0]!;
  await expect(lab.id('table-rows')).toContainText(formatField('roundTripNs', row.roundTripNs));
});

test('simulated per wall second counts only the time the run was going', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setParam('loads', 300000); // long enough to pause in the middle
  await lab.setSpeed(1e5); // 100 µs per second
  await lab.run();
  await lab.expectStatus('running');
  await page.waitForTimeout(1000);
  await lab.id('run').click(); // pause
  await lab.expectStatus('paused');
  await page.waitForTimeout(2500);
  await lab.id('run').click(); // resume
  await lab.expectStatus('running');
  await page.waitForTimeout(1000);
  const text = await lab.text('sim-rate');
  const m = /\(([\d.]+) s running\)/.exec(text);
  expect(m, text).not.toBeNull();
  // about 2 s ran; with the 2.5 s pause counted it would read 4.5 s or more
  expect(Number(m![1])).toBeLessThan(3.6);
  expect(Number(m![1])).toBeGreaterThan(1.5);
  await lab.reset();
});
