#!/usr/bin/env node
// Waiting without polling (issue 37 §6): N agents (default 10,000) of one organisation wait for
// their interrupts with the TypeScript SDK's real `waitForAnswer` (which holds
// `GET /api/interrupts/{id}?waitSeconds=60`), first on one instance, then on two instances behind
// HAProxy (docker/haproxy.cfg's round-robin), with each decision made directly on an instance —
// for the two-instance figure, only the decisions made on the other instance than the one holding
// the wait are counted. Measured while they wait (an idle window): requests/s the waiting costs,
// the service's CPU (% of one core) and RSS; then, from each decision's 2xx to its agent's
// `waitForAnswer` returning, p50/p99. The organisation's request budget is the default (6,000 a
// minute): the bench checks that no request is answered 429 and reports the least
// `RateLimit-Remaining` seen.
//   npx nx run tools:bench-waiters    (BENCH_DATABASE_URL=postgres://… to use your own server;
//   BENCH_WAITERS=N agents, BENCH_WAITERS_DECISIONS=D decisions sampled per phase,
//   BENCH_WAITERS_WINDOW_SECONDS=S idle window per phase, default 65: one full wait and more;
//   BENCH_WAITERS_PHASES=one or two to run one phase only (BENCHMARKS.md is then left alone);
//   BENCH_WAITERS_PROFILE=<dir> for the measured instances' CPU profiles, node --cpu-prof;
//   BENCH_WAITERS_AGENT_PROCESSES=K processes holding the agents, default one per 2,500;
//   BENCH_WAITERS_NODE_OPTIONS the measured instances' NODE_OPTIONS (none by default; 'production':
//   the production image's);
//   BENCH_WAITERS_NODE_ARGS more flags for them, such as --trace-gc;
//   BENCH_WAITERS_COMPARE='<NODE_OPTIONS>|<NODE_OPTIONS>|…' ('production' for the image's, 'none'
//   for none): instead of the phases, one instance with each in turn on the same seeded interrupts,
//   BENCH_WAITERS_ROUNDS times (default 1), each in a budget minute of its own; their CPU per wait
//   cycle side by side, BENCHMARKS.md left alone — to choose the image's heap options)
// The agents are spread over K processes (waiters-bench.agents.mjs): one process holding 10,000
// of them was itself the bottleneck (88 s to send the waits, its event loop late to see a wait
// return). This process holds no agent: it seeds, makes the decisions and aggregates; a decision's
// 2xx and its wait's return are both timed on process.hrtime (CLOCK_MONOTONIC, one clock for every
// process of the machine). Node's fetch keeps connections alive and does not limit them per
// origin; the script raises its open-files limit (and so its children's) when it is below what
// the connections need.
import { execFileSync, fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  benchDatabase,
  build,
  cpuMicros,
  freePort,
  hostReferenceMs,
  machine,
  productionNodeOptions,
  root,
  signUpWithKey,
  startService,
  waitFor,
  writeSection,
} from './bench-support.mjs';

const N = Number(process.env.BENCH_WAITERS ?? 10_000);
const DECISIONS = Number(process.env.BENCH_WAITERS_DECISIONS ?? 200);
const WINDOW_S = Number(process.env.BENCH_WAITERS_WINDOW_SECONDS ?? 65);
/** Which phases run: `one`, `two` or both (the default). */
const PHASES = (process.env.BENCH_WAITERS_PHASES ?? 'one,two').split(',');
/** A directory for the measured instances' CPU profiles (node --cpu-prof), when set. */
const PROFILE_DIR = process.env.BENCH_WAITERS_PROFILE;
/** Processes holding the agents (each a share of them, one SDK client per base in each). */
const AGENT_PROCESSES = Number(
  process.env.BENCH_WAITERS_AGENT_PROCESSES ?? Math.max(1, Math.ceil(N / 2_500)),
);
/**
 * The measured instances' NODE_OPTIONS: none unless told (`production` for the production image's,
 * docker/api.Dockerfile). Not the image's by default, as the figures before were taken: its old
 * generation of 192 MB ran out of heap at 10,000 held waits (issue 37 §6); at 256 MB an instance
 * holds what its heap holds (about 11,000, SPEC §8e) and answers 503 past it.
 */
