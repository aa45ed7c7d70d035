#!/usr/bin/env node
// The request path's cost as CPU time per request (issue 14): the service's and the bare
// baseline's (tools/bench/perf-baseline) processor time, read from /proc, over a fixed number of
// requests. Throughput ratios move with whatever else the machine runs; CPU time per request
// moves much less, so this is the figure to judge one change of the request path by. The pair
// bench (`npx nx run tools:bench-pairs`) stays the figure of the goals.
//
//   npx nx run tools:bench-cpu
//
// Environment: REQUESTS per measurement (default 40000; the audit pages a quarter of it), ROUNDS
// (default 2), CONNECTIONS (default 50), LOG_LEVEL of the service (default silent), ONLY (a
// comma-separated subset of ping,health,whoami,malformed (a checksum-failing key's 401, the
// table's whoami / 401 its ratio to a valid whoami),row,interrupt,page,audit,inbox — and post
// (opening an interrupt), with AGAINST only; implies BENCH_WRITE=0),
// BENCH_WRITE=0 to print only, BASELINE the bare app measured (a kind of bench-support's
// BASELINE_KINDS: nest-express, the default, or fastify — issue 28's pages are judged against
// the bare Fastify one; `BASELINE=fastify,fastify-duties` adds the floor, bare Fastify doing the
// contract's per-request duties on the service's routes, ONLY names floor-health, floor-whoami,
// floor-interrupt, floor-audit, floor-inbox, its answers checked against the service's before anything is measured), AUDIT_ENTRIES in the audit log read (default 1000), CPU_PROF=<dir>
// to run this build's service under `node --cpu-prof` (its profile written there when it stops;
// CPU_PROF_INTERVAL its sampling interval in µs, Node's default 1000: NODE_OPTIONS may not carry it).
//
// AGAINST=<another checkout, its service built there>: instead, that build's service and this
// one's on the same database, their routes measured alternately (the order swapped each round),
// printed as this build's CPU per request over the other's (and the median of those ratios; of an
// even count of rounds the mean of the middle two); nothing is written. Both measured services
// are fresh processes that have served nothing before the bench's requests (the setup has an
// instance of its own): the side that had done the setup came out 15–45 % dearer. AGAINST_LOG_LEVEL
// runs the other service at another level (AGAINST=. AGAINST_LOG_LEVEL=warn: what the request's
// log line costs this build, info over warn). SERVICE_NODE_OPTIONS: the measured service's
// NODE_OPTIONS (default none; `production`: the production image's, docker/api.Dockerfile, with the
// options its CMD gives before the script), and
// AGAINST_NODE_OPTIONS the other's (default SERVICE_NODE_OPTIONS): AGAINST=. with two of them
// measures what a V8 option costs. SERVICE_NODE_ARGS: Node options for the measured service that
// NODE_OPTIONS refuses, space-separated, before its script (e.g. `--trace-gc`, `--inspect=127.0.0.1:9339`,
// `--heapsnapshot-signal=SIGUSR2`; with BENCH_SERVICE_LOG_DIR for what they print). BASELINE_NODE_ARGS: the same
// for the bare apps and the floor (e.g. `--perf-basic-prof`, `--cpu-prof --cpu-prof-dir=<dir>`). METRICS_PORT: both
// services with their metrics listener on (0 picks a port; Helm's chart turns it on): the request path with the
// per-request metrics work. Beside each side's own CPU the table gives the bench cluster's
// (every Postgres process of it, from /proc) per request in the same window: the pair bench shares
// the machine's cores with Postgres, so a change that moves work into or out of a statement shows
// there (not when the cluster is elsewhere, BENCH_DATABASE_URL). Without AGAINST the cluster's
// CPU a request is printed beside each measurement as it ends (the bare app's statements too), and
// with POSTGRES_BY_OWNER=1 split by owner: each client backend by its database and application_name
// (the service's pool, its listener and control connections, the floor's pool), the writers and
// autovacuum by kind, with how often each owner's processes were woken a request.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import {
  BENCH_INTERRUPT,
  benchDatabase,
  build,
  checksumFailing,
  clusterCpuMicros,
  clusterSpentByOwner,
  clusterWakeups,
  cpuMicros,
  cpuMicrosSince,
  machine,
  localPostmaster,
  median,
  productionNodeArgs,
  productionNodeOptions,
  prepareBaseline,
  root,
  seedAuditEntries,
  startBaseline,
  startCheckedFloor,
  startService,
  writeSection,
} from './bench-support.mjs';

