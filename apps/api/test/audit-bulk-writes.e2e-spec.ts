import { randomUUID } from 'node:crypto';
import { DataSource, QueryRunner } from 'typeorm';
import type { SqlExecutor } from '@interlock/audit';
import { verifyAuditChain, writeAuditRecord } from '@interlock/audit';
import { startTestApp, TestApp } from './support/test-app';

// Issue 10, defect 6: a bulk write degraded quadratically (50,000 entries in one transaction: 11
// minutes; as 50 transactions of 1,000: 41 s), because the append triggers updated the head row
// and every word's count once per entry, and each update walked the versions the transaction
// had left. Linear means no row is updated per entry: the head and the word counts move once per
// transaction (BENCHMARKS.md has the timings; this test checks the mechanism, which is exact).
describe('bulk audit writes', () => {
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    ds = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
  });

  async function organisation(): Promise<string> {
    const id = randomUUID();
    await ds.query(`INSERT INTO organisations (id, name, plan) VALUES ($1, $2, 'pro')`, [
      id,
      `Bulk ${id.slice(0, 8)}`,
    ]);
    return id;
  }

  const write = (db: SqlExecutor, organisationId: string, i: number) =>
    writeAuditRecord(db, {
      organisationId,
      action: 'interrupt.created',
      actor: { type: 'api_key', id: randomUUID(), name: 'bulk-agent' },
      target: { type: 'interrupt', id: randomUUID(), name: `Deploy ${i % 7}` },
      summary: `Opened deploy ${i % 7} run ${i}`,
    });

  /** Rows this transaction has updated so far in each table (pg_stat_xact_user_tables). */
  async function updatesSoFar(db: QueryRunner): Promise<Record<string, number>> {
    const rows: { relname: string; n: string }[] = await db.query(
      `SELECT relname, n_tup_upd::text AS n FROM pg_stat_xact_user_tables WHERE relname IN ('audit_log_heads', 'audit_log_words')`,
    );
    return Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)]));
  }

  /** The lexicon's counts against a recount from the entries themselves. */
  async function lexiconMatches(organisationId: string): Promise<boolean> {
    const [{ differing }]: { differing: string }[] = await ds.query(
      `SELECT count(*)::text AS differing FROM (
         SELECT word, entries FROM audit_log_words WHERE organisation_id = $1
         EXCEPT
         SELECT w, count(*) FROM audit_log_entries, unnest(tsvector_to_array(search)) w WHERE organisation_id = $1 GROUP BY w
       ) d`,
      [organisationId],
    );
    return differing === '0';
  }

  it('3,000 entries in one transaction, one statement each and one multi-row statement: the head and each word move once', async () => {
    const org = await organisation();
    const other = await organisation();
    const db = ds.createQueryRunner();
    await db.connect();
    try {
      await db.startTransaction();
      for (let i = 0; i < 1_000; i++) await write(db, org, i);
      await write(db, other, 0); // another organisation in the same transaction
      await db.query(
        `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_id, actor_name, summary, search)
         SELECT $1, gen_random_uuid(), 'session.started', 'session', 'system', NULL, 'System', 'Started batch ' || g,
                array_to_tsvector(ARRAY['started', 'batch', g::text, 'system', 'session'])
           FROM generate_series(1, 2000) g`,
        [org],
      );
      const words: { n: string }[] = await db.query(
        `SELECT count(DISTINCT w)::text AS n FROM audit_log_entries, unnest(tsvector_to_array(search)) w WHERE organisation_id = ANY($1)`,
        [[org, other]],
      );
      // Nothing is updated per entry while the transaction writes...
      expect(await updatesSoFar(db)).toEqual({ audit_log_heads: 0, audit_log_words: 0 });
      // ...and at commit (fired early here to count it), each head once and each word at most once.
      await db.query('SET CONSTRAINTS ALL IMMEDIATE');
      const atCommit = await updatesSoFar(db);
      expect(atCommit.audit_log_heads).toBe(2);
      expect(atCommit.audit_log_words).toBeLessThanOrEqual(Number(words[0].n));
      await db.commitTransaction();
    } finally {
      await db.release();
    }
    expect(await verifyAuditChain(ds, org)).toEqual({ ok: true, entries: 3_000 });
    expect(await verifyAuditChain(ds, other)).toEqual({ ok: true, entries: 1 });
    expect(await lexiconMatches(org)).toBe(true);
    expect(await lexiconMatches(other)).toBe(true);
    const [head] = await ds.query(
      `SELECT last_seq::text AS seq FROM audit_log_heads WHERE organisation_id = $1`,
      [org],
    );
    expect(head.seq).toBe('3000');
  });

  it('a rolled-back savepoint leaves no gap, no stale head and no count behind', async () => {
    const org = await organisation();
    for (let i = 0; i < 3; i++) await write(ds, org, i);
    const db = ds.createQueryRunner();
    await db.connect();
    try {
      await db.startTransaction();
      for (let i = 0; i < 5; i++) await write(db, org, i);
      await db.query('SAVEPOINT s');
      for (let i = 0; i < 4; i++) await write(db, org, 100 + i);
      await db.query('ROLLBACK TO SAVEPOINT s');
      await write(db, org, 200);
      await db.query('SET CONSTRAINTS ALL IMMEDIATE'); // the head moves…
      await write(db, org, 201); // …and an entry after it still chains and is counted at commit
      await db.commitTransaction();
    } finally {
      await db.release();
    }
    expect(await verifyAuditChain(ds, org)).toEqual({ ok: true, entries: 10 });
    expect(await lexiconMatches(org)).toBe(true);
    const [{ n }] = await ds.query(
      `SELECT count(*)::text AS n FROM audit_log_entries WHERE organisation_id = $1 AND summary LIKE '% run 10_'`,
      [org],
    );
    expect(n).toBe('0');
  });

  it('concurrent single-entry writers of one organisation still chain one after another', async () => {
    const org = await organisation();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => ds.transaction((tx) => write(tx, org, i))),
    );
    expect(await verifyAuditChain(ds, org)).toEqual({ ok: true, entries: 40 });
    expect(await lexiconMatches(org)).toBe(true);
  });
});
