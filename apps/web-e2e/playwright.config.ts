import { defineConfig } from '@playwright/test';

// The dashboard in a real browser: Debian's Chromium (Playwright's own browser download is not
// reachable here), against the built service on real Postgres that tools/scripts/web-e2e.mjs
// starts through with-service.mjs (INTERLOCK_BASE_URL).
const serviceURL = process.env.INTERLOCK_BASE_URL;
if (serviceURL === undefined)
  throw new Error(
    'INTERLOCK_BASE_URL is not set: run through `npx nx run web-e2e:e2e` (tools/scripts/web-e2e.mjs)',
  );
// The browser uses the service's own origin (http://localhost:<port>, its default PUBLIC_ORIGIN),
// so the CSRF origin check sees a same-origin dashboard.
const baseURL = serviceURL.replace('//127.0.0.1:', '//localhost:');

export default defineConfig({
  testDir: './src',
  testMatch: '**/*.e2e-spec.ts',
  outputDir: '../../tmp/web-e2e/results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  forbidOnly: process.env.CI !== undefined,
  retries: 0,
  workers: Number(process.env.WEB_E2E_WORKERS ?? 2),
  reporter: [['list'], ['../../tools/playwright/results-reporter.cjs']],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1360, height: 860 },
    // A failed test keeps its trace: each action with its locator and result, the network, the
    // console and the sources; the failure's own screenshot is taken too. Without the screencast's
    // film strip: recording its frames cost the browser side a fifth of its CPU (dark-mode's first
    // test, two runs each way, 17.7 -> 13.8 s; session 15). Without the DOM before and after each
    // action: copying the page for every action, in every test that passes too, cost dark-mode's
    // three tests 26.5 s of CPU where no trace at all took 23.3 and this one 22.2 (session 17, the
    // whole run of the file; `--trace on` records them for a run by hand).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Without the background-networking flags Chromium's own connections are refused by this
      // closed network, many at a time; --no-sandbox because the tests may run as root.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
