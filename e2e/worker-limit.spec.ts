/**
 * The Web Worker limit (issue 13 item 6; apps/web/src/sim/worker-limit.ts): one worker per core
 * of the 1024-core mesh would start 1024 workers, which hung a headless Chromium page; the lab
 * refuses that layout with a message naming the limit and the setting, starts nothing, and stays
 * usable: the auto layout (one click) runs the same experiment.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('one worker per core on the 1024-core mesh is refused with a clear message; the lab keeps working and the auto layout runs', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/?cpw=1');
  test.skip(!(await lab.hasOption('chip-variant', 'mesh-32x16')), 'no 32x16 (1024-core) mesh size in the editor');
  await lab.setMeshSize('mesh-32x16');
  await expect(lab.id('param-cores')).toHaveValue('1024');
  await lab.setParam('cores', 4); // a short run: 4 of the 1024 cores stream, the layout still covers every core
  await lab.setParam('loads', 200);
  expect(await lab.workerLayoutText()).toBe('Web Workers: 1024 workers, one per core');

  await lab.run();
  const err = lab.id('run-error');
  await expect(err).toContainText('this layout needs 1024 Web Workers (one per core, 1024 cores), more than the 512 the lab starts for a run');
  await expect(err).toContainText('Set "Simulated cores per Web Worker" (Run settings) to 2 or more, or to auto, and run again.');
  // nothing started: no run status beyond ready, no digest, and the page still answers
  await expect(lab.id('digest')).toHaveCount(0);
  await expect(lab.id('run')).toBeEnabled();
  expect(await page.evaluate(() => 6 * 7)).toBe(42);

  // one click back to auto: 2 workers of 512 cores on this host, and the same experiment runs to the end
  await lab.fitWorkersToCpus();
  expect(await lab.workerLayoutText()).toMatch(/^Web Workers: \d+ workers? × \d+ cores \(auto, \d+ CPUs?\)$/);
  await lab.run();
  await lab.waitForDigest();
  await lab.expectStatus('finished');
  await expect(lab.id('run-error')).toHaveCount(0);
});
