#!/usr/bin/env node
// The service's CPU time per wait cycle (issue 37 §6), for judging one change of the held wait's
// path: AGENTS agents each hold `GET /api/interrupts/{id}?waitSeconds=HOLD` on an open interrupt
// and ask again as soon as it is answered, as the SDK's waitForAnswer does after a full wait (on
// the connection its answer came back on). A cycle is one such request, from its arrival to its
// answer; the figure is the service process's CPU (user + system, /proc) over a window divided by
// the cycles answered in it — the instance's own upkeep included; printed with the part of it off
// the main thread (V8's collector helpers: concurrent marking, parallel scavenges; libuv's pool).
// bench-waiters' 60 s holds make a cycle a minute per agent; short holds make the same path often
// enough to measure in seconds.
//
//   npx nx run tools:bench-wait-cycle
//
// Environment: AGENTS (default 300), HOLD seconds (default 2; 1 to 60: from 20 on the holds are
// levelled and end on the instance's ticks, SPEC §8e, and the agents begin at random moments of
// the first HOLD seconds, as agents started apart do), WINDOW seconds per measurement (default 30,
// after a warm-up of one hold and 3 s, and those first HOLD seconds), ROUNDS (default 3),
// BENCH_DATABASE_URL (else a throwaway cluster), BENCH_WAIT_CYCLE_PROFILE=<dir> (node --cpu-prof),
// BENCH_WAIT_CYCLE_NODE_ARGS (node's options for the services, space-separated: --perf-basic-prof
// for `perf record -p <pid>`; the pid is printed),
// REASK=at-once for agents that ask again in the turn their answer came (the SDK before issue 37's
// fix: a new connection almost every cycle) instead of on the next turn; REASK=both measures this
// build both ways, alternately (printed as next turn over at once).
// BENCH_WAIT_CYCLE_STRACE=1: `strace -c -f` attached to the service over each window, its system
// calls printed per cycle (the most frequent first); ptrace slows every call, so that run's CPU
// figures are not comparable with others' — its counts are the point. Every run prints the CPU a
// cycle split into user and system time (/proc/<pid>/stat) and the main thread's context switches
// a cycle (/proc/<pid>/status), and the host's speed before and after (hostReferenceMs).
// AGAINST=<another checkout, its service built there>: that build's service and this one's on the
// same database, measured alternately (the order swapped each round), printed as this build's CPU
// per cycle over the other's. BENCH_WAIT_CYCLE_NODE_OPTIONS: this build's service's NODE_OPTIONS
// ('production': the image's, docker/api.Dockerfile); AGAINST_NODE_OPTIONS the other's (default:
// the same) — with AGAINST=. the same build under two heap settings; AGAINST_NODE_ARGS the
// other's node options (default: BENCH_WAIT_CYCLE_NODE_ARGS), for V8 flags NODE_OPTIONS refuses.
// With BENCH_WAIT_CYCLE_NODE_ARGS=--trace-gc and BENCH_SERVICE_LOG_DIR=<dir> (each service's
// log), each window's collections are counted from the log, by kind, per cycle. Nothing is written
// to BENCHMARKS.md: the figures move with the machine's load, only the ratios of alternated runs
// compare two builds.
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchDatabase,
  build,
  cpuSplitMicros,
  hostReferenceMs,
  machine,
  productionNodeOptions,
  signUpWithKey,
  startService,
  threadCpuMicros,
} from './bench-support.mjs';