const NODE_OPTIONS =
  process.env.BENCH_WAITERS_NODE_OPTIONS === 'production'
    ? productionNodeOptions()
    : (process.env.BENCH_WAITERS_NODE_OPTIONS ?? '');
const log = (message) => console.error(`[bench-waiters] ${message}`);
/** BENCH_WAITERS_COMPARE: the NODE_OPTIONS measured in turn, one instance each (none: the phases). */
const COMPARE = process.env.BENCH_WAITERS_COMPARE?.split('|').map((o) =>
  o === 'production' ? productionNodeOptions() : o === 'none' ? '' : o,
);
const ROUNDS = Number(process.env.BENCH_WAITERS_ROUNDS ?? 1);

// Open files are counted per process: an agents' process holds one socket per agent of its share,
// each service one per wait it holds (all N on one instance), and a load balancer two per wait it passes on (the agent's and
// the instance's). Raise this process's (and so its children's) soft limit as far as the hard
// limit lets; past it, the agents are spread over several load balancers (each one HAProxy with
// the same settings in front of both instances), as a larger deployment would run them.
const FILES_SPARE = 2048;
const hardLimit = Number(execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim());
const softLimit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
const FILES_WANTED = Math.min(
  Number.isFinite(hardLimit) ? hardLimit : Infinity,
  2 * N + 3 * FILES_SPARE,
);
if (N + FILES_SPARE > (Number.isFinite(hardLimit) ? hardLimit : Infinity)) {
  log(
    `${N} agents need ${N + FILES_SPARE} open files in the one instance; the hard limit is ${hardLimit}`,
  );
  process.exit(1);
}
if (softLimit < FILES_WANTED && process.env.BENCH_WAITERS_RAISED !== '1') {
  const raised = spawnSync(
    'sh',
    [
      '-c',
      `ulimit -n ${FILES_WANTED} && exec "$0" "$@"`,
      process.execPath,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit', env: { ...process.env, BENCH_WAITERS_RAISED: '1' } },
  );
  if (raised.status !== 0 && raised.status !== null)
    log(`could not run with ${FILES_WANTED} open files (ulimit -n is ${softLimit})`);
  process.exit(raised.status ?? 1);
}
const FILES = Math.max(
  softLimit,
  Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()),
);
/** Load balancers in the two-instance phase: each passes on at most (FILES - spare) / 2 waits. */
const BALANCERS = Math.max(1, Math.ceil((2 * N) / (FILES - FILES_SPARE)));

const PEPPER = 'bench-pepper-0123456789-0123456789-01234';
const ENV = {
  NODE_ENV: 'development',
  API_KEY_PEPPER: PEPPER,
  LOG_LEVEL: 'warn',
  PLAN_FREE_MESSAGES: '1000000000',
  PASSWORD_SCRYPT_LOG_N: '14',
};

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds on process.hrtime: the clock the agents' processes time their returns on too. */
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Opens `count` interrupts through an instance whose budget is off (the measured ones keep theirs). */
async function openInterrupts(base, key, count) {
  const ids = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      let res;
      // A 503 (the pool busy, on a loaded machine) is retried: the same Idempotency-Key opens one.
      for (let attempt = 0; ; attempt++) {
        res = await fetch(`${base}/api/interrupts`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': key,
            'idempotency-key': `bench-waiters-${n}`,
          },
          body: JSON.stringify({
            title: `Deploy build ${n}`,
            actionRequests: [{ name: 'deploy', args: { build: n } }],
          }),
        });
        if (res.status !== 503 || attempt === 5) break;
        await res.arrayBuffer();
        await sleep(1_000);
      }
      if (res.status !== 201)
        throw new Error(`POST /api/interrupts: ${res.status} ${await res.text()}`);
      ids[n] = (await res.json()).id;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return ids;
}

/** HAProxy with docker/haproxy.cfg's settings in front of `servers`; waits longer than 60 s pass. */
async function startHaproxy(servers, waits) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-waiters-haproxy-'));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    `global
  maxconn ${waits + 1000}
defaults
  mode http
  option forwardfor
  timeout connect 2s
  timeout client 75s
  timeout server 75s
  timeout http-keep-alive 10s
  timeout check 2s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
frontend api
  bind 127.0.0.1:${port}
  maxconn ${waits + 1000}
  default_backend replicas
