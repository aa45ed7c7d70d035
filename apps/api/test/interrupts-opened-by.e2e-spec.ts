import { Client } from 'pg';
import request from 'supertest';
import { inboxPageQuery, inboxPageTextQuery } from '../src/interrupts/inbox-query.util';
import { createApiKey, openInterrupt, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// GET /api/interrupts?openedBy=me: the interrupts the calling key opened (MCP's list_pending).
describe('GET /api/interrupts?openedBy=me', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let keyA: { id: string; key: string };
  let keyB: { id: string; key: string };
  /** Ids in the order they were opened, with the key that opened each and whether it is answered. */
  const opened: { id: string; by: 'A' | 'B'; title: string; answered: boolean }[] = [];

  const http = () => request(t.app.getHttpServer());
  const newestFirst = (keep: (o: (typeof opened)[number]) => boolean) =>
    opened
      .filter(keep)
      .map((o) => o.id)
      .reverse();

  async function walk(
    query: Record<string, string>,
    key: string,
    limit: number,
  ): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const res = await http()
        .get('/api/interrupts')
        .query({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })
        .set('x-api-key', key);
      expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({
        status: 200,
        body: undefined,
      });
      ids.push(...res.body.interrupts.map((i: { id: string }) => i.id));
      cursor = res.body.nextCursor ?? undefined;
      if (cursor === undefined) return ids;
    }
    throw new Error('walk did not end');
  }

  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    owner = await signUpOwner(server);
    keyA = await createApiKey(server, owner.cookie, { name: 'agent-a' });
    keyB = await createApiKey(server, owner.cookie, { name: 'agent-b' });
    // Interleaved, so a key's interrupts are never one contiguous run of the organisation's.
    for (let i = 0; i < 9; i++) {
      const by = i % 3 === 1 ? 'B' : 'A';
      const title = i % 2 === 0 ? `Deploy build ${i}` : `Refund order ${i}`;
      const created = await openInterrupt(server, by === 'A' ? keyA.key : keyB.key, {
        title,
        actions: ['act'],
      });
      opened.push({ id: created.id, by, title, answered: false });
    }
    for (const o of [opened[0], opened[4], opened[7]]) {
      const res = await http()
        .post(`/api/interrupts/${o.id}/decisions`)
        .set('cookie', owner.cookie)
        .send({ actionName: 'act', decision: 'approve' });
      expect(res.status).toBe(201);
      o.answered = true;
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['A', 'no other filter', {}, () => true],
    ['A', 'status=open', { status: 'open' }, (o: (typeof opened)[number]) => !o.answered],
    ['A', 'status=answered', { status: 'answered' }, (o: (typeof opened)[number]) => o.answered],
    ['B', 'status=open', { status: 'open' }, (o: (typeof opened)[number]) => !o.answered],
    [
      'A',
      'a title search',
      { q: 'deplo' },
      (o: (typeof opened)[number]) => o.title.startsWith('Deploy'),
    ],
    [
      'A',
      'unassigned, escalated=false',
      { assignee: 'unassigned', escalated: 'false' },
      () => true,
    ],
  ] as const)(
    'key %s, %s: exactly the interrupts that key opened, whole and page by page',
    async (who, _name, query, keep) => {
      const key = who === 'A' ? keyA.key : keyB.key;
      const want = newestFirst((o) => o.by === who && keep(o));
      expect(want.length).toBeGreaterThan(0);
      expect(await walk({ ...query, openedBy: 'me' }, key, 200)).toEqual(want);
      expect(await walk({ ...query, openedBy: 'me' }, key, 1)).toEqual(want);
      expect(await walk({ ...query, openedBy: 'me', order: 'oldest' }, key, 2)).toEqual(
        [...want].reverse(),
      );
    },
  );

  it('a cursor is bound to the key: another key of the organisation cannot continue the walk', async () => {
    const first = await http()
      .get('/api/interrupts')
      .query({ openedBy: 'me', limit: '1' })
      .set('x-api-key', keyA.key);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const borrowed = await http()
      .get('/api/interrupts')
      .query({ openedBy: 'me', limit: '1', cursor: first.body.nextCursor })
      .set('x-api-key', keyB.key);
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.message).toBe(
      'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
    );
    // Nor can the same key drop the filter half-way.
    const unfiltered = await http()
      .get('/api/interrupts')
      .query({ limit: '1', cursor: first.body.nextCursor })
      .set('x-api-key', keyA.key);
    expect(unfiltered.status).toBe(400);
  });

  it('a signed-in member opened nothing (an empty page); a value other than me gets 400', async () => {
    const member = await http()
      .get('/api/interrupts')
      .query({ openedBy: 'me' })
      .set('cookie', owner.cookie);
    expect(member.status).toBe(200);
    expect(member.body).toEqual({ interrupts: [], nextCursor: null });
    for (const value of [keyA.id, 'you', '']) {
      const res = await http()
        .get('/api/interrupts')
        .query({ openedBy: value })
        .set('x-api-key', keyA.key);
      expect({ value, status: res.status, message: res.body.message }).toEqual({
        value,
        status: 400,
        message: 'openedBy must be one of the following values: me',
      });
    }
  });

  it("a key of another organisation lists only its own (none), never this organisation's", async () => {
    const stranger = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Elsewhere' });
    const strangerKey = await createApiKey(t.app.getHttpServer(), stranger.cookie);
    const res = await http()
      .get('/api/interrupts')
      .query({ openedBy: 'me' })
      .set('x-api-key', strangerKey.key);
    expect(res.body).toEqual({ interrupts: [], nextCursor: null });
  });

  it('is an index range: the plan reads interrupts_organisation_opened_by_idx, for one status and for both', async () => {
    const db = new Client({ connectionString: t.database.url });
    await db.connect();
    try {
      // The tables are tiny: without this Postgres would rightly read them whole.
      await db.query('SET enable_seqscan = off');
      const organisationId = (
        (await db.query('SELECT organisation_id FROM api_keys WHERE id = $1', [keyA.id]))
          .rows[0] as { organisation_id: string }
      ).organisation_id;
      // The page as the service reads it (one row: inboxPageTextQuery) and its rows as such.
      const cases = [inboxPageQuery, inboxPageTextQuery].flatMap((build) =>
        ([['open'], ['open', 'answered']] as const).map((statuses) => ({ build, statuses })),
      );
      for (const { build, statuses } of cases) {
        const q = build(
          organisationId,
          { statuses, openedByKeyId: keyA.id, words: [], order: 'newest' },
          undefined,
          50,
        );
        const plan = (await db.query(`EXPLAIN (FORMAT JSON) ${q.sql}`, q.params)).rows[0][
          'QUERY PLAN'
        ];
        expect(JSON.stringify(plan)).toContain(
          '"Index Name":"interrupts_organisation_opened_by_idx"',
        );
        // One status is one ordered walk; both are the merge of one bounded walk per status.
        if (statuses.length === 1) expect(JSON.stringify(plan)).not.toContain('"Node Type":"Sort"');
      }
    } finally {
      await db.end();
    }
  });
});
