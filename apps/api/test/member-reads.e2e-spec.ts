import request from 'supertest';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  memberWithPermissions,
  openInterrupt,
  setPlan,
  signUpOwner,
  SignedUpOwner,
  startSession,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const NIL = '00000000-0000-4000-8000-000000000000';

// Issue 12 §1: the reads agents use are the dashboard's too (SPEC §5 (D)): a key, or a member
// holding the read permission. Human-only routes stay human-only (route-declarations.e2e-spec).
describe('reads shared by keys and members', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let other: SignedUpOwner;
  let otherKey: string;

  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
    other = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Other Org' });
    otherKey = (await createApiKey(t.app.getHttpServer(), other.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('interrupts', () => {
    it('a member with interrupt.read lists and reads what a key does, field for field', async () => {
      const opened = await openInterrupt(t.app.getHttpServer(), key, {
        title: 'Shared read',
        externalId: 'shared-1',
      });
      const manager = await joinOrganisation(
        t.app.getHttpServer(),
        owner.cookie,
        (await builtInRoleIds(t.app.getHttpServer(), owner.cookie)).manager,
      );

      const byKey = await http()
        .get('/api/interrupts')
        .query({ externalId: 'shared-1' })
        .set('x-api-key', key);
      const byMember = await http()
        .get('/api/interrupts')
        .query({ externalId: 'shared-1' })
        .set('cookie', manager.cookie);
      expect(byKey.status).toBe(200);
      expect(byMember.status).toBe(200);
      expect(byMember.body).toEqual(byKey.body);
      expect(byMember.body.interrupts.map((i: { id: string }) => i.id)).toEqual([opened.id]);

      const oneByKey = await http().get(`/api/interrupts/${opened.id}`).set('x-api-key', key);
      const oneByMember = await http()
        .get(`/api/interrupts/${opened.id}`)
        .set('cookie', manager.cookie);
      expect(oneByKey.status).toBe(200);
      expect(oneByMember.status).toBe(200);
      expect(oneByMember.body).toEqual(oneByKey.body);
    });

    it('one interrupt, with include=history,session, carries its linked session and its history (who opened, assigned, escalated, decided it, when)', async () => {
      const server = t.app.getHttpServer();
      const session = await startSession(server, key, { name: 'refund-run' });
      const opened = await openInterrupt(server, key, {
        title: 'Refund order 7',
        actions: ['refund', 'notify'],
        sessionId: session.id,
      });
      const manager = await joinOrganisation(
        server,
        owner.cookie,
        (await builtInRoleIds(server, owner.cookie)).manager,
        'Mary Manager',
      );
      expect(
        (
          await http()
            .post(`/api/interrupts/${opened.id}/assign`)
            .set('cookie', owner.cookie)
            .send({ memberId: manager.memberId })
        ).status,
      ).toBe(200);
      expect(
        (
          await http()
            .post(`/api/interrupts/${opened.id}/escalate`)
            .set('cookie', manager.cookie)
            .send({ reason: 'big refund' })
        ).status,
      ).toBe(200);
      const decided = await http()
        .post(`/api/interrupts/${opened.id}/decisions`)
        .set('cookie', manager.cookie)
        .send({ actionName: 'refund', decision: 'approve' });
      expect(decided.status).toBe(201);
      // Responses other than the detail read stay the record alone.
      expect(decided.body).not.toHaveProperty('history');
      expect(decided.body).not.toHaveProperty('session');

      // Without include: exactly the record agents read (and the decision answered with).
      const plain = await http().get(`/api/interrupts/${opened.id}`).set('x-api-key', key);
      expect(plain.body).toEqual(decided.body);

      const byMember = await http()
        .get(`/api/interrupts/${opened.id}`)
        .query({ include: 'history,session' })
        .set('cookie', manager.cookie);
      expect(byMember.status).toBe(200);
      expect({ ...byMember.body, history: undefined, session: undefined }).toEqual({
        ...decided.body,
        history: undefined,
        session: undefined,
      });
      expect(byMember.body.session).toEqual({
        id: session.id,
        name: 'refund-run',
        status: 'active',
      });
      expect(byMember.body.sessionId).toBe(session.id);
      const history = byMember.body.history as Record<string, unknown>[];
      expect(history.map((h) => [h.action, h.actorType, h.actorName])).toEqual([
        ['interrupt.created', 'api_key', 'ci-runner'],
        ['interrupt.assigned', 'member', 'Ada Lovelace'],
        ['interrupt.escalated', 'member', 'Mary Manager'],
        ['interrupt.decided', 'member', 'Mary Manager'],
      ]);
      expect(history[1].metadata).toMatchObject({
        assigneeType: 'member',
        assigneeId: manager.memberId,
        assigneeName: 'Mary Manager',
      });
      expect(history[2].metadata).toEqual({ level: 1, reason: 'big refund' });
      expect(history[3].metadata).toEqual({
        actionName: 'refund',
        decision: 'approve',
        becameAnswered: false,
      });
      expect(history[3]).toMatchObject({
        actorId: manager.memberId,
        summary: expect.stringContaining('refund'),
      });
      for (const h of history) {
        expect(Object.keys(h).sort()).toEqual([
          'action',
          'actorId',
          'actorName',
          'actorType',
          'createdAt',
          'id',
          'metadata',
          'summary',
        ]);
        expect(h.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
      const times = history.map((h) => h.createdAt as string);
      expect([...times].sort()).toEqual(times);

      // A key of a Pro organisation reads the same (history is audit entries: item 8 below); the session's status follows the session.
      await setPlan(server, owner.cookie, 'pro');
      expect(
        (await http().post(`/api/sessions/${session.id}/end`).set('x-api-key', key)).status,
      ).toBe(200);
      const byKey = await http()
        .get(`/api/interrupts/${opened.id}?include=session&include=history`)
        .set('x-api-key', key);
      expect(byKey.body.session).toEqual({ id: session.id, name: 'refund-run', status: 'ended' });
      expect(byKey.body.history).toEqual(history);
      // Each on its own; no session: null. Listings carry neither field.
      const alone = await openInterrupt(server, key, { title: 'No session' });
      const onlySession = await http()
        .get(`/api/interrupts/${alone.id}`)
        .query({ include: 'session' })
        .set('x-api-key', key);
      expect(onlySession.body.session).toBeNull();
      expect(onlySession.body).not.toHaveProperty('history');
      const onlyHistory = await http()
        .get(`/api/interrupts/${alone.id}`)
        .query({ include: 'history' })
        .set('x-api-key', key);
      expect(onlyHistory.body).not.toHaveProperty('session');
      expect(onlyHistory.body.history.map((h: { action: string }) => h.action)).toEqual([
        'interrupt.created',
      ]);
      const bad = await http()
        .get(`/api/interrupts/${alone.id}`)
        .query({ include: 'history,decisions' })
        .set('x-api-key', key);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'include must list only history, session, argus, resume, escalation',
      });
      const list = await http().get('/api/interrupts').query({ limit: 1 }).set('x-api-key', key);
      expect(list.body.interrupts[0]).not.toHaveProperty('history');
      await setPlan(server, owner.cookie, 'free');
    });

    it('a member without interrupt.read gets 403 "Missing permission: interrupt.read."', async () => {
      const opened = await openInterrupt(t.app.getHttpServer(), key);
      const deciderOnly = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
        'interrupt.decide',
      ]);
      for (const path of ['/api/interrupts', `/api/interrupts/${opened.id}`]) {
        const res = await http().get(path).set('cookie', deciderOnly.cookie);
        expect({ path, status: res.status, body: res.body }).toMatchObject({
          status: 403,
          body: { code: 'MISSING_PERMISSION', message: 'Missing permission: interrupt.read.' },
        });
      }
    });

    it("another organisation's member gets 404 for the id and never sees the data in lists", async () => {
      const opened = await openInterrupt(t.app.getHttpServer(), key, { title: 'Private to owner' });
      const one = await http().get(`/api/interrupts/${opened.id}`).set('cookie', other.cookie);
      expect(one.status).toBe(404);
      expect(one.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
      const list = await http()
        .get('/api/interrupts')
        .query({ limit: 200 })
        .set('cookie', other.cookie);
      expect(list.status).toBe(200);
      expect(list.body.interrupts.map((i: { id: string }) => i.id)).not.toContain(opened.id);
      // A cursor of one organisation does not page another's listing.
      await openInterrupt(t.app.getHttpServer(), key);
      const first = await http()
        .get('/api/interrupts')
        .query({ limit: 1 })
        .set('cookie', owner.cookie);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const replayed = await http()
        .get('/api/interrupts')
        .query({ limit: 1, cursor: first.body.nextCursor })
        .set('cookie', other.cookie);
      expect(replayed.status).toBe(400);
    });

    it('keys work exactly as before: with a cookie beside the key the key decides; with nothing, MISSING_API_KEY', async () => {
      const none = await http().get('/api/interrupts');
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({
        code: 'MISSING_API_KEY',
        message: 'Missing x-api-key header.',
      });
      const bad = await http()
        .get('/api/interrupts')
        .set('x-api-key', 'ilk_nope')
        .set('cookie', owner.cookie);
      expect(bad.status).toBe(401);
      expect(bad.body).toMatchObject({ code: 'INVALID_API_KEY', message: 'Invalid API key.' });
      const foreignKey = await http()
        .get('/api/interrupts')
        .set('x-api-key', otherKey)
        .set('cookie', owner.cookie);
      expect(foreignKey.status).toBe(200);
      const ownerIds = (
        await http().get('/api/interrupts').query({ limit: 200 }).set('cookie', owner.cookie)
      ).body.interrupts.map((i: { id: string }) => i.id);
      expect(
        foreignKey.body.interrupts.filter((i: { id: string }) => ownerIds.includes(i.id)),
      ).toEqual([]);
    });

    it('a cookie that is not signed in answers 401 "Sign-in required."', async () => {
      const res = await http()
        .get('/api/interrupts')
        .set('cookie', 'session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'SIGN_IN_REQUIRED', message: 'Sign-in required.' });
    });
  });

  describe('sessions (SPEC §5: GET /api/sessions, GET /api/sessions/{id})', () => {
    it('lists newest first with status and externalId filters, paged by cursor, for keys and members alike', async () => {
      const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Sessions Org' });
      const orgKey = (await createApiKey(t.app.getHttpServer(), org.cookie)).key;
      const records: { id: string; startedAt: string }[] = [];
      for (let i = 0; i < 5; i++) {
        records.push(
          (await startSession(t.app.getHttpServer(), orgKey, {
            name: `s${i}`,
            externalId: i % 2 === 0 ? 'even' : 'odd',
          })) as never,
        );
      }
      const started = records.map((r) => r.id);
      expect(
        (await http().post(`/api/sessions/${started[1]}/end`).set('x-api-key', orgKey)).status,
      ).toBe(200);
      expect(
        (await http().post(`/api/sessions/${started[3]}/disconnect`).set('cookie', org.cookie))
          .status,
      ).toBe(200);
      // Newest first by (startedAt, id): two starts in one millisecond are ordered by id.
      const newestFirst = [...records]
        .sort((a, b) =>
          a.startedAt === b.startedAt
            ? b.id.localeCompare(a.id)
            : b.startedAt.localeCompare(a.startedAt),
        )
        .map((r) => r.id);
      const only = (...ids: string[]) => newestFirst.filter((id) => ids.includes(id));

      for (const auth of [{ 'x-api-key': orgKey }, { cookie: org.cookie }]) {
        const all = await http().get('/api/sessions').set(auth);
        expect(all.status).toBe(200);
        expect(all.body.sessions.map((s: { id: string }) => s.id)).toEqual(newestFirst);
        expect(all.body.nextCursor).toBeNull();

        const active = await http().get('/api/sessions').query({ status: 'active' }).set(auth);
        expect(active.body.sessions.map((s: { id: string }) => s.id)).toEqual(
          only(started[0], started[2], started[4]),
        );
        const ended = await http().get('/api/sessions').query({ status: 'ended' }).set(auth);
        expect(
          ended.body.sessions.map((s: { id: string; status: string }) => [s.id, s.status]),
        ).toEqual(
          only(started[1], started[3]).map((id) => [
            id,
            id === started[1] ? 'ended' : 'disconnected',
          ]),
        );
        const odd = await http().get('/api/sessions').query({ externalId: 'odd' }).set(auth);
        expect(odd.body.sessions.map((s: { id: string }) => s.id)).toEqual(
          only(started[1], started[3]),
        );

        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await http()
            .get('/api/sessions')
            .query({ limit: 2, externalId: 'even', ...(cursor ? { cursor } : {}) })
            .set(auth);
          expect(page.status).toBe(200);
          seen.push(...page.body.sessions.map((s: { id: string }) => s.id));
          cursor = page.body.nextCursor ?? undefined;
        } while (cursor !== undefined);
        expect(seen).toEqual(only(started[0], started[2], started[4]));

        const one = await http().get(`/api/sessions/${started[1]}`).set(auth);
        expect(one.status).toBe(200);
        expect(one.body).toMatchObject({
          id: started[1],
          name: 's1',
          externalId: 'odd',
          status: 'ended',
          messageCount: 0,
        });
        expect(one.body.endedAt).toEqual(expect.any(String));
      }
    });

    it('validates its query and cursors, with messages naming the parameter', async () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ status: 'disconnected' }, /^status must be one of the following values: active, ended$/],
        [{ limit: '0' }, /^limit must not be less than 1$/],
        [{ limit: '201' }, /^limit must not be greater than 200$/],
        [{ cursor: 'garbage' }, /^cursor is not a valid cursor/],
        [{ colour: 'red' }, /^property colour should not exist$/],
      ];
      for (const [query, message] of cases) {
        const res = await http().get('/api/sessions').query(query).set('x-api-key', key);
        expect({ query, status: res.status, code: res.body.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
        expect(res.body.message).toMatch(message);
      }
      await startSession(t.app.getHttpServer(), key);
      await startSession(t.app.getHttpServer(), key);
      const first = await http().get('/api/sessions').query({ limit: 1 }).set('x-api-key', key);
      const other = await http()
        .get('/api/sessions')
        .query({ limit: 1, status: 'active', cursor: first.body.nextCursor })
        .set('x-api-key', key);
      expect(other.status).toBe(400);
    });

    it('needs session.read for members; another organisation gets 404 and an empty list', async () => {
      const session = await startSession(t.app.getHttpServer(), key, { name: 'private' });
      const noRead = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
        'interrupt.read',
      ]);
      for (const path of ['/api/sessions', `/api/sessions/${session.id}`]) {
        const res = await http().get(path).set('cookie', noRead.cookie);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: session.read.',
        });
      }
      expect(
        (await http().get(`/api/sessions/${session.id}`).set('cookie', other.cookie)).status,
      ).toBe(404);
      expect(
        (await http().get(`/api/sessions/${session.id}`).set('x-api-key', otherKey)).status,
      ).toBe(404);
      expect((await http().get(`/api/sessions/${NIL}`).set('x-api-key', key)).status).toBe(404);
      const foreign = await http().get('/api/sessions').set('cookie', other.cookie);
      expect(foreign.status).toBe(200);
      expect(foreign.body.sessions.map((s: { id: string }) => s.id)).not.toContain(session.id);
    });
  });

  describe('audit log (SPEC §5 (D): the dashboard view on every plan, the key API Pro-only)', () => {
    it("a Free organisation's member with auditLog.read gets 200; its key gets the exact 402", async () => {
      const free = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Free Org' });
      const freeKey = (await createApiKey(t.app.getHttpServer(), free.cookie, { name: 'free-key' }))
        .key;
      const member = await http().get('/api/audit-log').set('cookie', free.cookie);
      expect(member.status).toBe(200);
      expect(member.body.entries.map((e: { action: string }) => e.action)).toContain(
        'api_key.created',
      );
      const byKey = await http().get('/api/audit-log').set('x-api-key', freeKey);
      expect(byKey.status).toBe(402);
      expect(byKey.body).toMatchObject({
        code: 'PLAN_REQUIRED',
        message: 'The audit log API requires the Pro plan.',
      });
      // On Pro the key reads the very same page.
      await setPlan(t.app.getHttpServer(), free.cookie, 'pro');
      const proKey = await http()
        .get('/api/audit-log')
        .query({ category: 'api_key' })
        .set('x-api-key', freeKey);
      const proMember = await http()
        .get('/api/audit-log')
        .query({ category: 'api_key' })
        .set('cookie', free.cookie);
      expect(proKey.status).toBe(200);
      expect(proMember.body.entries).toEqual(proKey.body.entries);
    });

    it('same filters, search, cursors and exact errors as the key endpoint', async () => {
      for (let i = 0; i < 3; i++)
        await openInterrupt(t.app.getHttpServer(), key, { title: `Quarterly refund ${i}` });
      const first = await http()
        .get('/api/audit-log')
        .query({ q: 'quarterl', limit: 2 })
        .set('cookie', owner.cookie);
      expect(first.status).toBe(200);
      expect(first.body.entries).toHaveLength(2);
      const second = await http()
        .get('/api/audit-log')
        .query({ q: 'quarterl', limit: 2, cursor: first.body.nextCursor })
        .set('cookie', owner.cookie);
      expect(second.status).toBe(200);
      expect(second.body.entries.map((e: { targetName: string }) => e.targetName)).toEqual([
        'Quarterly refund 0',
      ]);
      expect(second.body.nextCursor).toBeNull();
      const mixed = await http()
        .get('/api/audit-log')
        .query({ q: 'other', limit: 2, cursor: first.body.nextCursor })
        .set('cookie', owner.cookie);
      expect(mixed.status).toBe(400);
      expect(mixed.body.message).toBe(
        'cursor: belongs to a walk with different parameters; repeat them unchanged',
      );
      const badEnum = await http()
        .get('/api/audit-log')
        .query({ category: 'nope' })
        .set('cookie', owner.cookie);
      expect(badEnum.status).toBe(400);
      expect(badEnum.body.code).toBe('VALIDATION_FAILED');
      expect(badEnum.body.message).toMatch(/^category: must be one of /);
    });

    it('needs auditLog.read for members; another organisation never sees the entries', async () => {
      const noRead = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
        'interrupt.read',
      ]);
      const res = await http().get('/api/audit-log').set('cookie', noRead.cookie);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: auditLog.read.',
      });
      const mine = await http()
        .get('/api/audit-log')
        .query({ limit: 200 })
        .set('cookie', owner.cookie);
      const theirs = await http()
        .get('/api/audit-log')
        .query({ limit: 200 })
        .set('cookie', other.cookie);
      const mineIds = new Set(mine.body.entries.map((e: { id: string }) => e.id));
      expect(theirs.body.entries.length).toBeGreaterThan(0);
      expect(theirs.body.entries.filter((e: { id: string }) => mineIds.has(e.id))).toEqual([]);
      // A cursor of one organisation's walk is refused in another's.
      const page = await http()
        .get('/api/audit-log')
        .query({ limit: 1 })
        .set('cookie', owner.cookie);
      const across = await http()
        .get('/api/audit-log')
        .query({ limit: 1, cursor: page.body.nextCursor })
        .set('cookie', other.cookie);
      expect(across.status).toBe(400);
    });
  });

  // Issue 34, item 8: include=history reads the interrupt's audit entries, so it obeys the audit
  // log's rules (SPEC §5 (D)): a key needs Pro, a member needs auditLog.read.
  describe("include=history obeys the audit log's plan and permission rules", () => {
    it("a Free organisation's key gets 402 PLAN_REQUIRED for history, and everything else as before", async () => {
      const free = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Free Org' });
      const freeKey = (await createApiKey(t.app.getHttpServer(), free.cookie)).key;
      const opened = await openInterrupt(t.app.getHttpServer(), freeKey);
      for (const include of ['history', 'history,session', 'session,history']) {
        const refused = await http()
          .get(`/api/interrupts/${opened.id}`)
          .query({ include })
          .set('x-api-key', freeKey);
        expect(refused.status).toBe(402);
        expect(refused.body).toMatchObject({
          statusCode: 402,
          code: 'PLAN_REQUIRED',
          message: 'The audit log API requires the Pro plan.',
        });
      }
      const withSession = await http()
        .get(`/api/interrupts/${opened.id}`)
        .query({ include: 'session' })
        .set('x-api-key', freeKey);
      expect(withSession.status).toBe(200);
      expect(withSession.body).not.toHaveProperty('history');
      expect(
        (await http().get(`/api/interrupts/${opened.id}`).set('x-api-key', freeKey)).status,
      ).toBe(200);
      // On Pro the same key reads it.
      await setPlan(t.app.getHttpServer(), free.cookie, 'pro');
      const allowed = await http()
        .get(`/api/interrupts/${opened.id}`)
        .query({ include: 'history' })
        .set('x-api-key', freeKey);
      expect(allowed.status).toBe(200);
      expect(allowed.body.history.map((h: { action: string }) => h.action)).toEqual([
        'interrupt.created',
      ]);
    });

    it('a member without auditLog.read gets 403 for history (on any plan), and the record and session without it', async () => {
      const opened = await openInterrupt(t.app.getHttpServer(), key);
      const reader = await memberWithPermissions(
        t.app.getHttpServer(),
        owner.cookie,
        ['interrupt.read', 'session.read'],
        'Rita Reader',
      );
      const refused = await http()
        .get(`/api/interrupts/${opened.id}`)
        .query({ include: 'history' })
        .set('cookie', reader.cookie);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        statusCode: 403,
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: auditLog.read.',
      });
      const withSession = await http()
        .get(`/api/interrupts/${opened.id}`)
        .query({ include: 'session' })
        .set('cookie', reader.cookie);
      expect(withSession.status).toBe(200);
      expect(withSession.body).not.toHaveProperty('history');

      // The dashboard's view of the audit log is on every plan: a member holding auditLog.read reads history on Free.
      const auditor = await memberWithPermissions(
        t.app.getHttpServer(),
        owner.cookie,
        ['interrupt.read', 'auditLog.read'],
        'Audrey Auditor',
      );
      const allowed = await http()
        .get(`/api/interrupts/${opened.id}`)
        .query({ include: 'history' })
        .set('cookie', auditor.cookie);
      expect(allowed.status).toBe(200);
      expect(allowed.body.history.map((h: { action: string }) => h.action)).toEqual([
        'interrupt.created',
      ]);
    });

    // SPEC §5 (D): include=session needs only interrupt.read — it adds the linked session's id
    // (already on the record), name and status, never its messages, metadata or externalId,
    // which stay behind session.read.
    it("include=session needs only interrupt.read and shows only the linked session's id, name and status", async () => {
      const { body: session } = await http()
        .post('/api/sessions')
        .set('x-api-key', key)
        .send({ name: 'nightly deploy', externalId: 'run-7', metadata: { secret: 'kept' } });
      await http()
        .post(`/api/sessions/${session.id}/messages`)
        .set('x-api-key', key)
        .send({ messages: [{ role: 'agent', content: 'private' }] });
      const opened = await openInterrupt(t.app.getHttpServer(), key, { sessionId: session.id });
      const reader = await memberWithPermissions(
        t.app.getHttpServer(),
        owner.cookie,
        ['interrupt.read'],
        'Ivy Interrupts',
      );
      const res = await http()
        .get(`/api/interrupts/${opened.id}`)
        .query({ include: 'session' })
        .set('cookie', reader.cookie);
      expect(res.status).toBe(200);
      expect(res.body.session).toEqual({
        id: session.id,
        name: 'nightly deploy',
        status: 'active',
      });
      expect(JSON.stringify(res.body)).not.toContain('private');
      expect(JSON.stringify(res.body)).not.toContain('run-7');
      const direct = await http().get(`/api/sessions/${session.id}`).set('cookie', reader.cookie);
      expect(direct.status).toBe(403);
      expect(direct.body.message).toBe('Missing permission: session.read.');
    });
  });
});
