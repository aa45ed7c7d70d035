#!/usr/bin/env node
// What a held wait costs in live heap (issue 37 §6): the built service holds WAITS waits
// (`GET /api/interrupts/{id}?waitSeconds=60`, one interrupt and one connection each, an API key
// with a request budget, as agents wait) and the live heap is compared, by constructor, with the
// same instance before them — from heap snapshots (`node --heapsnapshot-signal`; a snapshot is
// taken after a full collection, so what it holds is live). A third snapshot after the clients
// left shows what a wait leaves behind.
//
//   npx nx run tools:bench-wait-heap
//
// Environment: WAITS (default 2,000), BENCH_DATABASE_URL (else a throwaway cluster),
// BENCH_WAIT_HEAP_NODE_OPTIONS (the service's NODE_OPTIONS; 'production': the image's),
// BENCH_WAIT_HEAP_TOP (rows printed, default 40), BENCH_WAIT_HEAP_RETAINERS (how many of the
// largest rows get a retainer chain, default 8), BENCH_WAIT_HEAP_KEEP=<dir> to keep the
// snapshots (else they are deleted). Nothing is written to BENCHMARKS.md.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchDatabase,
  freePort,
  machine,
  productionNodeOptions,
  signUpWithKey,
  startService,
} from './bench-support.mjs';
import { growth, readHeapSnapshot, retainerChain, retainersOf, tally } from './heap-snapshot.mjs';

const WAITS = Number(process.env.WAITS ?? 2_000);
const TOP = Number(process.env.BENCH_WAIT_HEAP_TOP ?? 40);
const RETAINERS = Number(process.env.BENCH_WAIT_HEAP_RETAINERS ?? 8);
const KEEP = process.env.BENCH_WAIT_HEAP_KEEP;
const NODE_OPTIONS =
  process.env.BENCH_WAIT_HEAP_NODE_OPTIONS === 'production'
    ? productionNodeOptions()
    : (process.env.BENCH_WAIT_HEAP_NODE_OPTIONS ?? '');
const log = (message) => console.error(`[bench:wait-heap] ${message}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** Opens `count` interrupts, 16 at a time (a 503 is retried, up to 5 times). */
async function openInterrupts(base, key, count) {
  const ids = [];
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
            'idempotency-key': `wait-heap-${n}`,
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
      ids.push((await res.json()).id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return ids;
}

/** Long polls the instance holds now (its metrics listener's gauge). */
async function longPollsOpen(metricsBase) {
  const text = await (await fetch(`${metricsBase}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(/^interlock_http_long_polls_open\{[^}]*\} (\d+)/gm))
    n += Number(m[1]);
  return n;
}

/** Holds one wait per id on its own connection; `leave()` closes them all (the clients leave). */
function holdWaits(base, key, ids, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const url = new URL(base);
  const requests = ids.map((id) => {
    const req = request({
      agent,
      host: url.hostname,
      port: url.port,
      path: `/api/interrupts/${id}?waitSeconds=${seconds}`,
      // What the TypeScript SDK's waitForAnswer sends through Node's fetch.
      headers: {
        accept: 'application/json',
        'user-agent': 'interlock-sdk-ts/0.0.0',
        'x-interlock-sdk': 'ts/0.0.0',
        'x-api-key': key,
        'accept-language': '*',
        'sec-fetch-mode': 'cors',
        'accept-encoding': 'gzip, deflate',
      },
    });
    req.on('response', (res) => {
      res.resume();
      if (res.statusCode !== 200) log(`a wait answered ${res.statusCode}`);
    });
    req.on('error', () => undefined);
    req.end();
    return req;
  });
  return {
    leave: () => {
      for (const req of requests) req.destroy();
      agent.destroy();
    },
  };
}

/**
 * Has the service write a heap snapshot (SIGUSR2) into `dir`, waits until it is written and
 * tallies it; the graph itself is kept only when asked (a few hundred MB of this process's memory).
 */
