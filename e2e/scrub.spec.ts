/**
 * Scrub and fork (issue 18, items 1 and 2), in the browser with Web Workers:
 *  - scrubbing back to an epoch shows the counters and the core inspector of a fresh run
 *    stopped at that epoch's time (stop.maxTimeNs), the same texts; Live returns to the end;
 *  - forking at a scrubbed time plays the original (A) and the fork (B) in Compare at the same
 *    time (both in flight together, the overlay charts drawing both live series before the
 *    results) with the fork marked; the fork's link reproduces the fork's digest and the
 *    original's link the original's; Stop ends both runs;
 *  - a small snapshot budget (?recmb=1) thins the recording and says so.
 */
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

/** What the compare page showed of its two runs at one animation frame. */
interface PairFrame {
  a: string;
  aNs: number;
  b: string;
  bNs: number;
  /** Samples of A and B the live power chart last drew (its canvas's data-points-a/b). */
  pointsA: number;
  pointsB: number;
  /** Digests shown (a slot shows its digest once its run finished). */
  digests: number;
}

/** The page's globals the recorder uses (the e2e project has no DOM typings). */
interface PageGlobals {
  __pairFrames: PairFrame[];
  document: { querySelector(sel: string): { dataset: Record<string, string | undefined> } | null; querySelectorAll(sel: string): { length: number } };
  requestAnimationFrame(cb: () => void): number;
  navigator: { hardwareConcurrency: number };
}

/** Records, at every animation frame from now until both digests show, what changed in the compare page's progress and power chart. */
async function watchPair(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    w.__pairFrames = [];
    let last = '';
    const q = (id: string) => w.document.querySelector(`[data-testid="${id}"]`);
    const tick = () => {
      const a = q('compare-progress-a');
      const b = q('compare-progress-b');
      const chart = q('canvas-compare-power');
      const frame = {
        a: a?.dataset.state ?? '',
        aNs: Number(a?.dataset.simNs ?? 0),
        b: b?.dataset.state ?? '',
        bNs: Number(b?.dataset.simNs ?? 0),
        pointsA: Number(chart?.dataset.pointsA ?? 0),
        pointsB: Number(chart?.dataset.pointsB ?? 0),
        digests: w.document.querySelectorAll('[data-testid^="compare-digest-"]').length,
      };
      const key = JSON.stringify(frame);
      if (key !== last) w.__pairFrames.push(frame);
      last = key;
      if (frame.digests < 2) w.requestAnimationFrame(tick);
    };
    w.requestAnimationFrame(tick);
  });
}
async function pairFrames(page: Page): Promise<PairFrame[]> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__pairFrames);
}

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
  // 1200 round trips (about 660 µs, 66 samples at the default 10 µs): long enough to watch both
  // play, also on a loaded CI machine (at 400 a run could end before the other's chart had drawn)
  await lab.setParam('iterations', 1200);
  await lab.run();
  const original = await lab.waitForDigest();
  await lab.scrubBack(5);
  const at = await lab.scrubbed();
  await lab.id('fork-kind').selectOption('tile-divisor');
  await lab.id('fork-target').selectOption('0');
  await lab.id('fork-divisor').selectOption('16');
  await watchPair(page);
  await lab.id('fork-here').click();

  await expect(lab.id('compare')).toBeVisible();
  await expect(lab.id('fork-marker')).toContainText(`fork at ${(at.timePs / 1e6).toFixed(3)} µs`);
  await expect(lab.id('fork-marker')).toHaveAttribute('data-at-ns', String(at.timePs / 1000));
  await expect(lab.id('compare-digest-b')).toBeVisible({ timeout: 120_000 });
  const a = (await lab.text('compare-digest-a')).trim();
  const b = (await lab.text('compare-digest-b')).trim();
  expect(a).toBe(original); // A played again beside the fork: the same digest as the lab's run
  expect(b).not.toBe(original);
  // both were in flight at the same time, and the live overlay drew both series before any result
  const frames = await pairFrames(page);
  expect(frames.some((f) => f.a === 'running' && f.b === 'running' && f.aNs > 0 && f.bNs > 0)).toBe(true);
  expect(frames.some((f) => f.digests === 0 && f.pointsA > 0 && f.pointsB > 0)).toBe(true);
  // the host's CPUs split between them (each at least 1)
  const cpus = await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.hardwareConcurrency);
  await expect(lab.id('compare-progress')).toHaveAttribute('data-cpus-each', String(Math.max(1, Math.floor(cpus / 2))));
  await expect(lab.id('compare-progress-a')).toHaveText(/^A: [\d.]+ µs, done$/);
  await expect(lab.id('compare-progress-b')).toHaveText(/^B: [\d.]+ µs, done$/);
  // the fork's marker on the overlay charts, which now show the results
  for (const chart of ['power', 'network', 'bandwidth']) await expect(lab.id(`canvas-compare-${chart}`)).toHaveAttribute('data-fork-at-ns', String(at.timePs / 1000));
  const drawn = await lab.id('canvas-compare-power').evaluate((c) => [Number(c.dataset.pointsA), Number(c.dataset.pointsB)]);
  expect(drawn[0]).toBeGreaterThan(0);
  expect(drawn[1]).toBeGreaterThan(0);
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