backend replicas
  balance roundrobin
  http-request disable-l7-retry if !METH_GET !METH_HEAD !METH_OPTIONS !{ req.hdr(idempotency-key) -m found }
  http-response set-header x-bench-server %s
  option httpchk GET /health/ready
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
${servers.map((s, i) => `  server api-${i + 1} 127.0.0.1:${s.port} check`).join('\n')}
`,
  );
  const child = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health/ready`, child, 'haproxy');
  return {
    base,
    pid: child.pid,
    stop: () =>
      new Promise((r) => {
        child.on('exit', () => (rmSync(dir, { recursive: true, force: true }), r()));
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The agents' processes: `count` of them (forked, waiters-bench.agents.mjs), each holding its share
 * of the agents; asks, answers and the waits' returns over IPC.
 */
function startAgents(count) {
  return Array.from({ length: count }, () => {
    const child = fork(join(root, 'tools/bench/waiters-bench.agents.mjs'), [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const handlers = new Map();
    child.on('message', (message) => handlers.get(message.type)?.(message));
    const next = (type) => new Promise((resolve) => handlers.set(type, resolve));
    return {
      pid: child.pid,
      on: (type, handler) => handlers.set(type, handler),
      next,
      send: (message) => child.send(message),
      snapshot: () => {
        const answer = next('snapshot');
        child.send({ type: 'snapshot' });
        return answer;
      },
      stop: async () => {
        const stopped = next('stopped');
        child.send({ type: 'stop' });
        const { failures } = await stopped;
        if (child.exitCode === null) await new Promise((r) => child.on('exit', r));
        return failures;
      },
    };
  });
}

/** The sums of the agents' counters (one snapshot of each process). */
function total(snapshots) {
  const why = {};
  for (const s of snapshots)
    for (const [reason, n] of Object.entries(s.unavailableWhy))
      why[reason] = (why[reason] ?? 0) + n;
  const least = snapshots.map((s) => s.leastRemaining).filter((r) => r !== null);
  return {
    requests: snapshots.reduce((n, s) => n + s.requests, 0),
    refused: snapshots.reduce((n, s) => n + s.refused, 0),
    unavailable: snapshots.reduce((n, s) => n + s.unavailable, 0),
    unavailableWhy: why,
    leastRemaining: least.length === 0 ? null : Math.min(...least),
    lagP99: Math.max(0, ...snapshots.map((s) => s.lagP99)),
  };
}

/**
 * One phase: N agents wait on `ids` through `base`, spread over AGENT_PROCESSES processes; an idle
 * window measures the waiting; then DECISIONS of them are decided from this process (which holds
 * no agent), spread over one wait's length, each on `decideOn(i)`, timing each decision's 2xx to
 * its waitForAnswer returning — both on process.hrtime, the machine's one monotonic clock.
 * `counts(server, instance)` says whether a sample counts (server: the one that held the wait).
 */
async function phase({ name, base, key, ids, services, decideOn, counts, cookie, database }) {
  const bases = Array.isArray(base) ? base : [base];
  // Each instance's RSS: at the phase's start (an instance reused from the phase before starts
  // where that one left it), its highest in the idle window, and after the phase's agents left.
  const rssStart = services.map((s) => rssMb(s.pid));
  // The host's speed just before and just after the measurement (bench-support's scrypt
  // reference): the same build's CPU a cycle moved threefold with it between runs (session 20).
  const hostBefore = hostReferenceMs();
  const agents = startAgents(Math.min(AGENT_PROCESSES, ids.length));
  const returned = new Map();
  for (const a of agents)
    a.on('returned', ({ id, at, server }) => returned.set(id, { at, server }));
  const startedAt = Date.now();
  const sent = agents.map((a) => a.next('sent'));
  agents.forEach((a, k) =>
    a.send({
      type: 'start',
      sdk: pathToFileURL(join(root, 'libs/sdk-ts/dist/index.js')).href,
      key,
      bases,
      ids: ids.filter((_, i) => i % agents.length === k),
    }),
  );
  // The bound on sending is cleared once they are sent: a pending 5-minute timer kept this process
  // alive after its results (BENCH_WAITERS_COMPARE's phases are shorter than it).
  let notSent;
  try {
    await Promise.race([
      Promise.all(sent),
      new Promise((_, reject) => {
        notSent = setTimeout(
          () => reject(new Error(`${name}: the waits were not all sent`)),
          300_000,
        );
      }),
    ]);
  } finally {
    clearTimeout(notSent);
  }
  log(
    `${name}: ${ids.length} waits sent by ${agents.length} agent processes in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  await sleep(5_000);

  // The idle window: nothing is decided, the agents only wait.
  const before = total(await Promise.all(agents.map((a) => a.snapshot())));
  const transactions0 = await database.transactions();
  const cpu0 = services.map((s) => cpuMicros(s.pid));
  const agentsCpu0 = agents.map((a) => cpuMicros(a.pid));
  const t0 = performance.now();
  let rss = services.map(() => 0);
  // The herd: the most requests the agents started in one second of the window (requests/s).
  let peak = 0;
  let last = { requests: before.requests, at: t0 };
  while (performance.now() - t0 < WINDOW_S * 1000) {
    rss = services.map((s, i) => Math.max(rss[i], rssMb(s.pid)));
    await sleep(1000);
    const { requests } = total(await Promise.all(agents.map((a) => a.snapshot())));
    const at = performance.now();
    peak = Math.max(peak, ((requests - last.requests) * 1000) / (at - last.at));
    last = { requests, at };
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = services.map((s, i) => (cpuMicros(s.pid) - cpu0[i]) / 1e6);
  const cpu = cpuSeconds.map((c) => c / seconds);
  const windowEnd = total(await Promise.all(agents.map((a) => a.snapshot())));
  const transactions = (await database.transactions()) - transactions0;
  const requests = windowEnd.requests - before.requests;
  const requestsPerSecond = requests / seconds;
  // One wait cycle: a held request from its arrival to its answer, and the agent's next request —
  // in the window, every agent request is one (nothing is decided). The instances' CPU (all of
  // it: the waits' and the instance's own upkeep) per cycle, and the database's transactions per
  // cycle (pg_stat_database's commits: each statement outside a transaction is one).
  const cpuPerCycleMs =
    requests === 0 ? NaN : (cpuSeconds.reduce((a, b) => a + b, 0) * 1000) / requests;
  const transactionsPerCycle = requests === 0 ? NaN : transactions / requests;
  // The agents' processes share the machine: their CPU, to set beside the service's.
  const agentsCpu =
    agents.reduce((sum, a, k) => sum + cpuMicros(a.pid) - agentsCpu0[k], 0) / 1e6 / seconds;
  const windowLoad = loadavg()[0];
  const hostAfter = hostReferenceMs();
  log(
    `${name}: ${requestsPerSecond.toFixed(1)} requests/s (the busiest second ${peak.toFixed(0)}), CPU ${cpu.map((c) => `${(c * 100).toFixed(1)} %`).join(' + ')}, RSS ≤ ${rss.map((r) => r.toFixed(0)).join(' + ')} MB, ${cpuPerCycleMs.toFixed(2)} ms of CPU and ${transactionsPerCycle.toFixed(2)} database transactions per wait cycle (load ${windowLoad.toFixed(1)}; host reference ${hostBefore.toFixed(0)} / ${hostAfter.toFixed(0)} ms)`,
  );

  // Decisions spread over one wait's length (60 s), so that they fall anywhere in the agents'
  // cycles — also between one held request and the next.
  const spacing = Math.max(50, (60_000 / Math.min(DECISIONS, ids.length)) | 0);
  const decidedAt = new Map();
  let decisionRetries = 0;
  const decisionFailures = [];
  for (let i = 0; i < Math.min(DECISIONS, ids.length); i++) {
    const id = ids[i];
    const target = decideOn(i);
    const t = performance.now();
    let res;
    // A 503 (the database or the instance busy, on a loaded machine) is retried and counted.
    for (let attempt = 0; ; attempt++) {
      res = await fetch(`${target.base}/api/interrupts/${id}/decisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ actionName: 'deploy', decision: 'approve' }),
      });
      if (res.status !== 503 || attempt === 5) break;
      decisionRetries++;
      await res.arrayBuffer();
      await sleep(500);
    }
    if (res.status !== 201) {
      // Counted, not fatal: on an overloaded machine a decision may be refused (408, 503).
      decisionFailures.push(`${res.status} ${(await res.text()).slice(0, 120)}`);
      continue;
    }
    decidedAt.set(id, { at: now(), on: target.name });
    await res.arrayBuffer();
    await sleep(Math.max(0, spacing - (performance.now() - t)));
  }
  const deadline = Date.now() + 60_000;
  while ([...decidedAt.keys()].some((id) => !returned.has(id)) && Date.now() < deadline)
    await sleep(100);
  const end = total(await Promise.all(agents.map((a) => a.snapshot())));
  const latencies = [];
  let missing = 0;
  for (const [id, { at, on }] of decidedAt) {
    const back = returned.get(id);
    if (back === undefined) {
      missing++;
      continue;
    }
    if (!counts(back.server, on)) continue;
    latencies.push(Math.max(0, back.at - at));
  }
  const failures = (await Promise.all(agents.map((a) => a.stop()))).flat();
  // The agents' connections are closed and their waits released by now; what the instances keep
  // after a few seconds more is what the next phase starts from.
  await sleep(5_000);
  const rssAfter = services.map((s) => rssMb(s.pid));
  const result = {
    name,
    waiters: ids.length,
    agentProcesses: agents.length,
    requestsPerSecond,
    peakRequestsPerSecond: peak,
    cpu,
    cpuPerCycleMs,
    transactionsPerCycle,
    rss,
    rssStart,
    rssAfter,
    agentsCpu,
    agentsLagP99: end.lagP99,
    windowLoad,
    hostBefore,
    hostAfter,
    p50: latencies.length ? percentile(latencies, 50) : NaN,
    p99: latencies.length ? percentile(latencies, 99) : NaN,
    samples: latencies.length,
    missing,
    refused: end.refused,
    unavailable: end.unavailable,
    unavailableWhy: end.unavailableWhy,
    leastRemaining: end.leastRemaining,
    failures: failures.length,
    decisionRetries,
    decisionFailures: decisionFailures.length,
  };
  log(`${name}: ${JSON.stringify(result)}`);
  if (failures.length > 0) log(`${name}: first failures: ${failures.slice(0, 3).join('; ')}`);
  if (decisionFailures.length > 0)
    log(`${name}: decisions refused: ${decisionFailures.slice(0, 3).join('; ')}`);
  return result;
}