const REQUESTS = Number(process.env.REQUESTS ?? 40_000);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
const BASELINE_ITEM = '761ff52b-8e6d-d373-fdf2-91a1a70df20c';
const BASELINE_ORG = 'a8d899a4-2029-d806-24b7-a414eab21801';
const ONLY = process.env.ONLY?.split(',');
/** Open interrupts in the benchmark organisation (the inbox route's page is 50 of them). */
const INBOX_INTERRUPTS = 200;

const log = (message) => console.error(`[bench:cpu] ${message}`);
const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

const autocannon = join(root, 'node_modules', '.bin', 'autocannon');
/** The bench cluster's postmaster, when its processes can be read here (set after the setup). */
let postmaster;
/** The cluster's CPU microseconds per request of the last `measure` (undefined: not readable). */
let lastPostgres;
/** The bytes of an answer (head and body, as autocannon read them) of the last `measure`. */
let lastBytes;
const BY_OWNER = process.env.POSTGRES_BY_OWNER === '1';
/** With POSTGRES_BY_OWNER=1: the cluster's readings around the last `measure`, for `clusterSpentByOwner`. */
let lastWindow;
/**
 * CPU microseconds the process spent per request over REQUESTS requests (after a warm-up); every
 * answer a 2xx, or with `refused` every answer a 4xx (the malformed-key 401). With `body`, each
 * request is a POST of it as JSON.
 */
