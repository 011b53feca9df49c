#!/usr/bin/env node
// Frame rate of the web lab while a run goes "as fast as possible", the way a user sees it
// (requestAnimationFrame timestamps in the page), and the simulated time per wall second that
// the run keeps meanwhile. Launches the built lab (apps/web/dist, or --dist DIR) in the
// system Chromium, headless, with the e2e tests' window size (1440x900).
// Not a test and not part of npm test: the numbers depend on the host and on its load. Every
// line says how much CPU other processes took meanwhile ("other CPU", in CPUs; negative when
// some exited); before each scenario it waits up to a minute for the machine to be quiet.
//
// Scenarios (--only, comma-separated):
//   48           default experiment (48 cores, one worker each), loads=1000000: fps and simulated
//                rate over a window of --seconds, once the run is going (loads=30000 until
//                2026-11-24; the engine got fast enough to finish that within the window)
//   48auto       the same with the lab's default layout (cpw=auto: fitted to the host's CPUs),
//                loads=3000000
//   256          the 256-core mesh, 256 workers, loads=10000: the same
//   256x32       the 256-core mesh, 32 cores per worker (8 workers): the same
//   1024         the 1024-core mesh (32x16 tiles), the lab's default layout (cpw=auto: about one
//                worker per CPU), loads=6000: the same (the chip view draws tiles as cells)
//   1024x1       the 1024-core mesh, 1024 workers (one per core): the same (on the 2-CPU
//                development machine headless Chromium's page crashed starting them, 2026-11-24)
//   run48        48 cores, loads=12000, start to finish: wall time, simulated rate, fps over the
//                whole run (worker start-up included), digest
//   hiddenrun48  the same with the page hidden (document.hidden): no frames, no pacing
//   run256       the 256-core mesh, 256 workers, loads=1500, start to finish
//   run1024      the 1024-core mesh, cpw=auto, loads=1500, start to finish
//
//   node bench/web-fps.mjs                 build the lab, then 48,256,1024,run48,hiddenrun48,run256
//   node bench/web-fps.mjs --no-build      use apps/web/dist as it is
//   node bench/web-fps.mjs --dist DIR      serve another build (e.g. a copy of an older one)
//   node bench/web-fps.mjs --repeat 3      everything 3 times
//   node bench/web-fps.mjs --seconds 4     length of the measuring window
//   node bench/web-fps.mjs --query pace=off   extra query for the lab's URL (pace=off: no frame
//                                          pacing; pace=<lead ms>,<max held share>: tuning)
//   node bench/web-fps.mjs --json out.json also write the numbers as JSON
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const distArg = opt('--dist');
const dist = resolve(distArg ?? join(root, 'apps/web/dist'));
const repeat = Number(opt('--repeat', '1'));
const seconds = Number(opt('--seconds', '4'));
const only = opt('--only', '48,256,1024,run48,hiddenrun48,run256').split(',');
const query = opt('--query', '');
const jsonOut = opt('--json');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!distArg && !argv.includes('--no-build')) {
  const r = spawnSync('npm', ['run', '-w', 'apps/web', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!existsSync(join(dist, 'index.html'))) {
  console.error(`web-fps: no build at ${dist} (run npm run -w apps/web build)`);
  process.exit(1);
}

// a static server with the isolation headers (the same as apps/web/serve.mjs, any directory)
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  let file = normalize(join(dist, path));
  if (!file.startsWith(dist + sep) && file !== dist) file = join(dist, 'index.html');
  if (!existsSync(file) || file === dist || file.endsWith(sep)) file = join(dist, 'index.html');
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

/** Runs in the page: rAF timestamps and the page's simulated-time counter over `ms`. */
function measureInPage(ms) {
  // the pacer's numbers over the window: share of the time the workers were held, its lead
  const pacingOver = (a, b) =>
    a && b
      ? {
          heldShare: Math.round((1000 * (b.heldMs - a.heldMs)) / (b.sinceMs - a.sinceMs)) / 1000,
          asleepAtFrame: Math.round((1000 * (b.asleepAtFrame - a.asleepAtFrame)) / Math.max(1, b.frames - a.frames)) / 1000,
          leadMs: Math.round(b.leadMs * 100) / 100,
        }
      : null;
  const parse = (text) => {
    const m = /([\d.,]+)\s*(ns|µs|ms|s)/.exec(text ?? '');
    if (!m) return NaN;
    return Number(m[1].replace(/,/g, '')) * { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }[m[2]];
  };
  const simNs = () => {
    const exact = globalThis.__manycore?.run?.simNs;
    return typeof exact === 'number' ? exact : parse(document.querySelector('[data-testid="sim-time"]')?.textContent);
  };
  const epoch = () => Number(document.querySelector('[data-testid="epoch"]')?.textContent ?? NaN);
  return new Promise((done) => {
    const stamps = [];
    let sim0 = NaN;
    let ep0 = NaN;
    let t0 = 0;
    let pace0 = null;
    const frame = (now) => {
      if (stamps.length === 0) {
        sim0 = simNs();
        ep0 = epoch();
        t0 = performance.now();
        pace0 = globalThis.__manycore?.run?.pacing ?? null;
      }
      stamps.push(now);
      if (now - stamps[0] < ms) requestAnimationFrame(frame);
      else {
        const wall = performance.now() - t0;
        const gaps = stamps.slice(1).map((s, i) => s - stamps[i]).sort((a, b) => a - b);
        const q = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] ?? NaN;
        done({
          fps: ((stamps.length - 1) * 1000) / (stamps[stamps.length - 1] - stamps[0]),
          p50: q(0.5),
          p95: q(0.95),
          over33: gaps.filter((g) => g > 33.4).length,
          frames: stamps.length - 1,
          simRateNsPerS: ((simNs() - sim0) * 1000) / wall,
          epochsPerS: ((epoch() - ep0) * 1000) / wall,
          status: document.querySelector('[data-testid="status"]')?.textContent,
          pacing: pacingOver(pace0, globalThis.__manycore?.run?.pacing ?? null),
        });
      }
    };
    requestAnimationFrame(frame);
  });
}

/**
 * Runs in the page: hides it the way a background tab is hidden as far as the lab can tell
 * (document.hidden, a visibilitychange event, no more animation frames).
 */
function hideInPage() {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  window.requestAnimationFrame = () => 0;
  document.dispatchEvent(new Event('visibilitychange'));
}

async function openLab(page, { variant, params, cpw }) {
  await page.goto(`${base}/?cpw=${cpw}${query ? '&' + query : ''}`);
  await page.getByTestId('editor').waitFor();
  if (variant) await page.getByTestId('chip-variant').selectOption(variant);
  for (const [k, v] of Object.entries(params)) await page.getByTestId(`param-${k}`).fill(String(v));
}

async function startAndWarm(page) {
  await page.getByTestId('run').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="epoch"]')?.textContent) > 30, null, { timeout: 60_000 });
  await page.waitForTimeout(1000);
}

