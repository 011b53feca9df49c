/**
 * The web lab end to end: isolation, the default run, pause/step, share links (and their
 * failures), compare, what-if in the timeline, the gallery, a 256-core mesh.
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, LabPage } from './lab-page';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'packages/cli/dist/manycore.mjs');
const metrics: Record<string, unknown> = {};

function cliDigest(experiment: unknown): string {
  const dir = join(tmpdir(), `manycore-e2e-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'experiment.json');
  writeFileSync(file, JSON.stringify(experiment));
  const out = execFileSync(process.execPath, [CLI, 'run', '--experiment', file, '--json', '--quiet'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(out) as { digest: string }).digest;
}

test.afterAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
});

test('the page is cross-origin isolated and shows the default experiment ready to run', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  expect(await page.evaluate(() => (globalThis as unknown as { crossOriginIsolated: boolean }).crossOriginIsolated)).toBe(true);
  await lab.expectStatus('ready');
  await expect(lab.id('workload')).toHaveValue('l1-stream');
  await expect(lab.id('run')).toBeEnabled();
  await expect(lab.id('canvas-chip')).toBeVisible();
  await lab.shot('lab-ready');
});

test('without isolation headers the lab runs in the fallback mode and explains how to get the fast one', async ({ page }) => {
  await page.route('**/', async (route) => {
    const res = await route.fetch();
    const headers = { ...res.headers() };
    delete headers['cross-origin-opener-policy'];
    delete headers['cross-origin-embedder-policy'];
    await route.fulfill({ response: res, headers });
  });
  const lab = new LabPage(page);
  await lab.goto('/');
  await lab.fallbackNotice();
  await lab.id('fallback-how').click();
  await expect(lab.id('isolation-panel')).toBeVisible();
  await expect(lab.id('isolation-panel')).toContainText('Cross-Origin-Embedder-Policy: require-corp');
});

test('the default experiment runs with one worker per core; counters and the chip view change', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  // the default layout fits the host (auto); one worker per core is one click away
  await expect(lab.id('cores-per-worker')).toHaveValue('auto');
  await lab.id('one-worker-per-core').click();
  await expect(lab.id('worker-layout-text')).toContainText('48 workers, one per core');
  const before = await lab.chipPixels();
  await expect(lab.id('counter-ops')).toHaveText('–');
  const t0 = Date.now();
  await lab.run();
  await lab.expectStatus(/running|finished/);
  await expect(lab.id('counter-ops')).not.toHaveText('–');
  await expect.poll(async () => lab.simTime()).not.toBe('0 ns');
  const fps = await lab.sampleFps(4, 500);
  const pacing = (await lab.runInfo())?.pacing ?? null;
  await lab.shot('lab-running');
  await lab.expectStatus('finished', 120_000);
  const wallMs = Date.now() - t0;
  const digest = await lab.waitForDigest();
  expect(digest).toMatch(/^[0-9a-f]{16}$/);
  await expect(lab.id('results')).toContainText('on 48 Web Workers (1 core each)');
  const after = await lab.chipPixels();
  expect(after.equals(before)).toBe(false);
  expect(Number((await lab.id('counter-flits').textContent())!.replace(/[^\d.]/g, ''))).toBeGreaterThan(0);
  metrics.defaultRun = { wallMsIncludingStartup: wallMs, fpsWhileRunning48Workers: fps, pacing, digest, reported: await lab.id('sim-rate').textContent() };
  await lab.shot('lab-finished');
  await lab.shot('chip-view', lab.id('view-chip'));
  await lab.shot('charts', page.locator('.chart-grid'));
  // hover and inspect a core
  await lab.clickCore(14, 6);
  await expect(lab.id('chip-tooltip')).toContainText('Core 14');
  await expect(lab.id('inspector')).toBeVisible();
  await expect(lab.id('inspector')).toContainText('Core 14');
  await expect(lab.id('inspect-state')).toHaveText('finished');
});

