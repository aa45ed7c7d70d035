#!/usr/bin/env node
// Why the service runs on NestJS's Fastify adapter (issue 28, the README's "Why Fastify by
// default"): the three bare apps of tools/bench/perf-baseline — NestJS 12 on Express, the same
// NestJS module on Nest's own Fastify adapter, and bare Fastify 5 — paired on the same throwaway
// Postgres, each pair by the baseline's run-pair.sh (A and B alternated, a warm-up before every
// measured run; the ratio is the median of the per-round ratios). No Interlock code runs.
//
//   npx nx run tools:bench-frameworks
//
// Environment:
//   PAIRS            comma-separated (default ping,row): ping = GET /ping, row = the primary-key
//                    read GET /rows/:id, page = the keyset page GET /page?org=…&limit=50 (seeds
//                    the 1M audit rows it reads)
//   SECONDS_PER_RUN  seconds per measured run (default 8); ROUNDS (default 3), WARMUP (default 3)
//   CONNECTIONS      default 50
//   BENCH_WRITE=0    print, do not write BENCHMARKS.md
import { loadavg } from 'node:os';
import {
  BASELINE_KINDS,
  benchDatabase,
  machine,
  prepareBaseline,
  runPair,
  seedBaselineDatabase,
  startBaseline,
  writeSection,
} from './bench-support.mjs';

const SECONDS = Number(process.env.SECONDS_PER_RUN ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
/** Each bare app's pool (as the pair bench's PG_POOL_MAX). */
const POOL = 10;
const ROUTES = {
  ping: ['`GET /ping`', '/ping'],
  row: ['PK read `GET /rows/:id`', '/rows/761ff52b-8e6d-d373-fdf2-91a1a70df20c'],
  page: [
    'keyset page `GET /page?org=…&limit=50`',
    '/page?org=a8d899a4-2029-d806-24b7-a414eab21801&limit=50',
  ],
};
const PAIRS = (process.env.PAIRS ?? 'ping,row').split(',').filter(Boolean);
for (const name of PAIRS) if (ROUTES[name] === undefined) throw new Error(`no pair '${name}'`);
/** [A, B]: each pair of apps, measured on every route of PAIRS. */
const APPS = [
  ['nest-express', 'nest-fastify'],
  ['nest-fastify', 'fastify'],
];

const log = (message) => console.error(`[bench:frameworks] ${message}`);
const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

const startedAt = Date.now();
const loadBefore = loadAverage();
const baseline = prepareBaseline(log);
const db = await benchDatabase('interlock_bench_frameworks');
log('seeding the baseline (its seed.mjs)');
const databaseUrl = await seedBaselineDatabase(
  db.adminUrl,
  'perf_baseline_frameworks',
  baseline.dir,
  PAIRS.includes('page') ? {} : { AUDIT_ROWS: '1000', ORGS: '2' },
);

const apps = {};
const results = []; // { a, b, route, result }
try {
  for (const kind of new Set(APPS.flat()))
    apps[kind] = await startBaseline(baseline.dir, databaseUrl, POOL, kind);
  for (const [a, b] of APPS) {
    for (const route of PAIRS) {
      const path = ROUTES[route][1];
      log(`${a} vs ${b}: ${route} (load average ${loadAverage()})`);
      const result = runPair(baseline.dir, apps[a].base + path, apps[b].base + path, {
        pids: { a: apps[a].pid, b: apps[b].pid },
        rounds: ROUNDS,
        seconds: SECONDS,
        warmup: WARMUP,
        connections: CONNECTIONS,
        log,
      });
      log(`${a} vs ${b}: ${route} ratio ${result.ratio}`);
      results.push({ a, b, route, result });
    }
  }
} finally {
  for (const app of Object.values(apps)) await app.stop();
  db.stop();
}

const fmt = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const rows = results.map(
  ({ a, b, route, result: r }) =>
    `| ${BASELINE_KINDS[a].name} | ${BASELINE_KINDS[b].name} | ${ROUTES[route][0]} | **${r.ratio.toFixed(2)}** (${fmt(r.a)} / ${fmt(r.b)}) | ${r.perRound} | ${r.cpu.a.perRequest.toFixed(0)} / ${r.cpu.b.perRequest.toFixed(0)} µs |`,
);
const env = [
  process.env.PAIRS ? `PAIRS=${process.env.PAIRS}` : '',
  process.env.SECONDS_PER_RUN ? `SECONDS_PER_RUN=${SECONDS}` : '',
  process.env.ROUNDS ? `ROUNDS=${ROUNDS}` : '',
]
  .filter(Boolean)
  .join(' ');
const markdown = `## Why Fastify: bare NestJS on Express, on the Fastify adapter, and bare Fastify (issue 28)

Command: \`${env ? `${env} ` : ''}npx nx run tools:bench-frameworks\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine()},
Postgres 15 (one throwaway cluster, fsync off; seeded by the baseline's \`seed.mjs\`), ${((Date.now() - startedAt) / 60_000).toFixed(1)} min.
Load average (1 / 5 / 15 min) **${loadBefore}** before, **${loadAverage()}** after. The three bare apps of
\`tools/bench/perf-baseline\` (no Interlock code): NestJS 12 on Express (\`dist/main.js\`), the same module and
controller on Nest's Fastify adapter (\`dist/main-fastify.js\`), and bare Fastify 5 (\`fastify/main.mjs\`), each with a
pool of ${POOL}. Each pair is \`run-pair.sh\` (${ROUNDS} rounds × ${SECONDS} s, A then B, a ${WARMUP} s warm-up before every run,
${CONNECTIONS} connections; the ratio is the median of the per-round ratios); CPU is each process's CPU time per request over the pair.

| A | B | route | ratio A/B (req/s A / B) | per-round ratios | CPU a request A / B |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
console.log(markdown);
if (process.env.BENCH_WRITE !== '0') writeSection('frameworks', markdown);
