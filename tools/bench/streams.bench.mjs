#!/usr/bin/env node
// Open event streams at rest (issue 34 item 1): what 5,000 open `GET /api/events` streams cost one
// instance between events — processor time (from /proc) and pool queries per heartbeat (the
// service's own `interlock_db_query_duration_seconds` counts, on METRICS_PORT) — against the same
// instance idle, each over the same window. Then one stream past the instance's cap, refused 503.
//
//   npx nx run tools:bench-streams
//
// Environment: STREAMS (default 5000), ORGANISATIONS (default 50; each one owner holding
// STREAMS / ORGANISATIONS streams), WINDOW_SECONDS (default 90: six 15 s heartbeats), BENCH_WRITE=0
// to print only.
import { request } from 'node:http';
import { loadavg } from 'node:os';
import {
  benchDatabase,
  build,
  cpuMicros,
  freePort,
  machine,
  startService,
  writeSection,
} from './bench-support.mjs';

const STREAMS = Number(process.env.STREAMS ?? 5000);
const ORGANISATIONS = Number(process.env.ORGANISATIONS ?? 50);
const WINDOW_SECONDS = Number(process.env.WINDOW_SECONDS ?? 90);
const HEARTBEAT_SECONDS = 15;
const perOrganisation = Math.ceil(STREAMS / ORGANISATIONS);

const log = (message) => console.error(`[bench:streams] ${message}`);
const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const startedAt = Date.now();
const loadBefore = loadAverage();
log('building the service');
build('apps/api/tsup.config.ts');
const db = await benchDatabase('interlock_bench_streams');
const metricsPort = await freePort();
const service = await startService({
  DATABASE_URL: db.url,
  NODE_ENV: 'production',
  API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-0123456789',
  LOG_LEVEL: 'warn',
  METRICS_PORT: String(metricsPort),
  RATE_LIMIT_SIGN_UP_ADDRESS_ATTEMPTS: '100000',
  STREAMS_MAX_PER_MEMBER: String(perOrganisation),
  STREAMS_MAX_PER_ORGANISATION: String(perOrganisation),
  STREAMS_MAX_PER_INSTANCE: String(STREAMS),
});

/** Pool statements so far, all and SELECTs, from the service's own metrics. */
async function poolQueries() {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  let all = 0;
  let selects = 0;
  for (const line of text.split('\n')) {
    const m = /^interlock_db_query_duration_seconds_count\{statement="([^"]*)"\} (\d+)/.exec(line);
    if (m === null) continue;
    all += Number(m[2]);
    if (m[1].toLowerCase() === 'select') selects += Number(m[2]);
  }
  return { all, selects };
}

/** CPU time and pool statements of the service over one window. */
async function window() {
  const q0 = await poolQueries();
  const c0 = cpuMicros(service.pid);
  await sleep(WINDOW_SECONDS * 1000);
  const c1 = cpuMicros(service.pid);
  const q1 = await poolQueries();
  return {
    cpuPercent: ((c1 - c0) / (WINDOW_SECONDS * 1e6)) * 100,
    all: q1.all - q0.all,
    selects: q1.selects - q0.selects,
  };
}

/** Opens one stream; resolves with its status once the headers are in (the response stays open when 200). */
function openStream(cookie) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${service.base}/api/events`,
      { headers: { cookie, accept: 'text/event-stream' }, agent: false },
      (res) => {
        if (res.statusCode === 200) {
          res.on('data', () => undefined);
          res.on('error', () => undefined);
        } else res.resume();
        resolve({ status: res.statusCode, headers: res.headers, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const opened = [];
try {
  log(`signing up ${ORGANISATIONS} organisations`);
  const cookies = [];
  for (let i = 0; i < ORGANISATIONS; i++) {
    const res = await fetch(`${service.base}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `streams-${i}@example.test`,
        password: 'bench password 123',
        name: `Owner ${i}`,
        organisationName: `Org ${i}`,
      }),
    });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    cookies.push(res.headers.get('set-cookie').split(';')[0]);
  }

  log(`idle window (${WINDOW_SECONDS} s)`);
  await sleep(2000);
  const idle = await window();

  log(`opening ${STREAMS} streams`);
  const wanted = [];
  for (let i = 0; i < STREAMS; i++) wanted.push(cookies[i % ORGANISATIONS]);
  for (let i = 0; i < wanted.length; i += 50) {
    const batch = await Promise.all(wanted.slice(i, i + 50).map(openStream));
    for (const s of batch) {
      if (s.status !== 200) throw new Error(`a stream answered ${s.status}`);
      opened.push(s);
    }
  }
  // Past the instance's cap: refused at once.
  const extra = await openStream(cookies[0]);
  const refused = `${extra.status}, Retry-After ${extra.headers['retry-after']}`;
  extra.close();
  log(`${opened.length} streams open; settling one heartbeat`);
  await sleep(HEARTBEAT_SECONDS * 1000 + 2000);

  log(`window with the streams (${WINDOW_SECONDS} s)`);
  const busy = await window();
  const heartbeats = WINDOW_SECONDS / HEARTBEAT_SECONDS;
  const selectsPerBeat = (busy.selects - idle.selects) / heartbeats;

  const minutes = ((Date.now() - startedAt) / 60_000).toFixed(1);
  const md = `
## Open event streams at rest (issue 34 item 1)

Command: \`npx nx run tools:bench-streams\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine()}, load average ${loadBefore} before, ${loadAverage()} after, ${minutes} min.
One instance (\`NODE_ENV=production\`, the built service) on its own database; ${opened.length.toLocaleString('en')} \`GET /api/events\` streams held open
by ${ORGANISATIONS} owners (${perOrganisation} each, one organisation each), nothing happening. Processor time of the service process
(user + system, \`/proc/<pid>/stat\`) and pool statements (its \`interlock_db_query_duration_seconds\` counts) over ${WINDOW_SECONDS} s
(${heartbeats} heartbeats of 15 s), against the same instance with no stream over the same length just before (the bus heartbeat,
the job runner). Goal (issue 34): ≤ 5 % of a core and ≤ 2 pool queries per heartbeat.

| | idle | ${opened.length.toLocaleString('en')} streams | the streams' share |
|---|---|---|---|
| processor time, % of one core | ${idle.cpuPercent.toFixed(2)} | ${busy.cpuPercent.toFixed(2)} | **${(busy.cpuPercent - idle.cpuPercent).toFixed(2)}** |
| SELECT statements on the pool in the window | ${idle.selects} | ${busy.selects} | ${busy.selects - idle.selects} |
| SELECT statements per heartbeat | | | **${selectsPerBeat.toFixed(1)}** |
| other statements in the window (the bus's and the jobs' writes) | ${idle.all - idle.selects} | ${busy.all - busy.selects} | ${busy.all - busy.selects - (idle.all - idle.selects)} |

Every query of a stream is a SELECT (the sign-in check, the heads, a catch-up), so the SELECT count is the streams' figure;
the other statements are the instance's own background, whose count varies a little from window to window.

Stream ${(opened.length + 1).toLocaleString('en')} (past \`STREAMS_MAX_PER_INSTANCE=${STREAMS}\`): ${refused}.
`;
  console.log(md);
  if (process.env.BENCH_WRITE !== '0') writeSection('streams', md);
} finally {
  for (const s of opened) s.close();
  await service.stop();
  await db.stop();
}