test('while 48 cores run flat out the page keeps its frame rate (frame pacing)', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/?cpw=1'); // 48 workers, as measured in the README
  await lab.setParam('loads', 300000); // long enough to measure while it runs (the test resets it)
  await lab.run();
  await lab.expectStatus('running');
  // all 48 workers are up once epochs advance
  await expect.poll(async () => (await lab.runInfo())?.epoch ?? 0, { timeout: 60_000 }).toBeGreaterThan(50);
  await page.waitForTimeout(500);
  const frames = await lab.measureFrames(3000);
  // the frame rate itself is a speed figure (bench/web-fps.mjs, README); here: the pacer works
  metrics.pacing48 = frames;
  expect(frames.simNsPerS).toBeGreaterThan(0);
  expect(frames.heldShare).toBeGreaterThan(0);

  // a hidden page is not paced: the pacer stops, the run goes on
  await lab.setHidden(true);
  await page.waitForTimeout(200);
  const a = (await lab.runInfo())!;
  await page.waitForTimeout(600);
  const b = (await lab.runInfo())!;
  expect(b.pacing!.frames).toBe(a.pacing!.frames);
  expect(b.pacing!.heldMs).toBe(a.pacing!.heldMs);
  expect(b.epoch).toBeGreaterThan(a.epoch);
  await lab.setHidden(false);
  await expect.poll(async () => (await lab.runInfo())!.pacing!.frames).toBeGreaterThan(b.pacing!.frames);
  await lab.expectStatus('running');
  await lab.reset();
  await lab.expectStatus('ready');
});

test('pause, step one epoch, keyboard shortcuts', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setCoresPerWorker(8);
  await lab.setSpeed(1e5);
  await lab.run();
  await lab.expectStatus('running');
  await expect.poll(() => lab.epoch()).toBeGreaterThan(3);
  await lab.id('run').click(); // pause
  await lab.expectStatus('paused');
  await lab.expectEngineHeld();
  const e0 = await lab.epoch();
  await page.waitForTimeout(400);
  expect(await lab.epoch()).toBe(e0);
  await lab.step();
  await expect.poll(() => lab.epoch()).toBe(e0 + 1);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('s');
  await expect.poll(() => lab.epoch()).toBe(e0 + 2);
  await lab.expectStatus('paused');
  await page.keyboard.press(' ');
  await lab.expectStatus('running');
  await expect.poll(() => lab.epoch()).toBeGreaterThan(e0 + 3);
  await page.keyboard.press(' ');
  await lab.expectStatus('paused');
  await lab.reset();
  await lab.expectStatus('ready');
});

test('a copied link restores the experiment in a new page and reproduces the CLI digest', async ({ page, context }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setWorkload('memtest');
  await lab.setParam('accesses', 16);
  await lab.setCoresPerWorker(8);
  await lab.run();
  const original = await lab.waitForDigest();
  const url = await lab.copyLink();
  expect(url).toMatch(/#x=1\.[0-9a-f]{8}\./);
  expect(url.endsWith(`&d=${original}`)).toBe(true); // the link carries the digest it should reproduce

  const page2 = await context.newPage();
  const lab2 = new LabPage(page2);
  await lab2.goto(url);
  await expect(lab2.id('link-notice')).toBeVisible();
  await expect(lab2.id('workload')).toHaveValue('memtest');
  await expect(lab2.id('param-accesses')).toHaveValue('16');
  await expect(lab2.id('link-digest')).toHaveAttribute('data-state', 'pending');
  await expect(lab2.id('link-digest-expected')).toHaveText(original);
  await lab2.run(); // the default layout here (auto, not 8 cores per worker): the results do not depend on the layout
  const replay = await lab2.waitForDigest();
  expect(replay).toBe(original);
  await expect(lab2.id('link-digest')).toHaveAttribute('data-state', 'match');
  // a link whose digest is not what the experiment gives says so after the run
  const wrong = original.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  await lab2.goto(url.replace(/&d=[0-9a-f]+$/, `&d=${wrong}`));
  await lab2.run();
  await lab2.waitForDigest();
  await expect(lab2.id('link-digest')).toHaveAttribute('data-state', 'differs');
  await expect(lab2.id('link-digest')).toContainText(wrong);
  const exp = await lab2.experiment();
  expect(cliDigest(exp)).toBe(replay);
  metrics.linkDigest = { original, replay };
});

test('bad links show what is wrong and the lab still runs', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/#x=1.0badc0de.q1w2e3r4t5');
  await expect(lab.id('link-error')).toBeVisible();
  await expect(lab.id('link-error-text')).toContainText(/truncated or corrupted|damaged/);
  await lab.shot('bad-link');

  await lab.goto('/#x=7.00000000.AAAA');
  await expect(lab.id('link-error-text')).toContainText('newer version of Manycore Lab (link format 7');

  await lab.goto('/');
  await lab.setWorkload('memtest');
  await lab.setParam('accesses', 16);
  const good = await lab.copyLink();
  const [head, check, data] = good.split('#x=')[1]!.split('.');
  const tampered = `/#x=${head}.${check!.slice(0, 7)}${check!.endsWith('0') ? '1' : '0'}.${data}`;
  await lab.goto(tampered);
  await expect(lab.id('link-error-text')).toContainText('altered');
  await lab.goto(`/#x=${head}.${check}.${data!.slice(0, Math.floor(data!.length / 2))}`);
  await expect(lab.id('link-error-text')).toContainText(/truncated|damaged|altered/);

  // nothing from a link is injected as HTML
  await lab.goto('/#x=<img src=x onerror="globalThis.__pwned=1">');
  await expect(lab.id('link-error')).toBeVisible();
  expect(await lab.id('link-error').locator('img').count()).toBe(0);
  expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  // the lab continues with the defaults and runs
  await expect(lab.id('workload')).toHaveValue('l1-stream');
  await lab.setWorkload('memtest');
  await lab.setParam('accesses', 16);
  await lab.setCoresPerWorker(8);
  await lab.run();
  await lab.waitForDigest();
});

