import request from 'supertest';
import { DataSource } from 'typeorm';
import { verifyAuditChain } from '@interlock/audit';
import { InterruptExpiry } from '../src/interrupts/interrupt-expiry';
import { InterruptWaits } from '../src/interrupts/interrupt-waits';
import { InterruptsRepository } from '../src/interrupts/interrupts.repository';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

interface Organisation {
  owner: SignedUpOwner;
  key: string;
}

// Issue 37 §6: deadlines applied in batches per organisation (one transaction claims up to a
// batch with SKIP LOCKED), several batches racing, on real Postgres. What each expiry leaves —
// decisions, audit entry, events — is what interrupt-deadlines.e2e-spec checks one at a time.
describe('interrupt expiry in batches (issue 37 §6)', () => {
  let t: TestApp;
  let db: DataSource;
  let expiry: InterruptExpiry;
  let a: Organisation;
  let b: Organisation;

  const http = () => request(t.app.getHttpServer());
  const organisation = async (): Promise<Organisation> => {
    const owner = await signUpOwner(t.app.getHttpServer());
    const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'ci-runner' });
    // Every event type is written to the outbox only for a subscribed webhook.
    const hook = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: 'https://example.test/hook', description: 'all' });
    expect(hook.status).toBe(201);
    return { owner, key };
  };
  const open = async (org: Organisation, n: number, extra: Record<string, unknown> = {}) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await http()
        .post('/api/interrupts')
        .set('x-api-key', org.key)
        .send({
          title: `Refund order ${i}`,
          actionRequests: (i % 2 === 0 ? ['refund'] : ['refund', 'notify']).map((name) => ({
            name,
          })),
          timeoutSeconds: 60,
          ...extra,
        });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    return ids;
  };
  const count = async (sql: string, params: unknown[]): Promise<number> =>
    Number((await db.query(sql, params))[0].n);
  const events = async (org: Organisation, id: string): Promise<{ type: string; body: string }[]> =>
    db.query(
      `SELECT type, body FROM webhook_events WHERE organisation_id = $1 AND subject_id = $2 ORDER BY created_at, id`,
      [org.owner.organisationId, id],
    );
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
    expiry = t.app.get(InterruptExpiry);
    a = await organisation();
    b = await organisation();
  });
  afterAll(async () => {
    await t.close();
  });

  it('four workers racing batches of 5 across two organisations apply each deadline once, the audit chains intact', async () => {
    const idsA = await open(a, 17);
    const idsB = await open(b, 8);
    const [escalating] = await open(a, 1, { onTimeout: 'escalate' });
    // A member already decided one action: the deadline decides only the other.
    const decided = await http()
      .post(`/api/interrupts/${idsA[1]}/decisions`)
      .set('cookie', a.owner.cookie)
      .send({ actionName: 'refund', decision: 'approve' });
    expect(decided.status).toBe(201);

    // Only this test's interrupts are checked below (the file's database may hold others).
    const now = later(61);
    await Promise.all([1, 2, 3, 4].map(() => expiry.expireDue(now, 5)));
    expect(await expiry.expireDue(now, 5)).toBe(0);

    const repository = t.app.get(InterruptsRepository);
    for (const [org, ids] of [
      [a, idsA],
      [b, idsB],
    ] as const) {
      const organisationId = org.owner.organisationId;
      for (const id of ids) {
        const audited = await db.query(
          `SELECT action, actor_type, metadata, summary FROM audit_log_entries
            WHERE organisation_id = $1 AND target_id = $2 AND action = 'interrupt.expired'`,
          [organisationId, id],
        );
        expect(audited).toHaveLength(1);
        const record = await repository.render(db, organisationId, id);
        const decidedByMember = id === idsA[1];
        const actionNames = record.actionRequests
          .map((x) => x.name)
          .filter((name) => !(decidedByMember && name === 'refund'));
        expect(audited[0]).toEqual({
          action: 'interrupt.expired',
          actor_type: 'system',
          metadata: { outcome: 'reject', actionNames },
          summary:
            actionNames.length === 1
              ? `Interrupt ${record.title} expired: its undecided action rejected by system`
              : `Interrupt ${record.title} expired: its ${actionNames.length} undecided actions rejected by system`,
        });
        expect(record.status).toBe('expired');
        expect(record.decisions).toHaveLength(record.actionRequests.length);
        // One transaction's decisions share their time, and then list by id, as before batches.
        expect(
          record.decisions
            .filter((d) => d.decidedBy.type === 'system')
            .map((d) => d.actionName)
            .sort(),
        ).toEqual([...actionNames].sort());
        // The event carries the interrupt as the API renders it now, and the kept record is that.
        const written = await events(org, id);
        expect(written.map((e) => e.type)).toEqual(
          decidedByMember
            ? ['interrupt.created', 'interrupt.decided', 'interrupt.expired']
            : ['interrupt.created', 'interrupt.expired'],
        );
        expect(JSON.parse(written.at(-1)?.body ?? '{}').data).toEqual(
          JSON.parse(JSON.stringify(record)),
        );
        const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', org.key);
        expect(read.body).toEqual(JSON.parse(JSON.stringify(record)));
      }
      expect(await verifyAuditChain(db, organisationId)).toMatchObject({ ok: true });
    }
    // The `escalate` deadline escalated and extended itself once in its batch.
    const escalated = await http().get(`/api/interrupts/${escalating}`).set('x-api-key', a.key);
    expect(escalated.body).toMatchObject({ status: 'open', escalationLevel: 1 });
    expect((await events(a, escalating)).map((e) => e.type)).toEqual([
      'interrupt.created',
      'interrupt.escalated',
    ]);
    expect(
      await count(
        `SELECT count(*) AS n FROM interrupt_decisions WHERE organisation_id = $1 AND decided_by_type = 'system'
            AND interrupt_id = ANY($2::uuid[])`,
        [a.owner.organisationId, [...idsA, escalating]],
      ),
    ).toBe(idsA.reduce((n, _, i) => n + (i % 2 === 0 ? 1 : 2), 0) - 1);
  });

  it('skips an interrupt a change holds, without waiting for it, and expires it on a later run', async () => {
    const [held, free] = await open(a, 2);
    const runner = db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(
        `SELECT 1 FROM interrupts WHERE organisation_id = $1 AND id = $2 FOR NO KEY UPDATE`,
        [a.owner.organisationId, held],
      );
      const now = later(61);
      await expiry.expireDue(now);
      const status = async (id: string) =>
        (await http().get(`/api/interrupts/${id}`).set('x-api-key', a.key)).body.status;
      expect(await status(free)).toBe('expired');
      expect(await status(held)).toBe('open');
      await runner.commitTransaction();
      expect(await expiry.expire(a.owner.organisationId, held, now)).toBe(true);
      expect(await status(held)).toBe('expired');
      expect(await expiry.expire(a.owner.organisationId, held, now)).toBe(false);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('a herd of held waits woken by one batch is answered, each once, with its interrupt expired', async () => {
    const ids = await open(b, 40);
    const waits = t.app.get(InterruptWaits);
    const before = waits.waiting;
    const held = ids.map((id) =>
      http().get(`/api/interrupts/${id}?waitSeconds=60`).set('x-api-key', b.key),
    );
    const answers = Promise.all(held.map((r) => r.then((res) => res)));
    const end = Date.now() + 30_000;
    while (waits.waiting < before + ids.length) {
      if (Date.now() > end) throw new Error('timed out waiting for the 40 waits to be held');
      await new Promise((r) => setTimeout(r, 10));
    }
    await expiry.expireDue(later(61));
    const answered = await answers;
    expect(answered.map((res) => res.status)).toEqual(ids.map(() => 200));
    expect(answered.map((res) => [res.body.id, res.body.status])).toEqual(
      ids.map((id) => [id, 'expired']),
    );
  }, 60_000);
});
