// Shared plumbing for benchmarks: a Postgres, a database, a server process, autocannon, and
// writing a section of BENCHMARKS.md.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { scryptSync } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export function build(config) {
  execFileSync('npx', ['tsup', '--config', config], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A fresh database on BENCH_DATABASE_URL's server, or on a throwaway cluster. */
export async function benchDatabase(name, settings = []) {
  let cluster;
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    cluster = await startThrowawayPostgres(settings);
    adminUrl = cluster.url;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (process.env.BENCH_KEEP_DATABASE !== '1') {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), adminUrl, stop: () => cluster?.stop() };
}

/** A port nothing listens on now (the kernel's pick, released for the caller). */
export async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers 2xx (up to 60 s), failing early if `child` exits. */
export async function waitFor(url, child, what) {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${what} did not answer in 60 s`);
}

const TICK_US =
  1_000_000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * A process's or a thread's `/proc/…/stat` at `path`: its parent's pid and its user and system CPU
 * time so far, each in microseconds. The fields are counted after the command's closing
 * parenthesis (a command may hold spaces): the state, the parent, …, utime and stime.
 */
function procStat(path) {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return {
    parent: Number(fields[1]),
    user: Number(fields[11]) * TICK_US,
    system: Number(fields[12]) * TICK_US,
  };
}

/** User and system CPU time of a process so far, each in microseconds (`/proc/<pid>/stat`). */
export function cpuSplitMicros(pid) {
  const { user, system } = procStat(`/proc/${pid}/stat`);
  return { user, system };
}

/** User + system CPU time of a process so far, in microseconds (from `/proc/<pid>/stat`). */
export function cpuMicros(pid) {
  const { user, system } = cpuSplitMicros(pid);
  return user + system;
}

/**
 * Each process of a Postgres cluster on this machine — its postmaster (`postmasterPid`) and every
 * process it started (backends, autovacuum, the writers) — mapped to `read(pid)`.
 */
function clusterProcesses(postmasterPid, read) {
  const found = new Map([[postmasterPid, read(postmasterPid)]]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (procStat(`/proc/${entry}/stat`).parent === postmasterPid)
        found.set(Number(entry), read(Number(entry)));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/**
 * The CPU time so far of a Postgres cluster on this machine, by process, in microseconds.
 * Processes come and go, so two readings are compared with `cpuMicrosSince`.
 */
export function clusterCpuMicros(postmasterPid) {
  return clusterProcesses(postmasterPid, cpuMicros);
}

/**
 * How often each process of the cluster has slept so far (`voluntary_ctxt_switches` of
 * `/proc/<pid>/status`): a backend sleeps when it has read all its client sent, so a backend's
 * count over a window is how many times its client woke it.
 */
export function clusterWakeups(postmasterPid) {
  return clusterProcesses(postmasterPid, (pid) =>
    Number(
      /^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1],
    ),
  );
}

/**
 * What the cluster spent between two readings of `clusterCpuMicros` and `clusterWakeups`, by
 * owner: a client backend by its database and `application_name` (as `pg_stat_activity` shows it
 * through `client`, at the call), any other process by its kind (walwriter, autovacuum worker…).
 * Only the processes of the second readings count: one that ended before them is left out (its
 * time is gone from /proc, as in `cpuMicrosSince`). A process of them that `pg_stat_activity`
 * does not list is `not in pg_stat_activity`: the postmaster always (and the logger, when the
 * cluster runs one), a process that ended between the readings and the call. Each owner: its
 * processes, CPU microseconds and wake-ups.
 */
export async function clusterSpentByOwner(client, cpu, wakeups) {
  const { rows } = await client.query(
    `SELECT pid, backend_type, coalesce(datname, '') AS datname, application_name FROM pg_stat_activity`,
  );
  const owners = new Map(
    rows.map((r) => [
      r.pid,
      r.backend_type === 'client backend'
        ? `${r.datname}/${r.application_name || '(no application_name)'}`
        : r.backend_type,
    ]),
  );
  const spent = new Map();
  for (const [pid, micros] of cpu.after) {
    const owner = owners.get(pid) ?? 'not in pg_stat_activity';
    const sum = spent.get(owner) ?? { processes: 0, micros: 0, wakeups: 0 };
    sum.processes += 1;
    sum.micros += micros - (cpu.before.get(pid) ?? 0);
    sum.wakeups += (wakeups.after.get(pid) ?? 0) - (wakeups.before.get(pid) ?? 0);
    spent.set(owner, sum);
  }
  return spent;
}

/**
 * CPU microseconds spent between two `clusterCpuMicros` readings: a process started since counts
 * whole; one that ended since loses what it spent in between (its time is gone from /proc).
 */
export function cpuMicrosSince(before, after) {
  let spent = 0;
  for (const [pid, micros] of after) spent += micros - (before.get(pid) ?? 0);
  return spent;
}

/**
 * The postmaster of the cluster `client` is connected to, when it runs on this machine and its
 * processes can be read (`/proc`); undefined otherwise (a cluster elsewhere, BENCH_DATABASE_URL).
 */
export async function localPostmaster(client) {
  const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
  try {
    // A server in a container reports a pid of its own namespace: the host's process of that
    // number is someone else's unless it, and its parent, are Postgres's.
    const comm = (pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const { parent } = procStat(`/proc/${rows[0].pid}/stat`);
    return comm(rows[0].pid) === 'postgres' && comm(parent) === 'postgres' ? parent : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `cpuMicros` split by thread: the main thread (JavaScript, and the collector's work on it) and
 * the others together — V8's platform workers (concurrent marking, parallel scavenges: the
 * collector's helpers) and libuv's pool. A thread that ended since is in neither.
 */
export function threadCpuMicros(pid) {
  let main = 0;
  let others = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let us;
    try {
      const { user, system } = procStat(`/proc/${pid}/task/${tid}/stat`);
      us = user + system;
    } catch {
      continue; // the thread ended meanwhile
    }
    if (tid === String(pid)) main += us;
    else others += us;
  }
  return { main, others };
}

/** Stops `child` with SIGTERM and resolves when it has exited. */
export function stopper(child) {
  return () =>
    new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.on('exit', r);
      child.kill('SIGTERM');
    });
}

const productionDockerfile = () => readFileSync(join(root, 'docker', 'api.Dockerfile'), 'utf8');

/** The production image's NODE_OPTIONS (docker/api.Dockerfile), so the service runs as it is shipped. */
export function productionNodeOptions() {
  return /NODE_OPTIONS=(\S+)/.exec(productionDockerfile())?.[1] ?? '';
}

/**
 * The Node options the production image's CMD gives before the service's script (V8 options
 * NODE_OPTIONS refuses, such as `--no-allocation-site-pretenuring`), for `startService`'s `nodeArgs`.
 */
export function productionNodeArgs() {
  const cmd = /^CMD \["node", (.*), "dist\/apps\/api\/main\.js"\]$/m.exec(productionDockerfile());
  return cmd === null ? [] : JSON.parse(`[${cmd[1]}]`);
}

/**
 * Starts the built service on a free port and waits until /health/ready answers 200. The
 * organisation's key budget is off unless a bench sets it: benches measure the request path at
 * full speed from one organisation, which the budget (6,000 a minute by default) would refuse.
 * `nodeArgs` go before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export async function startService(env, nodeArgs = [], checkout = root) {
  const port = await freePort();
  // BENCH_SERVICE_LOG_DIR=<dir>: each instance's log (stdout) in <dir>/service-<port>.log.
  const logDir = process.env.BENCH_SERVICE_LOG_DIR;
  const out = logDir === undefined ? 'ignore' : openSync(join(logDir, `service-${port}.log`), 'a');
  const child = spawn(process.execPath, [...nodeArgs, join(checkout, 'dist/apps/api/main.js')], {
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_API_KEY_REQUESTS: '0',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', out, 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health/ready`, child, 'the service');
  return { port, base, pid: child.pid, stop: stopper(child) };
}

