import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests of the web lab, driven by scripts/run-e2e.mjs (`npm run e2e`), which
 * builds the app, serves it with the isolation headers and passes its URL in E2E_BASE_URL.
 * The browser is the system Chromium (Debian's `chromium` package); nothing is downloaded.
 */
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  outputDir: './artifacts/test-results',
  timeout: 150_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1, // the simulations need both CPU cores of a small machine
  retries: 0,
  reporter: [['list'], ['json', { outputFile: './artifacts/results.json' }]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:4173',
    viewport: { width: 1440, height: 900 },
    headless: true,
    acceptDownloads: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
