#!/usr/bin/env node
// The service's request path against the bare apps of tools/bench/perf-baseline on the same
// throwaway Postgres, side by side in one run (issues 14 and 28): bare Fastify 5 + pg (the
// denominator of issue 28's goals) and bare NestJS (Express) + pg (a second column). Every pair
// is measured by the baseline's own run-pair.sh (A B alternated, ROUNDS rounds, a warm-up before
// every measured run), with the service at each of LEVELS (its log lines go to /dev/null); the
// POST pair alternates autocannon against pgbench running the same statements. Then memory: the
// service's RSS, sampled under a mixed full load.
//
//   npx nx run tools:bench-pairs                         (the service on Fastify, the default)
//   HTTP_ADAPTER=express npx nx run tools:bench-pairs    (the service on Express)
//
// Environment:
//   PAIRS                comma-separated pair names to run (default all: health,whoami,interrupt,audit,inbox,post,malformed)
//   BASELINES            the bare apps to pair with (default fastify,nest-express; nest-fastify too: bench-support's BASELINE_KINDS);
//                        fastify-duties, the floor (bare Fastify doing the contract's per-request duties on the
//                        service's routes and database), pairs health, whoami, interrupt, audit and inbox on the same routes,
//                        and adds the pairs floor-health, floor-whoami, floor-interrupt, floor-audit, floor-inbox: the floor
//                        against bare Fastify (with fastify)
//   HTTP_ADAPTER         the service's adapter (default fastify); BENCH_SECTION the BENCHMARKS.md section (default pairs-<adapter>)
//   LEVELS               log levels to run the service at (default info)
//   SECONDS_PER_RUN      seconds per measured run (default 8); ROUNDS (default 3), WARMUP (default 3);
//                        WARMUP_SERVICE seconds on each of the service's routes before the pairs (default 5)
//   CONNECTIONS          default 50
//   MEMORY_MINUTES       minutes of mixed full load while RSS is sampled (default 1; 5 for the target, 0 skips)
//   INBOX_INTERRUPTS     open interrupts the inbox pair's organisation holds (default 200)
//   CPU_PROF=dir         runs the service with node --cpu-prof into dir (profiles written at exit)
//   SERVICE_NODE_OPTIONS the service's NODE_OPTIONS (default: the production image's, docker/api.Dockerfile,
//                        with the options its CMD gives before the script; none of those when this is set)
//   BENCH_WRITE=0        print, do not write BENCHMARKS.md
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import {
  BASELINE_KINDS,
  BENCH_INTERRUPT,
  benchDatabase,
  build,
  checksumFailing,
  freePort,
  load,
  machine,
  median,
  prepareBaseline,
  productionNodeArgs,
  productionNodeOptions,
  recordRenderVersion,
  root,
  runPair as runBaselinePair,
  seedAuditEntries,
  seedBaselineDatabase,
  startBaseline,
  startCheckedFloor,
  stopper,
  waitFor,
  writeSection,
} from './bench-support.mjs';