const AGENTS = Number(process.env.AGENTS ?? 300);
const HOLD = Number(process.env.HOLD ?? 2);
const WINDOW_S = Number(process.env.WINDOW ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PROFILE_DIR = process.env.BENCH_WAIT_CYCLE_PROFILE;
const REASK = process.env.REASK ?? 'next-turn';
const STRACE = process.env.BENCH_WAIT_CYCLE_STRACE === '1';
const nodeOptions = (value) => (value === 'production' ? productionNodeOptions() : (value ?? ''));
const NODE_OPTIONS = nodeOptions(process.env.BENCH_WAIT_CYCLE_NODE_OPTIONS);
const AGAINST_NODE_OPTIONS =
  process.env.AGAINST_NODE_OPTIONS === undefined
    ? NODE_OPTIONS
    : nodeOptions(process.env.AGAINST_NODE_OPTIONS);
const LOG_DIR = process.env.BENCH_SERVICE_LOG_DIR;
const log = (message) => console.error(`[bench:wait-cycle] ${message}`);
const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The next turn of the event loop: fetch's pool has the last answer's connection back by then. */
const nextTurn = () => new Promise((r) => setImmediate(r));

if (!(Number.isInteger(HOLD) && HOLD >= 1 && HOLD <= 60))
  throw new Error('HOLD must be a whole number of seconds from 1 to 60');
/** Long holds (levelled, SPEC §8e): the agents begin spread over the first hold. */
const STAGGER_MS = HOLD >= 20 ? HOLD * 1000 : 0;

/** Connections this process's fetch has opened so far (undici's diagnostics channel). */
let connectionsOpened = 0;
subscribe('undici:client:connected', () => connectionsOpened++);

/** Opens `count` interrupts, 16 at a time. */
async function openInterrupts(base, key, count) {
  const ids = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(`${base}/api/interrupts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ title: 'Deploy', actionRequests: [{ name: 'deploy' }] }),
      });
      if (res.status !== 201)
        throw new Error(`POST /api/interrupts: ${res.status} ${await res.text()}`);
      ids.push((await res.json()).id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return ids;
}

/**
 * The agents, waiting on `base` until `stop()`: each its interrupt, again and again. Counts the
 * answered cycles; any answer but 200 open stops the bench.
 */
function startAgents(base, key, ids, reaskAtOnce) {
  let cycles = 0;
  let running = true;
  const headers = { accept: 'application/json', 'x-api-key': key };
  const agent = async (id) => {
    while (running) {
      const res = await fetch(`${base}/api/interrupts/${id}?waitSeconds=${HOLD}`, { headers });
      const text = await res.text();
      if (res.status !== 200 || !text.includes('"status":"open"'))
        throw new Error(`GET ${id}: ${res.status} ${text.slice(0, 200)}`);
      cycles++;
      if (!reaskAtOnce) await nextTurn();
    }
  };
  const all = Promise.all(
    ids.map(async (id) => {
      if (STAGGER_MS > 0) await sleep(Math.random() * STAGGER_MS);
      if (running) await agent(id);
    }),
  );
  return {
    cycles: () => cycles,
    stop: async () => {
      running = false;
      await all;
    },
  };
}

/**
 * `strace -c -f` on `pid` until the returned function is called; that resolves to its counts by
 * system call, read from strace's summary.
 */
function straceCounts(pid) {
  const dir = mkdtempSync(join(tmpdir(), 'wait-cycle-strace-'));
  const file = join(dir, 'summary');
  const child = spawn('strace', ['-c', '-f', '-o', file, '-p', String(pid)], { stdio: 'ignore' });
  return async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await exited;
    const counts = new Map();
    // "% time  seconds  usecs/call  calls  errors  syscall": errors may be blank.
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 5 || !/^\d+\.\d+$/.test(fields[0]) || fields.at(-1) === 'total') continue;
      counts.set(fields[fields.length - 1], Number(fields[3]));
    }
    rmSync(dir, { recursive: true, force: true });
    return counts;
  };
}

/** The bytes of `path` from `offset` on, as text. */
function readFrom(path, offset) {
  const length = statSync(path).size - offset;
  const bytes = Buffer.alloc(Math.max(0, length));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
  return bytes.toString('utf8');
}

/**
 * V8's `--trace-gc` lines in `text`, by kind: how many, their pauses (ms, wall time: on a loaded
 * machine not CPU), an incremental mark's steps before its pause, and the heap (MB) after each.
 */
function collections(text) {
  const kinds = new Map();
  const line =
    /ms: (Scavenge|Mark-Compact|Minor Mark-Sweep|Mark-Sweep)\b[^\n]*? ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms(?: +\(\+ ([\d.]+) ms in)?/g;
  for (const m of text.matchAll(line)) {
    const kind = kinds.get(m[1]) ?? { count: 0, pauseMs: 0, stepsMs: 0, afterMb: [] };
    kind.count++;
    kind.pauseMs += Number(m[6]);
    kind.stepsMs += Number(m[7] ?? 0);
    kind.afterMb.push(Number(m[4]));
    kinds.set(m[1], kind);
  }
  return kinds;
}

/** The service's main thread's context switches so far: it gave the CPU up, and it was made to. */
function contextSwitches(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const count = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return {
    voluntary: count('voluntary_ctxt_switches'),
    forced: count('nonvoluntary_ctxt_switches'),
  };
}

/** CPU microseconds `service` spent per wait cycle over WINDOW_S seconds of AGENTS agents. */
async function measure({ service, reaskAtOnce, name }, key, ids) {
  const agents = startAgents(service.base, key, ids, reaskAtOnce);
  try {
    await sleep(STAGGER_MS + HOLD * 1000 + 3_000);
    const stopStrace = STRACE ? straceCounts(service.pid) : undefined;
    const logPath =
      LOG_DIR === undefined ? undefined : join(LOG_DIR, `service-${service.port}.log`);
    const logAt = logPath === undefined ? 0 : statSync(logPath).size;
    const threads0 = threadCpuMicros(service.pid);
    const cpu0 = cpuSplitMicros(service.pid);
    const switches0 = contextSwitches(service.pid);
    const cycles0 = agents.cycles();
    const opened0 = connectionsOpened;
    await sleep(WINDOW_S * 1000);
    const cpu1 = cpuSplitMicros(service.pid);
    const threads1 = threadCpuMicros(service.pid);
    const switches1 = contextSwitches(service.pid);
    const cycles = agents.cycles() - cycles0;
    const opened = connectionsOpened - opened0;
    const user = (cpu1.user - cpu0.user) / cycles;
    const system = (cpu1.system - cpu0.system) / cycles;
    const voluntary = (switches1.voluntary - switches0.voluntary) / cycles;
    const forced = (switches1.forced - switches0.forced) / cycles;
    const others = (threads1.others - threads0.others) / cycles;
    log(
      `${name}: ${cycles} cycles in ${WINDOW_S} s, ${(user + system).toFixed(0)} µs of CPU a cycle (user ${user.toFixed(0)}, system ${system.toFixed(0)}); the main thread's context switches a cycle ${voluntary.toFixed(2)} voluntary, ${forced.toFixed(2)} forced; off the main thread (V8's collector helpers, libuv's pool) ${others.toFixed(0)} µs; ${opened} connections opened (load ${loadAverage()})`,
    );
    if (logPath !== undefined)
      for (const [kind, c] of collections(readFrom(logPath, logAt)))
        log(
          `${name}: ${kind} ×${c.count} (${((c.count * 1000) / cycles).toFixed(2)} per 1,000 cycles), pauses ${c.pauseMs.toFixed(1)} ms + steps ${c.stepsMs.toFixed(1)} ms (${(((c.pauseMs + c.stepsMs) * 1000) / cycles).toFixed(1)} µs a cycle, wall), heap after ${c.afterMb.map((x) => x.toFixed(0)).join(' ')} MB`,
        );
    if (stopStrace !== undefined) {
      const counts = [...(await stopStrace()).entries()].sort((a, b) => b[1] - a[1]);
      const all = counts.reduce((sum, [, n]) => sum + n, 0);
      log(
        `${name}: ${(all / cycles).toFixed(2)} system calls a cycle (strace -c -f): ${counts
          .filter(([, n]) => n / cycles >= 0.005)
          .map(([call, n]) => `${call} ${(n / cycles).toFixed(3)}`)
          .join(', ')}`,
      );
    }
    return { cpu: user + system, opened: opened / cycles, others };
  } finally {
    await agents.stop();
  }
}