test('invalid parameters are named next to their field', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setWorkload('memtest');
  await lab.setParam('accesses', 'lots');
  await expect(lab.id('field-error-accesses')).toContainText('not a number');
  await expect(lab.id('run')).toBeDisabled();
  await lab.setParam('accesses', 0);
  await expect(lab.id('field-error-accesses')).toHaveText('at least 1 access');
  await lab.setParam('controller', 9);
  await lab.setParam('accesses', 16);
  await expect(lab.id('field-error-controller')).toHaveText('at most 3: this chip has 4 memory controllers (0..3)');
  await lab.setParam('controller', 1);
  await expect(lab.id('run')).toBeEnabled();
});

test('compare mode shows two results side by side', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setWorkload('mpb-pingpong');
  await lab.setParam('hops', 1);
  await lab.setParam('bytes', 32);
  await lab.setCoresPerWorker(8);
  await lab.id('use-as-a').click();
  await lab.setParam('hops', 8);
  await lab.setParam('bytes', 1024);
  await lab.id('use-as-b').click();
  await lab.id('tab-compare').click();
  await lab.id('compare-run').click();
  await expect(lab.id('compare-table')).toBeVisible({ timeout: 120_000 });
  const a = (await lab.id('compare-digest-a').textContent())!;
  const b = (await lab.id('compare-digest-b').textContent())!;
  expect(a).not.toBe(b);
  await expect(lab.id('compare-table')).toContainText('workload finished at');
  await expect(lab.id('view-compare-power')).toBeVisible();
  await expect(lab.id('view-compare-rows')).toBeVisible();
  await lab.shot('compare');
});

test('a divisor changed mid-run lands in the shared link and replays to the same digest', async ({ page, context }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setCoresPerWorker(8);
  // 10 µs simulated per wall second: the default run (about 250 µs) cannot end before the change
  await lab.setSpeed(1e4);
  await lab.run();
  // a few epochs in (epochs follow the cores: the default DRAM-bound run has about 50)
  await expect.poll(() => lab.epoch(), { timeout: 30_000 }).toBeGreaterThan(5);
  await lab.id('island-divisor-0').selectOption('8');
  await expect(lab.id('timeline-event')).toHaveCount(1);
  await expect(lab.id('timeline-event').first()).toContainText('island 0');
  const midRun = await lab.copyLink();
  await lab.shot('whatif', lab.id('whatif'));
  await lab.setSpeed('max');
  await lab.expectStatus('finished', 120_000);
  const digest = await lab.waitForDigest();
  await lab.shot('island-power', lab.id('view-island-power'));
  const exp = await lab.experiment();
  const timeline = exp.timeline as { kind: string; island: number; divisor: number; atNs: number }[];
  expect(timeline).toHaveLength(1);
  expect(timeline[0]).toMatchObject({ kind: 'island-divisor', island: 0, divisor: 8 });
  expect(timeline[0]!.atNs).toBeGreaterThan(0);

  const page2 = await context.newPage();
  const lab2 = new LabPage(page2);
  await lab2.goto(midRun);
  await expect(lab2.id('timeline-event')).toHaveCount(1);
  await expect(lab2.id('timeline-event').first()).toContainText('island 0');
  await lab2.setCoresPerWorker(8);
  await lab2.run();
  expect(await lab2.waitForDigest()).toBe(digest);
});

