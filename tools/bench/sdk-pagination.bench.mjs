#!/usr/bin/env node
// Auto-pagination through the SDKs: one Pro organisation with 100,000 audit entries, walked at
// limit 200 (500 pages) with the TypeScript SDK in-process and the Python SDK (sync and async) in
// its venv, beside a raw `fetch` cursor walk as the baseline; entries/s for each.
//   npx nx run sdk-ts:bench-sdk-pagination       (BENCH_DATABASE_URL=postgres://… to use your own server)
//   node tools/bench/sdk-pagination.bench.mjs 20000   (a smaller run: entries as argument)
// Seeding inserts straight into audit_log_entries, 1,000 rows per statement (one transaction each),
// through the append trigger: every row is chained (seq, created_at, hash) as the writer's are.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { call, createKey, signUp } from '../scripts/with-service.mjs';
import {
  benchDatabase,
  build,
  machine,
  root,
  seedAuditEntries,
  startService,
  writeSection,
} from './bench-support.mjs';

const TOTAL = Number(process.argv[2] ?? 100_000);
const BATCH = 1_000;
const LIMIT = 200;
const RUNS = 5;
const PEPPER = 'bench-pepper-0123456789-0123456789-01234';

function log(message) {
  console.error(`[bench:sdk-pagination] ${message}`);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Runs every walk RUNS times, round by round (one walk of each kind per round), so that warm-up and
 * whatever else the machine does fall on all of them alike. Each walk returns { entries, seconds }.
 */
async function measure(walks) {
  const runs = walks.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    for (const [i, { name, walk }] of walks.entries()) {
      const run = await walk();
      log(`round ${round + 1}, ${name}: ${run.entries} entries in ${run.seconds.toFixed(2)} s`);
      runs[i].push(run);
    }
  }
  return walks.map(({ name }, i) => {
    const entries = runs[i][0].entries;
    if (runs[i].some((r) => r.entries !== entries))
      throw new Error(`${name}: walks saw different counts`);
    const rates = runs[i].map((r) => r.entries / r.seconds);
    const seconds = runs[i].map((r) => r.seconds);
    return {
      name,
      entries,
      seconds: median(seconds),
      min: Math.min(...seconds),
      max: Math.max(...seconds),
      rate: median(rates),
      best: Math.max(...rates),
    };
  });
}

async function rawWalk(baseUrl, apiKey) {
  const started = performance.now();
  let entries = 0;
  let cursor = null;
  do {
    const query = new URLSearchParams({
      limit: String(LIMIT),
      ...(cursor === null ? {} : { cursor }),
    });
    const url = `${baseUrl}/api/audit-log?${query}`;
    const init = { headers: { 'x-api-key': apiKey, accept: 'application/json' } };
    // A kept-alive socket the service closed while idle fails the first request on it: send that
    // one again (the SDKs do the same, as a retried connection error).
    const response = await fetch(url, init).catch(() => fetch(url, init));
    if (!response.ok) throw new Error(`raw walk: ${response.status} ${await response.text()}`);
    const body = await response.json();
    entries += body.entries.length;
    cursor = body.nextCursor;
  } while (cursor !== null);
  return { entries, seconds: (performance.now() - started) / 1000 };
}

async function tsWalk(Interlock, baseUrl, apiKey) {
  const client = new Interlock({ apiKey, baseURL: baseUrl });
  const started = performance.now();
  let entries = 0;
  for await (const entry of client.auditLog.list({ limit: LIMIT })) {
    if (entry.id) entries++;
  }
  return { entries, seconds: (performance.now() - started) / 1000 };
}

const PYTHON_WALK = `
import asyncio, json, sys, time
from interlock import AsyncInterlock, Interlock

mode, base_url, api_key, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def sync_walk():
    with Interlock(api_key=api_key, base_url=base_url) as client:
        started = time.perf_counter()
        entries = sum(1 for entry in client.audit_log.list(limit=limit) if entry.id)
        return entries, time.perf_counter() - started

async def async_walk():
    async with AsyncInterlock(api_key=api_key, base_url=base_url) as client:
        started = time.perf_counter()
        entries = 0
        async for entry in client.audit_log.list(limit=limit):
            if entry.id:
                entries += 1
        return entries, time.perf_counter() - started

entries, seconds = sync_walk() if mode == "sync" else asyncio.run(async_walk())
print(json.dumps({"entries": entries, "seconds": seconds}))
`;

