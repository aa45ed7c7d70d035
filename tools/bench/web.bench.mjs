#!/usr/bin/env node
// The dashboard's budgets (issue 12): initial JS ≤ 300 KB gzipped; the inbox usable ≤ 1 s after
// navigation on loopback with 10,000 open interrupts.
//   npx nx run tools:bench-web                (BENCH_DATABASE_URL=postgres://… to use your own server)
//   node tools/bench/web.bench.mjs 2000       (a smaller inbox: open interrupts as argument)
//   BENCH_WEB_BASELINE=/tmp/web-before npx nx run tools:bench-web   (this build against another)
//
// 1. Bundle: from Vite's manifest, the JS (and CSS) a first load needs — the entry and its static
//    imports — gzipped (zlib level 6, what servers use), and what opening the inbox adds.
// 2. Inbox: a Pro organisation gets N open interrupts (200 through the API as agents open them, the
//    rest SQL copies of those with their kept records), then
//    Debian's Chromium, signed in, navigates to /inbox; "usable" is when the first row's link is
//    visible and the tab counts are shown, read as performance.now() (ms since navigation start).
//    Cold runs use a new browser context each (no cache); warm runs reuse one. Each context holds
//    what a returning reviewer's browser holds: the session cookie and the organisation last
//    chosen (localStorage); BENCH_WEB_FIRST_VISIT=1 leaves the organisation out (a first visit:
//    the dashboard then asks who you are before it knows which organisation's inbox to read).
// 3. BENCH_WEB_PROFILE=<file.cpuprofile>: one more cold run, sampled by Chromium's CPU profiler
//    from before the navigation until usable, saved for DevTools (Performance → load profile),
//    with its self time by script and by function in the log: where a cold load's script goes.
//    BENCH_WEB_BUILT=1 skips the build (measures dist/ as it is, e.g. while iterating on a change).
// 4. BENCH_WEB_RUNS=<n> cold and warm runs (default 10; more for an A/B on a busy machine);
//    BENCH_WRITE=0 prints the section instead of writing BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { call, createKey, signUp } from '../scripts/with-service.mjs';
import { benchDatabase, machine, root, startService, writeSection } from './bench-support.mjs';

const OPEN = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 10);
const CONCURRENCY = 8;
/** Opened through the API; the rest of the inbox are SQL copies of these. */
const TEMPLATES = 200;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * BENCH_WEB_BASELINE=<dir>: another build of the dashboard (e.g. `vite build --outDir <dir>` of
 * the commit before a change) served by a second service on the same data; each cold run of this
 * build has one of it beside it (before and after in turn), so a busy machine's load falls on
 * both alike.
 */
const BASELINE = process.env.BENCH_WEB_BASELINE;
const FIRST_VISIT = process.env.BENCH_WEB_FIRST_VISIT === '1';
const PROFILE = process.env.BENCH_WEB_PROFILE;
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

/**
 * The rest of the inbox as SQL copies of the interrupts agents opened (a new id each, every other
 * column the template's, the kept record rewritten to the new id), so that seeding 10,000 takes
 * seconds rather than minutes of POSTs on a busy machine: the bench measures the inbox, not
 * creation (tools:bench-interrupts does).
 */