test('the gallery loads and runs a guided experiment', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/?cpw=8');
  await lab.id('tab-gallery').click();
  await expect(lab.id('gallery')).toBeVisible();
  await lab.shot('gallery');
  await lab.id('gallery-run-stale-read').click();
  await expect(lab.id('workload')).toHaveValue('stale-read');
  await lab.waitForDigest();
  await expect(lab.id('rows-table')).toContainText('valueSeen');
  // exports: results JSON and CSV, a chart as SVG and PNG
  const text = async (testId: string) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), lab.id(testId).click()]);
    const chunks: Buffer[] = [];
    for await (const c of (await dl.createReadStream())!) chunks.push(c as Buffer);
    return { name: dl.suggestedFilename(), body: Buffer.concat(chunks) };
  };
  const json = await text('export-json');
  expect(JSON.parse(json.body.toString()).schema).toBe('manycore-results/1');
  const csv = await text('export-csv');
  expect(csv.body.toString().split('\r\n')[0]).toBe('flush,valueSeen,valueWritten');
  const svg = await text('export-svg-chip-power');
  expect(svg.name).toBe('chip-power.svg');
  expect(svg.body.toString()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<path d="M/);
  const png = await text('export-png-chip');
  expect(png.body.subarray(1, 4).toString()).toBe('PNG');
});

test('a run that is one of the fidelity report\'s experiments shows the paper\'s values beside the lab\'s', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/?cpw=8');
  // rcce-pair with its defaults (Stencil, 1 hop) is a run of the RCCE study's Table I
  await lab.setWorkload('rcce-pair');
  await lab.run();
  await lab.waitForDigest();
  const beside = lab.id('paper-beside');
  await expect(beside).toBeVisible();
  await expect(beside).toContainText('RCCE study, Table I');
  await expect(beside.getByTestId('paper-cell').filter({ hasText: 'stencil: IPC' })).toContainText('0.3393');
  // another parameter value is not that experiment: nothing is shown
  await lab.setParam('stencilPoints', 256);
  await lab.run();
  await lab.waitForDigest();
  await expect(lab.id('paper-beside')).toHaveCount(0);
});

