/**
 * The DSM views in the web lab (issue 16 item 7): a `dsm` run on cluster-1999 (page runtime,
 * SOR, 4 processors, size small) shows the interval timeline per processor, the write-notice
 * matrix and the Table 3/4-shaped table, and every number they show equals the downloaded
 * results JSON (the row and results.workload.dsm). The views are absent before the run, the
 * data tables open from the keyboard, and the views redraw in the dark and high-contrast themes.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

interface DsmJson {
  workload: {
    rows: { timeNs: number; messages: number; bytes: number; overlappedRequests: number; writeNotices: number; writeFaults: number; allocatedPerProcessorBytes: number; correct: boolean }[];
    dsm: {
      processors: number;
      timeline: { proc: number; kindPs: Record<string, number>; moreSpans: number }[];
      notices: number[][];
      messagesByType: { type: number; name: string; messages: number }[];
    };
  };
}

test('dsm on cluster-1999: timeline, write-notice matrix and Table 3/4 equal the results JSON', async ({ page }) => {
  test.setTimeout(240_000);
  const lab = new LabPage(page);
  await lab.goto();
  test.skip(!(await lab.hasOption('workload', 'dsm')), 'no dsm workload in this build');
  await lab.setPreset('cluster-1999');
  await lab.setWorkload('dsm');
  await lab.selectParam('runtime', 'page');
  await lab.selectParam('app', 'sor');
  await lab.setParam('processors', 4);
  await lab.selectParam('size', 'small');
  await expect(lab.id('validation-errors')).toHaveCount(0);
  await expect(lab.id('dsm-views')).toHaveCount(0);
  await lab.run();
  await lab.waitForDigest(180_000);
  await expect(lab.id('dsm-views')).toBeVisible();
  const r = await lab.resultsJson<DsmJson>();
  const row = r.workload.rows[0]!;
  const x = r.workload.dsm;
  expect(row.correct).toBe(true);

  // timeline: one lane per processor; each processor's time per kind as in the JSON
  const shown = await lab.dsmViewNumbers(2);
  expect(shown.lanes).toBe(4);
  expect(shown.kindPs).toEqual(x.timeline[2]!.kindPs);
  expect(shown.kindPs.barrier).toBeGreaterThan(0);
  for (const p of [0, 1, 3]) await expect(lab.id(`dsm-timeline-proc-${p}`)).toHaveAttribute('data-fault-ps', String(x.timeline[p]!.kindPs.fault));
  await expect(lab.id('dsm-timeline')).toHaveAttribute('data-exact', x.timeline.every((t) => t.moreSpans === 0) ? 'true' : 'false');

  // write-notice matrix: the total equals the row's writeNotices and the JSON's matrix; messages by type sum to the row
  expect(shown.notices).toBe(row.writeNotices);
  expect(x.notices.flat().reduce((a, b) => a + b, 0)).toBe(row.writeNotices);
  await expect(lab.id('dsm-notices-total')).toHaveText(String(row.writeNotices));
  expect(shown.messages).toBe(row.messages);
  await expect(lab.id('dsm-notices-messages')).toHaveText(String(row.messages));
  expect(shown.byType).toEqual(Object.fromEntries(x.messagesByType.map((m) => [m.name, m.messages])));
  // the matrix's data table, opened from the keyboard: P0's row holds its departures to every other processor
  const summary = lab.id('table-dsm-notices').locator('summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  const p0 = lab.id('table-dsm-notices').locator('tbody tr').first();
  await expect(p0).toContainText('P0');
  for (const v of x.notices[0]!.slice(1)) await expect(p0).toContainText(String(v));
  await expect(lab.id('table-dsm-notices').locator('tbody tr')).toHaveCount(4);

  // Table 3/4 shape: the lab's values are the row's (no paper column at 4 processors)
  await expect(lab.id('dsm-paper-table')).toHaveAttribute('data-table', '');
  const byMetric = Object.fromEntries(shown.table.map((t) => [t.metric, t]));
  expect(byMetric.time!.lab).toBeCloseTo(row.timeNs / 1e9, 12);
  expect(byMetric.data!.lab).toBeCloseTo(row.bytes / 1e6, 12);
  expect(byMetric.messages!.lab).toBe(row.messages);
  expect(byMetric['overlapped requests']!.lab).toBe(row.overlappedRequests);
  expect(byMetric['memory per processor (object memory alloc.)']!.lab).toBeCloseTo(row.allocatedPerProcessorBytes / 1e6, 12);
  expect(byMetric['write faults']!.lab).toBe(row.writeFaults);
  expect(byMetric.messages!.paper).toBe('');
  await expect(lab.id('dsm-ablation')).toHaveCount(0); // the page runtime has no switches

  await lab.shot('dsm-views-light', lab.id('dsm-views'));
  const swatch = () => lab.computed('[data-testid="dsm-kind-compute"]', 'background-color');
  const lightSwatch = await swatch();
  // the views redraw in the dark and high-contrast themes
  for (const theme of ['dark', 'contrast']) {
    await lab.setTheme(theme);
    await expect(lab.id('dsm-timeline').locator('canvas')).toBeVisible();
    await expect(lab.id('dsm-notices').locator('canvas')).toBeVisible();
    await lab.shot(`dsm-views-${theme}`, lab.id('dsm-views'));
    expect(await swatch()).not.toBe(lightSwatch); // the legend follows the theme's palette, as the canvas does
  }
});