function measure(pid, url, headers = [], requests = REQUESTS, refused = false, body = undefined) {
  const sent = body === undefined ? headers : [...headers, 'content-type=application/json'];
  const args = [
    '-c',
    String(CONNECTIONS),
    // autocannon gives up on a request after 10 s: on the shared machine (load 30) POSTs have, and
    // the run of twenty minutes ended on "4 of 2000 requests failed". Only a real failure ends it.
    '-t',
    '60',
    ...(body === undefined ? [] : ['-m', 'POST', '-b', JSON.stringify(body)]),
    ...sent.flatMap((h) => ['-H', h]),
    url,
  ];
  execFileSync(autocannon, ['-a', String(Math.min(5000, requests)), ...args], { stdio: 'ignore' });
  const before = cpuMicros(pid);
  const clusterBefore = postmaster === undefined ? undefined : clusterCpuMicros(postmaster);
  const wakeupsBefore =
    BY_OWNER && postmaster !== undefined ? clusterWakeups(postmaster) : undefined;
  const out = JSON.parse(
    execFileSync(autocannon, ['-j', '-a', String(requests), ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const bad = (refused ? requests - out['4xx'] : out.non2xx) + out.errors + out.timeouts;
  if (bad > 0) throw new Error(`${url}: ${bad} of ${requests} requests failed`);
  const spent = (cpuMicros(pid) - before) / requests;
  lastBytes = out.throughput.total / out.requests.total;
  const clusterAfter = clusterBefore === undefined ? undefined : clusterCpuMicros(postmaster);
  lastPostgres =
    clusterBefore === undefined
      ? undefined
      : cpuMicrosSince(clusterBefore, clusterAfter) / requests;
  lastWindow =
    wakeupsBefore === undefined
      ? undefined
      : {
          cpu: { before: clusterBefore, after: clusterAfter },
          wakeups: { before: wakeupsBefore, after: clusterWakeups(postmaster) },
          requests,
        };
  return spent;
}

// The other build must be built before a minute of setup is spent on this one (its service would
// not start, and the bench would leave this one's processes running).
const against = process.env.AGAINST ? resolve(process.env.AGAINST) : undefined;
if (against !== undefined && !existsSync(join(against, 'dist/apps/api/main.js')))
  throw new Error(
    `AGAINST=${process.env.AGAINST}: no dist/apps/api/main.js there; build it first (npx tsup --config apps/api/tsup.config.ts in ${against})`,
  );
const startedAt = Date.now();
const loadBefore = loadAverage();
const baseline = prepareBaseline(log);
log('building the service');
build('apps/api/tsup.config.ts');
const db = await benchDatabase('interlock_bench_cpu');
const baselineUrl = new URL(db.adminUrl);
baselineUrl.pathname = '/perf_baseline_cpu';
{
  const admin = new pg.Client({ connectionString: db.adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS perf_baseline_cpu WITH (FORCE)');
  await admin.query('CREATE DATABASE perf_baseline_cpu');
  await admin.end();
}
execFileSync(process.execPath, ['seed.mjs'], {
  cwd: baseline.dir,
  env: {
    ...process.env,
    DATABASE_URL: baselineUrl.toString(),
    ITEMS: '1000',
    AUDIT_ROWS: '2000',
    ORGS: '2',
  },
  stdio: 'ignore',
});

/**
 * BASELINE: the bare app of `ping`, `row` and `page`, and with `fastify-duties` beside it
 * (`BASELINE=fastify,fastify-duties`) the floor too: bare Fastify doing the contract's duties on
 * the service's own routes and database (measured as `floor-health`, `floor-whoami`,
 * `floor-interrupt`, `floor-audit`, `floor-inbox`; its answers checked against the service's
 * first, `checkFloor`).
 */
const BASELINES = (process.env.BASELINE ?? 'nest-express').split(',').filter(Boolean);
const BASELINE = BASELINES.find((kind) => kind !== 'fastify-duties') ?? 'fastify';
const FLOOR = BASELINES.includes('fastify-duties');
const bare = await startBaseline(baseline.dir, baselineUrl.toString(), 10, BASELINE);
const serviceEnv = {
  DATABASE_URL: db.url,
  NODE_ENV: 'production',
  API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
  LOG_LEVEL,
  RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
  // The month's messages (the POST route) counted but never refused, as in the pair bench.
  PLAN_FREE_MESSAGES: '1000000000',
  PLAN_PRO_MESSAGES: '1000000000',
  SHUTDOWN_DRAIN_DELAY_MS: '0',
  ...(process.env.METRICS_PORT === undefined ? {} : { METRICS_PORT: process.env.METRICS_PORT }),
};
// The bench's own setup (signing up, the key, the inbox's interrupts) goes through an instance of
// its own, stopped before anything is measured: a process that has served other routes is dearer
// on the measured ones (on the PK read ~20 % — its setup's history, where the other side of an
// AGAINST run had none), so every measured process starts with nothing served.
let service = await startService(serviceEnv);

async function call(method, path, { cookie, key, body } = {}) {
  const headers = {
    ...(body ? { 'content-type': 'application/json' } : {}),
    ...(cookie ? { cookie } : {}),
    ...(key ? { 'x-api-key': key } : {}),
  };
  const res = await fetch(`${service.base}${path}`, {
    method,
    headers,
    body: body && JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}
const signUp = await call('POST', '/api/auth/sign-up', {
  body: {
    email: 'cpu@example.test',
    password: 'bench password',
    name: 'Bench',
    organisationName: 'Bench',
  },
});
const cookie = signUp.headers.get('set-cookie').split(';')[0];
await call('PUT', '/api/organisation/plan', { cookie, body: { plan: 'pro' } });
const { id: keyId, key } = await (
  await call('POST', '/api/api-keys', { cookie, body: { name: 'bench', expiry: 'never' } })
).json();
const { organisationId } = await (await call('GET', '/api/whoami', { key })).json();
const interrupt = await (
  await call('POST', '/api/interrupts', { key, body: BENCH_INTERRUPT })
).json();
// More open interrupts than a page: the inbox route reads a full page of 50 (as the pair bench's).
for (let made = 1; made < INBOX_INTERRUPTS; made += 10)
  await Promise.all(
    Array.from({ length: Math.min(10, INBOX_INTERRUPTS - made) }, () =>
      call('POST', '/api/interrupts', { key, body: BENCH_INTERRUPT }),
    ),
  );
{
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await seedAuditEntries(client, organisationId, keyId, Number(process.env.AUDIT_ENTRIES ?? 1000));
  postmaster = await localPostmaster(client);
  await client.end();
}
const withKey = [`x-api-key=${key}`];
// A checksum-failing key (one body letter changed, as the pair bench's): 401, no database.
const malformedKey = [`x-api-key=${checksumFailing(key)}`];
// Checked against the setup instance: the measured one serves nothing before the bench's requests.
const floor = FLOOR
  ? await startCheckedFloor(
      baseline.dir,
      db.url,
      10,
      {
        API_KEY_PEPPER: serviceEnv.API_KEY_PEPPER,
        RATE_LIMIT_API_KEY_REQUESTS: serviceEnv.RATE_LIMIT_API_KEY_REQUESTS,
      },
      service.base,
      key,
      interrupt.id,
    ).catch(async (error) => {
      await service.stop();
      await bare.stop();
      await db.stop();
      throw error;
    })
  : undefined;
if (floor !== undefined) log(floor.checked);
await service.stop();
const nodeOptions = (given) => (given === 'production' ? productionNodeOptions() : (given ?? ''));
/** `production` also gives the options the image's CMD puts before the script. */
const nodeArgs = (given) => (given === 'production' ? productionNodeArgs() : []);
const SERVICE_NODE_OPTIONS = nodeOptions(process.env.SERVICE_NODE_OPTIONS);
/** SERVICE_NODE_ARGS: Node options NODE_OPTIONS refuses (e.g. `--trace-gc`), before the script. */
const SERVICE_NODE_ARGS = [
  ...nodeArgs(process.env.SERVICE_NODE_OPTIONS),
  ...(process.env.SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
];
try {
  service = await startService(
    { ...serviceEnv, NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    process.env.CPU_PROF
      ? [
          '--cpu-prof',
          '--cpu-prof-dir',
          resolve(process.env.CPU_PROF),
          ...(process.env.CPU_PROF_INTERVAL
            ? ['--cpu-prof-interval', process.env.CPU_PROF_INTERVAL]
            : []),
          ...SERVICE_NODE_ARGS,
        ]
      : SERVICE_NODE_ARGS,
  );
} catch (error) {
  // A service that does not start (a NODE_OPTIONS Node refuses) leaves nothing running.
  await floor?.stop();
  await bare.stop();
  await db.stop();
  throw error;
}
const us = (x) => (x === undefined ? '–' : x.toFixed(0));

if (against !== undefined) {
  let other;
  const routes = {
    health: ['/health/live', [], REQUESTS],
    whoami: ['/api/whoami', withKey, REQUESTS],
    interrupt: [`/api/interrupts/${interrupt.id}`, withKey, REQUESTS],
    audit: ['/api/audit-log?limit=50', withKey, Math.round(REQUESTS / 4)],
    inbox: ['/api/interrupts?limit=50', withKey, Math.round(REQUESTS / 4)],
    // A checksum-failing key (one body letter changed, as the pair bench's): 401, no database.
    malformed: ['/api/whoami', malformedKey, REQUESTS, true],
    // Opening an interrupt (the pair bench's POST): a transaction a request, so fewer of them.
    post: ['/api/interrupts', withKey, Math.round(REQUESTS / 8), false, BENCH_INTERRUPT],
  };
  const lines = [
    '| route | this build, µs a request | the other build (AGAINST) | this / other, per round (median) | Postgres µs a request, this build / the other (this / other, median) |',
    '|---|---|---|---|---|',
  ];
  try {
    other = await startService(
      {
        ...serviceEnv,
        LOG_LEVEL: process.env.AGAINST_LOG_LEVEL ?? LOG_LEVEL,
        NODE_OPTIONS: nodeOptions(
          process.env.AGAINST_NODE_OPTIONS ?? process.env.SERVICE_NODE_OPTIONS,
        ),
      },
      nodeArgs(process.env.AGAINST_NODE_OPTIONS ?? process.env.SERVICE_NODE_OPTIONS),
      against,
    );
    for (const [name, [path, ...rest]] of Object.entries(routes)) {
      if (ONLY !== undefined && !ONLY.includes(name)) continue;
      const mine = [];
      const theirs = [];
      const minePg = [];
      const theirsPg = [];
      for (let round = 0; round < ROUNDS; round++) {
        const pair = [
          () => {
            mine.push(measure(service.pid, service.base + path, ...rest));
            minePg.push(lastPostgres);
          },
          () => {
            theirs.push(measure(other.pid, other.base + path, ...rest));
            theirsPg.push(lastPostgres);
          },
        ];
        for (const run of round % 2 ? pair.reverse() : pair) run();
      }
      const ratios = mine.map((m, i) => m / theirs[i]);
      const pgRatios = minePg.every((m) => m !== undefined)
        ? minePg.map((m, i) => m / theirsPg[i])
        : undefined;
      const postgres =
        pgRatios === undefined
          ? '– (the cluster is not on this machine)'
          : `${minePg.map(us).join(' ')} / ${theirsPg.map(us).join(' ')} (**${median(pgRatios).toFixed(3)}**)`;
      lines.push(
        `| ${name} | ${mine.map(us).join(' ')} | ${theirs.map(us).join(' ')} | ${ratios.map((r) => r.toFixed(3)).join(' ')} (**${median(ratios).toFixed(3)}**) | ${postgres} |`,
      );
      log(lines.at(-1));
    }
  } finally {
    await floor?.stop();
    await other?.stop();
    await service.stop();
    await bare.stop();
    await db.stop();
  }
  console.log(lines.join('\n'));
  process.exit(0);
}
const PAGE_REQUESTS = Math.round(REQUESTS / 4);
const measurements = {
  ping: () => measure(bare.pid, `${bare.base}/ping`),
  health: () => measure(service.pid, `${service.base}/health/live`),
  whoami: () => measure(service.pid, `${service.base}/api/whoami`, withKey),
  // The issue's malformed-key pair: a refusal that must cost less than the valid whoami above.
  malformed: () => measure(service.pid, `${service.base}/api/whoami`, malformedKey, REQUESTS, true),
  row: () => measure(bare.pid, `${bare.base}/rows/${BASELINE_ITEM}`),
  interrupt: () => measure(service.pid, `${service.base}/api/interrupts/${interrupt.id}`, withKey),
  page: () =>
    measure(bare.pid, `${bare.base}/page?org=${BASELINE_ORG}&limit=50`, [], PAGE_REQUESTS),
  audit: () =>
    measure(service.pid, `${service.base}/api/audit-log?limit=50`, withKey, PAGE_REQUESTS),
  inbox: () =>
    measure(service.pid, `${service.base}/api/interrupts?limit=50`, withKey, PAGE_REQUESTS),
  ...(floor === undefined
    ? {}
    : {
        'floor-health': () => measure(floor.pid, `${floor.base}/health/live`),
        'floor-whoami': () => measure(floor.pid, `${floor.base}/api/whoami`, withKey),
        'floor-interrupt': () =>
          measure(floor.pid, `${floor.base}/api/interrupts/${interrupt.id}`, withKey),
        'floor-audit': () =>
          measure(floor.pid, `${floor.base}/api/audit-log?limit=50`, withKey, PAGE_REQUESTS),
        'floor-inbox': () =>
          measure(floor.pid, `${floor.base}/api/interrupts?limit=50`, withKey, PAGE_REQUESTS),
      }),
};

/** POSTGRES_BY_OWNER=1: the owners that spent anything in a window, µs and wake-ups a request. */
async function spentByOwner({ cpu, wakeups, requests }) {
  const admin = new pg.Client({ connectionString: db.adminUrl });
  await admin.connect();
  try {
    const spent = await clusterSpentByOwner(admin, cpu, wakeups);
    return [...spent]
      .filter(([, s]) => s.micros > 0 || s.wakeups > 0)
      .map(
        ([owner, s]) =>
          `${owner} ×${s.processes} ${(s.micros / requests).toFixed(1)} µs, ${(s.wakeups / requests).toFixed(2)} wake-ups`,
      )
      .join('; ');
  } finally {
    await admin.end();
  }
}

const rows = [];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    log(`round ${round} (load average ${loadAverage()})`);
    const row = {};
    for (const [name, run] of Object.entries(measurements)) {
      if (ONLY !== undefined && !ONLY.includes(name)) continue;
      row[name] = run();
      // The cluster's share beside the process's (printed, not in the table written out).
      if (lastPostgres !== undefined)
        log(
          `${name}: ${us(row[name])} µs a request, Postgres ${us(lastPostgres)} µs, ${us(lastBytes)} bytes an answer`,
        );
      if (lastWindow !== undefined) log(`  Postgres by owner: ${await spentByOwner(lastWindow)}`);
    }
    rows.push(row);
  }
} finally {
  await floor?.stop();
  await service.stop();
  await bare.stop();
  await db.stop();
}

const ratio = (b, a) => (a === undefined || b === undefined ? '' : ` (${(b / a).toFixed(2)})`);
const table = [
  '| round | bare `GET /ping` | `GET /health/live` (ratio) | `GET /api/whoami` (ratio) | malformed-key 401 (whoami / 401) | bare `GET /rows/:id` | `GET /api/interrupts/{id}` (ratio) | bare `GET /page?limit=50` | `GET /api/audit-log?limit=50` (ratio) | `GET /api/interrupts?limit=50` (ratio) |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r, i) =>
      `| ${i + 1} | ${us(r.ping)} | ${us(r.health)}${ratio(r.ping, r.health)} | ${us(r.whoami)}${ratio(r.ping, r.whoami)} | ${us(r.malformed)}${ratio(r.whoami, r.malformed)} | ${us(r.row)} | ${us(r.interrupt)}${ratio(r.row, r.interrupt)} | ${us(r.page)} | ${us(r.audit)}${ratio(r.page, r.audit)} | ${us(r.inbox)}${ratio(r.page, r.inbox)} |`,
  ),
].join('\n');
console.log(table);
// The floor against bare Fastify (what the contract's duties cost), and the service against the floor.
const floorTable =
  floor === undefined
    ? ''
    : [
        // A blank line after the first table (its own section's text follows it directly).
        '\n| round | bare `GET /ping` | floor `/health/live` (ping / floor) | floor `/api/whoami` (ping / floor) | bare `GET /rows/:id` | floor `/api/interrupts/{id}` (row / floor) | bare `GET /page?limit=50` | floor `/api/audit-log?limit=50` (page / floor) | floor `/api/interrupts?limit=50` (page / floor) | service over the floor: health, whoami, PK read, audit, inbox (floor / service) |',
        '|---|---|---|---|---|---|---|---|---|---|',
        ...rows.map(
          (r, i) =>
            `| ${i + 1} | ${us(r.ping)} | ${us(r['floor-health'])}${ratio(r.ping, r['floor-health'])} | ${us(r['floor-whoami'])}${ratio(r.ping, r['floor-whoami'])} | ${us(r.row)} | ${us(r['floor-interrupt'])}${ratio(r.row, r['floor-interrupt'])} | ${us(r.page)} | ${us(r['floor-audit'])}${ratio(r.page, r['floor-audit'])} | ${us(r['floor-inbox'])}${ratio(r.page, r['floor-inbox'])} | ${[
              [r['floor-health'], r.health],
              [r['floor-whoami'], r.whoami],
              [r['floor-interrupt'], r.interrupt],
              [r['floor-audit'], r.audit],
              [r['floor-inbox'], r.inbox],
            ]
              .map(([a, b]) => (a === undefined || b === undefined ? '–' : (a / b).toFixed(2)))
              .join(' / ')} |`,
        ),
      ].join('\n');
if (floorTable) console.log(floorTable);

if (process.env.BENCH_WRITE !== '0' && ONLY === undefined) {
  writeSection(
    'cpu-per-request',
    `## The request path as CPU time per request (issue 14)

Command: \`${BASELINES.join(',') === 'nest-express' ? '' : `BASELINE=${BASELINES.join(',')} `}npx nx run tools:bench-cpu\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine()}, load average ${loadBefore} before, ${loadAverage()} after, ${((Date.now() - startedAt) / 60000).toFixed(1)} min.
Microseconds of processor time (user + system, from \`/proc/<pid>/stat\`) each process spent per request,
over ${REQUESTS.toLocaleString('en')} requests (the audit pages ${PAGE_REQUESTS.toLocaleString('en')}) from ${CONNECTIONS} connections after a warm-up; the service with \`NODE_ENV=production\` and
\`LOG_LEVEL=${LOG_LEVEL}\`. The ratio is the baseline's time over the service's, the throughput ratio a single busy
process would reach; the pair bench above is the figure of the goals. This one moves little with the machine's
other load, so each change of the request path is judged by it (the list below).

${table}${floorTable}`,
  );
}