test('pipeline views: the stage timeline has one row per stage with busy segments, live and from the spans', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setWorkload('pipeline');
  await lab.selectParam('mode', 'cached-shared');
  await lab.setParam('stages', 4);
  await lab.setParam('dataBytes', 262144);
  await lab.setParam('chunkBytes', 65536);
  await lab.setCoresPerWorker(4);
  // before the run: the stages on the mesh (cores 0-3: 0 -> 1 on one tile, 1 -> 2 one hop, 2 -> 3 on one tile)
  const mesh = lab.id('pipeline-mesh');
  await expect(mesh).toHaveAttribute('data-transfers', '3');
  await expect(mesh).toHaveAttribute('data-total-hops', '1');
  const gantt = lab.id('pipeline-gantt');
  await expect(gantt).toHaveAttribute('data-source', 'live');
  await expect(gantt).toHaveAttribute('data-rows', '4');
  await expect(gantt).toHaveAttribute('data-busy-segments', '0');
  await lab.run();
  // live: the rows fill from the stage cores' counters while the run goes
  await expect.poll(async () => Number(await gantt.getAttribute('data-rows-with-busy')), { timeout: 60_000 }).toBeGreaterThan(0);
  await lab.waitForDigest();
  // from the chunk spans: 4 chunks of 64 KB, each worked on by each of the 4 stages
  await expect(gantt).toHaveAttribute('data-source', 'spans');
  await expect(gantt).toHaveAttribute('data-rows', '4');
  await expect(gantt).toHaveAttribute('data-rows-with-busy', '4');
  await expect(gantt).toHaveAttribute('data-busy-segments', '16');
  await expect(lab.id('pipeline-queues')).toHaveAttribute('data-queues', '3');
  await expect(lab.id('pipeline-throughput')).toHaveAttribute('data-chunks', '4');
  expect(Number(await lab.id('pipeline-throughput').getAttribute('data-final-mbps'))).toBeGreaterThan(0);
  await lab.shot('pipeline-timeline', lab.id('view-pipeline-timeline'));
  await lab.shot('pipeline-mesh', lab.id('view-pipeline-mesh'));
  await lab.shot('pipeline-queues', lab.id('view-pipeline-queues'));
  await lab.shot('pipeline-throughput', lab.id('view-pipeline-throughput'));
  // the live record is still there: every stage worked
  await lab.id('pipeline-gantt-source').selectOption('live');
  await expect(gantt).toHaveAttribute('data-source', 'live');
  await expect(gantt).toHaveAttribute('data-rows-with-busy', '4');
  await lab.shot('pipeline-timeline-live', lab.id('view-pipeline-timeline'));
  const svg = await Promise.all([page.waitForEvent('download'), lab.id('export-svg-pipeline-timeline').click()]);
  expect(svg[0].suggestedFilename()).toBe('pipeline-timeline.svg');
});

test('a 256-core mesh is usable', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.id('chip-variant').selectOption('mesh-16x8');
  await lab.setParam('cores', 256);
  await lab.setParam('loads', 300);
  await lab.setCoresPerWorker(32);
  await expect(lab.id('view-chip')).toContainText('256 cores');
  await lab.run();
  await lab.expectStatus(/running|finished/);
  const fps = await lab.sampleFps(4, 500);
  const frames = (await lab.status.textContent()) === 'running' ? await lab.measureFrames(2000) : null;
  await lab.shot('mesh-256', lab.id('view-chip'));
  await lab.waitForDigest(150_000);
  metrics.mesh256 = { fpsWhileRunning: fps, frames };
});

test('message passing: the MPB view shows the improved channel’s extended mask and sequence numbers live', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/?cpw=8');
  await lab.setWorkload('mpi-sweep');
  await lab.selectParam('channel', 'improved');
  await lab.setParam('processes', 4);
  await lab.setParam('maxBytes', 4096);
  await expect(lab.id('mpb-view')).toHaveAttribute('data-protocol', 'rckmpi-improved');
  await expect(lab.id('mpb-core')).toHaveValue('0');
  await expect(lab.id('mpb-ext-mask')).toHaveText('0x00000000');
  await expect(lab.id('mpb-posted')).toHaveText('0');
  // slow enough (about 100 µs simulated) to watch the sequence numbers change while it runs
  await lab.setSpeed(1e4);
  await lab.run();
  await expect.poll(() => lab.numberOf('mpb-posted'), { timeout: 30_000 }).toBeGreaterThan(0);
  const during = await lab.numberOf('mpb-seq-changes');
  await expect.poll(() => lab.numberOf('mpb-seq-changes'), { timeout: 30_000 }).toBeGreaterThan(during);
  expect((await lab.runInfo())?.status).toBe('running');
  await lab.shot('mpb-view-running', lab.id('view-mpb'));
  await lab.setSpeed('max');
  await lab.waitForDigest();
  // after the run: the 4 KB messages went through the extended section (16 slots a packet)
  await expect.poll(() => lab.numberOf('mpb-posted')).toBeGreaterThan(0);
  const mask = (await lab.id('mpb-ext-mask').textContent())!;
  const peak = (await lab.id('mpb-peak-slots').textContent())!;
  expect(mask !== '0x00000000' || !peak.startsWith('0 ')).toBe(true);
  // the tooltip decodes the base section rank 3 writes into rank 0's MPB (bytes 192..255)
  const canvas = lab.id('canvas-mpb');
  const box = (await canvas.boundingBox())!;
  const s = box.width / Number(await canvas.getAttribute('data-world-width'));
  await canvas.hover({ position: { x: (62 + 6 * 60 + 3) * s, y: (66 + 3) * s } });
  await expect(lab.id('mpb-tooltip')).toContainText('rank 3 (core 3)');
  await expect(lab.id('mpb-tooltip')).toContainText('send seq');
  // the same decoding as a data table (the view's text alternative)
  await lab.id('table-mpb').locator('summary').click();
  const rank3 = lab.id('table-mpb').locator('tr', { hasText: 'rank 3 (core 3)' });
  await expect(rank3.filter({ hasText: 'send seq' }).first()).toBeVisible();
  // the latency chart has this run's 13 sizes
  await expect(lab.id('mpi-latency-runs')).toContainText('1 run, 13 points');
  await lab.shot('mpb-view', lab.id('view-mpb'));
  await lab.shot('mpi-latency', lab.id('view-mpi-latency'));
});

