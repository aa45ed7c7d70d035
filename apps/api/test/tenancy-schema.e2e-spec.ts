import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';

const ARCHITECTURE = join(__dirname, '..', '..', '..', 'ARCHITECTURE.md');

/** The rows of the markdown table that follows `heading`'s text, as cells (backticks kept). */
function tableAfter(markdown: string, marker: string): string[][] {
  const start = markdown.indexOf(marker);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no "${marker}"`);
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const identifier = (cell: string) => /^`([a-z_][a-z0-9_]*)`$/.exec(cell)?.[1];

interface Documented {
  /** table → its distribution column (organisations: id). */
  distributedBy: Map<string, string>;
  /** Reference and coordinator-local tables: no distribution column. */
  notDistributed: Set<string>;
  /** Unique indexes that span organisations, each documented with its replacement. */
  spanning: Set<string>;
}

function documented(): Documented {
  const markdown = readFileSync(ARCHITECTURE, 'utf8');
  const distributedBy = new Map<string, string>();
  const notDistributed = new Set<string>();
  for (const [table, placement] of tableAfter(
    markdown,
    'Tables that are not distributed by `organisation_id`',
  )) {
    const name = identifier(table);
    if (name === undefined) throw new Error(`ARCHITECTURE.md: "${table}" is not a table name`);
    const by = /distributed, by `([a-z_]+)`/.exec(placement)?.[1];
    if (by !== undefined) distributedBy.set(name, by);
    else if (/reference table|local to the coordinator/.test(placement)) notDistributed.add(name);
    else
      throw new Error(
        `ARCHITECTURE.md: the placement of ${name} ("${placement}") is neither distributed nor reference/local`,
      );
  }
  const spanning = new Set<string>();
  for (const [index] of tableAfter(markdown, 'Queries that would go to every node')) {
    const name = identifier(index);
    if (name === undefined) throw new Error(`ARCHITECTURE.md: "${index}" is not an index name`);
    spanning.add(name);
  }
  return { distributedBy, notDistributed, spanning };
}

// SPEC §1 (D): the schema stays ready to shard by organisation (Citus, distribution column
// organisation_id). ARCHITECTURE.md, "Beyond one Postgres", lists the exceptions; anything else
// that breaks the rule fails here.
describe('the schema is ready to distribute by organisation_id', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const docs = documented();
  const distributionColumn = (table: string) => docs.distributedBy.get(table) ?? 'organisation_id';

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 1 });
    await ds.initialize();
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const tables = async (): Promise<string[]> =>
    (
      await ds.query(
        `SELECT relname FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace ORDER BY 1`,
      )
    ).map((r: { relname: string }) => r.relname);

  it('documents only tables and indexes that exist', async () => {
    const existing = new Set(await tables());
    for (const table of [...docs.distributedBy.keys(), ...docs.notDistributed])
      expect(existing).toContain(table);
    const indexes = new Set(
      (
        await ds.query(
          `SELECT relname FROM pg_class WHERE relkind = 'i' AND relnamespace = 'public'::regnamespace`,
        )
      ).map((r: { relname: string }) => r.relname),
    );
    for (const index of docs.spanning) expect(indexes).toContain(index);
  });

  it('every distributed table has its distribution column in its primary key and in every unique index', async () => {
    const rows: { table: string; index: string; primary: boolean; columns: string[] }[] =
      await ds.query(
        `SELECT t.relname AS table, i.relname AS index, x.indisprimary AS primary,
              ARRAY(SELECT a.attname::text FROM unnest(x.indkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k) AS columns
         FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
        WHERE t.relnamespace = 'public'::regnamespace AND x.indisunique`,
      );
    const problems: string[] = [];
    for (const table of await tables()) {
      if (docs.notDistributed.has(table)) continue;
      const column = distributionColumn(table);
      const primary = rows.find((r) => r.table === table && r.primary);
      if (primary === undefined) problems.push(`${table} has no primary key`);
      else if (!primary.columns.includes(column))
        problems.push(`${table}: primary key (${primary.columns.join(', ')}) lacks ${column}`);
      for (const unique of rows.filter((r) => r.table === table && !r.primary)) {
        if (!unique.columns.includes(column) && !docs.spanning.has(unique.index)) {
          problems.push(
            `${table}: unique index ${unique.index} (${unique.columns.join(', ')}) lacks ${column}`,
          );
        }
      }
    }
    // A new table or unique index that cannot be distributed: add organisation_id to its key,
    // or document it in ARCHITECTURE.md ("Beyond one Postgres") with what replaces it.
    expect(problems).toEqual([]);
  });

  it('foreign keys between distributed tables join on the distribution column; none leads from a local table into them', async () => {
    const keys: {
      child: string;
      parent: string;
      childColumns: string[];
      parentColumns: string[];
    }[] = await ds.query(
      `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
              ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS "childColumns",
              ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS "parentColumns"
         FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`,
    );
    const problems: string[] = [];
    for (const key of keys) {
      if (docs.notDistributed.has(key.parent)) continue;
      if (docs.notDistributed.has(key.child)) {
        problems.push(`${key.child} (not distributed) references ${key.parent} (distributed)`);
        continue;
      }
      const at = key.childColumns.indexOf(distributionColumn(key.child));
      if (at < 0 || key.parentColumns[at] !== distributionColumn(key.parent)) {
        problems.push(
          `${key.child} (${key.childColumns.join(', ')}) → ${key.parent} (${key.parentColumns.join(', ')}) does not join on the distribution column`,
        );
      }
    }
    expect(problems).toEqual([]);
  });
});