const PEPPER = 'bench-pepper-0123456789-0123456789-01234';
const SECONDS = Number(process.env.SECONDS_PER_RUN ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 3);
const WARMUP_SERVICE = Number(process.env.WARMUP_SERVICE ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
/** The service's pool (apps/api/src/database/database-connection.ts) and the baseline's PG_POOL_MAX. */
const POOL = 10;
const AUDIT_ENTRIES = 50_000;
const MEMORY_MINUTES = Number(process.env.MEMORY_MINUTES ?? 1);
/**
 * Open interrupts in the benchmark organisation (INBOX_INTERRUPTS, default 200): the inbox pair
 * reads its first page of 50. More tells whether the page's cost grows with the organisation's
 * interrupts (issue 28: it did, after the POST pair had opened thousands).
 */
const INBOX_INTERRUPTS = Number(process.env.INBOX_INTERRUPTS ?? 200);
const ALL_PAIRS = ['health', 'whoami', 'interrupt', 'audit', 'inbox', 'post', 'malformed'];
const LEVELS = (process.env.LEVELS ?? 'info').split(',').filter(Boolean);
const BASELINES = (process.env.BASELINES ?? 'fastify,nest-express').split(',').filter(Boolean);
/** The floor's kind: started on the service's database once it is seeded. */
const FLOOR = 'fastify-duties';
/** The floor against bare Fastify, on the routes the floor stands for (with both baselines). */
const FLOOR_PAIRS = [
  'floor-health',
  'floor-whoami',
  'floor-interrupt',
  'floor-audit',
  'floor-inbox',
];
const PAIRS = (
  process.env.PAIRS ??
  [
    ...ALL_PAIRS,
    ...(BASELINES.includes(FLOOR) && BASELINES.includes('fastify') ? FLOOR_PAIRS : []),
  ].join(',')
)
  .split(',')
  .filter(Boolean);
const ADAPTER = process.env.HTTP_ADAPTER ?? 'fastify';
const SECTION = process.env.BENCH_SECTION ?? `pairs-${ADAPTER}`;
/** Pairs that do not involve a bare app: measured once, shown in the first baseline's column. */
const SERVICE_ONLY = new Set(['post', 'malformed']);
const BASELINE_ITEM = '761ff52b-8e6d-d373-fdf2-91a1a70df20c';
const BASELINE_ORG = 'a8d899a4-2029-d806-24b7-a414eab21801';

function log(message) {
  console.error(`[bench:pairs] ${message}`);
}

function loadAverage() {
  return loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
}

function findPgbench() {
  if (process.env.PGBENCH) return process.env.PGBENCH;
  const onPath = spawnSync('sh', ['-c', 'command -v pgbench'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(base, v, 'bin', 'pgbench')).find((p) => existsSync(p));
  if (!found)
    throw new Error('pgbench not found: install the PostgreSQL client tools or set PGBENCH');
  return found;
}

async function startService(databaseUrl, logLevel) {
  const port = await freePort();
  // As the image runs it: the options its CMD gives before the script (unless NODE_OPTIONS is the bench's).
  const nodeArgs = process.env.SERVICE_NODE_OPTIONS === undefined ? productionNodeArgs() : [];
  if (process.env.CPU_PROF) {
    mkdirSync(process.env.CPU_PROF, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', resolve(process.env.CPU_PROF));
  }
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist/apps/api/main.js')], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS ?? productionNodeOptions(),
      API_KEY_PEPPER: PEPPER,
      LOG_LEVEL: logLevel,
      HTTP_ADAPTER: ADAPTER,
      // The key budget and the allowance stay on (their bookkeeping is measured) but never refuse.
      RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
      PLAN_FREE_MESSAGES: '1000000000',
      PLAN_PRO_MESSAGES: '1000000000',
      SHUTDOWN_DRAIN_DELAY_MS: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    // Log lines (info) go to /dev/null: written, not kept.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health/ready`, child, 'the service');
  return { base, pid: child.pid, stop: stopper(child) };
}

async function call(base, method, path, { cookie, key, body } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  if (key) headers['x-api-key'] = key;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** An organisation on Pro with a key, one interrupt, and AUDIT_ENTRIES audit entries. */
async function seedService(base, client) {
  const signUp = await call(base, 'POST', '/api/auth/sign-up', {
    body: {
      email: 'bench@example.test',
      password: 'bench password',
      name: 'Bench',
      organisationName: 'Bench',
    },
  });
  const cookie = signUp.headers.get('set-cookie').split(';')[0];
  await call(base, 'PUT', '/api/organisation/plan', { cookie, body: { plan: 'pro' } });
  const { id: keyId, key } = await (
    await call(base, 'POST', '/api/api-keys', { cookie, body: { name: 'bench', expiry: 'never' } })
  ).json();
  const { organisationId } = await (await call(base, 'GET', '/api/whoami', { key })).json();
  const interrupt = await (
    await call(base, 'POST', '/api/interrupts', { key, body: BENCH_INTERRUPT })
  ).json();
  // More open interrupts than a page, so the inbox pair reads a full page of 50 and a cursor.
  for (let made = 1; made < INBOX_INTERRUPTS; made += 10)
    await Promise.all(
      Array.from({ length: Math.min(10, INBOX_INTERRUPTS - made) }, () =>
        call(base, 'POST', '/api/interrupts', { key, body: BENCH_INTERRUPT }),
      ),
    );
  const started = performance.now();
  await seedAuditEntries(client, organisationId, keyId, AUDIT_ENTRIES);
  log(
    `seeded ${AUDIT_ENTRIES} audit entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { key, keyId, organisationId, interruptId: interrupt.id, broken: checksumFailing(key) };
}

// The statements of one POST /api/interrupts without webhooks (InterruptsService.create), as it
// sends them: the interrupt, then one statement (combineStatements' shape: each write a WITH entry,
// the count the statement they lead to, run first) of its record kept with the row (the service's
// rendering; here one of the same length, its colons spaced), the outbox probe (no webhook: nothing
// written), the audit entry (its triggers chain it and count its words) and the month's allowance
// (conditional upsert), COMMIT; then the announcement (pg_notify) after the commit. A space after
// each colon, or pgbench reads `:null` as a variable.
const STORED_ACTIONS = JSON.stringify([
  {
    name: 'deploy',
    args: { service: 'api', version: '1.4.2' },
    description: 'Roll out 1.4.2',
    allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
  },
  { name: 'notify', args: {}, description: null, allowedDecisions: ['approve', 'respond'] },
]).replace(/":/g, '": ');
const RECORD = JSON.stringify({
  id: '00000000-0000-4000-8000-000000000000',
  title: 'Deploy to prod',
  description: null,
  externalId: 'run-42',
  sessionId: null,
  status: 'open',
  actionRequests: JSON.parse(STORED_ACTIONS),
  decisions: [],
  assignee: null,
  escalationLevel: 0,
  escalationReason: null,
  escalatedAt: null,
  metadata: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  answeredAt: null,
}).replace(/":/g, '": ');
const pgbenchInsert = (org, keyId) => `BEGIN;
INSERT INTO interrupts (organisation_id, id, title, description, external_id, session_id, action_requests, metadata, opened_by_key_id, title_search)
  VALUES ('${org}', gen_random_uuid(), 'Deploy to prod', NULL, 'run-42', NULL, '${STORED_ACTIONS}', NULL, '${keyId}', array_to_tsvector(ARRAY['deploy','to','prod']))
  RETURNING id AS iid, created_at \\gset
WITH write_0 AS (UPDATE interrupts SET record_json = '${RECORD}', record_version = ${recordRenderVersion()} WHERE organisation_id = '${org}' AND id = :iid),
targets AS (
  SELECT id FROM webhooks
   WHERE organisation_id = '${org}' AND enabled AND (event_types IS NULL OR 'interrupt.created' = ANY(event_types))
), event AS (
  INSERT INTO webhook_events (organisation_id, id, type, subject_id, body, created_at)
  SELECT '${org}', gen_random_uuid(), 'interrupt.created', :iid, '{}', now() WHERE EXISTS (SELECT 1 FROM targets)
  RETURNING id
), write_1 AS (INSERT INTO webhook_deliveries (organisation_id, id, webhook_id, event_id, event_type, subject_id, due_at, max_attempts)
SELECT '${org}', gen_random_uuid(), t.id, e.id, 'interrupt.created', :iid, now(), 10 FROM targets t CROSS JOIN event e),
write_2 AS (INSERT INTO audit_log_entries
  (organisation_id, id, action, category, actor_type, actor_id, actor_name, target_type, target_id, target_name, summary, metadata, ip_address, search)
  VALUES ('${org}', gen_random_uuid(), 'interrupt.created', 'interrupt', 'api_key', '${keyId}', 'bench', 'interrupt', :iid, 'Deploy to prod',
          'Interrupt Deploy to prod opened by key bench', '{"externalId": "run-42", "actionRequests": ["deploy","notify"]}', '127.0.0.1',
          array_to_tsvector(ARRAY['interrupt','deploy','to','prod','opened','by','key','bench','created'])))
INSERT INTO usage_months AS u (organisation_id, month, messages)
  SELECT '${org}'::uuid, (date_trunc('month', now() AT TIME ZONE 'UTC'))::date, 1
   WHERE (SELECT CASE o.plan WHEN 'pro' THEN 1000000000 ELSE 1000000000 END FROM organisations o WHERE o.id = '${org}'::uuid) > 0
  ON CONFLICT (organisation_id, month) DO UPDATE SET messages = u.messages + 1
   WHERE u.messages < (SELECT CASE o.plan WHEN 'pro' THEN 1000000000 ELSE 1000000000 END FROM organisations o WHERE o.id = '${org}'::uuid)
  RETURNING u.messages;
END;
SELECT pg_notify('interlock_org_events', '${org}');
`;

function pgbenchRun(binary, url, script, seconds) {
  const dir = mkdtempSync(join(tmpdir(), 'interlock-pgbench-'));
  try {
    writeFileSync(join(dir, 'script.sql'), script);
    const out = execFileSync(
      binary,
      [
        '-n',
        '-M',
        'prepared',
        '-c',
        String(POOL),
        '-j',
        '2',
        '-T',
        String(seconds),
        '-f',
        join(dir, 'script.sql'),
        url,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
    if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${out}`);
    return { rps: tps, failed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pair by run-pair.sh (bench-support's `runPair`) with this run's rounds, durations and connections. */
function runPair(baselineDir, urlA, urlB, env, pids) {
  return runBaselinePair(baselineDir, urlA, urlB, {
    env,
    pids,
    rounds: ROUNDS,
    seconds: SECONDS,
    warmup: WARMUP,
    connections: CONNECTIONS,
    log,
  });
}

/** POST through the service vs pgbench of the same statements, alternated like run-pair.sh. */
async function runPostPair(binary, base, dbUrl, seeded) {
  const script = pgbenchInsert(seeded.organisationId, seeded.keyId);
  const post = {
    url: `${base}/api/interrupts`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': seeded.key },
    body: JSON.stringify(BENCH_INTERRUPT),
    connections: CONNECTIONS,
  };
  const a = [];
  const b = [];
  let bad = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    if (WARMUP > 0) await load({ ...post, duration: WARMUP });
    const r = await load({ ...post, duration: SECONDS });
    const rps = r.requests.total / SECONDS;
    bad += r.non2xx + r.errors + r.timeouts;
    a.push(rps);
    log(
      `round ${round}  A  ${rps.toFixed(1)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non2xx=${r.non2xx} errors=${r.errors}`,
    );
    if (WARMUP > 0) pgbenchRun(binary, dbUrl, script, WARMUP);
    const p = pgbenchRun(binary, dbUrl, script, SECONDS);
    bad += p.failed;
    b.push(p.rps);
    log(
      `round ${round}  B  ${p.rps.toFixed(1)} tps (pgbench, ${POOL} clients)  failed=${p.failed}`,
    );
  }
  if (bad !== 0) throw new Error(`the POST pair saw ${bad} failed requests or transactions`);
  const ratios = a.map((x, i) => x / b[i]);
  log(`per-round A/B: ${ratios.map((r) => r.toFixed(3)).join(' ')}`);
  return {
    ratio: Number(median(ratios).toFixed(2)),
    perRound: ratios.map((r) => r.toFixed(3)).join(' '),
    a: median(a),
    b: median(b),
  };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/**
 * MEMORY_MINUTES of full load (CONNECTIONS connections spread over whoami, the interrupt read,
 * the audit page and POST), the service's RSS sampled every 10 s.
 */
async function measureMemory(service, seeded) {
  const samples = [];
  const started = Date.now();
  const timer = setInterval(
    () => samples.push({ at: (Date.now() - started) / 1000, rss: rssMb(service.pid) }),
    10_000,
  );
  const quarter = Math.max(1, Math.floor(CONNECTIONS / 4));
  const duration = MEMORY_MINUTES * 60;
  const headers = { 'x-api-key': seeded.key };
  const results = await Promise.all([
    load({ url: `${service.base}/api/whoami`, headers, connections: quarter, duration }),
    load({
      url: `${service.base}/api/interrupts/${seeded.interruptId}`,
      headers,
      connections: quarter,
      duration,
    }),
    load({
      url: `${service.base}/api/audit-log?limit=50`,
      headers,
      connections: quarter,
      duration,
    }),
    load({
      url: `${service.base}/api/interrupts`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_INTERRUPT),
      connections: quarter,
      duration,
    }),
  ]);
  clearInterval(timer);
  samples.push({ at: (Date.now() - started) / 1000, rss: rssMb(service.pid) });
  const requests = results.reduce((n, r) => n + r.requests.total, 0);
  const bad = results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  const at = (minute) => samples.filter((s) => s.at <= minute * 60 + 5).at(-1)?.rss;
  return { samples, requests, bad, at, max: Math.max(...samples.map((s) => s.rss)) };
}

// ---------------------------------------------------------------------------------------------

const startedAt = Date.now();
const loadBefore = loadAverage();
const baseline = prepareBaseline(log);
log(`building the service`);
build('apps/api/tsup.config.ts');
const pgbenchBinary = PAIRS.includes('post') ? findPgbench() : undefined;

const db = await benchDatabase('interlock_bench_pairs', ['shared_buffers=512MB']);
log('seeding the baseline (its seed.mjs: 100k items, 1M audit rows over 20 orgs)');
const baselineUrl = await seedBaselineDatabase(db.adminUrl, 'perf_baseline', baseline.dir);

const client = new pg.Client({ connectionString: db.url });
await client.connect();
const bares = {};
const stops = [];
const results = {}; // level -> baseline -> pair -> result
let seeded;
let memory;
try {
  for (const kind of BASELINES) {
    if (kind === FLOOR) continue;
    bares[kind] = await startBaseline(baseline.dir, baselineUrl, POOL, kind);
    stops.push(bares[kind].stop);
  }
  for (const level of LEVELS) {
    const service = await startService(db.url, level);
    stops.push(service.stop);
    seeded ??= await seedService(service.base, client);
    if (BASELINES.includes(FLOOR) && bares[FLOOR] === undefined) {
      bares[FLOOR] = await startCheckedFloor(
        baseline.dir,
        db.url,
        POOL,
        { API_KEY_PEPPER: PEPPER, RATE_LIMIT_API_KEY_REQUESTS: '1000000000' },
        service.base,
        seeded.key,
        seeded.interruptId,
      );
      // Stopped at the end with the other bare apps (the service's own stop is popped per level).
      stops.unshift(bares[FLOOR].stop);
      log(bares[FLOOR].checked);
    }
    const a = service.base;
    // Each of the service's measured routes once under load before any pair (WARMUP_SERVICE s
    // each): the first pair otherwise pays for V8 compiling the request path, which a pair's own
    // few seconds of warm-up do not cover on a loaded machine.
    for (const path of [
      '/health/live',
      '/api/whoami',
      `/api/interrupts/${seeded.interruptId}`,
      '/api/audit-log?limit=50',
      '/api/interrupts?limit=50',
    ])
      await load({
        url: `${a}${path}`,
        headers: { 'x-api-key': seeded.key },
        connections: CONNECTIONS,
        duration: WARMUP_SERVICE,
      });
    const keyed = { HEADERS_A: `x-api-key=${seeded.key}` };
    const pairsWith = (bare, kind) => {
      const b = bare.base;
      const pids = { a: service.pid, b: bare.pid };
      if (kind === FLOOR) {
        // The same routes and key on both sides.
        const both = { ...keyed, HEADERS_B: keyed.HEADERS_A };
        return {
          health: () => runPair(baseline.dir, `${a}/health/live`, `${b}/health/live`, {}, pids),
          whoami: () => runPair(baseline.dir, `${a}/api/whoami`, `${b}/api/whoami`, both, pids),
          interrupt: () =>
            runPair(
              baseline.dir,
              `${a}/api/interrupts/${seeded.interruptId}`,
              `${b}/api/interrupts/${seeded.interruptId}`,
              both,
              pids,
            ),
          audit: () =>
            runPair(
              baseline.dir,
              `${a}/api/audit-log?limit=50`,
              `${b}/api/audit-log?limit=50`,
              both,
              pids,
            ),
          inbox: () =>
            runPair(
              baseline.dir,
              `${a}/api/interrupts?limit=50`,
              `${b}/api/interrupts?limit=50`,
              both,
              pids,
            ),
        };
      }
      const floor = kind === 'fastify' ? bares[FLOOR] : undefined;
      const floorPids = floor && { a: floor.pid, b: bare.pid };
      return {
        ...(floor && {
          'floor-health': () =>
            runPair(baseline.dir, `${floor.base}/health/live`, `${b}/ping`, {}, floorPids),
          'floor-whoami': () =>
            runPair(baseline.dir, `${floor.base}/api/whoami`, `${b}/ping`, keyed, floorPids),
          'floor-interrupt': () =>
            runPair(
              baseline.dir,
              `${floor.base}/api/interrupts/${seeded.interruptId}`,
              `${b}/rows/${BASELINE_ITEM}`,
              keyed,
              floorPids,
            ),
          'floor-audit': () =>
            runPair(
              baseline.dir,
              `${floor.base}/api/audit-log?limit=50`,
              `${b}/page?org=${BASELINE_ORG}&limit=50`,
              keyed,
              floorPids,
            ),
          'floor-inbox': () =>
            runPair(
              baseline.dir,
              `${floor.base}/api/interrupts?limit=50`,
              `${b}/page?org=${BASELINE_ORG}&limit=50`,
              keyed,
              floorPids,
            ),
        }),
        health: () => runPair(baseline.dir, `${a}/health/live`, `${b}/ping`, {}, pids),
        whoami: () => runPair(baseline.dir, `${a}/api/whoami`, `${b}/ping`, keyed, pids),
        interrupt: () =>
          runPair(
            baseline.dir,
            `${a}/api/interrupts/${seeded.interruptId}`,
            `${b}/rows/${BASELINE_ITEM}`,
            keyed,
            pids,
          ),
        audit: () =>
          runPair(
            baseline.dir,
            `${a}/api/audit-log?limit=50`,
            `${b}/page?org=${BASELINE_ORG}&limit=50`,
            keyed,
            pids,
          ),
        inbox: () =>
          runPair(
            baseline.dir,
            `${a}/api/interrupts?limit=50`,
            `${b}/page?org=${BASELINE_ORG}&limit=50`,
            keyed,
            pids,
          ),
        post: () => runPostPair(pgbenchBinary, a, db.url, seeded),
        malformed: () =>
          runPair(baseline.dir, `${a}/api/whoami`, `${a}/api/whoami`, {
            HEADERS_A: `x-api-key=${seeded.broken}`,
            HEADERS_B: `x-api-key=${seeded.key}`,
            ALLOW_NON2XX: '1',
          }),
      };
    };
    results[level] = {};
    for (const kind of BASELINES) {
      const pairs = pairsWith(bares[kind], kind);
      results[level][kind] = {};
      for (const name of PAIRS) {
        if (SERVICE_ONLY.has(name) && kind !== BASELINES[0]) continue;
        // A pair a baseline has no side of (the floor pairs, but with bare Fastify).
        if (pairs[name] === undefined) continue;
        log(`LOG_LEVEL=${level}, ${kind}: pair ${name} (load average ${loadAverage()})`);
        results[level][kind][name] = await pairs[name]();
        log(`LOG_LEVEL=${level}, ${kind}: ${name} ratio ${results[level][kind][name].ratio}`);
      }
    }
    if (level === LEVELS[0] && MEMORY_MINUTES > 0) {
      log(`memory: ${MEMORY_MINUTES} min of mixed full load at LOG_LEVEL=${level}`);
      memory = await measureMemory(service, seeded);
      log(
        `memory: RSS ${memory.samples.map((s) => `${Math.round(s.at)}s ${s.rss.toFixed(0)}`).join(', ')} MB`,
      );
    }
    await service.stop();
    stops.pop();
  }
} finally {
  await client.end();
  for (const stop of stops.reverse()) await stop();
  db.stop();
}
const loadAfter = loadAverage();
const minutes = ((Date.now() - startedAt) / 60_000).toFixed(1);

// [A, B (with a bare app's name for %), goal against bare Fastify]
const LABELS = {
  health: ['`GET /health/live`', '% `GET /ping`', 0.8],
  whoami: ['`GET /api/whoami` with a key', '% `GET /ping`', 0.6],
  interrupt: ['`GET /api/interrupts/{id}` with a key', '% PK read `GET /rows/:id`', 0.6],
  audit: [
    '`GET /api/audit-log?limit=50` (50,000 entries) with a key',
    '% keyset page `GET /page?org=…&limit=50`',
    0.6,
  ],
  inbox: [
    `\`GET /api/interrupts?limit=50\` (${INBOX_INTERRUPTS} open) with a key`,
    '% keyset page `GET /page?org=…&limit=50`',
    0.5,
  ],
  post: [
    '`POST /api/interrupts` (1 organisation)',
    `pgbench, the same statements (${POOL} clients)`,
    0.7,
  ],
  malformed: [
    '`GET /api/whoami`, checksum-failing key (401)',
    '`GET /api/whoami`, valid key (the service)',
    1.0,
  ],
  // The floor against bare Fastify (no goal: what the contract's duties cost on their own).
  'floor-health': ['the floor `GET /health/live`', '% `GET /ping`'],
  'floor-whoami': ['the floor `GET /api/whoami` with a key', '% `GET /ping`'],
  'floor-interrupt': [
    'the floor `GET /api/interrupts/{id}` with a key',
    '% PK read `GET /rows/:id`',
  ],
  'floor-audit': [
    'the floor `GET /api/audit-log?limit=50` with a key',
    '% keyset page `GET /page?org=…&limit=50`',
  ],
  'floor-inbox': [
    'the floor `GET /api/interrupts?limit=50` with a key',
    '% keyset page `GET /page?org=…&limit=50`',
  ],
};
const fmt = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const columns = LEVELS.flatMap((level) => BASELINES.map((kind) => ({ level, kind })));
const resultOf = (level, kind, name) =>
  results[level]?.[SERVICE_ONLY.has(name) ? BASELINES[0] : kind]?.[name];
const rows = PAIRS.map((name) => {
  const [a, b, goal] = LABELS[name];
  const bLabel = SERVICE_ONLY.has(name) ? b : b.replace('%', 'bare');
  const cells = columns.map(({ level, kind }) => {
    if (SERVICE_ONLY.has(name) && kind !== BASELINES[0]) return '(same)';
    const r = resultOf(level, kind, name);
    return r ? `**${r.ratio.toFixed(2)}** (${fmt(r.a)} / ${fmt(r.b)})` : '–';
  });
  const goalKind = SERVICE_ONLY.has(name) ? BASELINES[0] : 'fastify';
  if (goal === undefined) return `| ${a} | ${bLabel} | ${cells.join(' | ')} | – | – |`;
  const met = LEVELS.map((level) => {
    const r = resultOf(level, goalKind, name);
    return r ? (r.ratio >= goal ? 'yes' : 'no') : '–';
  }).join(' / ');
  return `| ${a} | ${bLabel} | ${cells.join(' | ')} | ≥ ${goal.toFixed(2)} | ${met} |`;
});
const perRound = PAIRS.flatMap((name) =>
  columns.flatMap(({ level, kind }) => {
    if (SERVICE_ONLY.has(name) && kind !== BASELINES[0]) return [];
    const r = resultOf(level, kind, name);
    // Pairs a baseline has no side of (the floor pairs, but with bare Fastify).
    if (r === undefined && (kind === FLOOR || FLOOR_PAIRS.includes(name))) return [];
    return [`${name} vs ${kind} (${level}): ${r?.perRound ?? '–'}`];
  }),
);
const cpuLines = PAIRS.flatMap((name) =>
  columns.flatMap(({ level, kind }) => {
    const cpu = SERVICE_ONLY.has(name) ? undefined : results[level]?.[kind]?.[name]?.cpu;
    if (!cpu) return [];
    return [
      `${name} vs ${kind} (${level}): A ${cpu.a.perRequest.toFixed(0)} µs at ${(100 * cpu.a.core).toFixed(0)} %, B ${cpu.b.perRequest.toFixed(0)} µs at ${(100 * cpu.b.core).toFixed(0)} %, steal ${(100 * cpu.steal).toFixed(1)} %`,
    ];
  }),
);

let memoryText = '';
if (memory) {
  const growth =
    MEMORY_MINUTES >= 5
      ? `; minute 2 → 5: ${memory.at(2).toFixed(0)} → ${memory.at(5).toFixed(0)} MB (${(memory.at(5) - memory.at(2)).toFixed(0)} MB)`
      : '';
  memoryText = `
Memory (\`MEMORY_MINUTES=${MEMORY_MINUTES}\`, LOG_LEVEL=${LEVELS[0]}): ${MEMORY_MINUTES} min of full load, ${CONNECTIONS} connections spread
over whoami, the interrupt read, the audit page and POST (${memory.requests.toLocaleString('en')} requests, ${memory.bad} failed).
RSS every 10 s (MB): ${memory.samples.map((s) => s.rss.toFixed(0)).join(', ')}. At the end: **${memory.samples.at(-1).rss.toFixed(0)} MB**, max ${memory.max.toFixed(0)} MB${growth}.
Target: ≤ 200 MB after 5 minutes, no growth between minute 2 and 5.`;
}

const env = [
  process.env.HTTP_ADAPTER ? `HTTP_ADAPTER=${ADAPTER}` : '',
  process.env.BENCH_SECTION ? `BENCH_SECTION=${SECTION}` : '',
  process.env.PAIRS ? `PAIRS=${process.env.PAIRS}` : '',
  process.env.BASELINES ? `BASELINES=${process.env.BASELINES}` : '',
  process.env.LEVELS ? `LEVELS=${process.env.LEVELS}` : '',
  process.env.SECONDS_PER_RUN ? `SECONDS_PER_RUN=${SECONDS}` : '',
  process.env.ROUNDS ? `ROUNDS=${ROUNDS}` : '',
  process.env.MEMORY_MINUTES ? `MEMORY_MINUTES=${MEMORY_MINUTES}` : '',
]
  .filter(Boolean)
  .join(' ');
const adapterName = ADAPTER === 'express' ? 'Express' : 'Fastify';
// A run into its own section (BENCH_SECTION) gets its own heading: README and the notes point at the default one by name.
const heading = process.env.BENCH_SECTION
  ? `The request path on ${adapterName}: the run kept as \`${SECTION}\` (issues 14, 28)`
  : `The request path on ${adapterName} against bare Fastify and bare NestJS + Express (issues 14, 28)`;
const markdown = `## ${heading}

Command: \`${env ? `${env} ` : ''}npx nx run tools:bench-pairs\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine()},
Postgres 15 (one throwaway cluster, fsync off; the bare apps in their own database, seeded by its \`seed.mjs\`), ${minutes} min.
The service runs on NestJS's **${adapterName}** adapter (\`HTTP_ADAPTER=${ADAPTER}\`).
Load average (1 / 5 / 15 min) **${loadBefore}** before, **${loadAfter}** after: the machine is shared by other
engineers' runs, so only the ratios, each taken in one run (A and B alternated, sharing the noise), are figures.
Each pair is the baseline's \`run-pair.sh\` (${ROUNDS} rounds × ${SECONDS} s, A then B, a
${WARMUP} s warm-up before every run, ${CONNECTIONS} connections; the ratio is the median of the per-round ratios); the POST pair
alternates autocannon with pgbench the same way. The service runs with \`NODE_ENV=production\`, its pool of ${POOL} against
the bare apps' \`PG_POOL_MAX=${POOL}\`, the key budget on but out of reach, and \`NODE_OPTIONS=${process.env.SERVICE_NODE_OPTIONS ?? productionNodeOptions()}\`${process.env.SERVICE_NODE_OPTIONS === undefined ? ` with \`node ${productionNodeArgs().join(' ')}\`` : ''} as in the production
image; at \`info\` it writes one line per request (to /dev/null). The goals are issue 28's, against bare Fastify.${
  BASELINES.includes(FLOOR)
    ? `
Against ${BASELINE_KINDS[FLOOR].name} (\`fastify-duties\`, the floor: \`tools/bench/perf-baseline/fastify/duties.mjs\` on the
service's database, its answers checked against the service's first), B is the same route on the floor, with the same key.`
    : ''
}

| A (the service) | B | ${columns.map(({ level, kind }) => `ratio A/B vs ${BASELINE_KINDS[kind].name}, LOG_LEVEL=${level} (req/s A / B)`).join(' | ')} | goal (vs bare Fastify) | met (${LEVELS.join(' / ')}) |
|---|---|${columns.map(() => '---|').join('')}---|---|
${rows.join('\n')}

Per-round ratios: ${perRound.join('; ')}.

Where each pair's time went (from \`/proc\`: each process's CPU time per request, and its share of a core
in its own turns — over 100 % with V8's and libuv's helper threads; warm-ups counted at the measured rate —
and the hypervisor's steal over the pair), to tell a ratio the code earned from one the machine gave:
${cpuLines.join('; ')}.
${memoryText}`;

console.log(markdown);
if (process.env.BENCH_WRITE !== '0') writeSection(SECTION, markdown);
