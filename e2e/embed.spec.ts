/**
 * Embeds and the fallback without SharedArrayBuffer, end to end. The built lab is served a
 * second time WITHOUT the isolation headers (apps/web/serve.mjs --no-isolation, started here),
 * as a static host or another site's page gives it:
 *  (a) the full lab there is not cross-origin isolated, says so (fallback notice), runs the
 *      default experiment to the end in one worker, and its digest equals the CLI's; its
 *      timeline recorded snapshots (taken after the worker's slices) and scrubs back;
 *  (b) a course page on another origin embeds a guided experiment in an iframe: the embed runs
 *      with its one control and shows its result, whose digest equals the CLI's for that run;
 *  (d) a course page embeds a sweep entry: the chart of the whole sweep, run there to its end
 *      (progress "run k of 8", one point per run), and a sweep with paper values shows them as
 *      diamonds before it runs;
 *  (c) the gallery's "Copy embed code" gives the iframe text of the entry's embed URL;
 *  and an unknown embed id gets a message, not a crash.
 */
import { expect, test } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatField } from '../apps/web/src/lib/format';
import { protocolBugs } from '../packages/workloads/src/guided/bugs';
import { firstSteps } from '../packages/workloads/src/guided/first-steps';
import { LabPage } from './lab-page';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'packages/cli/dist/manycore.mjs');