/** Each bare app of tools/bench/perf-baseline by kind: its entry in the prepared copy, and its name. */
export const BASELINE_KINDS = {
  fastify: { main: ['fastify', 'main.mjs'], name: 'bare Fastify 5' },
  'nest-fastify': { main: ['dist', 'main-fastify.js'], name: 'bare NestJS 12 + Fastify adapter' },
  'nest-express': { main: ['dist', 'main.js'], name: 'bare NestJS 12 + Express' },
  // The floor of issue 28: bare Fastify doing the contract's per-request duties on the service's
  // own routes, from the service's database (`startBaseline`'s `env`: API_KEY_PEPPER and the
  // budget's settings); it serves no `/ping`, so it is ready when `/health/live` answers.
  'fastify-duties': {
    main: ['fastify', 'duties.mjs'],
    name: "bare Fastify 5 doing the contract's duties",
    ready: '/health/live',
  },
};

/**
 * Starts a bare baseline prepared by `prepareBaseline` on a free port, with `pool` connections:
 * by `kind` (BASELINE_KINDS) the NestJS app on Express (the default) or on Nest's Fastify
 * adapter (the same module and controller), the bare Fastify 5 app (`fastify/main.mjs`), or the
 * floor (`fastify/duties.mjs`, on the service's database, `env` its pepper and budget).
 */