test('TILE64: the chip view draws the family’s floorplan (64 one-core tiles, home L2, DDR controllers, no islands)', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  test.skip(!(await lab.hasOption('preset', 'tile64')), 'the tile64 preset is not in this build of the engine yet');
  // an SCC override does not follow the chip into another family: it is cleared, and the lab says so
  await lab.openDetails('Chip parameters');
  await lab.id('chip-clocks-divisor').fill('4');
  await expect(lab.id('overrides-json')).toHaveValue(/"divisor": 4/);
  await lab.setPreset('tile64');
  await expect(lab.id('preset-note')).toContainText('cleared the chip overrides');
  await expect(lab.id('overrides-json')).toHaveValue('{}');
  // the chip fields are TILE64's
  await expect(lab.id('chip-fields')).toHaveAttribute('data-family', 'tile64');
  await expect(lab.id('chip-clocks-baseMHz')).toHaveValue('600');
  await expect(lab.id('chip-tlb-hugePages')).toBeVisible();
  await expect(lab.id('chip-mpb-remoteAccessCycles')).toHaveCount(0);
  // the chip view: 64 cores, from the family's floorplan
  await expect(lab.id('view-chip')).toContainText('64 cores');
  expect(await lab.floorplan()).toEqual({ cores: 64, tiles: 64, controllers: 4, domains: 0, store: 'L2 (home)' });
  await expect(lab.id('metric').locator('option[value="mpb"]')).toHaveCount(0);
  await expect(lab.id('whatif-no-domains')).toBeVisible();
  await expect(lab.id('view-island-power')).toHaveCount(0);
  await lab.shot('tile64-ready', lab.id('view-chip'));
  // memtest is SCC-only; latency-ladder is TILE64's
  test.skip(!(await lab.hasOption('workload', 'latency-ladder')), 'the latency-ladder workload (TILE64) is not in this build yet');
  await lab.setWorkload('latency-ladder');
  await expect(lab.id('validation-errors')).toHaveCount(0);
  await expect(lab.id('run')).toBeEnabled();
  await lab.run();
  const digest = await lab.waitForDigest();
  expect(digest).toMatch(/^[0-9a-f]{16}$/);
  await expect(lab.id('cores-finished')).toContainText('/');
  // hover and inspect core 9 (tile (1,1)): no island, no MPB rows
  const canvas = lab.id('canvas-chip');
  const box = (await canvas.boundingBox())!;
  const s = box.width / Number(await canvas.getAttribute('data-world-width'));
  // chip-draw.ts: tiles 146 apart from x 104; rows 170 apart from y 40 + 64 (controllers on the top edge); one core from (7, 7)
  const at = { x: (104 + 146 + 40) * s, y: (104 + 170 + 30) * s };
  await canvas.hover({ position: at });
  await expect(lab.id('chip-tooltip')).toContainText('Core 9');
  await expect(lab.id('chip-tooltip')).not.toContainText('island');
  await canvas.click({ position: at });
  await expect(lab.id('inspector')).toContainText('Core 9');
  await expect(lab.id('inspector')).toContainText('memory controller DDR');
  await expect(lab.id('inspect-mpb')).toHaveCount(0);
  await expect(lab.id('inspect-loads')).not.toHaveText('–');
  await expect(lab.id('inspect-unit')).toContainText('/ 1024 lines');
  await lab.shot('tile64', lab.id('view-chip'));
  // home colouring: the run went to the end; the home L2 slices it filled are read from the
  // unit state, some tile holds lines, and a tile's tooltip says which pages it is the home of
  await expect(lab.id('unit-occupancy')).toContainText('Home L2 slices:');
  await expect.poll(async () => Number(await lab.id('unit-occupancy').getAttribute('data-max'))).toBeGreaterThan(0);
  const homes = await lab.unitOccupancy();
  expect(homes.tiles).toBeGreaterThan(1); // core 0 reads shared pages homed on tiles at every distance
  expect(homes.total).toBeGreaterThanOrEqual(homes.max);
  await page.mouse.move(0, 0);
  await expect(lab.id('chip-tooltip')).toBeHidden();
  await lab.shot('tile64-homes', lab.id('view-chip'));
  // tile 1 (1,0): its store box, below its core (chip-draw.ts: store from (7, 73), 86 x 20)
  const store1 = { x: (104 + 146 + 50) * s, y: (104 + 83) * s };
  await canvas.hover({ position: store1 });
  await expect(lab.id('chip-tooltip')).toContainText('Tile 1 (1,0)');
  await expect(lab.id('chip-tooltip')).toContainText('home of shared pages 1, 65, 129, … 4033 (64 of 4096)');
  await expect(lab.id('chip-tooltip')).toHaveText(/home L2 slice: [1-9]\d* of 1024 lines/);
  await lab.shot('tile64-home-tooltip', lab.id('view-chip'));
  metrics.tile64 = { digest, results: await lab.id('results').locator('p').first().textContent() };
});

