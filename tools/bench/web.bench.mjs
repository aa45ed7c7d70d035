#!/usr/bin/env node
// The dashboard's budgets (issue 12): initial JS ≤ 300 KB gzipped; the inbox usable ≤ 1 s after
// navigation on loopback with 10,000 open interrupts.
//   npx nx run tools:bench-web                (BENCH_DATABASE_URL=postgres://… to use your own server)
//   node tools/bench/web.bench.mjs 2000       (a smaller inbox: open interrupts as argument)
//
// 1. Bundle: from Vite's manifest, the JS (and CSS) a first load needs — the entry and its static
//    imports — gzipped (zlib level 6, what servers use), and what opening the inbox adds.
// 2. Inbox: a Pro organisation gets N open interrupts through the API (as agents open them), then
//    Debian's Chromium, signed in, navigates to /inbox; "usable" is when the first row's link is
//    visible and the tab counts are shown, read as performance.now() (ms since navigation start).
//    Cold runs use a new browser context each (no cache); warm runs reuse one.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { call, createKey, signUp } from '../scripts/with-service.mjs';
import { benchDatabase, machine, root, startService, writeSection } from './bench-support.mjs';

const OPEN = Number(process.argv[2] ?? 10_000);
const RUNS = 10;
const CONCURRENCY = 8;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KB = 1024;

function log(message) {
  console.error(`[bench:web] ${message}`);
}

function buildAll() {
  log('building the service and the dashboard (nx run-many -t build -p api,web)');
  const result = spawnSync(
    'npx',
    ['nx', 'run-many', '-t', 'build', '--projects=api,web', '--outputStyle=static'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
    },
  );
  if (result.status !== 0) throw new Error('build failed');
}

/** The files a manifest chunk needs before it runs: itself and its static imports, recursively. */
function closure(manifest, key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const next of manifest[key].imports ?? []) closure(manifest, next, seen);
  return seen;
}

function sizes(manifest, keys) {
  const dist = join(root, 'dist/apps/web');
  let js = 0;
  let jsRaw = 0;
  let css = 0;
  const files = new Set();
  for (const key of keys) {
    const chunk = manifest[key];
    files.add(chunk.file);
    for (const c of chunk.css ?? []) files.add(c);
  }
  for (const file of files) {
    const body = readFileSync(join(dist, file));
    const gz = gzipSync(body, { level: 6 }).length;
    if (file.endsWith('.js')) {
      js += gz;
      jsRaw += body.length;
    } else css += gz;
  }
  return { js, jsRaw, css, files: files.size };
}

function bundle() {
  const manifest = JSON.parse(
    readFileSync(join(root, 'dist/apps/web/.vite/manifest.json'), 'utf8'),
  );
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const shell = closure(manifest, entry);
  const inboxKey = Object.keys(manifest).find((k) =>
    k.endsWith('features/interrupts/routes/inbox.route.tsx'),
  );
  const inbox = inboxKey ? closure(manifest, inboxKey, new Set(shell)) : shell;
  // The shell plus what a page loads after it, and plus the Markdown renderer a page loads only
  // when a description or message is shown (lazy): the interrupt page carries the JSON tree and
  // the diff itself.
  const after = (suffix) => {
    const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
    return key ? sizes(manifest, closure(manifest, key, new Set(shell))) : null;
  };
  return {
    shell: sizes(manifest, shell),
    inbox: sizes(manifest, inbox),
    interrupt: after('features/interrupts/routes/interrupt.route.tsx'),
    markdown: after('shared/components/markdown-renderer.tsx'),
  };
}

async function openInterrupts(baseUrl, key, total) {
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < total) {
      const n = next++;
      const response = await fetch(`${baseUrl}/api/interrupts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({
          title: `Refund order #${100000 + n}`,
          description: 'The customer reports a damaged parcel.',
          actionRequests: [
            { name: 'refund', args: { amount: (n % 90) + 10, currency: 'EUR' } },
            {
              name: 'notify_customer',
              args: { template: 'refund-issued' },
              allowedDecisions: ['approve', 'reject'],
            },
          ],
        }),
      });
      if (response.status !== 201)
        throw new Error(
          `POST /api/interrupts answered ${response.status}: ${await response.text()}`,
        );
      if ((n + 1) % 1000 === 0) log(`${n + 1} interrupts open`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (Date.now() - started) / 1000;
}

/** Milliseconds from navigation start until the inbox is usable (first row and counts shown). */
async function timeInbox(page, baseUrl) {
  await page.goto(`${baseUrl}/inbox`, { waitUntil: 'commit' });
  await page
    .getByRole('table', { name: 'Interrupts' })
    .getByRole('link')
    .first()
    .waitFor({ state: 'visible' });
  await page.getByRole('tab', { name: /^Open \(\d+\+?\)$/ }).waitFor({ state: 'visible' });
  return page.evaluate(() => performance.now());
}

