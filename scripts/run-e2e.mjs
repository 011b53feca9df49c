#!/usr/bin/env node
// `npm run e2e`: builds the CLI and the web lab, serves the lab with the isolation headers on
// a free port, runs the Playwright tests in e2e/ against it with the system Chromium, stops
// the server. Exits non-zero when a test fails or when no test ran.
//   --update-screenshots   copy the screenshots the tests took into docs/screenshots/
//   extra arguments        go to `playwright test` (e.g. -g "compare")
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const updateShots = args.includes('--update-screenshots');
const pwArgs = args.filter((a) => a !== '--update-screenshots');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function step(title, cmd, cmdArgs) {
  console.log(`e2e: ${title}`);
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`e2e: ${title} failed`);
    process.exit(r.status ?? 1);
  }
}

if (!existsSync(chromium)) {
  console.error(`e2e: no Chromium at ${chromium}; install it with: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

step('building the CLI', process.execPath, [join(root, 'scripts/build-node.mjs')]);
step('building the web lab', 'npm', ['run', '-w', 'apps/web', 'build']);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(root, 'apps/web/serve.mjs'), '--port', String(port), '--host', '127.0.0.1'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
server.stdout.on('data', (d) => process.stdout.write(`server: ${d}`));
const stopServer = () => {
  if (server.exitCode === null) server.kill('SIGTERM');
};
process.on('exit', stopServer);
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    stopServer();
    process.exit(130);
  });

let up = false;
for (let i = 0; i < 100 && !up; i++) {
  try {
    const res = await fetch(base + '/');
    up = res.ok && res.headers.get('cross-origin-embedder-policy') === 'require-corp';
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}
if (!up) {
  console.error(`e2e: the lab did not come up at ${base}`);
  stopServer();
  process.exit(1);
}

const artifacts = join(root, 'e2e/artifacts');
rmSync(join(artifacts, 'results.json'), { force: true });
console.log(`e2e: running the tests against ${base}`);
const pw = spawnSync(process.execPath, [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', join(root, 'e2e/playwright.config.ts'), ...pwArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, E2E_BASE_URL: base, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
stopServer();

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync(join(artifacts, 'results.json'), 'utf8'));
  passed = report.stats?.expected ?? 0;
  failed = (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0);
  skipped = report.stats?.skipped ?? 0;
} catch {
  failed = Math.max(failed, 1);
}
console.log(`e2e: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (pw.status !== 0 || failed > 0) process.exit(pw.status || 1);
if (passed === 0) {
  console.error('e2e: no test ran');
  process.exit(1);
}

if (updateShots) {
  const from = join(artifacts, 'screenshots');
  const to = join(root, 'docs/screenshots');
  mkdirSync(to, { recursive: true });
  // the views the README shows (the tests take a few more, kept in e2e/artifacts/screenshots)
  const docShots = ['lab-running', 'chip-view', 'charts', 'whatif', 'island-power', 'compare', 'gallery', 'mesh-256', 'mpb-view', 'pipeline-timeline', 'pages-map', 'vm-heap-map', 'vm-baton-56', 'vm-routines'];
  for (const f of readdirSync(from)) if (docShots.includes(f.replace(/\.png$/, ''))) copyFileSync(join(from, f), join(to, f));
  console.log(`e2e: screenshots copied to docs/screenshots/`);
}