build('libs/sdk-ts/tsup.config.ts');
const { url, adminUrl, stop: stopDatabase } = await benchDatabase('interlock_bench_waiters');
const stops = [];
/** The bench database's committed transactions so far (pg_stat_database, from the admin connection). */
const database = {
  transactions: async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      // The statistics a backend sends at most once a second: a fresh snapshot, read after them.
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await admin.query(
        'SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = $1',
        ['interlock_bench_waiters'],
      );
      return Number(rows[0]?.n ?? NaN);
    } finally {
      await admin.end();
    }
  },
};
try {
  // Opening N + 2·DECISIONS interrupts spends no measured budget: a seeding instance without one.
  const seeder = await startService({ ...ENV, DATABASE_URL: url });
  const { key, cookie } = await signUpWithKey(seeder.base, 'waiters');
  const count = N + DECISIONS;
  const t = Date.now();
  const ids = await openInterrupts(seeder.base, key, count);
  log(`${count} interrupts opened in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await seeder.stop();

  // The measured instances keep the default request budget (6,000 a minute per organisation).
  const measured = {
    ...ENV,
    DATABASE_URL: url,
    RATE_LIMIT_API_KEY_REQUESTS: '6000',
    NODE_OPTIONS,
  };
  // BENCH_WAITERS_NODE_ARGS: more flags for the measured instances, e.g. --trace-gc (each
  // collection's heap before and after, in the service's log: BENCH_SERVICE_LOG_DIR).
  const extraArgs = (process.env.BENCH_WAITERS_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const profiling = (name) =>
    PROFILE_DIR === undefined
      ? extraArgs
      : [
          ...extraArgs,
          '--cpu-prof',
          `--cpu-prof-dir=${PROFILE_DIR}`,
          `--cpu-prof-name=waiters-${name}-${Date.now()}.cpuprofile`,
        ];
  const a =
    COMPARE === undefined
      ? { name: 'A', ...(await startService(measured, profiling('A'))) }
      : undefined;
  if (a !== undefined) stops.push(a.stop);
  if (COMPARE !== undefined) {
    const results = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated: each round in the other order, so that a drift of the machine's load is shared.
      const order = round % 2 === 0 ? COMPARE : [...COMPARE].reverse();
      for (const options of order) {
        // Each in a budget minute of its own: the agents that left the last one cost one each.
        if (results.length > 0) await sleep(60_000 - (Date.now() % 60_000) + 1_000);
        const s = await startService({ ...measured, NODE_OPTIONS: options }, extraArgs);
        try {
          const r = await phase({
            name: `one instance, NODE_OPTIONS '${options}'`,
            base: s.base,
            key,
            cookie,
            ids: ids.slice(0, N),
            services: [{ name: 'A', ...s }],
            database,
            decideOn: () => ({ name: 'A', ...s }),
            counts: () => true,
          });
          results.push({ options, ...r });
        } finally {
          await s.stop();
        }
      }
    }
    for (const r of results)
      log(
        `'${r.options}': ${r.cpuPerCycleMs.toFixed(2)} ms a cycle, CPU ${(r.cpu[0] * 100).toFixed(1)} %, ${r.requestsPerSecond.toFixed(1)} requests/s, RSS ≤ ${r.rss[0].toFixed(0)} MB, p50/p99 ${r.p50.toFixed(1)}/${r.p99.toFixed(1)} ms, 429s ${r.refused}, 503s ${r.unavailable} (load ${r.windowLoad.toFixed(1)}; host reference ${r.hostBefore.toFixed(0)} / ${r.hostAfter.toFixed(0)} ms)`,
      );
  }
  const one =
    COMPARE === undefined && PHASES.includes('one')
      ? await phase({
          name: 'one instance',
          base: a.base,
          key,
          cookie,
          ids: ids.slice(0, N),
          services: [a],
          database,
          decideOn: () => a,
          counts: () => true,
        })
      : undefined;
  let two;
  if (COMPARE === undefined && PHASES.includes('two')) {
    if (one !== undefined) {
      // Phase one's agents left at its end, and a wait its client leaves within 10 s of being held
      // costs one request (SPEC §8e): thousands of them, in the budget's minute (windows start on
      // the minute). Phase two's waits are held in the next one, so that the least
      // RateLimit-Remaining it reports is its own waiting's.
      const wait = 60_000 - (Date.now() % 60_000) + 1_000;
      log(`two instances: waiting ${(wait / 1000).toFixed(0)} s for the next budget minute`);
      await sleep(wait);
    }
    const b = { name: 'B', ...(await startService(measured, profiling('B'))) };
    stops.push(b.stop);
    const lbs = [];
    for (let i = 0; i < BALANCERS; i++) {
      const lb = await startHaproxy([a, b], Math.ceil(N / BALANCERS));
      stops.push(lb.stop);
      lbs.push(lb);
    }
    log(`two instances behind ${BALANCERS} load balancer(s) (open files: ${FILES} a process)`);
    const names = { 'api-1': 'A', 'api-2': 'B' };
    two = await phase({
      name: 'two instances',
      base: lbs.map((lb) => lb.base),
      key,
      cookie,
      ids: ids.slice(DECISIONS, DECISIONS + N),
      services: [a, b],
      database,
      decideOn: (i) => (i % 2 === 0 ? a : b),
      // Only a decision made on the other instance than the one that held the wait.
      counts: (server, on) => names[server] !== undefined && names[server] !== on,
    });
  }

  if (COMPARE !== undefined) {
    log('comparison only: BENCHMARKS.md is left as it is');
  } else if (one === undefined || two === undefined) {
    log(`phases ${PHASES.join(', ')} only: BENCHMARKS.md is left as it is`);
  } else {
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    const row = (r) =>
      `| ${r.name} | ${r.waiters.toLocaleString('en')} | ${r.requestsPerSecond.toFixed(1)} (${r.peakRequestsPerSecond.toFixed(0)}) | ${r.cpu.map((c) => `${(c * 100).toFixed(1)} %`).join(' + ')} | ${r.cpuPerCycleMs.toFixed(2)} ms / ${r.transactionsPerCycle.toFixed(2)} | ${r.rss.map((mb) => mb.toFixed(0)).join(' + ')} MB | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} ms (${r.samples}) | ${r.refused} | ${r.unavailable} | ${(r.agentsCpu * 100).toFixed(1)} % / ${r.agentsLagP99.toFixed(0)} ms | ${r.windowLoad.toFixed(1)} | ${r.hostBefore.toFixed(0)} / ${r.hostAfter.toFixed(0)} ms |`;
    writeSection(
      'waiters',
      `## Waiting agents (issue 37 §6)

Command: \`npx nx run tools:bench-waiters\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, Postgres 15;
load average at the end ${load} (1 / 5 / 15 min). BENCH_WAITERS=${N}, ${DECISIONS} decisions per phase,
an idle window of ${WINDOW_S} s; the instances' NODE_OPTIONS: ${NODE_OPTIONS === '' ? 'none' : `\`${NODE_OPTIONS}\``}.

