#!/usr/bin/env node
// Authentication cost: requests/s and p99 of a trivial route behind the API-key guard vs its
// public twin, and of checksum-failing keys. One run each, autocannon on loopback.
//   npx nx run tools:bench-auth      (BENCH_DATABASE_URL=postgres://… to use your own server)
import {
  benchDatabase,
  build,
  load,
  machine,
  startServer,
  writeSection,
} from './bench-support.mjs';

build('tools/bench/tsup.config.ts');
const db = await benchDatabase('interlock_bench_auth');
const server = await startServer('dist/tools/bench/auth-bench.server.js', {
  DATABASE_URL: db.url,
  NODE_ENV: 'production',
  API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
  LOG_LEVEL: 'silent',
  // The key budget stays on (its bookkeeping is part of what is measured) but never refuses.
  RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
});
const base = `http://127.0.0.1:${server.port}`;
try {
  const signUp = await fetch(`${base}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.test',
      password: 'bench password',
      name: 'Bench',
      organisationName: 'Bench',
    }),
  });
  const cookie = signUp.headers.get('set-cookie').split(';')[0];
  const { key } = await (
    await fetch(`${base}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'bench', expiry: 'never' }),
    })
  ).json();
  const broken = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);

  const runs = [
    ['public twin (no key guard)', { url: `${base}/bench/public` }],
    ['valid key (guarded)', { url: `${base}/bench/keyed`, headers: { 'x-api-key': key } }],
    [
      'checksum-failing key (401)',
      { url: `${base}/bench/keyed`, headers: { 'x-api-key': broken } },
    ],
  ];
  await load({ url: `${base}/bench/keyed`, headers: { 'x-api-key': key }, duration: 3 }); // warm-up
  const rows = [];
  for (const [label, opts] of runs) {
    const r = await load(opts);
    const expected = label.startsWith('checksum') ? '4xx' : '2xx';
    rows.push({
      label,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      ok: r[expected],
      errors: r.errors + r.non2xx - (expected === '4xx' ? r['4xx'] : 0),
    });
  }
  const baseline = rows[0].rps;
  const table = rows
    .map(
      (r) =>
        `| ${r.label} | ${Math.round(r.rps)} | ${(r.rps / baseline).toFixed(2)}× | ${r.p50} | ${r.p99} | ${r.errors} |`,
    )
    .join('\n');
  writeSection(
    'auth',
    `## API-key authentication

Command: \`npx nx run tools:bench-auth\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}.
autocannon, 32 connections, 10 s per row, loopback; service and autocannon share the machine;
Postgres on the same machine; logs silenced. One run (no repetitions): read as indicative.
A CPU profile of the public route under this load showed the service about a third idle: the
load generator on the same two cores is the limit, so absolute figures understate the service
and the ratios are what the targets judge.

| route | requests/s | vs public | p50 ms | p99 ms | unexpected responses |
|---|---|---|---|---|---|
${table}

Target: authenticated ≥ 0.75× unauthenticated; malformed rejections no slower than valid requests.`,
  );
  console.table(rows);
} finally {
  await server.stop();
  db.stop();
}
