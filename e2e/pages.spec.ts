/**
 * The page map (issue 16 item 7): a DSM run on cluster-1999 shows each node's protected pages,
 * the map changes while the run goes (faults make pages valid, write notices invalidate them),
 * the read/write fault counters appear once faults are taken, hovering names a page, and
 * scrubbing back shows the pages as they were then.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('pages: the map of each node\'s protected pages changes during a DSM run and follows the scrub bar', async ({ page }) => {
  test.setTimeout(240_000);
  const lab = new LabPage(page);
  await lab.goto();
  test.skip(
    !(await lab.hasOption('workload', 'dsm')),
    'the dsm workload (issue 16: packages/workloads/src/dsm, registered in packages/workloads/src/index.ts) is not registered yet; no registered workload protects pages on a chip whose state holds page levels (cluster)',
  );
  await lab.setPreset('cluster-1999');
  await lab.setWorkload('dsm');
  await lab.selectParam('runtime', 'page');
  await lab.selectParam('app', 'sor');
  await lab.setParam('processors', 4);
  await expect(lab.id('validation-errors')).toHaveCount(0);
  // no page map before a run has protected pages
  await expect(lab.id('page-map')).toHaveCount(0);
  await lab.run();
  await expect(lab.id('page-map')).toBeVisible({ timeout: 60_000 });
  await expect(lab.id('pages-legend')).toContainText('read-write');

  // the totals seen while the run goes: the map changes
  const seen = new Set<string>();
  for (let i = 0; i < 400 && !(await lab.id('digest').isVisible()); i++) {
    const t = await lab.pageTotals();
    if (t) seen.add(JSON.stringify(t));
    await page.waitForTimeout(50);
  }
  await lab.waitForDigest(180_000);
  const final = (await lab.pageTotals())!;
  seen.add(JSON.stringify(final));
  expect(seen.size, `page-map states seen: ${[...seen].join(' | ')}`).toBeGreaterThan(1);
  expect(final.valid).toBe(final.readOnly + final.readWrite);
  expect(final.valid).toBeGreaterThan(0);
  await expect(lab.id('pages-totals')).toContainText(`valid ${final.valid}`);

  // the fault counters appear (non-zero) beside the other counters
  await expect(lab.id('counter-readFaults')).toBeVisible();
  expect(await lab.numberOf('counter-readFaults')).toBeGreaterThan(0);

  // and in the core inspector, for the node that took them
  await lab.focusChip();
  await page.keyboard.press('ArrowRight'); // core 0
  await page.keyboard.press('ArrowRight'); // core 1
  await expect(lab.id('chip-cursor')).toHaveAttribute('data-core', '1');
  await page.keyboard.press('Enter');
  await expect(lab.id('inspect-faults')).toBeVisible();
  expect(await lab.text('inspect-faults')).toMatch(/^[1-9][\d,.]* \/ [\d,.]+$/);
  await lab.id('inspector-close').click();

  // the pointer names a page: node, page, address and state
  expect(await lab.hoverPage(0, 0.01)).toMatch(/^node 0 · page \d+ at 0x[0-9a-f]+ \(4096 B\) · (invalid|read-only|read-write)( · twin)?$/);

  await lab.shot('pages-map', lab.id('page-map'));

  // scrub back to the first boundary: the map shows the pages as they were then; Live returns to the end
  await lab.id('scrub-track').focus();
  await page.keyboard.press('Home');
  await lab.expectScrubbedExact();
  expect((await lab.scrubbed()).epoch).toBe(1);
  await expect.poll(async () => JSON.stringify(await lab.pageTotals())).not.toBe(JSON.stringify(final));
  await lab.id('scrub-live').click();
  await expect.poll(async () => JSON.stringify(await lab.pageTotals())).toBe(JSON.stringify(final));
});