/**
 * CPU time (ms) used so far by processes that are not this benchmark or its browser: other
 * work on a shared machine skews every number here, so each result says how much there was.
 */
function foreignCpuMs() {
  const procs = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone
    }
  }
  const ours = (pid) => {
    for (let p = pid, n = 0; p > 1 && n < 64; n++) {
      if (p === process.pid) return true;
      p = procs.get(p)?.ppid ?? 0;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (!ours(pid)) ticks += p.ticks;
  return ticks * 10; // USER_HZ = 100
}

/** Runs `fn` and adds the share of one CPU that other processes used meanwhile. */
async function withForeign(fn) {
  const c0 = foreignCpuMs();
  const t0 = performance.now();
  const r = await fn();
  return { ...r, foreignCpu: Math.round((100 * (foreignCpuMs() - c0)) / (performance.now() - t0)) / 100 };
}

/** Collects rAF timestamps in the page until __stopFrames() (for frame rates over a whole run). */
function startFramesInPage() {
  const stamps = [];
  let on = true;
  const frame = (now) => {
    stamps.push(now);
    if (on) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  globalThis.__stopFrames = () => {
    on = false;
    const span = stamps[stamps.length - 1] - stamps[0];
    const gaps = stamps.slice(1).map((s, i) => s - stamps[i]);
    return { fps: ((stamps.length - 1) * 1000) / span, over33: gaps.filter((g) => g > 33.4).length, frames: stamps.length - 1 };
  };
}

/**
 * A whole run: wall time from the results ("ran in"), simulated time over it, the frame rate
 * over it (worker start-up included). `hidden`: the page is hidden right after Run is pressed.
 */
async function fullRun(page, setup, hidden = false) {
  await openLab(page, setup);
  const c0 = foreignCpuMs();
  const t0 = performance.now();
  await page.evaluate(startFramesInPage);
  await page.getByTestId('run').click();
  if (hidden) await page.evaluate(hideInPage);
  await page.getByTestId('digest').waitFor({ timeout: 300_000 });
  const frames = hidden ? {} : await page.evaluate(() => globalThis.__stopFrames());
  const text = await page.getByTestId('results').textContent();
  const wallS = Number(/ran in ([\d.]+) s/.exec(text)[1]);
  const simNs = await page.evaluate(() => {
    const exact = globalThis.__manycore?.run?.simNs;
    if (typeof exact === 'number') return exact;
    const m = /([\d.,]+)\s*(ns|µs|ms|s)/.exec(document.querySelector('[data-testid="sim-time"]')?.textContent ?? '');
    return Number(m[1].replace(/,/g, '')) * { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }[m[2]];
  });
  const foreignCpu = Math.round((100 * (foreignCpuMs() - c0)) / (performance.now() - t0)) / 100;
  return { ...frames, wallS, simRateNsPerS: simNs / wallS, digest: (await page.getByTestId('digest').textContent()).trim(), foreignCpu };
}

const SCENARIOS = {
  48: {
    label: '48 cores, 48 workers (default experiment, longer)',
    async run(page) {
      await openLab(page, { cpw: 1, params: { loads: 1000000 } });
      await startAndWarm(page);
      return withForeign(() => page.evaluate(measureInPage, seconds * 1000));
    },
  },
  '48auto': {
    label: '48 cores, cpw=auto (fitted to the host CPUs)',
    async run(page) {
      await openLab(page, { cpw: 'auto', params: { loads: 3000000 } });
      await startAndWarm(page);
      return withForeign(() => page.evaluate(measureInPage, seconds * 1000));
    },
  },
  256: {
    label: '256-core mesh, 256 workers',
    async run(page) {
      await openLab(page, { cpw: 1, variant: 'mesh-16x8', params: { cores: 256, loads: 10000 } });
      await startAndWarm(page);
      return withForeign(() => page.evaluate(measureInPage, seconds * 1000));
    },
  },
  '256x32': {
    label: '256-core mesh, 8 workers (32 cores each)',
    async run(page) {
      await openLab(page, { cpw: 32, variant: 'mesh-16x8', params: { cores: 256, loads: 30000 } });
      await startAndWarm(page);
      return withForeign(() => page.evaluate(measureInPage, seconds * 1000));
    },
  },
  1024: {
    label: '1024-core mesh, cpw=auto (fitted to the host CPUs)',
    async run(page) {
      await openLab(page, { cpw: 'auto', variant: 'mesh-32x16', params: { cores: 1024, loads: 6000 } });
      await startAndWarm(page);
      return withForeign(() => page.evaluate(measureInPage, seconds * 1000));
    },
  },
  '1024x1': {
    label: '1024-core mesh, 1024 workers',
    async run(page) {
      await openLab(page, { cpw: 1, variant: 'mesh-32x16', params: { cores: 1024, loads: 3000 } });
      await startAndWarm(page);
      return withForeign(() => page.evaluate(measureInPage, seconds * 1000));
    },
  },
  run48: {
    label: '48 cores, loads=12000, start to finish',
    run: (page) => fullRun(page, { cpw: 1, params: { loads: 12000 } }),
  },
  hiddenrun48: {
    label: '48 cores, loads=12000, start to finish, page hidden',
    run: (page) => fullRun(page, { cpw: 1, params: { loads: 12000 } }, true),
  },
  run256: {
    label: '256-core mesh, 256 workers, start to finish',
    run: (page) => fullRun(page, { cpw: 1, variant: 'mesh-16x8', params: { cores: 256, loads: 1500 } }),
  },
  run1024: {
    label: '1024-core mesh, cpw=auto, start to finish',
    run: (page) => fullRun(page, { cpw: 'auto', variant: 'mesh-32x16', params: { cores: 1024, loads: 1500 } }),
  },
};

const results = [];
for (let rep = 0; rep < repeat; rep++) {
  for (const id of only) {
    const sc = SCENARIOS[id];
    if (!sc) throw new Error(`unknown scenario ${id}`);
    // wait (up to a minute) for other processes to leave the CPUs alone
    for (let i = 0; i < 30; i++) {
      const c0 = foreignCpuMs();
      await new Promise((r) => setTimeout(r, 2000));
      if (foreignCpuMs() - c0 < 200) break;
    }
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      const r = await sc.run(page);
      results.push({ id, rep, ...r });
      const f = (x, d = 1) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : '–');
      const rate = r.simRateNsPerS >= 1e6 ? `${f(r.simRateNsPerS / 1e6, 3)} ms/s` : `${f(r.simRateNsPerS / 1e3, 1)} µs/s`;
      console.log(
        `${id.padEnd(8)} ${sc.label.padEnd(52)} other CPU ${f(r.foreignCpu, 2)}  fps ${f(r.fps).padStart(5)}  p50 ${f(r.p50).padStart(5)} ms  p95 ${f(r.p95).padStart(5)} ms  >33ms ${String(r.over33 ?? '–').padStart(3)}  sim ${rate}` +
          (r.epochsPerS !== undefined ? `  epochs/s ${f(r.epochsPerS, 0)}` : '') +
          (r.wallS !== undefined ? `  wall ${r.wallS} s  digest ${r.digest}` : '') +
          (r.hidden !== undefined ? `  hidden ${r.hidden}, paced frames while hidden ${r.pacedFramesWhileHidden}` : '') +
          (r.pacing ? `  pacing ${JSON.stringify(r.pacing)}` : '') +
          (r.status !== undefined && r.status !== 'running' ? `  (status ${r.status} at the end of the window: the run did not last the whole window)` : ''),
      );
    } catch (err) {
      console.log(`${id.padEnd(8)} ${sc.label}: failed: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
      results.push({ id, rep, error: String(err) });
    }
    await context.close();
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ dist, query, seconds, results }, null, 2) + '\n');
await browser.close();
server.close();