const startedAt = Date.now();
const loadBefore = loadAverage();
const hostBefore = hostReferenceMs();
log('building the service');
build('apps/api/tsup.config.ts');
const db = await benchDatabase('interlock_bench_wait_cycle');
const env = {
  NODE_ENV: 'production',
  DATABASE_URL: db.url,
  API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
  PLAN_FREE_MESSAGES: '1000000000',
  // The budget out of reach: holds this short are charged one request each (SPEC §8e).
  RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
  SHUTDOWN_DRAIN_DELAY_MS: '0',
};
const words = (value) => (value ?? '').split(' ').filter(Boolean);
const extraNodeArgs = words(process.env.BENCH_WAIT_CYCLE_NODE_ARGS);
// The other build's node options: AGAINST_NODE_ARGS when set (e.g. a V8 flag NODE_OPTIONS refuses).
const againstNodeArgs =
  process.env.AGAINST_NODE_ARGS === undefined
    ? extraNodeArgs
    : words(process.env.AGAINST_NODE_ARGS);
const profiling = (name) =>
  PROFILE_DIR === undefined
    ? name === 'other'
      ? againstNodeArgs
      : extraNodeArgs
    : [
        ...(name === 'other' ? againstNodeArgs : extraNodeArgs),
        '--cpu-prof',
        `--cpu-prof-dir=${PROFILE_DIR}`,
        `--cpu-prof-name=wait-cycle-${name}.cpuprofile`,
      ];
