#!/usr/bin/env node
// The dashboard's browser tests (nx run web-e2e:e2e, part of `npm test`): Playwright driving
// Debian's Chromium against the built service (api + web) on real Postgres.
//
// Playwright's own browser download cannot be reached here, so the tests use the `chromium`
// Debian package; when it is missing and we are root, it is installed first (as the Postgres
// set-up does for `postgresql`). CHROMIUM_PATH points elsewhere if you have a Chromium of your own.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function ensureChromium() {
  if (existsSync(chromium)) return;
  if (
    process.env.CHROMIUM_PATH !== undefined ||
    process.getuid?.() !== 0 ||
    !existsSync('/usr/bin/apt-get')
  ) {
    console.error(
      `[web-e2e] no Chromium at ${chromium}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  console.log('[web-e2e] installing Chromium from Debian packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env,
  });
}

ensureChromium();
const args = [
  'tools/scripts/with-service.mjs',
  '--',
  'npx',
  'playwright',
  'test',
  '-c',
  'apps/web-e2e/playwright.config.ts',
  ...process.argv.slice(2),
];
const child = spawn(process.execPath, args, {
  cwd: root,
  stdio: 'inherit',
  // Every browser test signs up its own owner, from one address: more than the 20 sign-ups an
  // hour one address may make (SPEC §8b), so the run raises that limit as the API e2e tests do
  // (rate-limits.e2e-spec.ts tests the limit itself); likewise single sign-on starts.
  env: {
    RATE_LIMIT_SIGN_UP_ADDRESS_ATTEMPTS: '100000',
    RATE_LIMIT_SSO_START_ADDRESS_REQUESTS: '100000',
    ...process.env,
    CHROMIUM_PATH: chromium,
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