${N.toLocaleString('en')} agents of one organisation wait with the TypeScript SDK's \`waitForAnswer\` (held
\`GET /api/interrupts/{id}?waitSeconds=60\`), spread over ${one.agentProcesses} agent processes; the instances keep the default request
budget (6,000 a minute). While they only wait: requests/s (all agents together; in brackets the most
they started in one second of the window: a herd), each instance's CPU
(% of one core) and each instance's highest RSS; per wait cycle (a held request from its arrival to its
answer and the agent's next request: every agent request of the idle window), the instances' CPU time
together (their own upkeep included; the goal of 10 % of a core at ${N.toLocaleString('en')} agents re-asking every 60 s leaves
${(6_000 / N).toFixed(2)} ms) and the bench database's committed transactions (pg_stat_database). Then decisions one after another, spread over 60 s
(by a member, directly on an instance, from the bench's own process, which holds no agent): from each
decision's 2xx to its agent's \`waitForAnswer\` returning, both on the machine's monotonic clock, p50 / p99
(samples). 503s: answers \`503\` the agents met (the SDK retries them). Agents: the agents' processes
together — their CPU over the idle window (% of one core, not counted as the service's) and the worst
of their event-loop delays p99 while the decisions were made (how late one may notice a wait returning). Load:
the 1-minute load average at the end of the idle window. Host: the host's speed before the phase's waits were sent and
after its idle window — the median CPU time of 5 scrypt hashes (N=2^16, r=8) in the bench's process (bench-support's
\`hostReferenceMs\`; 147–165 ms when this host ran fast, session 20): the same build's CPU a cycle moves with it. Two instances: HAProxy round-robin (${BALANCERS === 1 ? 'one' : `${BALANCERS}, the agents spread over them: a process may hold ${FILES} open files here and each passes on two per wait`}; docker/haproxy.cfg's settings, whose client/server
timeouts of 75 s leave a 60 s wait uncut), decisions alternately on each instance, counted only when
made on the other instance than the one holding the wait; its waits begin in the budget minute after
phase one's agents left (each that left within 10 s of being held cost one, SPEC §8e). Goals: ≤ 200 requests/s, ≤ 10 % of a core,
RSS ≤ 400 MB, p50 ≤ 20 ms, p99 ≤ 100 ms, no 429.

| Phase | Agents | Requests/s (busiest second) | CPU | CPU / transactions per cycle | RSS | Decision → returned p50 / p99 | 429s | 503s | Agents CPU / lag p99 | Load | Host |
| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |
${row(one)}
${row(two)}

Each instance's RSS at the phase's start / after its agents left (5 s after): ${[one, two]
        .map(
          (r) =>
            `${r.name} ${r.rssStart.map((mb, i) => `${mb.toFixed(0)} / ${r.rssAfter[i].toFixed(0)} MB`).join(', ')}`,
        )
        .join('; ')} (instance A serves both phases).
Least \`RateLimit-Remaining\` an agent saw: ${[one, two].map((r) => `${r.name} ${r.leastRemaining ?? 'none reported'}`).join(', ')} (of 6,000).
503s by reason: ${[one, two]
        .map(
          (r) =>
            `${r.name}: ${
              Object.keys(r.unavailableWhy).length === 0
                ? 'none'
                : Object.entries(r.unavailableWhy)
                    .map(([why, n]) => `${n} × ${why}`)
                    .join('; ')
            }`,
        )
        .join('. ')}.
Waits that failed otherwise: ${one.failures + two.failures}; decided waits that did not return within 60 s: ${one.missing + two.missing};
decisions retried after a 503: ${one.decisionRetries + two.decisionRetries}; decisions refused (not 201): ${one.decisionFailures + two.decisionFailures}.`,
    );
    console.log('BENCHMARKS.md updated (waiters).');
  }
} finally {
  for (const stop of stops.reverse()) await stop();
  await stopDatabase();
}