async function snapshot(service, dir, name, keepGraph = false) {
  const before = new Set(readdirSync(dir));
  process.kill(service.pid, 'SIGUSR2');
  let file;
  for (let i = 0; i < 1200 && file === undefined; i++) {
    await sleep(100);
    file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
  }
  if (file === undefined) throw new Error(`${name}: no heap snapshot after 120 s`);
  // The snapshot is written on the service's main thread: once it answers again, the file is whole
  // (minutes on a loaded machine: a request that times out is sent again, for up to 20 min).
  for (let i = 0; ; i++) {
    const ok = await fetch(`${service.base}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i === 240) throw new Error(`${name}: the service did not answer after its snapshot`);
    await sleep(5_000);
  }
  const path = join(dir, file);
  log(`${name}: ${mb(statSync(path).size)} of snapshot`);
  const graph = readHeapSnapshot(path);
  if (KEEP === undefined) rmSync(path);
  return { graph: keepGraph ? graph : undefined, heap: tally(graph) };
}

const dir = mkdtempSync(join(KEEP ?? tmpdir(), 'wait-heap-'));
const { url, stop: stopDatabase } = await benchDatabase('interlock_bench_wait_heap');
let service;
try {
  const metricsPort = await freePort();
  service = await startService(
    {
      NODE_ENV: 'development',
      API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
      LOG_LEVEL: 'warn',
      PLAN_FREE_MESSAGES: '1000000000',
      PASSWORD_SCRYPT_LOG_N: '14',
      DATABASE_URL: url,
      // A budget, as agents have one (a key's wait takes its budget's path), too large to refuse.
      RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
      METRICS_PORT: String(metricsPort),
      NODE_OPTIONS,
    },
    ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`],
  );
  const metricsBase = `http://127.0.0.1:${metricsPort}`;
  const { key } = await signUpWithKey(service.base, 'waitheap');
  const ids = await openInterrupts(service.base, key, WAITS);
  log(`${WAITS} interrupts opened`);

  // Warm-up: every path a held wait takes (its first read, a hold, its end, the next read) runs
  // before the first snapshot, so what is compiled or cached once is not counted per wait.
  const warm = holdWaits(service.base, key, ids.slice(0, 200), 1);
  await sleep(4_000);
  warm.leave();
  await sleep(2_000);

  const empty = await snapshot(service, dir, 'no waits held');
  const held = holdWaits(service.base, key, ids, 60);
  const startedAt = Date.now();
  while ((await longPollsOpen(metricsBase)) < WAITS) {
    if (Date.now() - startedAt > 120_000) throw new Error('the waits were not all held in 120 s');
    await sleep(500);
  }
  // Their first reads answered (gathered, 20 ms, in batches): every wait is in its hold now.
  await sleep(3_000);
  const full = await snapshot(service, dir, `${WAITS} waits held`, true);
  held.leave();
  await sleep(3_000);
  const left = await snapshot(service, dir, 'after the clients left');

  const perWait = (full.heap.total - empty.heap.total) / WAITS;
  console.log(
    `Live heap (${machine()}, load ${loadavg()[0].toFixed(1)}; NODE_OPTIONS ${NODE_OPTIONS || 'none'}):`,
  );
  console.log(
    `  no waits ${mb(empty.heap.total)}; ${WAITS} held ${mb(full.heap.total)}; after they left ${mb(left.heap.total)}`,
  );
  console.log(`  per held wait: ${(perWait / 1024).toFixed(2)} KB (${perWait.toFixed(0)} bytes)`);
  const nativePerWait = (full.heap.native - empty.heap.native) / WAITS;
  console.log(
    `  besides, outside V8's heap (Node's native objects): ${(nativePerWait / 1024).toFixed(2)} KB per held wait`,
  );
  console.log(`\nGrowth per held wait, by constructor (count, bytes):`);
  const rows = growth(empty.heap, full.heap, WAITS);
  for (const row of rows.slice(0, TOP))
    console.log(
      `  ${row.bytes.toFixed(0).padStart(7)} B  ${row.count.toFixed(2).padStart(6)} ×  ${row.label}`,
    );
  console.log(`\nWhat keeps them alive (one of each, from the root):`);
  for (const row of rows.slice(0, RETAINERS)) {
    console.log(`\n  ${row.label}`);
    for (const line of retainerChain(full.graph, row.label)) console.log(`    ${line}`);
    console.log(`    held by (the largest, per held wait):`);
    for (const r of retainersOf(full.graph, row.label).slice(0, 6))
      console.log(
        `      ${(r.bytes / WAITS).toFixed(0).padStart(6)} B ${(r.count / WAITS).toFixed(2).padStart(6)} ×  ${r.by}`,
      );
  }
  const leftRows = growth(empty.heap, left.heap, WAITS).filter((r) => r.bytes >= 16);
  console.log(`\nLeft per wait after the clients left (≥ 16 B):`);
  for (const row of leftRows.slice(0, 10))
    console.log(
      `  ${row.bytes.toFixed(0).padStart(7)} B  ${row.count.toFixed(2).padStart(6)} ×  ${row.label}`,
    );
} finally {
  await service?.stop();
  await stopDatabase();
  if (KEEP === undefined) rmSync(dir, { recursive: true, force: true });
}