const pct = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)
  ];

async function main() {
  buildAll();
  const { shell, inbox, interrupt, markdown } = bundle();
  log(
    `initial JS ${(shell.js / KB).toFixed(1)} KB gzipped (${(shell.jsRaw / KB).toFixed(0)} KB raw); with the inbox ${(inbox.js / KB).toFixed(1)} KB`,
  );

  const db = await benchDatabase('interlock_bench_web');
  const service = await startService({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
    NODE_ENV: 'production',
  });
  const baseUrl = `http://127.0.0.1:${service.port}`;
  let browser;
  try {
    const cookie = await signUp(baseUrl, 'web-bench');
    await call(baseUrl, 'PUT', '/api/organisation/plan', { cookie, body: { plan: 'pro' } });
    const { key } = await createKey(baseUrl, cookie, 'web-bench');
    const seconds = await openInterrupts(baseUrl, key, OPEN);
    log(`${OPEN} interrupts opened through the API in ${seconds.toFixed(1)} s`);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    // In production the cookie is `__Host-session` (Secure): the browser opens the dashboard at
    // http://localhost, which Chromium treats as secure, so it keeps and sends it.
    const [name, value] = cookie.split(/=(.*)/s);
    const dashboardUrl = `http://localhost:${service.port}`;
    const storageState = {
      cookies: [
        {
          name,
          value,
          domain: 'localhost',
          path: '/',
          expires: -1,
          httpOnly: true,
          secure: name.startsWith('__Host-'),
          sameSite: 'Lax',
        },
      ],
      origins: [],
    };
    // The machine is shared: the load average while the browser runs is part of the figure.
    const loads = [loadavg()[0]];
    const cold = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({
        storageState,
        viewport: { width: 1360, height: 860 },
      });
      const page = await context.newPage();
      cold.push(await timeInbox(page, dashboardUrl));
      await context.close();
    }
    const warm = [];
    const context = await browser.newContext({
      storageState,
      viewport: { width: 1360, height: 860 },
    });
    const page = await context.newPage();
    await timeInbox(page, dashboardUrl);
    for (let i = 0; i < RUNS; i++) warm.push(await timeInbox(page, dashboardUrl));
    await context.close();
    loads.push(loadavg()[0]);
    log(
      `inbox usable: cold median ${pct(cold, 50).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms; warm median ${pct(warm, 50).toFixed(0)} ms`,
    );

    const kb = (n) => `${(n / KB).toFixed(1)} KB`;
    writeSection(
      'web',
      `## The dashboard: bundle size and inbox time

\`npx nx run tools:bench-web\` (tools/bench/web.bench.mjs; \`node tools/bench/web.bench.mjs N\` for N open interrupts).
${new Date().toISOString().slice(0, 10)}, ${machine()}, Chromium ${browser.version()} (Debian), service and Postgres on loopback, NODE_ENV=production;
load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} while the browser ran.

| budget | measured | target |
|---|---|---|
| initial JS, gzipped (entry + its static imports) | **${kb(shell.js)}** (${kb(shell.jsRaw)} raw, ${shell.files} files; CSS ${kb(shell.css)}) | ≤ 300 KB |
| … plus the inbox page's chunks | ${kb(inbox.js)} | |
| … plus the interrupt page's chunks (JSON tree, diff), loaded on opening it | ${interrupt ? kb(interrupt.js) : 'n/a'} | |
| … plus the Markdown renderer and sanitiser (lazy: on the first description or message shown) | ${markdown ? kb(markdown.js) : 'n/a'} | |
| inbox usable after navigation, ${OPEN.toLocaleString('en')} open interrupts, cold (new context, no cache), ${RUNS} runs | median **${pct(cold, 50).toFixed(0)} ms**, p90 ${pct(cold, 90).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms | ≤ 1,000 ms |
| the same, warm (cached assets), ${RUNS} runs | median ${pct(warm, 50).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms | |

"Usable" is when the first row's link and the Open tab's count are visible, read as
\`performance.now()\` in the page (milliseconds since the navigation started), so it includes
loading the HTML and JS, the session read, the first page of 50 interrupts and the counts.
The ${OPEN.toLocaleString('en')} interrupts (two actions each) were opened through \`POST /api/interrupts\`
with ${CONCURRENCY} concurrent agents in ${seconds.toFixed(0)} s.`,
    );
  } finally {
    await browser?.close();
    await service.stop();
    db.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