export async function startBaseline(dir, databaseUrl, pool, kind = 'nest-express', env = {}) {
  const port = await freePort();
  if (BASELINE_KINDS[kind] === undefined)
    throw new Error(`no baseline '${kind}' (one of ${Object.keys(BASELINE_KINDS).join(', ')})`);
  const main = join(dir, ...BASELINE_KINDS[kind].main);
  // BENCH_SERVICE_LOG_DIR=<dir>: its standard output (the floor's log) in <dir>/baseline-<kind>-<port>.log.
  const logDir = process.env.BENCH_SERVICE_LOG_DIR;
  const out =
    logDir === undefined ? 'ignore' : openSync(join(logDir, `baseline-${kind}-${port}.log`), 'a');
  // BASELINE_NODE_ARGS: Node options before its script (`--perf-basic-prof`, `--cpu-prof`).
  const nodeArgs = process.env.BASELINE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, main], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      ...env,
      DATABASE_URL: databaseUrl,
      PG_POOL_MAX: String(pool),
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', out, 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}${BASELINE_KINDS[kind].ready ?? '/ping'}`, child, 'the baseline');
  return { base, pid: child.pid, stop: stopper(child) };
}

export function startServer(script, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.SERVER_CPU_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_CPU_PROF}`]
          : []),
        join(root, script),
      ],
      {
        env: { PATH: process.env.PATH, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m)
        resolve({
          port: Number(m[1]),
          stop: () => new Promise((r) => (child.on('exit', r), child.kill('SIGTERM'))),
        });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

/**
 * A fresh database `name` on the server of `adminUrl`, seeded by the baseline's own `seed.mjs`
 * (100k items, 1M audit rows over 20 orgs unless `seedEnv` sets ITEMS, AUDIT_ROWS, ORGS); its
 * progress goes to `stdio` (standard error by default: a bench's standard output carries its
 * section). Returns the database's URL.
 */
export async function seedBaselineDatabase(
  adminUrl,
  name,
  baselineDir,
  seedEnv = {},
  stdio = ['ignore', process.stderr, 'inherit'],
) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  execFileSync(process.execPath, ['seed.mjs'], {
    cwd: baselineDir,
    env: { ...process.env, ...seedEnv, DATABASE_URL: url.toString() },
    stdio,
  });
  return url.toString();
}

/** The machine's CPU time so far and the part of it stolen by the hypervisor, in ticks. */
function stealTicks() {
  const cpu = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { total: cpu.slice(0, 8).reduce((x, y) => x + y, 0), steal: cpu[7] ?? 0 };
}

/**
 * Where a pair's time went, to read a ratio by: each side's CPU time per request and share of
 * a core while it was loaded (A and B alternate, so each process is busy only in its own turns;
 * warm-ups are counted at the measured rate), and the hypervisor's steal over the pair.
 */
function pairCpu(pids, before, stdout, { rounds, seconds, warmup }) {
  const rates = { A: [], B: [] };
  for (const [, side, rps] of stdout.matchAll(/^round \d+\s+([AB])\s+([\d.]+) req\/s/gm))
    rates[side].push(Number(rps));
  const busySeconds = rounds * (seconds + warmup);
  const side = (name, pid, start) => {
    const micros = cpuMicros(pid) - start;
    const requests = rates[name].reduce((x, y) => x + y, 0) * (seconds + warmup);
    return { perRequest: micros / requests, core: micros / 1e6 / busySeconds };
  };
  const machine = stealTicks();
  const steal =
    (machine.steal - before.machine.steal) / Math.max(1, machine.total - before.machine.total);
  return { a: side('A', pids.a, before.a), b: side('B', pids.b, before.b), steal };
}

/**
 * The baseline's run-pair.sh (A and B alternated, `rounds` rounds of `seconds`, a `warmup` before
 * each run, `connections` connections) with its output streamed to standard error; returns the
 * per-round ratios, the medians and the ratio line, and, given the two sides' pids, where their
 * time went (`pairCpu`, also told to `log`).
 */
export function runPair(baselineDir, urlA, urlB, options) {
  const { env = {}, pids, rounds, seconds, warmup, connections, log = () => undefined } = options;
  const before = pids && { a: cpuMicros(pids.a), b: cpuMicros(pids.b), machine: stealTicks() };
  const result = spawnSync(
    join(baselineDir, 'run-pair.sh'),
    [urlA, urlB, String(seconds), String(connections)],
    {
      cwd: baselineDir,
      encoding: 'utf8',
      // FORCE_COLOR (set by nx) would colour the numbers run-pair.sh reads back from node, and its
      // pre-flight would take a coloured 0 for a failed request.
      env: {
        ...process.env,
        FORCE_COLOR: '0',
        ROUNDS: String(rounds),
        WARMUP: String(warmup),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  process.stderr.write(result.stdout);
  if (result.status !== 0) throw new Error(`run-pair.sh exited with ${result.status}`);
  const ratio = Number(/ratio A\/B: ([\d.]+)/.exec(result.stdout)?.[1]);
  const perRound = /per-round A\/B: (.*)/.exec(result.stdout)?.[1] ?? '';
  const [, a, b] = /median req\/s: A ([\d.]+)\s+B ([\d.]+)/.exec(result.stdout) ?? [];
  const cpu = before && pairCpu(pids, before, result.stdout, { rounds, seconds, warmup });
  if (cpu)
    log(
      `CPU: A ${cpu.a.perRequest.toFixed(0)} µs a request, ${(100 * cpu.a.core).toFixed(0)} % of a core; B ${cpu.b.perRequest.toFixed(0)} µs, ${(100 * cpu.b.core).toFixed(0)} %; steal ${(100 * cpu.steal).toFixed(1)} %`,
    );
  return { ratio, perRound, a: Number(a), b: Number(b), cpu };
}

export function load(opts) {
  return new Promise((resolve, reject) =>
    autocannon({ connections: 32, duration: 10, pipelining: 1, ...opts }, (err, result) =>
      err ? reject(err) : resolve(result),
    ),
  );
}

/**
 * `key` with one letter changed (same length and alphabet): it fails the checksum, so the service
 * refuses it (401) without reaching the database — the malformed-key pair's and bench-cpu's key.
 */
export function checksumFailing(key) {
  return key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
}

/** The budget's headers whose values `checkFloor` compares by their form (digits). */
const COUNTED = new Set(['ratelimit-remaining', 'ratelimit-reset']);

/**
 * The requests the floor must answer as the service does (`floor-cases.json`, which
 * apps/api/test/bench-floor.e2e-spec.ts holds it to as well): an answer on each route it serves,
 * the pages' next pages by the service's own cursors, and the refusals (keys, ids, limits,
 * cursors) that are cheap to make the same.
 */
export const FLOOR_CASES = JSON.parse(
  readFileSync(join(root, 'tools', 'bench', 'floor-cases.json'), 'utf8'),
).cases;

/**
 * A case of FLOOR_CASES as a request: its path with the interrupt's id and a cursor the service
 * issued (asked of `serviceBase`) in place, and its headers with the key it names.
 */
async function floorRequest(floorCase, serviceBase, key, interruptId) {
  const headers =
    floorCase.key === 'valid'
      ? { 'x-api-key': key }
      : floorCase.key === 'checksum-failing'
        ? { 'x-api-key': checksumFailing(key) }
        : {};
  let path = floorCase.path.replace('{interruptId}', interruptId);
  if (floorCase.cursorOf !== undefined) {
    const res = await fetch(serviceBase + floorCase.cursorOf, { headers });
    const { nextCursor } = await res.json();
    if (typeof nextCursor !== 'string')
      throw new Error(`${floorCase.cursorOf}: the service answered no next cursor`);
    const cursor = floorCase.alter
      ? nextCursor.slice(0, -1) + (nextCursor.endsWith('A') ? 'B' : 'A')
      : nextCursor;
    path = path.replace('{cursor}', encodeURIComponent(cursor));
  }
  return { path, headers };
}

/**
 * The floor's answers (`fastify-duties` at `floorBase`) against the service's at `serviceBase` on
 * FLOOR_CASES, with the service's `key` and `interruptId`: the status, the body and every header
 * but `date`, byte for byte — the request id sent (so it is the same on both), the budget's
 * remaining count and seconds to its reset compared by their form. Throws, naming each
 * difference, when they differ: a floor that answers otherwise is not the floor of these routes.
 * Returns what it checked.
 */
export async function checkFloor(serviceBase, floorBase, key, interruptId) {
  const seen = async (base, path, headers) => {
    const res = await fetch(base + path, {
      headers: { ...headers, 'x-request-id': 'floor-check-1' },
    });
    const fields = {};
    for (const [name, value] of res.headers) {
      if (name === 'date') continue;
      // Each process counts its own requests, and the two answers may straddle a second.
      fields[name] = COUNTED.has(name) ? value.replace(/^\d+$/, '<number>') : value;
    }
    return { status: res.status, headers: fields, body: await res.text() };
  };
  const differences = [];
  for (const floorCase of FLOOR_CASES) {
    const { path, headers } = await floorRequest(floorCase, serviceBase, key, interruptId);
    const service = await seen(serviceBase, path, headers);
    if (service.status !== floorCase.status)
      throw new Error(
        `${floorCase.name}: ${path}: the service answered ${service.status}, not ${floorCase.status}: ${service.body}`,
      );
    const ours = JSON.stringify(service);
    const floors = JSON.stringify(await seen(floorBase, path, headers));
    if (ours !== floors)
      differences.push(`${floorCase.name}: ${path}\n  service: ${ours}\n  floor:   ${floors}`);
  }
  if (differences.length > 0)
    throw new Error(`the floor answers otherwise than the service:\n${differences.join('\n')}`);
  return `the floor answers as the service on ${FLOOR_CASES.length} requests (status, body, headers)`;
}

/**
 * Starts the floor (`fastify-duties`, prepared by `prepareBaseline`) on the service's database —
 * it reads the service's tables: the key by its hash, the interrupt's kept record — with the
 * service's pepper and key budget (`env`: API_KEY_PEPPER, RATE_LIMIT_API_KEY_REQUESTS), and checks
 * its answers against the service's at `serviceBase` (`checkFloor`). A floor that answers
 * otherwise is stopped and the check's error thrown. Returns the floor, and what was checked.
 */
export async function startCheckedFloor(
  dir,
  databaseUrl,
  pool,
  env,
  serviceBase,
  key,
  interruptId,
) {
  const floor = await startBaseline(dir, databaseUrl, pool, 'fastify-duties', {
    RECORD_RENDER_VERSION: String(recordRenderVersion()),
    ...env,
  });
  try {
    return { ...floor, checked: await checkFloor(serviceBase, floor.base, key, interruptId) };
  } catch (error) {
    await floor.stop();
    throw error;
  }
}

/**
 * The service's RECORD_RENDER_VERSION (apps/api/src/interrupts/interrupt-record.ts): the version a
 * kept `record_json` is stamped with, for a bench's statements that keep records as the service does.
 */
export function recordRenderVersion() {
  const source = readFileSync(
    join(root, 'apps', 'api', 'src', 'interrupts', 'interrupt-record.ts'),
    'utf8',
  );
  const version = /export const RECORD_RENDER_VERSION = (\d+);/.exec(source)?.[1];
  if (version === undefined)
    throw new Error('RECORD_RENDER_VERSION not found in interrupt-record.ts');
  return Number(version);
}

/** The median of numbers: the middle one, or the mean of the two middle ones. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function machine() {
  return `${cpus().length} × ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/**
 * How fast the host runs now: the median CPU time (ms) of 5 scrypt hashes at N=2^16, r=8 (64 MiB
 * each), in this process. The host's speed moves by twice and more between days (BENCHMARKS.md,
 * issue 37 §6, session 20), and with it every CPU figure: a bench's figure read beside this one
 * says whether the host or the build moved.
 */