async function copyInterrupts(databaseUrl, count) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: columns } = await db.query(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = 'interrupts' ORDER BY ordinal_position`,
    );
    const names = columns.map((c) => c.column_name);
    const value = (c) =>
      c === 'id'
        ? 'c.new_id'
        : c === 'record_json'
          ? 'replace(t.record_json, t.id::text, c.new_id::text)'
          : `t.${c}`;
    const { rowCount } = await db.query(
      `INSERT INTO interrupts (${names.join(', ')})
       SELECT ${names.map(value).join(', ')}
           FROM (SELECT gen_random_uuid() AS new_id, n FROM generate_series(1, $1::int) n) c
         JOIN (SELECT *, row_number() OVER (ORDER BY id) - 1 AS k FROM interrupts) t
           ON t.k = c.n % (SELECT count(*) FROM interrupts)`,
      [count],
    );
    return rowCount;
  } finally {
    await db.end();
  }
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

/**
 * In the page, from its first script on. `__benchDrawn`: the moment (ms since navigation start)
 * the DOM first holds what "usable" waits for — a row's link in the table and the Open tab's
 * count — seen by a MutationObserver right after the commit that made it so. `__benchUsable`:
 * the moment both are visible (laid out, with a size, as Playwright's "visible" means) and the
 * frame that shows them has been drawn — checked in the first animation frame after that commit
 * (and each one after, until they are), read in a task queued from it, which runs once that
 * frame is done and the main thread is free again.
 *
 * The driver reads the figure from the page instead of timing its own check: Playwright's
 * `waitFor` looks again after 20, 50, 100 and 100 ms and then every 500 ms, so a page drawn just
 * after a look was counted up to half a second late (BENCHMARKS.md, session 14).
 */
function watchDrawn() {
  const row = () => document.querySelector('table[aria-label="Interrupts"] tbody a');
  const openTab = () =>
    [...document.querySelectorAll('[role="tab"]')].find((tab) =>
      /^Open \(\d+\+?\)$/.test(tab.getAttribute('aria-label') ?? ''),
    );
  const visible = (element) => {
    if (!element?.checkVisibility({ visibilityProperty: true })) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const frame = () => {
    if (!visible(row()) || !visible(openTab())) return requestAnimationFrame(frame);
    setTimeout(() => {
      window.__benchUsable = performance.now();
    });
  };
  const check = () => {
    if (window.__benchDrawn !== undefined) return;
    if (row() !== null && openTab() !== undefined) {
      window.__benchDrawn = performance.now();
      requestAnimationFrame(frame);
    }
  };
  new MutationObserver(check).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-label'],
  });
}

/**
 * Milliseconds from navigation start until the inbox is usable (first row and counts shown), as
 * the page saw it (`watchDrawn`), and as the driver's own polled check saw it (the figure of the
 * sessions before 14): `{ usable, polled }`.
 */
async function timeInbox(page, baseUrl) {
  await page.goto(`${baseUrl}/inbox`, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__benchUsable !== undefined, undefined, {
    polling: 'raf',
    timeout: 120_000,
  });
  // What the driver sees: the same row link and count, visible.
  await page
    .getByRole('table', { name: 'Interrupts' })
    .getByRole('link')
    .first()
    .waitFor({ state: 'visible' });
  await page.getByRole('tab', { name: /^Open \(\d+\+?\)$/ }).waitFor({ state: 'visible' });
  return page.evaluate(() => ({ usable: window.__benchUsable, polled: performance.now() }));
}

/**
 * Where a cold load's time goes, read from the page's own timeline (Navigation and Resource
 * Timing, ms since navigation start) and Chromium's main-thread totals (CDP Performance metrics):
 * the HTML, the shell's JS, each API read the inbox waits for, and the main thread's busy time.
 * Under load the wall times stretch; the order of the steps, which of them wait on another, and
 * the main thread's share say what makes the page slow.
 */
async function profileInbox(page, { usable, polled }, cdp) {
  const timeline = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const find = (test) => resources.find((r) => test(new URL(r.name)));
    const span = (r) => (r ? { start: r.startTime, end: r.responseEnd } : null);
    const scripts = resources.filter((r) => r.initiatorType === 'script' || /\.js$/.test(r.name));
    const styles = resources.filter((r) => /\.css$/.test(new URL(r.name).pathname));
    return {
      html: { start: 0, end: nav.responseEnd },
      js: scripts.length
        ? {
            start: Math.min(...scripts.map((r) => r.startTime)),
            end: Math.max(...scripts.map((r) => r.responseEnd)),
          }
        : null,
      css: styles.length
        ? {
            start: Math.min(...styles.map((r) => r.startTime)),
            end: Math.max(...styles.map((r) => r.responseEnd)),
          }
        : null,
      domContentLoaded: nav.domContentLoadedEventEnd,
      drawnAt: window.__benchDrawn ?? null,
      me: span(find((u) => u.pathname === '/api/me')),
      session: span(find((u) => u.pathname === '/api/auth/session')),
      list: span(find((u) => u.pathname === '/api/interrupts')),
      counts: span(find((u) => u.pathname === '/api/interrupts/counts')),
    };
  });
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return {
    ...timeline,
    usable,
    polled,
    script: metric('ScriptDuration'),
    layout: metric('LayoutDuration') + metric('RecalcStyleDuration'),
    task: metric('TaskDuration'),
  };
}

/**
 * One cold load under Chromium's sampling profiler (CDP Profiler, 100 µs), from before the
 * navigation until usable: the profile goes to `file`, and the log gets its self time by script
 * and the functions with the most self time (minified names: the build's source maps name them).
 */
async function profileColdLoad(browser, storageState, url, file) {
  const context = await browser.newContext({
    storageState,
    viewport: { width: 1360, height: 860 },
  });
  await context.addInitScript(watchDrawn);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const { usable } = await timeInbox(page, url);
  const { profile } = await cdp.send('Profiler.stop');
  await context.close();
  writeFileSync(file, JSON.stringify(profile));
  const self = new Map();
  const interval =
    (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
  for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + interval);
  const byScript = new Map();
  const byFunction = new Map();
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    const { url: script, functionName, lineNumber, columnNumber } = node.callFrame;
    const where = script ? new URL(script, url).pathname : `(${functionName || 'native'})`;
    byScript.set(where, (byScript.get(where) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}:${columnNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${v.toFixed(1).padStart(7)} ms  ${k}`)
      .join('\n');
  log(`profiled cold load (usable at ${usable.toFixed(0)} ms) saved to ${file}`);
  log(`self time by script:\n${top(byScript, 12)}`);
  log(`self time by function:\n${top(byFunction, 25)}`);
}

