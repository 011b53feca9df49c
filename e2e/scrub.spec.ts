/**
 * Scrub and fork (issue 18, items 1 and 2), in the browser with Web Workers:
 *  - scrubbing back to an epoch shows the counters and the core inspector of a fresh run
 *    stopped at that epoch's time (stop.maxTimeNs), the same texts; Live returns to the end;
 *  - forking at a scrubbed time runs the original (A) and the fork (B) in Compare with the
 *    fork marked; the fork's link reproduces the fork's digest and the original's link the
 *    original's;
 *  - a small snapshot budget (?recmb=1) thins the recording and says so.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

/** mpb-pingpong with its defaults: messages through the MPBs, a few dozen epochs. */
async function setUp(lab: LabPage, path = '/'): Promise<void> {
  await lab.goto(path);
  await lab.setWorkload('mpb-pingpong');
  await lab.setSpeed('max');
}

test('scrubbing to an epoch shows the counters of a run stopped there', async ({ page }) => {
  const lab = new LabPage(page);
  await setUp(lab);
  await lab.run();
  await lab.waitForDigest();
  const endCounters = await lab.counterTexts();
  await expect(lab.id('scrub-time')).toHaveAttribute('data-state', 'live');
  await expect(lab.id('scrub-live')).toBeDisabled();

  // three epochs back from the end (the last boundaries: replayed from the start, or recorded)
  await lab.scrubBack(3);
  const at = await lab.scrubbed();
  expect(at.epoch).toBeGreaterThan(1);
  expect(at.text).toMatch(/µs, epoch \d+ \((recorded snapshot|replayed from the start)\)/);
  await lab.clickCore(0, 6);
  await expect(lab.id('inspector')).toBeVisible();
  const shown = await lab.counterTexts();
  const inspected = await lab.inspectorTexts();
  expect(shown).not.toEqual(endCounters); // the past, not the end
  await lab.shot('scrub-scrubbed');

  // the drag: the track's first position, then one forward with the key
  await lab.id('scrub-track').focus();
  await page.keyboard.press('Home');
  await lab.expectScrubbedExact();
  expect((await lab.scrubbed()).epoch).toBe(1);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(']');
  await lab.expectScrubbedExact();
  expect((await lab.scrubbed()).epoch).toBeGreaterThan(1);

  // Live: the end of the run again
  await lab.id('scrub-live').click();
  await expect(lab.id('scrub-time')).toHaveAttribute('data-state', 'live');
  await expect.poll(() => lab.counterTexts()).toEqual(endCounters);

  // a fresh run stopped at that time shows the same counters and inspector values
  await lab.reset();
  await lab.setStopTimeNs(at.timePs / 1000);
  await lab.run();
  await lab.expectStatus('stopped', 60_000);
  expect(await lab.epoch()).toBe(at.epoch);
  await expect.poll(() => lab.counterTexts()).toEqual(shown);
  await lab.clickCore(0, 6);
  await expect.poll(() => lab.inspectorTexts()).toEqual(inspected);
});

test('a fork at a scrubbed time runs beside the original, and both links reproduce their digests', async ({ page }) => {
  const lab = new LabPage(page);
  await setUp(lab);
  await lab.run();
  const original = await lab.waitForDigest();
  await lab.scrubBack(5);
  const at = await lab.scrubbed();
  await lab.id('fork-kind').selectOption('tile-divisor');
  await lab.id('fork-target').selectOption('0');
  await lab.id('fork-divisor').selectOption('16');
  await lab.id('fork-here').click();

  await expect(lab.id('compare')).toBeVisible();
  await expect(lab.id('fork-marker')).toContainText(`fork at ${(at.timePs / 1e6).toFixed(3)} µs`);
  await expect(lab.id('fork-marker')).toHaveAttribute('data-at-ns', String(at.timePs / 1000));
  await expect(lab.id('compare-digest-b')).toBeVisible({ timeout: 120_000 });
  const a = (await lab.text('compare-digest-a')).trim();
  const b = (await lab.text('compare-digest-b')).trim();
  expect(a).toBe(original);
  expect(b).not.toBe(original);
  await expect(lab.id('fork-link-b')).toHaveAttribute('data-digest', b);
  await expect(lab.id('fork-link-b')).toHaveValue(new RegExp(`&d=${b}$`));
  await expect(lab.id('fork-link-a')).toHaveValue(new RegExp(`&d=${a}$`));
  const forkLink = await lab.id('fork-link-b').inputValue();
  const origLink = await lab.id('fork-link-a').inputValue();
  await lab.shot('scrub-fork-compare');

  // the fork's link: its experiment has the event at the fork time, and its run gives its digest
  await lab.goto(forkLink.slice(forkLink.indexOf('/', 8)));
  await expect(lab.id('link-notice')).toBeVisible(); // the link is decoded (async)
  const exp = await lab.experiment();
  expect(exp.timeline).toEqual([{ kind: 'tile-divisor', atNs: at.timePs / 1000, tile: 0, divisor: 16 }]);
  await lab.setSpeed('max');
  await lab.run();
  expect(await lab.waitForDigest()).toBe(b);
  await expect(lab.id('link-digest')).toHaveAttribute('data-state', 'match');

  // the original's link still gives the original's digest
  await lab.goto(origLink.slice(origLink.indexOf('/', 8)));
  await lab.setSpeed('max');
  await lab.run();
  expect(await lab.waitForDigest()).toBe(original);
});

test('a small snapshot budget thins the recording and says so', async ({ page }) => {
  const lab = new LabPage(page);
  await setUp(lab, '/?recmb=1'); // 1 MB: two snapshots of the SCC (449 KB each)
  // epoch by epoch: the run is held at each boundary, so each one is recorded
  await lab.step();
  await expect.poll(() => lab.epoch()).toBe(1);
  for (let e = 2; e <= 6; e++) {
    await lab.step();
    await expect.poll(() => lab.epoch()).toBe(e);
  }
  await expect(lab.id('recording-notice')).toContainText(/recording thinned: every \d+(nd|th) snapshot kept, \d+ MB/);
  await expect(lab.id('scrub-snapshots')).toContainText(/^2 snapshots, 0\.9 MB \(449 KB each\)/);
  // the thinned run still scrubs exactly: the first epochs come back by replay
  await lab.scrubBack(5); // 6 (the boundary the run is held at), 5, 4, 3, 2
  expect((await lab.scrubbed()).epoch).toBe(2);
});