function pythonWalk(mode, baseUrl, apiKey) {
  const python = join(root, 'libs/sdk-python/.venv/bin/python');
  const result = spawnSync(python, ['-c', PYTHON_WALK, mode, baseUrl, apiKey, String(LIMIT)], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`python ${mode} walk failed:\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

function pythonVersions() {
  const python = join(root, 'libs/sdk-python/.venv/bin/python');
  const script =
    'import sys, httpx, pydantic; print(f"Python {sys.version.split()[0]}, httpx {httpx.__version__}, pydantic {pydantic.VERSION}")';
  return spawnSync(python, ['-c', script], { encoding: 'utf8' }).stdout.trim();
}

// The SDKs as users run them: the TypeScript build, the Python SDK installed in its venv.
build('apps/api/tsup.config.ts');
build('libs/sdk-ts/tsup.config.ts');
const setup = spawnSync(process.execPath, [join(root, 'tools/scripts/python-sdk.mjs'), 'setup'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (setup.status !== 0) throw new Error('the Python SDK venv could not be set up');
const { Interlock } = await import(pathToFileURL(join(root, 'libs/sdk-ts/dist/index.js')).href);

const db = await benchDatabase('interlock_bench_sdk_pagination');
let server;
let client;
try {
  // The key budget stays on (its bookkeeping is part of what is measured) but never refuses.
  server = await startService({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: PEPPER,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const cookie = await signUp(baseUrl, 'bench');
  await call(baseUrl, 'PUT', '/api/organisation/plan', { cookie, body: { plan: 'pro' } });
  const key = await createKey(baseUrl, cookie, 'bench');
  const me = await fetch(`${baseUrl}/api/whoami`, { headers: { 'x-api-key': key.key } }).then((r) =>
    r.json(),
  );

  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const seeding = performance.now();
  await seedAuditEntries(client, me.organisationId, key.id, TOTAL, { batch: BATCH, vacuum: false });
  const seedSeconds = (performance.now() - seeding) / 1000;
  const [{ n, chained }] = (
    await client.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE hash IS NOT NULL AND seq IS NOT NULL)::int AS chained
         FROM audit_log_entries WHERE organisation_id = $1`,
      [me.organisationId],
    )
  ).rows;
  await client.query('ANALYZE audit_log_entries');
  log(
    `seeded ${TOTAL} entries in ${seedSeconds.toFixed(1)} s; the organisation holds ${n} (${chained} chained)`,
  );

  // Untimed walks first, so that every measured walk meets a warm cache and a warmed-up service.
  await rawWalk(baseUrl, key.key);
  await tsWalk(Interlock, baseUrl, key.key);
  const loadBefore = loadavg()[0];
  const results = await measure([
    { name: 'raw `fetch` cursor walk (Node, no SDK)', walk: () => rawWalk(baseUrl, key.key) },
    {
      name: 'TypeScript SDK: `for await (const e of client.auditLog.list(…))`',
      walk: () => tsWalk(Interlock, baseUrl, key.key),
    },
    {
      name: 'Python SDK, sync: `for e in client.audit_log.list(…)`',
      walk: async () => pythonWalk('sync', baseUrl, key.key),
    },
    {
      name: 'Python SDK, async: `async for e in client.audit_log.list(…)`',
      walk: async () => pythonWalk('async', baseUrl, key.key),
    },
  ]);
  const loadAfter = loadavg()[0];
  for (const r of results)
    if (r.entries !== n) throw new Error(`${r.name} walked ${r.entries} of ${n} entries`);

  const baseline = results[0].rate;
  const rows = results
    .map(
      (r) =>
        `| ${r.name} | ${r.seconds.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${((r.seconds * 1000) / Math.ceil(r.entries / LIMIT)).toFixed(1)} | ${Math.round(r.rate).toLocaleString('en')} | ${Math.round(r.best).toLocaleString('en')} | ${(r.rate / baseline).toFixed(2)}× |`,
    )
    .join('\n');
  writeSection(
    'sdk-pagination',
    `## SDK auto-pagination: walking the audit log

Command: \`npx nx run sdk-ts:bench-sdk-pagination\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}; ${pythonVersions()}.
One Pro organisation holding ${n.toLocaleString('en')} audit entries (${TOTAL.toLocaleString('en')} seeded with SQL through the append
trigger, ${BATCH.toLocaleString('en')} rows per transaction, in ${seedSeconds.toFixed(1)} s), walked newest first at \`limit=${LIMIT}\`
(${Math.ceil(n / LIMIT)} pages) over loopback HTTP/1.1 with keep-alive. Service (\`NODE_ENV=production\`, logs silenced), client and
Postgres share the machine (1-minute load average ${loadBefore.toFixed(1)} before the timed walks, ${loadAfter.toFixed(1)} after). After two
untimed walks, ${RUNS} rounds each walk once per kind, in turn; the table gives the median walk time (and the range over the
rounds), its time per page, and the median and best rates. Every walk saw all ${n.toLocaleString('en')} entries.

| walk | s: median (min–max) | ms / page | entries/s (median) | entries/s (best) | vs raw |
|---|---|---|---|---|---|
${rows}

The raw walk is \`fetch\`, \`response.json()\` and the cursor, nothing else. Pages are fetched one after another, as a
cursor walk must, so every walk waits on the service for each page; the SDKs add, per page, their headers and retry
bookkeeping and, per entry, the TypeScript SDK nothing (entries are the parsed JSON) and the Python SDK a pydantic
validation into \`AuditEntry\` (UUIDs, aware datetimes, literals). One run on a shared machine: where two rows'
ranges overlap, this run does not tell them apart.`,
  );
  console.log(JSON.stringify({ entries: n, seedSeconds, results }, null, 2));
} finally {
  await client?.end().catch(() => undefined);
  await server?.stop();
  db.stop();
}
