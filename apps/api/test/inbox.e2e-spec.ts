import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  JoinedMember,
  memberWithPermissions,
  openInterrupt,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** What the test knows of each interrupt it opened, to compute every listing independently. */
interface Known {
  id: string;
  title: string;
  createdAt: string;
  externalId: string | null;
  status: 'open' | 'answered';
  assignee: { type: 'member' | 'team'; id: string } | null;
  escalated: boolean;
}

type Query = Record<string, string>;

// Issue 12 §1: the inbox — GET /api/interrupts with the filters people triage by, and the
// tabs' counts (GET /api/interrupts/counts).
describe('inbox (GET /api/interrupts filters, GET /api/interrupts/counts)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let colleague: JoinedMember;
  let myTeam: string;
  let otherTeam: string;
  const known: Known[] = [];

  const http = () => request(t.app.getHttpServer());
  const byId = (id: string) => known.find((k) => k.id === id) as Known;

  /** The expected listing: the test's own filter, in keyset order (createdAt, id). */
  function expected(keep: (k: Known) => boolean, order: 'newest' | 'oldest' = 'newest'): string[] {
    const sorted = known
      .filter(keep)
      .sort((a, b) =>
        a.createdAt === b.createdAt
          ? a.id.localeCompare(b.id)
          : a.createdAt.localeCompare(b.createdAt),
      );
    return (order === 'newest' ? sorted.reverse() : sorted).map((k) => k.id);
  }

  /** Every page of a walk, `limit` at a time, following nextCursor. */
  async function walk(
    query: Query,
    auth: Record<string, string>,
    limit: number,
  ): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const res = await http()
        .get('/api/interrupts')
        .query({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })
        .set(auth);
      expect({
        query,
        status: res.status,
        body: res.status === 200 ? undefined : res.body,
      }).toEqual({ query, status: 200, body: undefined });
      expect(res.body.interrupts.length).toBeLessThanOrEqual(limit);
      ids.push(...res.body.interrupts.map((i: { id: string }) => i.id));
      cursor = res.body.nextCursor ?? undefined;
      if (cursor === undefined) return ids;
    }
    throw new Error('walk did not end');
  }

  async function open(title: string, options: { externalId?: string } = {}): Promise<Known> {
    const created = await openInterrupt(t.app.getHttpServer(), key, {
      title,
      actions: ['act'],
      externalId: options.externalId,
    });
    const k: Known = {
      id: created.id,
      title,
      createdAt: created.createdAt,
      externalId: options.externalId ?? null,
      status: 'open',
      assignee: null,
      escalated: false,
    };
    known.push(k);
    return k;
  }
  async function assign(k: Known, to: { memberId: string } | { teamId: string }): Promise<void> {
    const res = await http()
      .post(`/api/interrupts/${k.id}/assign`)
      .set('cookie', owner.cookie)
      .send(to);
    expect(res.status).toBe(200);
    k.assignee =
      'memberId' in to ? { type: 'member', id: to.memberId } : { type: 'team', id: to.teamId };
  }
  async function escalate(k: Known): Promise<void> {
    expect(
      (
        await http()
          .post(`/api/interrupts/${k.id}/escalate`)
          .set('cookie', owner.cookie)
          .send({ reason: 'urgent' })
      ).status,
    ).toBe(200);
    k.escalated = true;
  }
  async function answer(k: Known): Promise<void> {
    const res = await http()
      .post(`/api/interrupts/${k.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'act', decision: 'approve' });
    expect(res.status).toBe(201);
    k.status = 'answered';
  }

  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    owner = await signUpOwner(server, { name: 'Ada Lovelace' });
    key = (await createApiKey(server, owner.cookie)).key;
    colleague = await joinOrganisation(
      server,
      owner.cookie,
      (await builtInRoleIds(server, owner.cookie)).manager,
      'Grace Hopper',
    );
    myTeam = (
      await http().post('/api/teams').set('cookie', owner.cookie).send({ name: 'Payments' })
    ).body.id;
    otherTeam = (
      await http().post('/api/teams').set('cookie', owner.cookie).send({ name: 'Platform' })
    ).body.id;
    expect(
      (
        await http()
          .post(`/api/teams/${myTeam}/members`)
          .set('cookie', owner.cookie)
          .send({ memberId: owner.memberId })
      ).status,
    ).toBe(204);
    expect(
      (
        await http()
          .post(`/api/teams/${otherTeam}/members`)
          .set('cookie', owner.cookie)
          .send({ memberId: colleague.memberId })
      ).status,
    ).toBe(204);

    // A small inbox with every combination the filters tell apart.
    const a = await open('Déployer la prod', { externalId: 'ext-1' });
    await assign(a, { memberId: owner.memberId });
    const b = await open('Deploy staging');
    await assign(b, { teamId: myTeam });
    await escalate(b);
    const c = await open('Refund customer 42');
    await answer(c);
    const d = await open('Rotate the API keys', { externalId: 'ext-1' });
    await assign(d, { memberId: colleague.memberId });
    await escalate(d);
    await answer(d);
    const e = await open('Déploiement rapide');
    await assign(e, { teamId: otherTeam });
    await open('Send the invoice');
    const g = await open('Deploy prod hotfix');
    await assign(g, { memberId: owner.memberId });
    await answer(g);
    const h = await open('Escalated but unassigned');
    await escalate(h);
    const i = await open('Quarterly report (PROD)');
    await assign(i, { teamId: myTeam });
    await answer(i);
  });
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, Query, (k: Known) => boolean][] = [
    ['no filter', {}, () => true],
    ['status=open', { status: 'open' }, (k) => k.status === 'open'],
    ['status=answered', { status: 'answered' }, (k) => k.status === 'answered'],
    ['externalId', { externalId: 'ext-1' }, (k) => k.externalId === 'ext-1'],
    [
      'assignee=me',
      { assignee: 'me' },
      (k) => k.assignee?.type === 'member' && k.assignee.id === owner.memberId,
    ],
    [
      'assignee=me, open (the Assigned to me tab)',
      { assignee: 'me', status: 'open' },
      (k) => k.assignee?.id === owner.memberId && k.status === 'open',
    ],
    [
      'assignee=my_teams',
      { assignee: 'my_teams' },
      (k) => k.assignee?.type === 'team' && k.assignee.id === myTeam,
    ],
    [
      'assignee=my_teams, answered',
      { assignee: 'my_teams', status: 'answered' },
      (k) => k.assignee?.id === myTeam && k.status === 'answered',
    ],
    ['assignee=unassigned', { assignee: 'unassigned' }, (k) => k.assignee === null],
    [
      'assignee=unassigned, open',
      { assignee: 'unassigned', status: 'open' },
      (k) => k.assignee === null && k.status === 'open',
    ],
    ['escalated=true', { escalated: 'true' }, (k) => k.escalated],
    [
      'escalated=true, open (the Escalated tab)',
      { escalated: 'true', status: 'open' },
      (k) => k.escalated && k.status === 'open',
    ],
    ['escalated=false', { escalated: 'false' }, (k) => !k.escalated],
    [
      'q: a prefix, any case, accents ignored',
      { q: 'DEPLO' },
      (k) => /^d[ée]plo/i.test(k.title) || / d[ée]plo/i.test(k.title),
    ],
    [
      'q: every word must match, in any order',
      { q: 'prod dép' },
      (k) => ['Déployer la prod', 'Deploy prod hotfix'].includes(k.title),
    ],
    [
      'q: words inside punctuation',
      { q: 'prod quart' },
      (k) => k.title === 'Quarterly report (PROD)',
    ],
    ['q: nothing matches', { q: 'zebra' }, () => false],
    ['q: a prefix of no word start', { q: 'eploy' }, () => false],
    [
      'q with status',
      { q: 'deplo', status: 'open' },
      (k) => k.status === 'open' && /d[ée]plo/i.test(k.title),
    ],
    ['order=oldest', { order: 'oldest' }, () => true],
    ['order=oldest, open', { order: 'oldest', status: 'open' }, (k) => k.status === 'open'],
    [
      'combined: open, unassigned, escalated',
      { status: 'open', assignee: 'unassigned', escalated: 'true' },
      (k) => k.status === 'open' && k.assignee === null && k.escalated,
    ],
  ];

  it.each(cases)(
    '%s: the listing, and a walk of pages of 2, give exactly the matching interrupts in order',
    async (_name, query, keep) => {
      const want = expected(keep, query.order === 'oldest' ? 'oldest' : 'newest');
      const whole = await http()
        .get('/api/interrupts')
        .query({ ...query, limit: '200' })
        .set('cookie', owner.cookie);
      expect(whole.status).toBe(200);
      expect(whole.body.interrupts.map((x: { id: string }) => x.id)).toEqual(want);
      expect(whole.body.nextCursor).toBeNull();
      expect(await walk(query, { cookie: owner.cookie }, 2)).toEqual(want);
      expect(await walk(query, { cookie: owner.cookie }, 1)).toEqual(want);
    },
  );

  it('from (inclusive) and to (exclusive) bound createdAt, with paging', async () => {
    const sorted = expected(() => true, 'oldest');
    const from = byId(sorted[2]).createdAt;
    const to = byId(sorted[6]).createdAt;
    const want = expected((k) => k.createdAt >= from && k.createdAt < to);
    expect(want.length).toBeGreaterThanOrEqual(3);
    expect(await walk({ from, to }, { cookie: owner.cookie }, 2)).toEqual(want);
    expect(await walk({ from, to, order: 'oldest' }, { 'x-api-key': key }, 2)).toEqual(
      [...want].reverse(),
    );
    // A date alone is midnight UTC.
    const day = from.slice(0, 10);
    const sinceMidnight = await http()
      .get('/api/interrupts')
      .query({ from: day, limit: '200' })
      .set('x-api-key', key);
    expect(sinceMidnight.body.interrupts.length).toBe(
      known.filter((k) => k.createdAt >= `${day}T00:00:00.000Z`).length,
    );
    const none = await http()
      .get('/api/interrupts')
      .query({ from: '2999-01-01T00:00:00Z' })
      .set('x-api-key', key);
    expect(none.body).toEqual({ interrupts: [], nextCursor: null });
  });

  it('my_teams follows the member’s teams now; a member in no team gets an empty list', async () => {
    const loner = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['interrupt.read'],
      'Lone Wolf',
    );
    const res = await http()
      .get('/api/interrupts')
      .query({ assignee: 'my_teams' })
      .set('cookie', loner.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ interrupts: [], nextCursor: null });
    // The colleague belongs to the other team.
    const theirs = await http()
      .get('/api/interrupts')
      .query({ assignee: 'my_teams' })
      .set('cookie', colleague.cookie);
    expect(theirs.body.interrupts.map((x: { id: string }) => x.id)).toEqual(
      expected((k) => k.assignee?.id === otherTeam),
    );
    const mine = await http()
      .get('/api/interrupts')
      .query({ assignee: 'me' })
      .set('cookie', colleague.cookie);
    expect(mine.body.interrupts.map((x: { id: string }) => x.id)).toEqual(
      expected((k) => k.assignee?.id === colleague.memberId),
    );
  });

  it('keys: the filters that name no one work; me and my_teams match nothing (a key is no member)', async () => {
    for (const assignee of ['me', 'my_teams']) {
      const res = await http().get('/api/interrupts').query({ assignee }).set('x-api-key', key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ interrupts: [], nextCursor: null });
    }
    const query = { assignee: 'unassigned', escalated: 'false', q: 'send', status: 'open' };
    expect(await walk(query, { 'x-api-key': key }, 1)).toEqual(
      expected(
        (k) => k.assignee === null && !k.escalated && k.status === 'open' && /send/i.test(k.title),
      ),
    );
  });

  it('refuses bad values with 400 messages that name the parameter', async () => {
    const cases: [Query, string | RegExp][] = [
      [
        { assignee: 'you' },
        'assignee must be one of the following values: me, my_teams, unassigned',
      ],
      [{ escalated: 'yes' }, 'escalated must be true or false'],
      [{ order: 'random' }, 'order must be one of the following values: newest, oldest, deadline'],
      [
        { status: 'closed' },
        'status must be one of the following values: open, answered, expired, withdrawn',
      ],
      [
        { from: 'yesterday' },
        'from: must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z',
      ],
      [
        { to: '2026-02-30T00:00:00Z' },
        'to: must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z',
      ],
      [{ from: '2026-02-01', to: '2026-01-01' }, 'from: must not be after to'],
      [{ q: 'a b c d e f g h i' }, 'q: must have at most 8 words'],
      [{ q: 'x'.repeat(201) }, /^q must be shorter than or equal to 200 characters$/],
      [{ limit: '201' }, 'limit must not be greater than 200'],
    ];
    for (const [query, message] of cases) {
      const res = await http().get('/api/interrupts').query(query).set('cookie', owner.cookie);
      expect({ query, status: res.status, code: res.body.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
  });

  it('binds cursors to every filter, and me/my_teams cursors to the member', async () => {
    const first = await http()
      .get('/api/interrupts')
      .query({ q: 'deplo', limit: '1' })
      .set('cookie', owner.cookie);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    for (const change of [
      { q: 'depl' },
      { q: 'deplo', order: 'oldest' },
      { q: 'deplo', escalated: 'false' },
      { q: 'deplo', from: '2000-01-01' },
    ]) {
      const res = await http()
        .get('/api/interrupts')
        .query({ ...change, limit: '1', cursor: first.body.nextCursor })
        .set('cookie', owner.cookie);
      expect({ change, status: res.status }).toEqual({ change, status: 400 });
      expect(res.body.message).toBe(
        'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
      );
    }
    const mine = await http()
      .get('/api/interrupts')
      .query({ assignee: 'me', limit: '1' })
      .set('cookie', owner.cookie);
    expect(mine.body.nextCursor).toEqual(expect.any(String));
    const borrowed = await http()
      .get('/api/interrupts')
      .query({ assignee: 'me', limit: '1', cursor: mine.body.nextCursor })
      .set('cookie', colleague.cookie);
    expect(borrowed.status).toBe(400);
  });

  it('another organisation never sees these interrupts under any filter', async () => {
    const stranger = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Elsewhere' });
    for (const query of [
      {},
      { q: 'deplo' },
      { assignee: 'unassigned' },
      { escalated: 'true' },
      { externalId: 'ext-1' },
      { assignee: 'me' },
    ]) {
      const res = await http().get('/api/interrupts').query(query).set('cookie', stranger.cookie);
      expect({ query, status: res.status, body: res.body }).toEqual({
        query,
        status: 200,
        body: { interrupts: [], nextCursor: null },
      });
    }
    const counts = await http().get('/api/interrupts/counts').set('cookie', stranger.cookie);
    expect(counts.body).toMatchObject({
      open: { count: 0 },
      assignedToMe: { count: 0 },
      waitingForMe: { count: 0 },
      escalated: { count: 0 },
      answered: { count: 0 },
    });
  });

  it('title searches give the same answers whichever plan the word counts choose, and the hand-over between them', async () => {
    const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Big inbox' });
    const ds = t.app.get(DataSource);
    // 12,003 interrupts, oldest first: three needles (rare: the word index), "oldish" only in
    // old ones (common enough to walk, but the walk finds none among the newest: it hands over
    // to the index), "mid" 50 times among the newest 7,000 and 300 times before (a walk that
    // goes on past its first window), and "bulk" everywhere (a walk that fills at once).
    await ds.query(
      `INSERT INTO interrupts (organisation_id, id, title, status, action_requests, created_at, title_search)
       SELECT $1, gen_random_uuid(), t.title, CASE WHEN g % 2 = 0 THEN 'open' ELSE 'answered' END, '[]'::jsonb,
              timestamptz '2026-01-01' + g * interval '1 minute', array_to_tsvector(string_to_array(lower(t.title), ' '))
         FROM generate_series(1, 12003) g,
              LATERAL (SELECT CASE WHEN g <= 3 THEN 'Needle ' || g
                                   WHEN g <= 400 THEN 'Bulk oldish ' || g
                                   WHEN g <= 700 OR (g > 5006 AND g % 140 = 0) THEN 'Bulk mid ' || g
                                   ELSE 'Bulk filler ' || g END AS title) t`,
      [org.organisationId],
    );
    const rows: { id: string; title: string; status: string }[] = await ds.query(
      `SELECT id, title, status FROM interrupts WHERE organisation_id = $1 ORDER BY created_at DESC, id DESC`,
      [org.organisationId],
    );
    // The lexicon counted them (the deferred trigger, at commit).
    const [lexicon] = await ds.query(
      `SELECT (SELECT interrupts FROM interrupt_title_words WHERE organisation_id = $1 AND word = '')::int AS total,
              (SELECT interrupts FROM interrupt_title_words WHERE organisation_id = $1 AND word = 'mid')::int AS mid`,
      [org.organisationId],
    );
    expect(lexicon).toEqual({ total: 12003, mid: 350 });
    const ids = (keep: (r: { title: string; status: string }) => boolean) =>
      rows.filter(keep).map((r) => r.id);
    const list = (query: Query) =>
      http().get('/api/interrupts').query(query).set('cookie', org.cookie);
    const page = async (query: Query) =>
      (await list({ limit: '50', ...query })).body.interrupts.map((x: { id: string }) => x.id);
    const has = (word: string) => (r: { title: string }) =>
      r.title
        .toLowerCase()
        .split(' ')
        .some((w) => w.startsWith(word));

    const needles = ids(has('need'));
    expect(needles).toHaveLength(3);
    expect(await page({ q: 'need' })).toEqual(needles);
    expect(await walk({ q: 'needle', order: 'oldest' }, { cookie: org.cookie }, 2)).toEqual(
      [...needles].reverse(),
    );
    expect(await page({ q: 'needle', status: 'answered' })).toEqual(
      ids((r) => has('need')(r) && r.status === 'answered'),
    );
    expect(await page({ q: 'oldis' })).toEqual(ids(has('oldis')).slice(0, 50));
    expect(await page({ q: 'oldish', status: 'open' })).toEqual(
      ids((r) => has('oldish')(r) && r.status === 'open').slice(0, 50),
    );
    expect(await page({ q: 'mid bul' })).toEqual(
      ids((r) => has('mid')(r) && has('bul')(r)).slice(0, 50),
    );
    expect(await walk({ q: 'mid bulk' }, { cookie: org.cookie }, 50)).toEqual(
      ids((r) => has('mid')(r) && has('bulk')(r)),
    );
    expect(await page({ q: 'bulk', status: 'open' })).toEqual(
      ids((r) => has('bulk')(r) && r.status === 'open').slice(0, 50),
    );
    expect(await page({ q: 'bulk filler', order: 'oldest' })).toEqual(
      ids((r) => has('bulk')(r) && has('filler')(r))
        .reverse()
        .slice(0, 50),
    );
    // A prefix that starts no word of the organisation's titles: nothing, whatever else is typed.
    expect((await list({ q: 'bulk nothing' })).body).toEqual({ interrupts: [], nextCursor: null });
  });

  describe('counts', () => {
    it('counts each tab for the signed-in member', async () => {
      const res = await http().get('/api/interrupts/counts').set('cookie', owner.cookie);
      expect(res.status).toBe(200);
      const count = (keep: (k: Known) => boolean) => ({
        count: known.filter(keep).length,
        capped: false,
      });
      expect(res.body).toEqual({
        open: count((k) => k.status === 'open'),
        assignedToMe: count(
          (k) =>
            k.status === 'open' &&
            k.assignee?.type === 'member' &&
            k.assignee.id === owner.memberId,
        ),
        // Theirs directly, or their team's (the owner is in myTeam, not in otherTeam).
        waitingForMe: count(
          (k) =>
            k.status === 'open' &&
            ((k.assignee?.type === 'member' && k.assignee.id === owner.memberId) ||
              (k.assignee?.type === 'team' && k.assignee.id === myTeam)),
        ),
        escalated: count((k) => k.status === 'open' && k.escalated),
        answered: count((k) => k.status === 'answered'),
        cap: 1000,
      });
      expect(res.body.assignedToMe.count).toBe(1);
      expect(res.body.waitingForMe.count).toBeGreaterThan(res.body.assignedToMe.count);
      const theirs = await http().get('/api/interrupts/counts').set('cookie', colleague.cookie);
      expect(theirs.body.assignedToMe).toEqual({ count: 0, capped: false });
      // The colleague's team (otherTeam) has open work assigned to it.
      expect(theirs.body.waitingForMe.count).toBe(
        known.filter(
          (k) => k.status === 'open' && k.assignee?.type === 'team' && k.assignee.id === otherTeam,
        ).length,
      );
      expect(theirs.body.open).toEqual(res.body.open);
    });

    it('is for members holding interrupt.read: a key gets 403 HUMANS_ONLY, a member without it the exact 403', async () => {
      const byKey = await http().get('/api/interrupts/counts').set('x-api-key', key);
      expect(byKey.status).toBe(403);
      expect(byKey.body).toMatchObject({
        code: 'HUMANS_ONLY',
        message: 'This endpoint is reserved for humans.',
      });
      const noRead = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
        'interrupt.decide',
      ]);
      const res = await http().get('/api/interrupts/counts').set('cookie', noRead.cookie);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: interrupt.read.',
      });
      expect((await http().get('/api/interrupts/counts')).status).toBe(401);
    });

    it('stops at the cap: exactly 1000 is 1000, more is 1000 with capped', async () => {
      const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Busy' });
      const ds = t.app.get(DataSource);
      // Rows straight into the table: a thousand interrupts through the API would only be slower.
      const insert = (n: number, status: string) =>
        ds.query(
          `INSERT INTO interrupts (organisation_id, id, title, status, action_requests, created_at)
           SELECT $1, gen_random_uuid(), 'bulk ' || g, $3, '[]'::jsonb, now() - g * interval '1 second'
             FROM generate_series(1, $2) g`,
          [org.organisationId, n, status],
        );
      await insert(1000, 'open');
      await insert(1001, 'answered');
      const res = await http().get('/api/interrupts/counts').set('cookie', org.cookie);
      expect(res.body).toEqual({
        open: { count: 1000, capped: false },
        assignedToMe: { count: 0, capped: false },
        waitingForMe: { count: 0, capped: false },
        escalated: { count: 0, capped: false },
        answered: { count: 1000, capped: true },
        cap: 1000,
      });
    });
  });
});
