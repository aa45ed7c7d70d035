import request from 'supertest';
import { DataSource } from 'typeorm';
import { inboxPageTextQuery, type InboxFilter } from '../src/interrupts/inbox-query.util';
import { INTERRUPT_STATUSES } from '../src/interrupts/interrupt.entity';
import { openInterrupt, signUpProWithKey, type SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** A node of EXPLAIN (FORMAT JSON)'s plan, with what this file reads of it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/** Rows of `interrupts` the plan's scans read: those they returned and those their filters dropped. */
function interruptsRead(plan: PlanNode): number {
  let read = 0;
  for (const node of nodesOf(plan))
    if (node['Relation Name'] === 'interrupts')
      read += (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];
  return read;
}

// Issue 28 §4, as Postgres plans it: the one-row page the service reads (inboxPageTextQuery; the
// audit log's pages are read as rows since session 19, BENCHMARKS.md). The inbox page of every status read about a page of the
// organisation's interrupts in one pair run and thousands in the next, once the organisation had
// more: each status was walked apart on the (organisation, createdAt) index with the status as a
// filter, every interrupt of the organisation read for each status it had none of.
describe('the one-row inbox page as Postgres plans it', () => {
  let t: TestApp;
  let key: string;
  let organisationId: string;
  let ds: DataSource;
  const SEEDED = 3000;

  beforeAll(async () => {
    t = await startTestApp();
    let org: SignedUpOwner;
    ({ org, key } = await signUpProWithKey(
      t.app.getHttpServer(),
      { organisationName: 'Page Plans' },
      'page-plans',
    ));
    organisationId = org.organisationId;
    const opened = await openInterrupt(t.app.getHttpServer(), key, { title: 'Deploy' });
    ds = t.app.get(DataSource);
    // Copies of the opened interrupt (its record kept), each a second older than the last.
    const columns = (
      await ds.query<{ column_name: string }[]>(
        `SELECT column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'interrupts' AND is_generated = 'NEVER'`,
      )
    ).map((c) => c.column_name);
    const copied = columns.map((c) =>
      c === 'id'
        ? 'gen_random_uuid()'
        : c === 'created_at'
          ? `created_at - g * interval '1 second'`
          : c,
    );
    await ds.query(
      `INSERT INTO interrupts (${columns.join(', ')})
       SELECT ${copied.join(', ')} FROM interrupts, generate_series(1, ${SEEDED}) g WHERE id = $1`,
      [opened.id],
    );
    await ds.query('ANALYZE interrupts');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function planOf(q: { sql: string; params: unknown[] }): Promise<PlanNode> {
    const [row] = await ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.sql}`, q.params);
    return row['QUERY PLAN'][0].Plan as PlanNode;
  }

  it("reads a page of every status as about a page of interrupts, not the organisation's thousands", async () => {
    const res = await request(t.app.getHttpServer())
      .get('/api/interrupts?limit=50')
      .set('x-api-key', key);
    expect(res.status).toBe(200);
    expect(res.body.interrupts).toHaveLength(50);
    for (const order of ['newest', 'oldest'] as const) {
      const plan = await planOf(
        inboxPageTextQuery(
          organisationId,
          { statuses: INTERRUPT_STATUSES, words: [], order },
          undefined,
          51,
        ),
      );
      // A page and one row more, with room for the planner's choices; nothing like SEEDED.
      expect(interruptsRead(plan)).toBeLessThanOrEqual(4 * 51);
    }
  });

  it("numbers the page's rows after its LIMIT, so a sort keeps only the page's rows", async () => {
    const [{ priority }] = await ds.query<{ priority: string }[]>(
      'SELECT priority FROM interrupts WHERE organisation_id = $1 LIMIT 1',
      [organisationId],
    );
    // No ordered index serves a priority: Postgres sorts the matches (all of the organisation's).
    const byPriority: InboxFilter = {
      statuses: ['open'],
      priorities: [priority],
      words: [],
      order: 'newest',
    };
    for (const q of [inboxPageTextQuery(organisationId, byPriority, undefined, 51)]) {
      const plan = await planOf(q);
      const windows = [...nodesOf(plan)].filter((n) => n['Node Type'] === 'WindowAgg');
      expect(windows).toHaveLength(1);
      // The LIMIT is below the numbering: the window sees the page, not every match.
      expect([...nodesOf(windows[0])].map((n) => n['Node Type'])).toContain('Limit');
    }
  });
});
