import { DataSource, QueryFailedError } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { PreparedReads } from '../src/database/prepared-reads';
import { instrumentPreparedReads } from '../src/metrics/database-metrics';
import { Metrics } from '../src/metrics/metrics';
import { createTestDatabase, TestDatabase } from './support/test-database';

// PreparedReads runs its statements as node-postgres' named statements on the data source's pool
// (or a transaction's connection): its rows and errors must be what `dataSource.query` gives.
describe('prepared reads on Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let reads: PreparedReads;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 3 });
    await ds.initialize();
    reads = new PreparedReads(ds, true);
    await ds.query(`
      CREATE TABLE things (
        id uuid PRIMARY KEY, name text, size int, big bigint, ratio numeric, ok boolean, at timestamptz,
        doc jsonb, raw json, tags text[], born date)`);
    await ds.query(
      `INSERT INTO things VALUES
         ('9b2d1f8e-5a6c-4e7b-8d9f-0a1b2c3d4e5f', 'Ünïcødé "quoted" \\ 🎉', 42, 9007199254740993, 1.50, true,
          '2026-11-21 10:00:00.123456+00', '{"b": [1, 2.5, null], "a": {"c": "d"}}', '{"z": 1,  "y": 2}', '{x,"y z"}', '2026-01-02'),
         ('1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
    );
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const SELECT_ALL = `SELECT id, name, size, big, ratio, ok, at, doc, raw, tags, born, size AS size FROM things WHERE id = ANY(ARRAY[$1, $2]::uuid[]) ORDER BY id`;
  const ids = ['9b2d1f8e-5a6c-4e7b-8d9f-0a1b2c3d4e5f', '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5'];

  it('gives the rows the driver gives, on every connection', async () => {
    const expected = await ds.query(SELECT_ALL, ids);
    expect(expected).toHaveLength(2);
    expect(expected[1].at).toBeInstanceOf(Date);
    expect(expected[1].doc).toEqual({ a: { c: 'd' }, b: [1, 2.5, null] });
    // Enough executions at once that each of the pool's connections parses the statement, and
    // most run it as already prepared there.
    const runs = await Promise.all(Array.from({ length: 12 }, () => reads.query(SELECT_ALL, ids)));
    for (const rows of runs) {
      expect(rows).toEqual(expected);
      expect(rows.map((r) => Object.keys(r as object))).toEqual(
        expected.map((r: object) => Object.keys(r)),
      );
    }
  });

  it('answers a statement with no rows, and one that returns none, with an empty list', async () => {
    expect(
      await reads.query(`SELECT id FROM things WHERE id = $1`, [
        '00000000-0000-4000-8000-000000000000',
      ]),
    ).toEqual([]);
    expect(
      await reads.query(`SELECT id FROM things WHERE id = $1`, [
        '00000000-0000-4000-8000-000000000000',
      ]),
    ).toEqual([]);
    const rows = await ds.transaction((tx) =>
      reads.within(tx).query(`UPDATE things SET size = size WHERE id = $1`, [ids[0]]),
    );
    expect(rows).toEqual([[], 1]);
    // Already prepared on a connection: a second execution answers the same way.
    expect(
      await ds.transaction((tx) =>
        reads.within(tx).query(`UPDATE things SET size = size WHERE id = $1`, [ids[1]]),
      ),
    ).toEqual([[], 1]);
  });

  it("fails as TypeORM's QueryFailedError with the driver's error, and the connections stay usable", async () => {
    const sql = `SELECT id FROM things WHERE id = $1`;
    for (let i = 0; i < 4; i++) {
      const failure = await reads.query(sql, ['not-a-uuid']).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(QueryFailedError);
      expect(
        (failure as QueryFailedError & { driverError: { code: string } }).driverError.code,
      ).toBe('22P02');
    }
    // A statement that fails to parse, then the same text is never retried as parsed.
    for (let i = 0; i < 2; i++) {
      const failure = await reads
        .query(`SELECT nonsense FROM things WHERE id = $1`, [ids[0]])
        .catch((e: unknown) => e);
      expect(
        (failure as QueryFailedError & { driverError: { code: string } }).driverError.code,
      ).toBe('42703');
    }
    const rows = await Promise.all(Array.from({ length: 6 }, () => reads.query(sql, [ids[0]])));
    expect(rows).toEqual(Array.from({ length: 6 }, () => [{ id: ids[0] }]));
  });

  it('after a change of a column type, answers with the new type only', async () => {
    await ds.query(`CREATE TABLE shifting (id int PRIMARY KEY, v int)`);
    await ds.query(`INSERT INTO shifting VALUES (1, 42)`);
    const sql = `SELECT v FROM shifting WHERE id = $1`;
    // Parsed and described on every connection of the pool.
    expect(await Promise.all(Array.from({ length: 6 }, () => reads.query(sql, [1])))).toEqual(
      Array.from({ length: 6 }, () => [{ v: 42 }]),
    );
    await ds.query(`ALTER TABLE shifting ALTER COLUMN v TYPE text USING 'x' || v`);
    // Connections that had parsed it are refused by Postgres (and dropped by the pool); fresh ones
    // describe it again. Every answer is the new type's, as the driver decodes it.
    const answers: unknown[] = [];
    for (let i = 0; i < 12; i++)
      answers.push(
        await reads
          .query(sql, [1])
          .catch((e: QueryFailedError & { driverError: { code: string } }) => e.driverError.code),
      );
    expect(answers.filter((a) => a !== '0A000')).toContainEqual([{ v: 'x42' }]);
    expect(
      answers.every((a) => a === '0A000' || JSON.stringify(a) === JSON.stringify([{ v: 'x42' }])),
    ).toBe(true);
    expect(answers.slice(-3)).toEqual([[{ v: 'x42' }], [{ v: 'x42' }], [{ v: 'x42' }]]);
  });

  it('past its cap of named statements, runs further texts unnamed with the same rows and says so once', async () => {
    const told: Array<[number, string]> = [];
    const capped = new PreparedReads(ds, true, undefined, {
      maxStatements: 2,
      onCapReached: (cap, sql) => told.push([cap, sql]),
    });
    const texts = [1, 2, 3, 4].map((n) => `SELECT id, ${n} AS n FROM things WHERE id = $1`);
    for (const [i, sql] of texts.entries()) {
      expect(await capped.query(sql, [ids[0]])).toEqual([{ id: ids[0], n: i + 1 }]);
    }
    // Inside a transaction too, and a text already named stays named.
    await ds.transaction(async (tx) => {
      expect(await capped.within(tx).query(texts[3], [ids[0]])).toEqual([{ id: ids[0], n: 4 }]);
      expect(await capped.within(tx).query(texts[0], [ids[0]])).toEqual([{ id: ids[0], n: 1 }]);
    });
    expect(told).toEqual([[2, texts[2]]]);
    expect(capped.unnamedTexts).toBe(2);
    // The two named ones are prepared on the server; the unnamed ones are not.
    const prepared = await ds.transaction(async (tx) => {
      const q = capped.within(tx);
      await q.query(texts[0], [ids[0]]);
      await q.query(texts[2], [ids[0]]);
      return tx.query<Array<{ statement: string }>>(`SELECT statement FROM pg_prepared_statements`);
    });
    const named = prepared.map((p) => p.statement);
    expect(named).toContain(texts[0]);
    expect(named).not.toContain(texts[2]);
  });

  it('shows its named statements, its cap and the texts past it as Prometheus series', async () => {
    const series = async (reads: PreparedReads) => {
      const metrics = new Metrics();
      instrumentPreparedReads(reads, metrics);
      const text = await metrics.render();
      return Object.fromEntries(
        [
          ...text.matchAll(
            /^(interlock_db_(?:(?:un)?named_statements\w*|unnamed_fallbacks)) (\S+)$/gm,
          ),
        ].map((m) => [m[1], Number(m[2])]),
      );
    };
    const capped = new PreparedReads(ds, true, undefined, { maxStatements: 2 });
    expect(await series(capped)).toEqual({
      interlock_db_named_statements_on: 1,
      interlock_db_named_statements: 0,
      interlock_db_named_statements_max: 2,
      interlock_db_unnamed_statements: 0,
      interlock_db_unnamed_fallbacks: 0,
    });
    const texts = [1, 2, 3].map((n) => `SELECT id, ${n} AS m FROM things WHERE id = $1`);
    for (const sql of texts) await capped.query(sql, [ids[0]]);
    await capped.query(texts[2], [ids[0]]);
    expect(await series(capped)).toEqual({
      interlock_db_named_statements_on: 1,
      interlock_db_named_statements: 2,
      interlock_db_named_statements_max: 2,
      interlock_db_unnamed_statements: 1,
      interlock_db_unnamed_fallbacks: 0,
    });
    // Off (the embedded database, a pooler, no pool of its own): nothing is named.
    const off = new PreparedReads(ds, false, 'a reason');
    await off.query(texts[0], [ids[0]]);
    expect(await series(off)).toEqual({
      interlock_db_named_statements_on: 0,
      interlock_db_named_statements: 0,
      interlock_db_named_statements_max: 500,
      interlock_db_unnamed_statements: 0,
      interlock_db_unnamed_fallbacks: 0,
    });
  });

  it('asked to be on with no pool of its own to run on, is off with the reason it fails to start with', async () => {
    // As if a TypeORM upgrade had moved the driver's pool (driver.master).
    const poolless = { driver: {} } as unknown as DataSource;
    const reads = new PreparedReads(poolless, true);
    expect(reads.prepared).toBe(false);
    expect(reads.offBecause).toMatch(
      /^the data source has no pool of its own to name statements on/,
    );
    expect(reads.startFailure).toBe(reads.offBecause);
    // Off by choice is no failure, and says why.
    const chosen = new PreparedReads(poolless, false, 'the embedded database');
    expect(chosen.offBecause).toBe('the embedded database');
    expect(chosen.startFailure).toBeUndefined();
    expect(new PreparedReads(poolless, false).offBecause).toBe('turned off by its caller');
  });

  it("runs a transaction's statement unnamed when its connection cannot be reached: counted, told once", async () => {
    const told: Array<[string, string]> = [];
    const watched = new PreparedReads(ds, true, undefined, {
      onFallback: (reason, sql) => told.push([reason, sql]),
    });
    const sql = `SELECT id FROM things WHERE id = $1`;
    // The data source's own manager is no transaction: it has no runner, so no connection of its own.
    for (let i = 0; i < 3; i++)
      expect(await watched.within(ds.manager).query(sql, [ids[0]])).toEqual([{ id: ids[0] }]);
    expect(watched.fallbacks).toBe(3);
    expect(told).toEqual([['the entity manager has no transaction runner', sql]]);
    // A transaction's statements reach its connection: nothing more is counted.
    await ds.transaction(async (tx) => {
      expect(await watched.within(tx).query(sql, [ids[1]])).toEqual([{ id: ids[1] }]);
    });
    expect(watched.fallbacks).toBe(3);
    const metrics = new Metrics();
    instrumentPreparedReads(watched, metrics);
    expect(await metrics.render()).toMatch(/^interlock_db_unnamed_fallbacks 3$/m);
  });

  it('fails inside a transaction the way the transaction does, and rolls it back', async () => {
    const failure = await ds
      .transaction(async (tx) => {
        const q = reads.within(tx);
        await q.query(`UPDATE things SET size = 7 WHERE id = $1`, [ids[0]]);
        await q.query(`SELECT 1 / $1::int AS x`, [0]);
      })
      .catch((e: unknown) => e);
    expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe(
      '22012',
    );
    expect(await ds.query(`SELECT size FROM things WHERE id = $1`, [ids[0]])).toEqual([
      { size: 42 },
    ]);
  });
});