test('a 1024-core mesh runs l1-stream, shows progress, and zooms and pans', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  test.skip(!(await lab.hasOption('chip-variant', 'mesh-32x16')), 'no 32x16 (1024-core) mesh size in the editor yet');
  await lab.id('chip-variant').selectOption('mesh-32x16');
  await lab.setParam('cores', 1024);
  await lab.setParam('loads', 3000);
  await expect(lab.id('view-chip')).toContainText('1024 cores');
  expect((await lab.floorplan()).tiles).toBe(512);
  // the default layout packs cores when the host has fewer CPUs than cores
  const cpus = await page.evaluate(() => (globalThis as unknown as { navigator: { hardwareConcurrency: number } }).navigator.hardwareConcurrency);
  if (cpus < 1024) await expect(lab.id('worker-layout-text')).toContainText('× ');
  // fitted, a tile is a few pixels: drawn as a cell (level of detail)
  await expect(lab.id('canvas-chip')).toHaveAttribute('data-detail', 'cells');
  await lab.run();
  await lab.expectStatus(/running|finished/, 60_000);
  await expect.poll(async () => lab.simTime(), { timeout: 60_000 }).not.toBe('0 ns');
  const fps = await lab.sampleFps(4, 500);
  const frames = (await lab.status.textContent()) === 'running' ? await lab.measureFrames(2000) : null;
  await lab.shot('mesh-1024', lab.id('view-chip'));
  // zoom in until the cores are drawn, pan, back to fit
  for (let i = 0; i < 4 && (await lab.chipView()).detail !== 'cores'; i++) await lab.id('zoom-in-chip').click();
  await expect(lab.id('canvas-chip')).toHaveAttribute('data-detail', 'cores');
  const zoomed = await lab.chipView();
  expect(zoomed.zoom).toBeGreaterThan(1);
  await lab.dragChip(-150, -80);
  await expect.poll(async () => (await lab.chipView()).view).not.toBe(zoomed.view);
  await lab.shot('mesh-1024-zoomed', lab.id('view-chip'));
  await lab.id('zoom-fit-chip').click();
  await expect(lab.id('canvas-chip')).toHaveAttribute('data-zoom', '1.000');
  await expect(lab.id('canvas-chip')).toHaveAttribute('data-detail', 'cells');
  await lab.waitForDigest(150_000);
  await expect(lab.id('cores-finished')).toHaveText('1024 / 1024');
  metrics.mesh1024 = { fpsWhileRunning: fps, frames, layout: await lab.id('worker-layout-text').textContent() };
});