test('Stop ends both runs of the compare page at once', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  // 48 cores streaming 1 MB buffers from DRAM: milliseconds of simulated time, far more wall time than the test waits
  await lab.setWorkload('l1-stream');
  await lab.setParam('bufferBytes', 1 << 20);
  await lab.id('use-as-a').click();
  await lab.setParam('workCycles', 2);
  await lab.id('use-as-b').click();
  await lab.id('tab-compare').click();
  await lab.id('compare-run').click();
  await expect(lab.id('compare-run')).toHaveText('Running A and B…');
  for (const s of ['a', 'b']) await expect.poll(async () => Number(await lab.id(`compare-progress-${s}`).getAttribute('data-sim-ns')), { timeout: 30_000 }).toBeGreaterThan(0);
  await lab.id('compare-stop').click();
  await expect(lab.id('compare-progress-a')).toHaveAttribute('data-state', 'halted');
  await expect(lab.id('compare-progress-b')).toHaveAttribute('data-state', 'halted');
  await expect(lab.id('compare-progress-a')).toHaveText(/^A: [\d.]+ (ns|µs|ms), stopped$/);
  await expect(lab.id('compare-run')).toBeEnabled();
  await expect(lab.id('compare-stop')).toBeDisabled();
  await expect(lab.id('compare-digest-a')).toHaveCount(0);
  await expect(lab.id('compare-digest-b')).toHaveCount(0);
  await expect(lab.id('compare-error')).toHaveCount(0);
  // the runs no longer advance
  const ns = await lab.id('compare-progress-b').getAttribute('data-sim-ns');
  await page.waitForTimeout(500);
  await expect(lab.id('compare-progress-b')).toHaveAttribute('data-sim-ns', ns!);
});

test('a small snapshot budget thins the recording and says so', async ({ page }) => {
  const lab = new LabPage(page);
  await setUp(lab, '/?recmb=1'); // 1 MB: two snapshots of the SCC (450 KB each)
  // epoch by epoch: the run is held at each boundary, so each one is recorded
  await lab.step();
  await expect.poll(() => lab.epoch()).toBe(1);
  for (let e = 2; e <= 6; e++) {
    await lab.step();
    await expect.poll(() => lab.epoch()).toBe(e);
  }
  await expect(lab.id('recording-notice')).toContainText(/recording thinned: every \d+(nd|th) snapshot kept, \d+ MB/);
  await expect(lab.id('scrub-snapshots')).toContainText(/^2 snapshots, 0\.9 MB \(450 KB each\)/);
  // the thinned run still scrubs exactly: the first epochs come back by replay
  await lab.scrubBack(5); // 6 (the boundary the run is held at), 5, 4, 3, 2
  expect((await lab.scrubbed()).epoch).toBe(2);
});
