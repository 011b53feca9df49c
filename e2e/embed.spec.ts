/**
 * Embeds and the fallback without SharedArrayBuffer, end to end. The built lab is served a
 * second time WITHOUT the isolation headers (apps/web/serve.mjs --no-isolation, started here),
 * as a static host or another site's page gives it:
 *  (a) the full lab there is not cross-origin isolated, says so (fallback notice), runs the
 *      default experiment to the end in one worker, and its digest equals the CLI's;
 *  (b) a course page on another origin embeds a guided experiment in an iframe: the embed runs
 *      with its one control and shows its result, whose digest equals the CLI's for that run;
 *  (c) the gallery's "Copy embed code" gives the iframe text of the entry's embed URL;
 *  and an unknown embed id gets a message, not a crash.
 */
import { expect, test } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  // a course page on another origin (another port), itself not isolated, with an iframe of the embed
  course = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course: the SCC mesh</title></head><body>` +
        `<h1>Week 3: message passing on the SCC</h1><p>Run the experiment below.</p>` +
        `<iframe id="lab" src="${labBase}/?embed=pingpong-hops" title="Manycore Lab" width="760" height="620" loading="lazy"></iframe></body></html>`,
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
  await l.shot('fallback-lab');
});

test('(b) a course page on another origin embeds a guided experiment that runs and shows its result', async ({ page }) => {
  await page.goto(courseBase + '/');
  const frame = page.frameLocator('#lab');
  await expect(frame.getByTestId('embed-title')).toHaveText('MPB round trip vs hops (a quick sweep)');
  await expect(frame.getByTestId('fallback-notice')).toBeVisible();
  await expect(frame.getByTestId('embed-status')).toHaveText('ready');
  // the one control: the swept parameter; hops = 3 is the third run of the sweep
  await frame.getByTestId('embed-control').selectOption({ label: '3' });
  await frame.getByTestId('embed-run').click();
  await expect(frame.getByTestId('embed-status')).toHaveText('finished', { timeout: 120_000 });
  await expect(frame.getByTestId('embed-result')).toContainText('roundTripNs');
  await expect(frame.getByTestId('embed-result-value')).toHaveText(/\d/);
  const digest = (await frame.getByTestId('embed-digest').textContent())!.trim();
  const entry = firstSteps.find((g) => g.id === 'pingpong-hops')!;
  expect(digest).toBe(cliDigest(entry.experiments[2]));
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