function cliDigest(experiment: unknown): string {
  const dir = join(tmpdir(), `manycore-embed-e2e-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'experiment.json');
  writeFileSync(file, JSON.stringify(experiment));
  const out = execFileSync(process.execPath, [CLI, 'run', '--experiment', file, '--json', '--quiet'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(out) as { digest: string }).digest;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = netServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });

let lab: ChildProcess | null = null;
let course: Server | null = null;
let labBase = '';
let courseBase = '';

test.beforeAll(async () => {
  const port = await freePort();
  labBase = `http://127.0.0.1:${port}`;
  lab = spawn(process.execPath, [join(ROOT, 'apps/web/serve.mjs'), '--no-isolation', '--port', String(port), '--host', '127.0.0.1'], { stdio: 'ignore' });
  let up = false;
  for (let i = 0; i < 100 && !up; i++) {
    try {
      const res = await fetch(labBase + '/');
      up = res.ok;
      expect(res.headers.get('cross-origin-embedder-policy')).toBeNull();
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  expect(up, `serve.mjs --no-isolation at ${labBase}`).toBe(true);
  // a course page on another origin (another port), itself not isolated, with an iframe of the
  // embed of the guided entry its path names (/<id>; letters, digits and dashes only)
  course = createServer((req, res) => {
    const id = /^\/([a-z0-9-]+)$/.exec(req.url ?? '')?.[1];
    if (!id) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course: the SCC mesh</title></head><body>` +
        `<h1>Week 3: message passing on the SCC</h1><p>Run the experiment below.</p>` +
        `<iframe id="lab" src="${labBase}/?embed=${id}" title="Manycore Lab" width="760" height="620" loading="lazy"></iframe></body></html>`,
    );
  });
  const coursePort = await freePort();
  await new Promise<void>((r) => course!.listen(coursePort, '127.0.0.1', r));
  courseBase = `http://127.0.0.1:${coursePort}`;
});

test.afterAll(async () => {
  if (lab && lab.exitCode === null) lab.kill('SIGTERM');
  await new Promise<void>((r) => (course ? course.close(() => r()) : r()));
});

test('(a) without isolation headers the full lab runs in the fallback and gives the CLI digest', async ({ page }) => {
  const l = new LabPage(page);
  await l.goto(labBase + '/');
  expect(await page.evaluate(() => (globalThis as unknown as { crossOriginIsolated: boolean }).crossOriginIsolated)).toBe(false);
  expect(await page.evaluate(() => typeof (globalThis as unknown as { SharedArrayBuffer?: unknown }).SharedArrayBuffer)).toBe('undefined');
  await l.fallbackNotice();
  await expect(l.id('fallback-notice')).toContainText('one worker runs every core');
  await expect(l.id('fallback-notice')).toContainText('npm start');
  await l.id('fallback-how').click();
  await expect(l.id('isolation-panel')).toContainText('Cross-Origin-Embedder-Policy: require-corp');
  await l.shot('fallback-notice', l.id('fallback-notice'));
  await expect(l.id('worker-layout-text')).toContainText('Web Workers: 1 × 48 cores (fallback mode');
  await l.openDetails('Run settings');
  await expect(l.id('cores-per-worker')).toBeDisabled();
  await expect(l.id('cores-per-worker-fixed')).toContainText('not cross-origin isolated');
  const experiment = await l.experiment();
  await l.setSpeed('max');
  await l.run();
  await l.expectStatus(/running|finished/);
  await l.expectStatus('finished', 120_000);
  const digest = await l.waitForDigest();
  await expect(l.id('results')).toContainText('on 1 Web Worker (48 cores each)');
  const results = await l.resultsJson<{ digest: string; host: { name: string } }>();
  expect(results.host.name).toBe('browser-fallback-1-worker');
  expect(results.digest).toBe(digest);
  expect(digest).toBe(cliDigest(experiment));
  // the timeline recorded snapshots although the run was never held: one after each slice's copy
  await expect(l.id('scrub-snapshots')).toHaveText(/^[1-9]\d* snapshots?, /);
  await l.shot('fallback-lab');
  await l.id('scrub-back').click();
  await l.expectScrubbedExact();
});

test('(b) a course page on another origin embeds a guided experiment that runs and shows its result', async ({ page }) => {
  await page.goto(courseBase + '/bug-lock-prefix');
  const frame = page.frameLocator('#lab');
  await expect(frame.getByTestId('embed-title')).toHaveText('A shared counter with the x86 LOCK prefix');
  await expect(frame.getByTestId('fallback-notice')).toBeVisible();
  await expect(frame.getByTestId('embed-status')).toHaveText('ready');
  // one run: the chip view and the entry's one control (its bug parameter)
  await expect(frame.getByTestId('embed')).not.toHaveAttribute('data-embed-view', 'chart');
  await expect(frame.getByTestId('embed-control')).toHaveValue('lock-prefix');
  await frame.getByTestId('embed-run').click();
  await expect(frame.getByTestId('embed-status')).toHaveText('finished', { timeout: 120_000 });
  await expect(frame.getByTestId('embed-result')).toContainText('lostUpdates');
  await expect(frame.getByTestId('embed-result-value')).toHaveText(/^[1-9]\d*$/); // updates were lost
  const digest = (await frame.getByTestId('embed-digest').textContent())!.trim();
  const entry = protocolBugs.find((g) => g.id === 'bug-lock-prefix')!;
  expect(digest).toBe(cliDigest(entry.experiments[0]));
  // the way to the full lab: a link with the experiment, opening in a new tab
  const open = frame.getByTestId('embed-open-lab');
  await expect(open).toHaveAttribute('target', '_blank');
  expect(await open.getAttribute('href')).toMatch(new RegExp(`^${labBase}/#x=`));
  await page.screenshot({ path: join(ROOT, 'e2e/artifacts/screenshots/embed-course-page.png') });
});

test('(c) the gallery copies an iframe snippet of the embed URL; an unknown id gets a message', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: labBase });
  const l = new LabPage(page);
  await l.goto(labBase + '/');
  await l.id('tab-gallery').click();
  const code = await l.copyEmbedCode('pingpong-hops');
  expect(code).toBe(
    `<iframe src="${labBase}/?embed=pingpong-hops" title="Manycore Lab: MPB round trip vs hops (a quick sweep)" width="760" height="620" loading="lazy" style="border: 1px solid #ccc; border-radius: 6px"></iframe>`,
  );
  if ((await l.embedCodeLabel('pingpong-hops')).startsWith('Copied')) expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(code);
  await page.goto('about:blank');
  await page.goto(labBase + '/#/embed/no-such-entry');
  await expect(page.getByTestId('embed-error')).toContainText('No guided experiment “no-such-entry”');
  await expect(page.getByTestId('embed-error')).toContainText('pingpong-hops');
});

test('(d) a course page embeds a sweep entry: Run sweep draws the whole curve, one point per run', async ({ page }) => {
  const entry = firstSteps.find((g) => g.id === 'pingpong-hops')!;
  await page.goto(courseBase + '/pingpong-hops');
  const frame = page.frameLocator('#lab');
  await expect(frame.getByTestId('embed-title')).toHaveText('MPB round trip vs hops (a quick sweep)');
  await expect(frame.getByTestId('embed')).toHaveAttribute('data-embed-view', 'chart');
  await expect(frame.getByTestId('fallback-notice')).toBeVisible();
  // nothing runs until asked: the empty chart and the number of runs
  const progress = frame.getByTestId('sweep-progress');
  await expect(progress).toHaveAttribute('data-status', 'ready');
  await expect(progress).toHaveText('8 runs: press Run sweep');
  const points = frame.getByTestId('sweep-points');
  await expect(points).toHaveAttribute('data-count', '0');
  await expect(frame.getByTestId('sweep-stop')).toBeDisabled();
  await expect(frame.getByTestId('sweep-close')).toHaveCount(0);
  await frame.getByTestId('sweep-run').click();
  await expect(progress).toContainText(/run [1-8] of 8: hops=[1-8]/);
  await expect(frame.getByTestId('sweep-stop')).toBeEnabled();
  await expect(progress).toHaveText('done: 8 runs, 8 points', { timeout: 180_000 });
  await expect(points).toHaveAttribute('data-count', String(entry.experiments.length));
  await expect(frame.getByTestId('sweep-stop')).toBeDisabled();
  await expect(frame.getByTestId('sweep-again')).toBeVisible();
  // the curve's values are the CLI's (manycore guided run): each row of the data table
  await frame.locator('.sweep-table summary').click();
  const out = join(tmpdir(), `manycore-embed-e2e-${process.pid}-pingpong-hops.json`);
  execFileSync(process.execPath, [CLI, 'guided', 'run', 'pingpong-hops', '--out', out, '--quiet'], { encoding: 'utf8' });
  const cliRows = (JSON.parse(readFileSync(out, 'utf8')) as { rows: { hops: number; roundTripNs: number }[] }).rows;
  expect(cliRows).toHaveLength(8);
  const rows = frame.getByTestId('sweep-table').locator('tbody tr');
  await expect(rows).toHaveCount(8);
  for (let i = 0; i < 8; i++) {
    await expect(rows.nth(i).locator('td').nth(0)).toHaveText(String(cliRows[i]!.hops));
    await expect(rows.nth(i).locator('td').nth(1)).toHaveText(formatField('roundTripNs', cliRows[i]!.roundTripNs));
  }
  const open = frame.getByTestId('embed-open-lab');
  await expect(open).toHaveAttribute('target', '_blank');
  expect(await open.getAttribute('href')).toMatch(new RegExp(`^${labBase}/#x=`));
  await page.screenshot({ path: join(ROOT, 'e2e/artifacts/screenshots/embed-sweep-course-page.png') });
  // a sweep with the paper's values: the diamonds are there before any run
  await page.goto(courseBase + '/rcce-table-1');
  await expect(frame.getByTestId('embed-title')).toHaveText('IPC of two neighbouring cores, four benchmarks');
  await expect(frame.getByTestId('sweep-paper-key')).toHaveText('paper');
  await expect(frame.getByTestId('sweep-points')).toHaveAttribute('data-paper-count', '4');
  await expect(frame.getByTestId('sweep-points')).toHaveAttribute('data-count', '0');
});
