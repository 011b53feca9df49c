/**
 * The guided-experiments gallery (issue 17): every entry of the workloads registry is there, a
 * sweep runs to the end with one click and draws its points as they arrive, Stop keeps the
 * points so far, paper values are drawn beside the lab's, and "Load and run" of a single entry
 * loads it into the lab at the entry's speed.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { guidedExperiments } from '../packages/workloads/src/guided';
import { LabPage } from './lab-page';

/** Serious and critical axe-core violations, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('[data-testid="gallery"]').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 5).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? v.help}`));
}

test('a sweep from the gallery runs to the end with one click and draws its points', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/');
  await lab.id('tab-gallery').click();
  await expect(lab.id('gallery')).toBeVisible();
  // every entry of the registry has a card
  for (const g of guidedExperiments) await expect(lab.id(`gallery-${g.id}`)).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'TILE64', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Big meshes', level: 2 })).toBeVisible();

  await lab.id('sweep-pingpong-hops').click();
  const progress = lab.id('sweep-progress');
  await expect(progress).toContainText(/run \d of 8/);
  await expect(progress).toHaveText('done: 8 runs, 8 points', { timeout: 90_000 });
  await expect(progress).toHaveAttribute('data-status', 'done');
  const points = lab.id('sweep-points');
  await expect(points).toHaveAttribute('data-count', '8');
  expect(Number(await points.getAttribute('data-count'))).toBeGreaterThanOrEqual(5);
  await expect(points.locator('circle')).toHaveCount(8);
  await expect(lab.id('sweep-stop')).toBeDisabled();
  // the data table alternative lists the same points, one per hop, rising with distance
  await page.locator('.sweep-table summary').click();
  const rows = lab.id('sweep-table').locator('tbody tr');
  await expect(rows).toHaveCount(8);
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  expect(cells.map((c) => c[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  const ns = cells.map((c) => parseFloat(c[1]!));
  for (let i = 1; i < ns.length; i++) expect(ns[i]!).toBeGreaterThan(ns[i - 1]!);
  await lab.shot('gallery-sweep', lab.id('sweep-panel'));
  expect(await seriousViolations(page), 'gallery with a finished sweep').toEqual([]);
  // the rows of every run as CSV, with the run index and the swept parameter
  const [dl] = await Promise.all([page.waitForEvent('download'), lab.id('sweep-csv').click()]);
  expect(dl.suggestedFilename()).toBe('pingpong-hops.csv');
  const chunks: Buffer[] = [];
  for await (const c of (await dl.createReadStream())!) chunks.push(c as Buffer);
  const csv = Buffer.concat(chunks).toString().split('\r\n');
  expect(csv[0]).toBe('run,iterations,hops,bytes,roundTripNs');
  expect(csv).toHaveLength(10);
});

test('Stop ends a sweep and keeps the points so far; paper values are drawn beside the lab', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/');
  await lab.setTheme('dark');
  await lab.id('tab-gallery').click();
  // 8 runs of the n-body ring, several seconds each: the paper's Table V is drawn from the start
  await lab.id('sweep-nbody-ring-workers').click();
  const points = lab.id('sweep-points');
  await expect(points).toHaveAttribute('data-paper-count', '5');
  await expect(lab.id('sweep-paper-key')).toHaveText('paper');
  await expect(lab.id('sweep-progress')).toContainText('run 1 of 8: workers=1');
  await expect(points).toHaveAttribute('data-count', '1', { timeout: 60_000 });
  await lab.id('sweep-stop').click();
  const progress = lab.id('sweep-progress');
  await expect(progress).toHaveAttribute('data-status', 'stopped');
  const kept = Number(await points.getAttribute('data-count'));
  expect(kept).toBeGreaterThanOrEqual(1);
  expect(kept).toBeLessThan(8);
  await expect(progress).toHaveText(`stopped after ${kept} of 8 runs`);
  // nothing more arrives after Stop
  await page.waitForTimeout(3000);
  await expect(points).toHaveAttribute('data-count', String(kept));
  await expect(lab.id('sweep-stop')).toBeDisabled();
  // the data table puts the paper's value and the ratio beside each lab point it measured
  await page.locator('.sweep-table summary').click();
  const ratios = (await lab.id('sweep-ratio').allTextContents()).filter((t) => t !== '');
  expect(ratios.length).toBeGreaterThanOrEqual(1);
  for (const r of ratios) expect(r).toMatch(/^\d[\d.e+-]*×$/);
  await lab.shot('gallery-sweep-stopped-dark', lab.id('sweep-panel'));
  expect(await seriousViolations(page), 'gallery with a stopped sweep, dark theme').toEqual([]);
});

test('"Load and run" of a single entry loads it into the lab at the entry\'s speed', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/');
  await lab.id('tab-gallery').click();
  await lab.id('gallery-run-memtest-hops').click();
  await expect(lab.id('editor')).toBeVisible();
  await expect(lab.id('workload')).toHaveValue('memtest');
  await expect(lab.id('link-notice')).toContainText('Memory latency grows with hops');
  await lab.waitForDigest();
  await expect(lab.id('rows-table')).toContainText('latencyNs');
  await expect(lab.id('speed')).toHaveValue('Infinity');
  // the default experiment asks for a change during the run: it starts slow enough for it
  await lab.id('tab-gallery').click();
  await lab.id('gallery-load-dram-stream').click();
  await expect(lab.id('workload')).toHaveValue('l1-stream');
  await expect(lab.id('speed')).toHaveValue('10000');
  await expect(lab.id('link-notice')).toContainText('time to act');
});