const pct = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)
  ];

async function main() {
  if (process.env.BENCH_WEB_BUILT !== '1') buildAll();
  const { shell, inbox, interrupt, markdown } = bundle();
  log(
    `initial JS ${(shell.js / KB).toFixed(1)} KB gzipped (${(shell.jsRaw / KB).toFixed(0)} KB raw); with the inbox ${(inbox.js / KB).toFixed(1)} KB`,
  );

  const db = await benchDatabase('interlock_bench_web');
  let service;
  let baseline = null;
  let browser;
  // Everything started is stopped, also when a service does not come up (a busy machine's 60 s):
  // the throwaway cluster was left running then.
  try {
    service = await startService({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
      NODE_ENV: 'production',
    });
    // Another build of the dashboard on the same data, its cold runs alternated with this one's.
    baseline = BASELINE
      ? await startService({
          DATABASE_URL: db.url,
          API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
          NODE_ENV: 'production',
          WEB_DIR: BASELINE,
        })
      : null;
    const baseUrl = `http://127.0.0.1:${service.port}`;
    const cookie = await signUp(baseUrl, 'web-bench');
    await call(baseUrl, 'PUT', '/api/organisation/plan', { cookie, body: { plan: 'pro' } });
    const { key } = await createKey(baseUrl, cookie, 'web-bench');
    const opened = Math.min(OPEN, TEMPLATES);
    const seconds = await openInterrupts(baseUrl, key, opened);
    const copying = Date.now();
    const copied = await copyInterrupts(db.url, OPEN - opened);
    const copySeconds = (Date.now() - copying) / 1000;
    log(
      `${opened} interrupts opened through the API in ${seconds.toFixed(1)} s, ${copied} SQL copies of them in ${copySeconds.toFixed(1)} s`,
    );

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
    const { body: account } = await call(baseUrl, 'GET', '/api/me', { cookie });
    const organisationId = account.organisations[0].id;
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
      // The organisation this browser last chose, as the dashboard keeps it (active-organisation.ts).
      origins: FIRST_VISIT
        ? []
        : [service, baseline]
            .filter((s) => s !== null)
            .map((s) => ({
              origin: `http://localhost:${s.port}`,
              localStorage: [{ name: 'interlock.lastOrganisation', value: organisationId }],
            })),
    };
    // The machine is shared: the load average while the browser runs is part of the figure.
    const loads = [loadavg()[0]];
    const coldRun = async (url) => {
      const context = await browser.newContext({
        storageState,
        viewport: { width: 1360, height: 860 },
      });
      await context.addInitScript(watchDrawn);
      const page = await context.newPage();
      // Chromium's main-thread totals, counted from before the navigation.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const profile = await profileInbox(page, await timeInbox(page, url), cdp);
      // Once the page has settled: the rows it drew and the pages of the list it read (one page
      // of 50 is what a reviewer sees first, however many are open).
      await page.waitForLoadState('networkidle').catch(() => undefined);
      profile.drawn = await page.evaluate(() => ({
        rows: document.querySelectorAll('tr[data-interrupt-id]').length,
        elements: document.querySelectorAll('tr[data-interrupt-id] *').length,
        // The list's pages (limit=50), not the onboarding banner's one-row probes (limit=1).
        pages: performance.getEntriesByType('resource').filter((r) => {
          const url = new URL(r.name);
          return url.pathname === '/api/interrupts' && url.searchParams.get('limit') === '50';
        }).length,
      }));
      await context.close();
      return profile;
    };
    const cold = [];
    const profiles = [];
    const baselineProfiles = [];
    for (let i = 0; i < RUNS; i++) {
      // The baseline build beside each run, so both see the same moment's load; which of the two
      // goes first alternates, so neither always meets the caches (the service's, Postgres's)
      // the other just warmed.
      const baselineFirst = baseline !== null && i % 2 === 1;
      if (baselineFirst) baselineProfiles.push(await coldRun(`http://localhost:${baseline.port}`));
      const profile = await coldRun(dashboardUrl);
      cold.push(profile.usable);
      profiles.push(profile);
      if (baseline && !baselineFirst)
        baselineProfiles.push(await coldRun(`http://localhost:${baseline.port}`));
    }
    if (PROFILE) await profileColdLoad(browser, storageState, dashboardUrl, PROFILE);
    const warm = [];
    const context = await browser.newContext({
      storageState,
      viewport: { width: 1360, height: 860 },
    });
    await context.addInitScript(watchDrawn);
    const page = await context.newPage();
    await timeInbox(page, dashboardUrl);
    for (let i = 0; i < RUNS; i++) warm.push((await timeInbox(page, dashboardUrl)).usable);
    await context.close();
    loads.push(loadavg()[0]);
    log(
      `inbox usable: cold median ${pct(cold, 50).toFixed(0)} ms, p90 ${pct(cold, 90).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms; warm median ${pct(warm, 50).toFixed(0)} ms`,
    );
    const polled = profiles.map((p) => p.polled);
    log(
      `the driver's own polled check (the figure before session 14): cold median ${pct(polled, 50).toFixed(0)} ms, p90 ${pct(polled, 90).toFixed(0)} ms`,
    );

    const steps = [
      ['the HTML', 'html'],
      ['the JS (first request to last answer)', 'js'],
      ['the CSS', 'css'],
      ['`GET /api/me` (who is signed in)', 'me'],
      ['`GET /api/auth/session` (the member and permissions)', 'session'],
      ['`GET /api/interrupts` (the first 50 rows)', 'list'],
      ['`GET /api/interrupts/counts` (the tab counts)', 'counts'],
    ];
    const median = (values) => (values.length ? pct(values, 50) : NaN);
    const ms = (n) => (Number.isNaN(n) ? 'n/a' : `${n.toFixed(0)} ms`);
    const profileRows = [
      ...steps.map(([label, key]) => {
        const spans = profiles.map((p) => p[key]).filter((x) => x !== null);
        return `| ${label} | ${ms(median(spans.map((x) => x.start)))} | ${ms(median(spans.map((x) => x.end)))} |`;
      }),
      `| DOMContentLoaded | | ${ms(median(profiles.map((p) => p.domContentLoaded)))} |`,
      `| the first row and the counts in the DOM (the commit that drew them) | | ${ms(median(profiles.map((p) => p.drawnAt).filter((x) => x !== null)))} |`,
      `| usable: both visible, the frame showing them drawn | | ${ms(median(profiles.map((p) => p.usable)))} |`,
      `| … the driver's own polled check (Playwright's waitFor: again after 20, 50, 100, 100, then every 500 ms) | | ${ms(median(profiles.map((p) => p.polled)))} |`,
    ].join('\n');
    // Each run's difference from the baseline run beside it: the load of that moment falls
    // on both, so the median of the differences is steadier than the difference of the medians.
    const paired = baseline
      ? median(profiles.map((p, i) => p.usable - baselineProfiles[i].usable))
      : NaN;
    const baselineRow = baseline
      ? `\n| the same with the baseline build (\`BENCH_WEB_BASELINE=${BASELINE}\`), each run beside one of this build's | median **${ms(median(baselineProfiles.map((p) => p.usable)))}**, p90 ${ms(
          pct(
            baselineProfiles.map((p) => p.usable),
            90,
          ),
        )} (drawn ${ms(median(baselineProfiles.map((p) => p.drawnAt).filter((x) => x !== null)))}; this build ${ms(median(profiles.map((p) => p.drawnAt).filter((x) => x !== null)))}), main-thread script ${ms(median(baselineProfiles.map((p) => p.script)))} (this build: ${ms(median(profiles.map((p) => p.script)))}); this build − baseline per pair, median ${ms(paired)} | |`
      : '';
    if (baseline)
      log(
        `paired (this build − baseline, per run): median ${paired.toFixed(0)} ms over ${RUNS} pairs`,
      );
    if (baseline)
      log(
        `baseline cold median ${ms(median(baselineProfiles.map((p) => p.usable)))}, p90 ${ms(
          pct(
            baselineProfiles.map((p) => p.usable),
            90,
          ),
        )}, drawn ${ms(median(baselineProfiles.map((p) => p.drawnAt).filter((x) => x !== null)))}, script ${ms(median(baselineProfiles.map((p) => p.script)))}`,
      );
    const busy = `main thread busy until usable (median): tasks ${ms(median(profiles.map((p) => p.task)))}, of them script ${ms(median(profiles.map((p) => p.script)))}, style and layout ${ms(median(profiles.map((p) => p.layout)))}`;
    const { drawn } = profiles[profiles.length - 1];
    const settled = `settled, the page held ${drawn.rows} rows (${(drawn.elements / Math.max(1, drawn.rows)).toFixed(1)} elements inside each) read in ${drawn.pages} request${drawn.pages === 1 ? '' : 's'} of the list`;
    log(settled);
    log(`cold load, median (start → end):\n${profileRows}\n${busy}`);

    const kb = (n) => `${(n / KB).toFixed(1)} KB`;
    const write =
      process.env.BENCH_WRITE === '0' ? (_name, markdown) => console.log(markdown) : writeSection;
    write(
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
| inbox usable after navigation, ${OPEN.toLocaleString('en')} open interrupts, cold (new context, no cache${FIRST_VISIT ? ', first visit: no organisation chosen before' : ', the organisation last chosen kept'}), ${RUNS} runs | median **${pct(cold, 50).toFixed(0)} ms**, p90 ${pct(cold, 90).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms | ≤ 1,000 ms |
| the same, warm (cached assets), ${RUNS} runs | median ${pct(warm, 50).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms | |${baselineRow}

"Usable" is when the first row's link and the Open tab's count are visible and the frame that
shows them has been drawn, read as \`performance.now()\` in the page (milliseconds since the
navigation started; checked from the first animation frame after the commit that added them, and
read in a task queued from the frame that shows them), so it includes loading the HTML and JS, the
session read, the first page of 50 interrupts, the counts, and the main thread's work until that
frame. Until session 14 the figure was when the driver's own check saw them, which Playwright's
\`waitFor\` repeats after 20, 50, 100 and 100 ms and then every 500 ms: a page drawn just after
one look was counted up to half a second late (the "polled" row below).
Each cold run is a new browser context with no cache, holding the session cookie and${FIRST_VISIT ? ' (BENCH_WEB_FIRST_VISIT=1) nothing else' : " the\norganisation this browser chose last (localStorage), as a returning reviewer's browser does"}.
The ${OPEN.toLocaleString('en')} open interrupts (two actions each): ${opened} opened through \`POST /api/interrupts\`
by ${CONCURRENCY} concurrent agents (${seconds.toFixed(0)} s), the others SQL copies of them with their kept
records (${copySeconds.toFixed(1)} s), as the listing reads them.

Where a cold load's time goes (median of the ${RUNS} cold runs, ms since navigation start, from the
page's Navigation and Resource Timing; the main thread's totals from Chromium's Performance metrics):

| step | started | answered |
|---|---|---|
${profileRows}

${busy}.
Once ${settled}.`,
    );
  } finally {
    await browser?.close();
    await service?.stop();
    await baseline?.stop();
    db.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
