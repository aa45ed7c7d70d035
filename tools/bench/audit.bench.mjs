#!/usr/bin/env node
// Audit-log reads at scale: seeds 10 million entries over 100 organisations (one with 1
// million), times every filter and search shape through the service's query path, the
// 1,000th page of a walk against the first, the append path, and pages/s over HTTP.
//   npx nx run tools:bench-audit                 (about 10 minutes on 2 cores)
//   node tools/bench/audit.bench.mjs 1000000     (a smaller run: total entries as argument)
// BENCH_DATABASE_URL=postgres://… uses your own server; BENCH_KEEP_DATABASE=1 reuses its data.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  benchDatabase,
  build,
  load,
  machine,
  root,
  startService,
  writeSection,
} from './bench-support.mjs';

const total = Number(process.argv[2] ?? 10_000_000);
const pepper = 'bench-pepper-0123456789-0123456789-01234';
build('tools/bench/tsup.config.ts');
build('apps/api/tsup.config.ts');
const db = await benchDatabase('interlock_bench_audit', [
  'shared_buffers=2GB',
  'maintenance_work_mem=1GB',
  'max_wal_size=16GB',
  'checkpoint_timeout=30min',
  'work_mem=64MB',
  // DB time per page is read from pg_stat_statements.
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track_planning=on',
]);
try {
  const started = Date.now();
  const output = await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'dist/tools/bench/audit-bench.driver.js'), String(total)],
      {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: db.url,
          API_KEY_PEPPER: pepper,
          NODE_ENV: 'production',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`driver exited ${code}`)),
    );
  });
  const r = JSON.parse(output);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);

  // The key budget stays on (its bookkeeping is part of what is measured) but never refuses.
  const server = await startService({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: pepper,
    NODE_ENV: 'production',
    RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
  }).catch((error) => (console.error(error), null));
  let http = 'not measured (the server did not start)';
  if (server) {
    const res = await load({
      url: `http://127.0.0.1:${server.port}/api/audit-log?limit=50`,
      headers: { 'x-api-key': r.apiKey },
      connections: 16,
    });
    http = `${Math.round(res.requests.average)} pages/s (50 entries each), p50 ${res.latency.p50} ms, p99 ${res.latency.p99} ms, ${res.non2xx} non-2xx`;
    await server.stop();
  }

  const ms = (x) => (x ? x.toFixed(2) : '–');
  const rows = r.results
    .map(
      (x) =>
        `| ${x.filter} | ${x.shape} | ${x.entries} | ${ms(x.db?.p50)} | ${ms(x.db?.p99)} | ${ms(x.client.p50)} | ${ms(x.client.p99)} |`,
    )
    .join('\n');
  const depth = (x) => (x.db ? x.db : x.client);
  writeSection(
    'audit',
    `## Audit-log reads at scale

Command: \`npx nx run tools:bench-audit\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, Postgres 15 (throwaway
cluster: shared_buffers 2GB, fsync off). ${r.total.toLocaleString('en')} entries over 100 organisations; the one
measured holds ${r.big.toLocaleString('en')}. Seeding took part of the ${minutes} min run.

Each row times one page (limit 50) through the service's own query path
(\`AuditLogService.list\`: the snapshot lookup and the page query, or, for \`q\`, the prefix
expansion and the search plans), ${r.iterations} runs after 3 warm-ups. **DB** is what Postgres
spent planning and executing those statements (pg_stat_statements, reset before each run);
**client** is the wall time of the call in the service's process over loopback, round trips and
driver included. p50 and p99 in ms. The three rows marked "after a burst" run last, once 5,000
entries without the searched words have been appended to the organisation.

| filter | matches | entries on page | DB p50 | DB p99 | client p50 | client p99 |
|---|---|---|---|---|---|---|
${rows}

Walk depth (${r.deep.db ? 'DB' : 'client'} time): first page p50 ${ms(depth(r.deep.first).p50)} / p99 ${ms(depth(r.deep.first).p99)} ms; 1,000th page p50 ${ms(depth(r.deep).p50)} / p99 ${ms(depth(r.deep).p99)} ms
(ratio of p50 ${(depth(r.deep).p50 / depth(r.deep.first).p50).toFixed(2)}×).

Append path (one entry per transaction through the writer: head-row lock, sequence, hash):
p50 ${r.append.p50.toFixed(2)} ms, p99 ${r.append.p99.toFixed(2)} ms per transaction.

HTTP, autocannon 16 connections 10 s, \`GET /api/audit-log?limit=50\` on the largest organisation: ${http}.

Targets: every page p99 ≤ 5 ms DB time, \`q\` p99 ≤ 50 ms, deep page ≤ 1.2× first page.`,
  );
  console.log(JSON.stringify({ ...r, apiKey: undefined }, null, 2));
} finally {
  db.stop();
}
