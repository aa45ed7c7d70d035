#!/usr/bin/env node
// Bulk audit writes: the same entries for one organisation written in one transaction and
// 1,000 per transaction must cost about the same (issue 10: one transaction of 100,000 at most
// 2× the batched figure). Two statement shapes, each run twice (batched, then whole):
//   - multi-row: INSERT … SELECT of 1,000 entries per statement (a bulk import);
//   - single-row: one INSERT per entry, the writer's statement, looped in the server so round
//     trips do not hide the triggers' cost.
// Every arm writes into a fresh organisation on a freshly migrated database.
//   npx nx run tools:bench-audit-bulk          (100,000 entries per arm)
//   node tools/bench/audit-bulk.bench.mjs 20000
// BENCH_DATABASE_URL=postgres://… uses your own server.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { benchDatabase, build, machine, root, writeSection } from './bench-support.mjs';

const total = Number(process.argv[2] ?? 100_000);
const BATCH = 1_000;
if (!Number.isInteger(total) || total < BATCH || total % BATCH !== 0)
  throw new Error(`entries must be a multiple of ${BATCH}`);

build('apps/api/tsup.config.ts');
const db = await benchDatabase('interlock_bench_audit_bulk', [
  'shared_buffers=512MB',
  'max_wal_size=8GB',
  'checkpoint_timeout=30min',
]);
const log = (m) => process.stderr.write(`[bench] ${new Date().toISOString()} ${m}\n`);

// The columns the service's writer fills, with words like its summaries hold.
const values = (
  org,
  seq,
) => `${org}, gen_random_uuid(), 'interrupt.created', 'interrupt', 'api_key', 'key-1', 'bulk-agent',
  'interrupt', 'target-' || (${seq} % 500), 'Deploy ' || (${seq} % 50), 'Opened deploy ' || (${seq} % 50) || ' by bulk-agent', NULL, NULL,
  array_to_tsvector(ARRAY['opened', 'deploy', (${seq} % 50)::text, 'by', 'bulk', 'agent', 'interrupt', 'created'])`;
const COLUMNS = `(organisation_id, id, action, category, actor_type, actor_id, actor_name,
  target_type, target_id, target_name, summary, metadata, ip_address, search)`;

try {
  execFileSync(process.execPath, [join(root, 'dist/apps/api/migrate.js'), 'run'], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: db.url,
      NODE_ENV: 'production',
      API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(`CREATE PROCEDURE bench_single_rows(org uuid, n int, per_tx int) LANGUAGE plpgsql AS $$
    BEGIN
      FOR i IN 1..n LOOP
        INSERT INTO audit_log_entries ${COLUMNS} VALUES (${values('org', 'i')});
        IF per_tx > 0 AND i % per_tx = 0 THEN COMMIT; END IF;
      END LOOP;
    END $$`);

  const organisation = async () => {
    const id = randomUUID();
    await client.query(`INSERT INTO organisations (id, name, plan) VALUES ($1, $2, 'pro')`, [
      id,
      `bulk ${id.slice(0, 8)}`,
    ]);
    return id;
  };
  const timed = async (label, work) => {
    await client.query('CHECKPOINT');
    const org = await organisation();
    const started = process.hrtime.bigint();
    await work(org);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const [{ n, words }] = (
      await client.query(
        `SELECT (SELECT last_seq FROM audit_log_heads WHERE organisation_id = $1)::int AS n,
                (SELECT sum(entries) FROM audit_log_words WHERE organisation_id = $1 AND word = 'deploy')::int AS words`,
        [org],
      )
    ).rows;
    if (n !== total || words !== total)
      throw new Error(`${label}: head at ${n}, 'deploy' counted ${words}, expected ${total}`);
    log(`${label}: ${seconds.toFixed(1)} s`);
    return seconds;
  };
  const multiRow = (org, oneTransaction) => async () => {
    if (oneTransaction) await client.query('BEGIN');
    for (let start = 1; start <= total; start += BATCH) {
      await client.query(
        `INSERT INTO audit_log_entries ${COLUMNS} SELECT ${values('$1::uuid', 'g')} FROM generate_series(${start}, ${start + BATCH - 1}) g`,
        [org],
      );
    }
    if (oneTransaction) await client.query('COMMIT');
  };

  const results = {};
  for (const shape of ['multi-row', 'single-row']) {
    const batched = await timed(`${shape}, ${BATCH} per transaction`, (org) =>
      shape === 'multi-row'
        ? multiRow(org, false)()
        : client.query(`CALL bench_single_rows('${org}', ${total}, ${BATCH})`),
    );
    const whole = await timed(`${shape}, one transaction`, (org) =>
      shape === 'multi-row'
        ? multiRow(org, true)()
        : client.query(`CALL bench_single_rows('${org}', ${total}, 0)`),
    );
    results[shape] = { batched, whole, ratio: whole / batched };
  }
  await client.end();

  const row = (shape, statement) => {
    const r = results[shape];
    return `| ${statement} | ${r.batched.toFixed(1)} s | ${r.whole.toFixed(1)} s | ${r.ratio.toFixed(2)}× |`;
  };
  writeSection(
    'audit-bulk',
    `## Audit log: bulk writes in one transaction

Command: \`npx nx run tools:bench-audit-bulk\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, Postgres 15
(throwaway cluster, fsync off). ${total.toLocaleString('en')} entries for one organisation per arm, each arm in a
fresh organisation of one migrated database, through the real triggers (chain, lexicon). One run.

| statements | ${BATCH.toLocaleString('en')} entries per transaction | all in one transaction | ratio |
|---|---|---|---|
${row('multi-row', `INSERT … SELECT of ${BATCH.toLocaleString('en')} entries`)}
${row('single-row', "one INSERT per entry (the writer's), looped in the server")}

Target: one transaction at most 2× the batched figure. Before migration 1795350000000 the triggers
updated the head row and each word's count once per entry, and a transaction's own row versions
made each update slower than the last (figures from before it follow this section).`,
  );
  console.log(JSON.stringify({ total, results }, null, 2));
} finally {
  db.stop();
}