export function hostReferenceMs() {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const before = process.cpuUsage();
    scryptSync('host-reference', 'host-reference-salt', 64, {
      N: 2 ** 16,
      r: 8,
      p: 1,
      maxmem: 2 ** 27,
    });
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
}

/** Replaces (or appends) the section between `<!-- bench:NAME -->` markers (not with BENCH_WRITE=0). */
export function writeSection(name, markdown) {
  // BENCH_WRITE=0 prints only, for every bench: waiters, expiry and others wrote their section
  // whatever it said (session 20 found a trial run's table in a checkout's BENCHMARKS.md).
  if (process.env.BENCH_WRITE === '0') {
    console.error(`[bench] BENCH_WRITE=0: BENCHMARKS.md's "${name}" section is left as it is`);
    return;
  }
  const file = join(root, 'BENCHMARKS.md');
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Benchmarks\n\nFigures from `tools/bench`; each section names the command that produced it.\n';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text =
    i >= 0 && j > i
      ? text.slice(0, i) + block + text.slice(j + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, text);
}

/**
 * The bare apps of tools/bench/perf-baseline (NestJS on Express + pg, and fastify/: Fastify 5 + pg),
 * the denominators of the request-path ratios (issues 14 and 28): a copy under tmp/ with their
 * dependencies installed (each from its own package-lock.json) and the NestJS one built (kept
 * between runs). Returns the copy's directory and where it was copied from.
 */
