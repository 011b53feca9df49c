/**
 * Protocol bugs on purpose (issue 18): the `bug` parameter is an editor field like any enum;
 * rcce-pair with bug=deadlock stops with an error that says deadlock, the wait-for cycle is
 * drawn on the mesh, and the lab stays usable (bug=none runs to done); the LOCK-prefix shared
 * counter shows the protocol-bug badge and lost updates in its row; the gallery groups the
 * entries under "Break the protocol".
 */
import { expect, test, type Locator } from '@playwright/test';
import { LabPage } from './lab-page';

/** The value of column `col` in the first row of the results table. */
async function rowValue(table: Locator, col: string): Promise<string> {
  const heads = await table.locator('thead th').allTextContents();
  const i = heads.findIndex((h) => h.trim().startsWith(col));
  expect(i, `column ${col} in ${heads.join(', ')}`).toBeGreaterThanOrEqual(0);
  return ((await table.locator('tbody tr').first().locator('td').nth(i).textContent()) ?? '').trim();
}

test('rcce-pair bug=deadlock stops naming the wait-for cycle, drawn on the mesh; bug=none then runs to done', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/?cpw=8');
  await lab.setWorkload('rcce-pair');
  await expect(lab.id('param-bug')).toHaveValue('none');
  await expect(lab.id('protocol-bug')).toHaveCount(0);
  await lab.selectParam('benchmark', 'shift');
  await lab.setParam('rounds', 2);
  await lab.selectParam('bug', 'deadlock');
  await expect(lab.id('protocol-bug')).toContainText('bug=deadlock');
  await expect(lab.id('protocol-bug')).toContainText('Both cores of each pair send first');
  await lab.run();
  await lab.expectStatus('failed', 60_000);
  await expect(lab.id('run-error')).toContainText(
    "deadlock: wait-for cycle core 0 -> core 2 -> core 0 (core 0 waits for core 2's ready flag; core 2 waits for core 0's ready flag)",
  );
  const cycle = lab.id('waitfor-cycle');
  await expect(cycle).toBeVisible();
  await expect(cycle).toHaveAttribute('data-cycle', '0,2');
  await expect(cycle).toContainText('core 0 → core 2 → core 0');
  await lab.shot('bug-deadlock-cycle', lab.id('view-chip'));

  // the lab stays usable: the same experiment without the bug runs to the end
  await lab.selectParam('bug', 'none');
  await expect(lab.id('protocol-bug')).toHaveCount(0);
  await lab.run();
  await lab.waitForDigest();
  await lab.expectStatus('finished');
  await expect(lab.id('run-error')).toHaveCount(0);
  await expect(lab.id('waitfor-cycle')).toHaveCount(0);
});

test('shared-counter with the LOCK prefix: the badge, and lost updates counted in its row', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/?cpw=8');
  await lab.id('tab-gallery').click();
  await expect(page.getByRole('heading', { name: 'Break the protocol' })).toBeVisible();
  await lab.id('gallery-load-bug-lock-prefix').click();
  await expect(lab.id('workload')).toHaveValue('shared-counter');
  await expect(lab.id('param-bug')).toHaveValue('lock-prefix');
  await expect(lab.id('protocol-bug')).toContainText('x86 LOCK prefix');
  await lab.setSpeed('max');
  await lab.run();
  await lab.waitForDigest();
  const table = lab.id('rows-table');
  expect(Number(await rowValue(table, 'expected'))).toBe(400);
  const lost = Number((await rowValue(table, 'lostUpdates')).replace(/[^\d]/g, ''));
  expect(lost).toBeGreaterThan(0);
  expect(lost + Number((await rowValue(table, 'observed')).replace(/[^\d]/g, ''))).toBe(400);

  // without the bug: no badge, nothing lost
  await lab.selectParam('bug', 'none');
  await expect(lab.id('protocol-bug')).toHaveCount(0);
  await lab.run();
  await lab.waitForDigest();
  await expect.poll(async () => rowValue(lab.id('rows-table'), 'lostUpdates')).toBe('0');
});
