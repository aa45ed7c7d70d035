/**
 * Audit-log read benchmark driver (run by audit.bench.mjs): seeds entries over 100
 * organisations (one of them ten times the others' size), then times pages through the
 * service's own query path (AuditLogService.list: snapshot lookup + page query) for every
 * filter and search shape. Prints one JSON document.
 *
 * Seeding writes rows in bulk with the append trigger disabled (a maintenance step), giving
 * them sequence numbers and timestamps in order but placeholder chain hashes: this benchmark
 * measures reads; the append path's own cost is measured separately at the end.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey } from '@interlock/api-keys';
import { writeAuditRecord } from '@interlock/audit';
import { AuditLogRepository } from '../../apps/api/src/audit-log/audit-log.repository';
import { AuditLogService } from '../../apps/api/src/audit-log/audit-log.service';
import { configFromEnvironment } from '../../apps/api/src/config/app-config';
import { DatabaseConnection } from '../../apps/api/src/database/database-connection';
import { PreparedReads } from '../../apps/api/src/database/prepared-reads';

const TOTAL = Number(process.argv[2] ?? 10_000_000);
const ORGS = 100;
const BIG = Math.round(TOTAL / 10);
const ITERATIONS = Number(process.argv[3] ?? 200);

const WORDS = [
  'deploy',
  'database',
  'delete',
  'refund',
  'invoice',
  'customer',
  'rotate',
  'secret',
  'prod',
  'staging',
  'migration',
  'payment',
  'email',
  'export',
  'report',
  'billing',
  'account',
  'access',
  'review',
  'release',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const config = configFromEnvironment();
  const connection = await DatabaseConnection.open(config);
  const ds = connection.dataSource;
  const log = (m: string) => process.stderr.write(`[bench] ${new Date().toISOString()} ${m}\n`);
  // The reads unnamed, as this bench has always measured them (the plans at scale, not the parse
  // a named statement saves: tools:bench-pairs and tools:bench-cpu measure that).
  const reads = new PreparedReads(ds, false, 'the audit bench measures the unnamed reads');
  const service = new AuditLogService(new AuditLogRepository(ds, reads), config);

  const [{ n: existing }] = await ds.query(`SELECT count(*)::bigint AS n FROM audit_log_entries`);
  if (Number(existing) < TOTAL) {
    log(`seeding ${TOTAL} entries over ${ORGS} organisations (largest ${BIG})`);
    await ds.query(`ALTER TABLE audit_log_entries DISABLE TRIGGER audit_log_entries_append`);
    await ds.query(`ALTER TABLE audit_log_entries DISABLE TRIGGER audit_log_entries_commit`);
    const indexes: { indexname: string; indexdef: string }[] = await ds.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'audit_log_entries' AND indexname <> 'audit_log_entries_pkey'`,
    );
    for (const ix of indexes) await ds.query(`DROP INDEX "${ix.indexname}"`);
    const perOther = Math.floor((TOTAL - BIG) / (ORGS - 1));
    for (let o = 0; o < ORGS; o++) {
      const id = randomUUID();
      await ds.query(`INSERT INTO organisations (id, name, plan) VALUES ($1, $2, 'pro')`, [
        id,
        `Bench ${o}`,
      ]);
      const n = o === 0 ? BIG : perOther;
      for (let start = 1; start <= n; start += 500_000) {
        const end = Math.min(n, start + 499_999);
        await ds.query(
          `INSERT INTO audit_log_entries (organisation_id, id, seq, created_at, action, category, actor_type, actor_id,
             actor_name, target_type, target_id, target_name, summary, metadata, ip_address, hash, search)
           SELECT $1, gen_random_uuid(), g,
                  timestamptz '2025-11-21' + (g::float8 / $3) * interval '365 days',
                  a.action, split_part(a.action, '.', 1), a.actor_type,
                  CASE WHEN a.actor_type = 'system' THEN NULL WHEN g % 100000 = 13 THEN 'actor-rare' ELSE 'actor-' || (h2 % 50) END,
                  a.actor_name, a.target_type,
                  CASE WHEN g % 100000 = 11 THEN 'target-rare' ELSE 'target-' || (h3 % 20000) END,
                  w1 || ' ' || w2,
                  a.verb || ' ' || w1 || ' ' || w2 || CASE WHEN g % 100000 = 7 THEN ' zyzzyva' ELSE '' END || ' by ' || a.actor_name,
                  NULL, '10.0.' || (h2 % 255) || '.' || (h3 % 255), 'seeded',
                  array_to_tsvector(string_to_array(lower(a.verb || ' ' || w1 || ' ' || w2 ||
                    CASE WHEN g % 100000 = 7 THEN ' zyzzyva' ELSE '' END || ' by ' || a.actor_name || ' ' ||
                    replace(a.action, '.', ' ') || ' ' || replace(a.action, '_', ' ')), ' '))
             FROM generate_series($4::int, $5::int) g,
                  LATERAL (SELECT abs(hashint4(g)) AS h1, abs(hashint4(g + 7919)) AS h2, abs(hashint4(g + 104729)) AS h3) h,
                  LATERAL (SELECT ($2::text[])[1 + h3 % 20] AS w1, ($2::text[])[1 + (h3 / 20) % 20] AS w2) w,
                  LATERAL (SELECT
                    CASE WHEN g % 100000 = 3 THEN 'webhook.deleted'
                         WHEN h1 % 10 < 4 THEN 'interrupt.created' WHEN h1 % 10 < 7 THEN 'interrupt.decided'
                         WHEN h1 % 10 < 9 THEN 'session.started' ELSE 'api_key.created' END AS action,
                    CASE WHEN g % 100000 = 5 THEN 'argus' WHEN h2 % 20 = 0 THEN 'system'
                         WHEN h2 % 20 < 8 THEN 'member' ELSE 'api_key' END AS actor_type,
                    CASE WHEN h2 % 20 < 8 THEN 'Member ' || (h2 % 50) ELSE 'agent-' || (h2 % 50) END AS actor_name,
                    CASE WHEN g % 100000 = 9 THEN 'webhook' WHEN h1 % 10 < 7 THEN 'interrupt' ELSE 'session' END AS target_type,
                    CASE WHEN h1 % 10 < 4 THEN 'Opened' WHEN h1 % 10 < 7 THEN 'Approved' ELSE 'Started' END AS verb
                  ) a`,
          [id, WORDS, n, start, end],
        );
      }
      await ds.query(
        `INSERT INTO audit_log_heads (organisation_id, last_seq, last_hash, last_created_at)
         SELECT $1, max(seq), 'seeded', max(created_at) FROM audit_log_entries WHERE organisation_id = $1`,
        [id],
      );
      if (o % 10 === 0) log(`organisation ${o + 1}/${ORGS} seeded`);
    }
    log('filling the word lexicon');
    await ds.query(
      `INSERT INTO audit_log_words (organisation_id, word, entries)
       SELECT organisation_id, word, count(*) FROM audit_log_entries, unnest(tsvector_to_array(search)) word GROUP BY 1, 2`,
    );
    await ds.query(`ALTER TABLE audit_log_entries ENABLE TRIGGER audit_log_entries_commit`);
    log('building indexes');
    for (const ix of indexes) await ds.query(ix.indexdef);
    await ds.query(`ALTER TABLE audit_log_entries ENABLE TRIGGER audit_log_entries_append`);
    log('analyze');
    await ds.query(`VACUUM ANALYZE audit_log_entries`);
    await ds.query(`VACUUM ANALYZE audit_log_heads`);
    // Write the seeding's dirty buffers out now, not as a checkpoint during the measurements.
    await ds.query(`CHECKPOINT`);
  }
  const [big] = await ds.query(
    `SELECT organisation_id AS id, last_seq FROM audit_log_heads ORDER BY last_seq DESC LIMIT 1`,
  );
  const org: string = big.id;
  // The append path writes into a small organisation, so a reused database keeps the measured one as seeded.
  const [small] = await ds.query(
    `SELECT organisation_id AS id FROM audit_log_heads ORDER BY last_seq ASC LIMIT 1`,
  );
  const [{ total }] = await ds.query(`SELECT count(*)::bigint AS total FROM audit_log_entries`);

  // DB time: what Postgres spent planning and executing the page's statements, read from
  // pg_stat_statements (reset before each run), when the server has it loaded.
  const dbTimed = await ds
    .query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`)
    .then(() => ds.query(`SELECT pg_stat_statements_reset()`))
    .then(
      () => true,
      () => false,
    );
  const dbTime = async (): Promise<number> => {
    const [{ ms }] = await ds.query(
      `SELECT coalesce(sum(total_plan_time + total_exec_time), 0)::float8 AS ms FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'`,
    );
    return ms;
  };
  const summary = (samples: number[]) => {
    samples.sort((a, b) => a - b);
    return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
  };

  const time = async (query: Record<string, unknown>) => {
    const client: number[] = [];
    const db: number[] = [];
    let entries = 0;
    for (let i = 0; i < ITERATIONS + 3; i++) {
      if (dbTimed) await ds.query(`SELECT pg_stat_statements_reset()`);
      const t0 = process.hrtime.bigint();
      const page = await service.list(org, query);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (i >= 3) {
        client.push(ms);
        if (dbTimed) db.push(await dbTime());
      }
      // The API sends the page's text as it is; its entries are counted outside the timing.
      entries = page.parse().entries.length;
    }
    return { client: summary(client), db: dbTimed ? summary(db) : null, entries };
  };

  const now = new Date('2026-11-21T00:00:00Z').getTime();
  const scenarios: [string, string, Record<string, unknown>][] = [
    ['none', 'first page', {}],
    ['category', 'empty', { category: 'organisation' }],
    ['category', 'rare', { category: 'webhook' }],
    ['category', 'dense', { category: 'interrupt' }],
    ['action', 'empty', { action: 'team.created' }],
    ['action', 'rare', { action: 'webhook.deleted' }],
    ['action', 'dense', { action: 'interrupt.created' }],
    ['actorType', 'empty', { actorType: 'argus', from: '2027-01-01T00:00:00Z' }],
    ['actorType', 'rare', { actorType: 'argus' }],
    ['actorType', 'dense', { actorType: 'api_key' }],
    ['actorId', 'empty', { actorId: 'nobody' }],
    ['actorId', 'rare', { actorId: 'actor-rare' }],
    ['actorId', 'dense', { actorId: 'actor-7' }],
    ['targetType', 'empty', { targetType: 'team' }],
    ['targetType', 'rare', { targetType: 'webhook' }],
    ['targetType', 'dense', { targetType: 'interrupt' }],
    ['targetId', 'empty', { targetId: 'nothing' }],
    ['targetId', 'rare', { targetId: 'target-rare' }],
    ['targetId', 'dense', { targetId: 'target-42' }],
    ['from/to', 'empty', { from: '2027-01-01T00:00:00Z' }],
    [
      'from/to',
      'rare',
      {
        from: new Date(now - 60_000 * 60 * 24 * 200).toISOString(),
        to: new Date(now - 60_000 * 60 * 24 * 200 + 60_000).toISOString(),
      },
    ],
    ['from/to', 'dense', { from: new Date(now - 30 * 86_400_000).toISOString() }],
    ['q', '1-letter prefix', { q: 'd' }],
    ['q', '2-letter prefix', { q: 'de' }],
    ['q', '5-letter prefix', { q: 'deplo' }],
    ['q', 'multi-word', { q: 'deploy prod approved' }],
    ['q', 'two words', { q: 'refund approved' }],
    ['q', 'common words, none together', { q: 'opened approved' }],
    ['q', 'rare word', { q: 'zyzzyva' }],
    ['q', 'rare + common', { q: 'zyzzyva by' }],
    ['q', 'no match', { q: 'xylophone' }],
    ['q', 'prefix of words in 1 % of entries', { q: '17' }],
  ];
  const results: ({ filter: string; shape: string } & Awaited<ReturnType<typeof time>>)[] = [];
  const measure = async (list: [string, string, Record<string, unknown>][]) => {
    for (const [filter, shape, query] of list) {
      const r = await time({ ...query, limit: '50' });
      results.push({ filter, shape, ...r });
      const db = r.db ? `DB p50 ${r.db.p50.toFixed(2)} ms, p99 ${r.db.p99.toFixed(2)} ms; ` : '';
      log(
        `${filter} ${shape}: ${db}client p50 ${r.client.p50.toFixed(2)} ms, p99 ${r.client.p99.toFixed(2)} ms (${r.entries} entries)`,
      );
    }
  };
  await measure(scenarios);

  // The 1,000th page of a walk at limit 50 vs the first: walk there with cursors.
  let cursor: string | null = null;
  for (let page = 1; page < 1000; page++) {
    const res = (
      await service.list(org, cursor ? { limit: '50', cursor } : { limit: '50' })
    ).parse();
    cursor = res.nextCursor;
  }
  const deep = await time({ limit: '50', cursor });
  const first = results[0];

  // A burst: 5,000 new entries without the searched words, then searches for words that are
  // common in the entries before it. Appended through the triggers (sequence, chain, lexicon).
  await ds.query(
    `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_name, summary, search)
     SELECT $1, gen_random_uuid(), 'session.started', 'session', 'system', 'Burst', 'Started burst ' || g,
            array_to_tsvector(ARRAY['started', 'burst', g::text, 'session'])
       FROM generate_series(1, 5000) g`,
    [org],
  );
  await measure([
    ['q', 'after a burst: one word in 10 %', { q: 'deploy' }],
    ['q', 'after a burst: 1-letter prefix', { q: 'd' }],
    ['q', 'after a burst: two words', { q: 'refund approved' }],
  ]);

  // The append path: 2,000 single-entry transactions through the writer (trigger, lock, hash).
  const appendSamples: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = process.hrtime.bigint();
    await ds.transaction((tx) =>
      writeAuditRecord(tx, {
        organisationId: small.id,
        action: 'session.started',
        actor: { type: 'system', id: null, name: 'Bench' },
        summary: `Append ${i}`,
      }),
    );
    appendSamples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  appendSamples.sort((a, b) => a - b);

  // A key of the largest organisation, for the HTTP run.
  const apiKey = generateApiKey(config.apiKeyPrefix);
  await ds.query(
    `INSERT INTO api_keys (organisation_id, id, name, start, key_hash, created_at) VALUES ($1, $2, 'bench', $3, $4, now())`,
    [
      org,
      randomUUID(),
      apiKey.slice(0, config.apiKeyPrefix.length + 4),
      hashApiKey(apiKey, config.apiKeyPepper),
    ],
  );

  process.stdout.write(
    JSON.stringify({
      total: Number(total),
      big: Number(big.last_seq),
      iterations: ITERATIONS,
      results,
      deep: { ...deep, first },
      append: { p50: percentile(appendSamples, 50), p99: percentile(appendSamples, 99) },
      apiKey,
    }),
  );
  await connection.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