export function prepareBaseline(log = (message) => console.error(message)) {
  const from = join(root, 'tools', 'bench', 'perf-baseline');
  const dir = join(root, 'tmp', 'perf-baseline');
  const stamp = join(dir, '.prepared-from');
  const sourceLock = readFileSync(join(from, 'package-lock.json'), 'utf8');
  const fresh =
    existsSync(stamp) &&
    existsSync(join(dir, 'dist', 'main.js')) &&
    readFileSync(join(dir, 'package-lock.json'), 'utf8') === sourceLock;
  // Sources are copied every run (cheap); dependencies are installed only when the lock changed.
  mkdirSync(dir, { recursive: true });
  // (Any node_modules/ or dist/ beside the sources, from an install in place, is left behind.)
  for (const entry of readdirSync(from)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    cpSync(join(from, entry), join(dir, entry), {
      recursive: true,
      filter: (path) => !/[\\/](node_modules|dist)$/.test(path),
    });
  }
  if (!fresh) {
    log(`[bench] installing the baseline's dependencies in ${dir}`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  // The bare Fastify app (fastify/, the denominator of issue 28's goals) has its own dependencies.
  const fastifyDir = join(dir, 'fastify');
  if (existsSync(join(fastifyDir, 'main.mjs'))) {
    const fastifyStamp = join(fastifyDir, '.prepared-lock');
    const fastifyLock = readFileSync(join(fastifyDir, 'package-lock.json'), 'utf8');
    const fastifyFresh =
      existsSync(fastifyStamp) &&
      existsSync(join(fastifyDir, 'node_modules', 'fastify')) &&
      readFileSync(fastifyStamp, 'utf8') === fastifyLock;
    if (!fastifyFresh) {
      log(`[bench] installing the bare Fastify baseline's dependencies in ${fastifyDir}`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
        cwd: fastifyDir,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      writeFileSync(fastifyStamp, fastifyLock);
    }
  }
  writeFileSync(stamp, `${from}\n`);
  return { dir, from };
}

/**
 * `count` audit entries in one organisation, written straight into the table `batch` rows a
 * statement (its triggers chain them and count their words), each shaped like an interrupt's
 * creation; then, unless `vacuum` is false, VACUUM ANALYZE, so the first measured run does not pay
 * for hint bits and statistics.
 */
export async function seedAuditEntries(
  client,
  organisationId,
  keyId,
  count,
  { batch = 1000, vacuum = true } = {},
) {
  for (let done = 0; done < count; done += batch) {
    await client.query(
      `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_id, actor_name,
         target_type, target_id, target_name, summary, metadata, ip_address)
       SELECT $1, gen_random_uuid(), 'interrupt.created', 'interrupt', 'api_key', $2, 'bench',
         'interrupt', gen_random_uuid()::text, 'Deploy build ' || ($3 + g),
         'Interrupt Deploy build ' || ($3 + g) || ' opened by key bench',
         jsonb_build_object('externalId', 'run-' || ($3 + g), 'actionRequests', jsonb_build_array('deploy')),
         '127.0.0.1'
       FROM generate_series(1, $4::int) AS g`,
      [organisationId, keyId, done, Math.min(batch, count - done)],
    );
  }
  if (vacuum) await client.query('VACUUM ANALYZE audit_log_entries');
}

/** The interrupt the benches open and read: two action requests, one with arguments. */
export const BENCH_INTERRUPT = {
  title: 'Deploy to prod',
  externalId: 'run-42',
  actionRequests: [
    { name: 'deploy', args: { service: 'api', version: '1.4.2' }, description: 'Roll out 1.4.2' },
    { name: 'notify', allowedDecisions: ['approve', 'respond'] },
  ],
};

/** Signs up an owner of a new organisation on a started service and makes it an API key. */
export async function signUpWithKey(base, name) {
  const post = async (path, body, cookie) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const signUp = await post('/api/auth/sign-up', {
    email: `${name}@bench.example.test`,
    password: 'bench password',
    name: 'Bench',
    organisationName: name,
  });
  const cookie = signUp.headers.get('set-cookie').split(';')[0];
  const { organisation } = await signUp.json();
  const key = await (
    await post('/api/api-keys', { name: 'bench', expiry: 'never' }, cookie)
  ).json();
  return { cookie, key: key.key, organisationId: organisation.id };
}