const services = [];
try {
  services.push({
    name: 'this build',
    nodeOptions: NODE_OPTIONS,
    ...(await startService({ ...env, NODE_OPTIONS }, profiling('this'))),
  });
  if (process.env.AGAINST)
    services.push({
      name: 'the other build',
      nodeOptions: AGAINST_NODE_OPTIONS,
      ...(await startService(
        { ...env, NODE_OPTIONS: AGAINST_NODE_OPTIONS },
        profiling('other'),
        process.env.AGAINST,
      )),
    });
  log(`services' pids: ${services.map((service) => `${service.name} ${service.pid}`).join(', ')}`);
  const { key } = await signUpWithKey(services[0].base, 'waitcycle');
  const ids = await openInterrupts(services[0].base, key, AGENTS);
  log(`${AGENTS} interrupts open; ${HOLD} s holds, ${WINDOW_S} s windows, ${ROUNDS} rounds`);
  // What is measured, alternately: this build and the other, or this build with both re-asks.
  const runs =
    REASK === 'both'
      ? [
          {
            service: services[0],
            reaskAtOnce: false,
            name: 'this build, re-asked on the next turn',
          },
          { service: services[0], reaskAtOnce: true, name: 'this build, re-asked at once' },
        ]
      : services.map((service) => ({
          service,
          reaskAtOnce: REASK === 'at-once',
          name: service.name,
        }));
  const figures = runs.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = runs.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) figures[i].push(await measure(runs[i], key, ids));
  }
  const us = (values) => values.map((v) => v.cpu.toFixed(0)).join(' ');
  const opened = (values) => values.map((v) => (v.opened * 1000).toFixed(0)).join(' ');
  const others = (values) => values.map((v) => v.others.toFixed(0)).join(' ');
  console.log(
    `wait cycle, ${AGENTS} agents holding ${HOLD} s — ${machine()}, load ${loadBefore} before, ${loadAverage()} after, ${((Date.now() - startedAt) / 60000).toFixed(1)} min; the host's scrypt reference (hostReferenceMs) ${hostBefore.toFixed(0)} ms before, ${hostReferenceMs().toFixed(0)} ms after`,
  );
  for (const [i, run] of runs.entries())
    console.log(
      `${run.name}: ${us(figures[i])} µs of CPU a cycle (of it ${others(figures[i])} µs off the main thread: V8's collector helpers, libuv's pool); ${opened(figures[i])} connections opened per 1,000 cycles (per round)${run.service.nodeOptions ? `; NODE_OPTIONS ${run.service.nodeOptions}` : ''}`,
    );
  if (runs.length === 2) {
    const ratios = figures[0].map((v, i) => v.cpu / figures[1][i].cpu);
    const median = [...ratios].sort((a, b) => a - b)[ratios.length >> 1];
    console.log(
      `${runs[0].name} / ${runs[1].name}${process.env.AGAINST ? ` (${process.env.AGAINST})` : ''}, per round: ${ratios.map((r) => r.toFixed(3)).join(' ')} (median ${median.toFixed(3)})`,
    );
  }
} finally {
  for (const service of services.reverse()) await service.stop();
  await db.stop();
}
