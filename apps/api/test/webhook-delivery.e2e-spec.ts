import { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import {
  assignAndEscalate,
  createApiKey,
  openInterrupt,
  signUpOwner,
  startSession,
} from './support/factories';
import { waitFor } from './support/wait-for';
import { webhookSuite } from './support/webhook-suite';
import type { ReceivedRequest } from './support/webhook-receiver';

/** The service's deliveries, checked with the reference implementation of Standard Webhooks. */
function verifyWithReference(req: ReceivedRequest, secret: string): unknown {
  return new Webhook(secret).verify(req.body, req.headers);
}

describe('webhook delivery (SPEC §8a): outbox, signing, retries, order', () => {
  const suite = webhookSuite({
    WEBHOOK_RETRY_SCHEDULE: '400ms,1600ms',
    WEBHOOK_POLL_INTERVAL: '50ms',
    // No test here waits for an attempt to time out; at 3 s an answered attempt that a loaded
    // machine read late was timed out and sent again (a double delivery at load 30–35).
    WEBHOOK_TIMEOUT: '15s',
    LOG_LEVEL: 'trace',
  });
  const { http, db, receiver } = suite;
  const subscribe = async (url: string, eventTypes: string[] | null = null) => {
    const res = await http()
      .post('/api/webhooks')
      .set('cookie', suite.owner.cookie)
      .send({ url, eventTypes });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const decide = async (
    id: string,
    actionName: string,
    decision = 'approve',
    extra: Record<string, unknown> = {},
  ) => {
    const res = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', suite.owner.cookie)
      .send({ actionName, decision, ...extra });
    expect(res.status).toBe(201);
    return res.body;
  };
  const deliveries = async (webhookId: string) => {
    const res = await http()
      .get(`/api/webhooks/${webhookId}/deliveries`)
      .set('cookie', suite.owner.cookie);
    expect(res.status).toBe(200);
    return res.body.deliveries as Record<string, unknown>[];
  };

  it('deciding the last action delivers interrupt.decided then interrupt.answered, signed, with the API’s resource', async () => {
    const r = await receiver();
    const hook = await subscribe(r.url);
    const { id } = await openInterrupt(suite.t.app.getHttpServer(), suite.key, {
      title: 'Refund order 1138',
      actions: ['refund', 'notify'],
    });
    await decide(id, 'refund', 'approve');
    await decide(id, 'notify', 'respond', { message: 'Tell them it is done.' });
    await r.until(() => r.requests.length >= 4);

    const events = r.events();
    expect(events.map((e) => e.type)).toEqual([
      'interrupt.created',
      'interrupt.decided',
      'interrupt.decided',
      'interrupt.answered',
    ]);
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', suite.key);
    expect(events[3].data).toEqual(read.body);
    expect(events[2].data).toEqual(read.body);
    expect(events[3].data).toMatchObject({
      status: 'answered',
      decisions: [
        { actionName: 'refund' },
        { actionName: 'notify', message: 'Tell them it is done.' },
      ],
    });
    expect(events[1].data).toMatchObject({
      status: 'open',
      decisions: [{ actionName: 'refund', decision: 'approve' }],
    });
    expect(events[0].data).toMatchObject({ id, status: 'open', decisions: [] });

    for (const [i, req] of r.requests.entries()) {
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/hooks');
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['webhook-id']).toBe(events[i].id);
      expect(Object.keys(events[i]).sort()).toEqual([
        'createdAt',
        'data',
        'id',
        'organisationId',
        'type',
      ]);
      expect(events[i].organisationId).toBe(suite.owner.organisationId);
      expect(Math.abs(Number(req.headers['webhook-timestamp']) - req.at / 1000)).toBeLessThan(5);
      expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(verifyWithReference(req, hook.secret)).toEqual(events[i]);
    }
    // A wrong secret, or a body changed by one byte, does not verify.
    expect(() =>
      verifyWithReference(r.requests[0], `whsec_${Buffer.alloc(32, 7).toString('base64')}`),
    ).toThrow();
    expect(() =>
      verifyWithReference(
        { ...r.requests[0], body: r.requests[0].body.replace('Refund', 'Refunx') },
        hook.secret,
      ),
    ).toThrow();

    const listed = await deliveries(hook.id);
    expect(listed).toHaveLength(4);
    expect(
      listed.every(
        (d) =>
          d.status === 'succeeded' &&
          d.attemptCount === 1 &&
          d.responseStatus === 204 &&
          d.nextAttemptAt === null,
      ),
    ).toBe(true);
    // The secret never reaches the logs.
    expect(JSON.stringify(suite.t.logs)).not.toContain(hook.secret.slice(6, 30));
  });

  // Issue 29 §1.4: argus's decision is written as a member's is, so webhooks see it unchanged.
  it('an interrupt argus answers as it opens delivers interrupt.decided and interrupt.answered, signed, decided by argus', async () => {
    const r = await receiver();
    const hook = await subscribe(r.url);
    const rule = await http()
      .post('/api/classification/rules')
      .set('cookie', suite.owner.cookie)
      .send({
        name: 'Small refunds',
        mode: 'enforce',
        match: { actions: ['refund_small'] },
        outcome: { type: 'approve' },
      });
    expect(rule.status).toBe(201);
    const opened = await http()
      .post('/api/interrupts')
      .set('x-api-key', suite.key)
      .send({ title: 'Refund order 7', actionRequests: [{ name: 'refund_small' }] });
    expect(opened.status).toBe(201);
    expect(opened.body.status).toBe('answered');
    await r.until(() => r.requests.length >= 3);

    const events = r.events();
    expect(events.map((e) => e.type)).toEqual([
      'interrupt.created',
      'interrupt.decided',
      'interrupt.answered',
    ]);
    expect(events[0].data).toMatchObject({ id: opened.body.id, status: 'open', decisions: [] });
    expect(events[1].data).toEqual(opened.body);
    expect(events[2].data).toEqual(opened.body);
    expect(events[2].data).toMatchObject({
      status: 'answered',
      decisions: [
        {
          actionName: 'refund_small',
          decision: 'approve',
          decidedBy: { type: 'argus', ruleId: rule.body.id, name: 'argus' },
        },
      ],
    });
    for (const [i, req] of r.requests.entries())
      expect(verifyWithReference(req, hook.secret)).toEqual(events[i]);
    const gone = await http().delete(`/api/webhooks/${hook.id}`).set('cookie', suite.owner.cookie);
    expect(gone.status).toBe(204);
  });

  it('retries a receiver that answers 500 twice: three attempts, the same webhook-id, growing gaps', async () => {
    const r = await receiver((_req, index) => ({ status: index < 2 ? 500 : 200 }));
    const hook = await subscribe(r.url, ['interrupt.created']);
    await openInterrupt(suite.t.app.getHttpServer(), suite.key, { title: 'Flaky endpoint' });
    await r.until(() => r.requests.length >= 3);
    const ids = new Set(r.requests.map((q) => q.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const [a, b, c] = r.requests.map((q) => q.at);
    // The schedule is 400 ms then 1600 ms, each ±20 %; the worker polls every 50 ms.
    expect(b - a).toBeGreaterThanOrEqual(300);
    expect(c - b).toBeGreaterThanOrEqual(1200);
    expect(c - b).toBeGreaterThan(b - a);
    for (const req of r.requests)
      expect(verifyWithReference(req, hook.secret)).toMatchObject({ type: 'interrupt.created' });

    // The third attempt is recorded after its answer: awaited, not given a fixed 200 ms.
    let delivery: Record<string, unknown> = {};
    await waitFor(async () => {
      [delivery] = await deliveries(hook.id);
      return (delivery.attempts as unknown[]).length === 3;
    }, 'the third attempt to be recorded');
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attemptCount: 3,
      responseStatus: 200,
      nextAttemptAt: null,
      error: null,
    });
    expect(
      (delivery.attempts as { responseStatus: number; error: string | null }[]).map((x) => [
        x.responseStatus,
        x.error,
      ]),
    ).toEqual([
      [500, 'The endpoint answered 500.'],
      [500, 'The endpoint answered 500.'],
      [200, null],
    ]);
    expect(r.requests).toHaveLength(3);
  });

  it('marks a delivery failed after the schedule, and a member can send it again', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const hook = await subscribe(r.url, ['interrupt.created']);
    const test = await http()
      .post(`/api/webhooks/${hook.id}/test`)
      .set('cookie', suite.owner.cookie);
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({
      webhookId: hook.id,
      eventType: 'webhook.test',
      status: 'pending',
      attemptCount: 0,
    });
    await r.until(() => r.requests.length >= 3);
    expect(r.events()[0]).toMatchObject({
      type: 'webhook.test',
      organisationId: suite.owner.organisationId,
      data: { webhookId: hook.id },
    });
    // The third answer has arrived; the worker records it a moment later (on a loaded machine, a
    // long one): waited for, not counted out in 50 short sleeps.
    let failed: Record<string, unknown> | undefined;
    await waitFor(async () => {
      [failed] = await deliveries(hook.id);
      return failed?.status === 'failed';
    }, 'the delivery to be marked failed');
    expect(failed).toMatchObject({
      status: 'failed',
      attemptCount: 3,
      responseStatus: 503,
      nextAttemptAt: null,
      error: 'The endpoint answered 503.',
    });
    expect(failed?.finishedAt).not.toBeNull();

    r.answerWith(() => ({ status: 200 }));
    const retried = await http()
      .post(`/api/webhooks/${hook.id}/deliveries/${test.body.id}/retry`)
      .set('cookie', suite.owner.cookie);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: test.body.id, status: 'pending' });
    const again = await http()
      .post(`/api/webhooks/${hook.id}/deliveries/${test.body.id}/retry`)
      .set('cookie', suite.owner.cookie);
    expect([202, 409]).toContain(again.status);
    await r.until(() => r.requests.length >= 4);
    expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBe(1);
    let succeeded: Record<string, unknown> | undefined;
    await waitFor(async () => {
      [succeeded] = await deliveries(hook.id);
      return succeeded?.status === 'succeeded';
    }, 'the retried delivery to succeed');
    expect(succeeded?.attemptCount).toBeGreaterThanOrEqual(4);
    const [audit] = await db().query(
      `SELECT action, metadata FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2 AND action = 'webhook.delivery_retried' ORDER BY seq`,
      [suite.owner.organisationId, hook.id],
    );
    expect(audit.metadata).toMatchObject({ deliveryId: test.body.id, previousStatus: 'failed' });
    const unknown = await http()
      .post(`/api/webhooks/${hook.id}/deliveries/${hook.id}/retry`)
      .set('cookie', suite.owner.cookie);
    expect(unknown.status).toBe(404);
  });

  it('a change rolled back sends nothing: its event went with it', async () => {
    const r = await receiver();
    await subscribe(r.url, ['interrupt.created']);
    // Fails the transaction at COMMIT, after the interrupt, its audit entry and its outbox rows were written.
    await db().query(
      `CREATE FUNCTION fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'rolled back by the test'; END $$`,
    );
    await db().query(
      `CREATE CONSTRAINT TRIGGER roll_back_marked AFTER INSERT ON interrupts DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW WHEN (NEW.title = 'Roll me back') EXECUTE FUNCTION fail_at_commit()`,
    );
    try {
      const refused = await http()
        .post('/api/interrupts')
        .set('x-api-key', suite.key)
        .send({ title: 'Roll me back', actionRequests: [{ name: 'deploy' }] });
      expect(refused.status).toBe(500);
      const fence = await openInterrupt(suite.t.app.getHttpServer(), suite.key, {
        title: 'After the rollback',
      });
      await r.until(() => r.requests.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(r.events().map((e) => (e.data as { title: string }).title)).toEqual([
        'After the rollback',
      ]);
      expect(r.events()[0].data).toMatchObject({ id: fence.id });
      const [{ n }] = await db().query(
        `SELECT count(*)::int AS n FROM webhook_events WHERE body LIKE '%Roll me back%'`,
      );
      expect(n).toBe(0);
      const [{ m }] = await db().query(
        `SELECT count(*)::int AS m FROM interrupts WHERE title = 'Roll me back'`,
      );
      expect(m).toBe(0);
    } finally {
      await db().query(`DROP TRIGGER roll_back_marked ON interrupts`);
      await db().query(`DROP FUNCTION fail_at_commit()`);
    }
  });

  it('delivers one interrupt’s events to one endpoint in order, one at a time; other interrupts in parallel', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 80 }));
    await subscribe(r.url);
    const flows = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const { id } = await openInterrupt(suite.t.app.getHttpServer(), suite.key, {
          title: `Ordered ${n}`,
          actions: ['a', 'b'],
        });
        await assignAndEscalate(
          suite.t.app.getHttpServer(),
          suite.owner.cookie,
          id,
          suite.owner.memberId,
          'slow',
        );
        await decide(id, 'a');
        await decide(id, 'b', 'reject', { message: 'no' });
        return id;
      }),
    );
    await r.until(() => r.requests.length >= 18, 20_000);
    const expected = [
      'interrupt.created',
      'interrupt.assigned',
      'interrupt.escalated',
      'interrupt.decided',
      'interrupt.decided',
      'interrupt.answered',
    ];
    for (const id of flows) {
      const mine = r.requests.filter((q) => (JSON.parse(q.body).data as { id: string }).id === id);
      expect(mine.map((q) => JSON.parse(q.body).type)).toEqual(expected);
      // The next one left only after the previous one was answered (80 ms each).
      for (let i = 1; i < mine.length; i++)
        expect(mine[i].at - mine[i - 1].at).toBeGreaterThanOrEqual(75);
    }
    // Different interrupts did not wait for each other.
    const firsts = flows.map((id) =>
      r.requests.findIndex((q) => (JSON.parse(q.body).data as { id: string }).id === id),
    );
    expect(Math.max(...firsts)).toBeLessThan(12);
  });

  it('sends interrupt.assigned and interrupt.unassigned with the interrupt as it is after each', async () => {
    const r = await receiver();
    await subscribe(r.url, ['interrupt.assigned', 'interrupt.unassigned']);
    const { id } = await openInterrupt(suite.t.app.getHttpServer(), suite.key, {
      title: 'Who takes it?',
    });
    expect(
      (
        await http()
          .post(`/api/interrupts/${id}/assign`)
          .set('cookie', suite.owner.cookie)
          .send({ memberId: suite.owner.memberId })
      ).status,
    ).toBe(200);
    expect(
      (
        await http()
          .post(`/api/interrupts/${id}/assign`)
          .set('cookie', suite.owner.cookie)
          .send({ memberId: null })
      ).status,
    ).toBe(200);
    await r.until(() => r.requests.length >= 2);
    const events = r.events();
    expect(events.map((e) => [e.type, (e.data as { assignee: unknown }).assignee])).toEqual([
      ['interrupt.assigned', { type: 'member', id: suite.owner.memberId, name: 'Ada Lovelace' }],
      ['interrupt.unassigned', null],
    ]);
  });

  it('sends session.started and session.ended (ended or disconnected) with the session', async () => {
    const r = await receiver();
    await subscribe(r.url, ['session.started', 'session.ended']);
    const s1 = await startSession(suite.t.app.getHttpServer(), suite.key, { name: 'nightly' });
    expect(
      (await http().post(`/api/sessions/${s1.id}/end`).set('x-api-key', suite.key)).status,
    ).toBe(200);
    const s2 = await startSession(suite.t.app.getHttpServer(), suite.key, { name: 'runaway' });
    expect(
      (await http().post(`/api/sessions/${s2.id}/disconnect`).set('cookie', suite.owner.cookie))
        .status,
    ).toBe(200);
    await openInterrupt(suite.t.app.getHttpServer(), suite.key, { title: 'not subscribed' });
    await r.until(() => r.requests.length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = r.events();
    expect(events).toHaveLength(4);
    const of = (id: string) => events.filter((e) => (e.data as { id: string }).id === id);
    expect(of(s1.id).map((e) => [e.type, (e.data as { status: string }).status])).toEqual([
      ['session.started', 'active'],
      ['session.ended', 'ended'],
    ]);
    expect(of(s2.id).map((e) => [e.type, (e.data as { status: string }).status])).toEqual([
      ['session.started', 'active'],
      ['session.ended', 'disconnected'],
    ]);
    const read = await http().get(`/api/sessions/${s1.id}`).set('x-api-key', suite.key);
    expect(of(s1.id)[1].data).toEqual(read.body);
  });

  it('after a rotation signs with both secrets for 24 hours: either verifies', async () => {
    const r = await receiver();
    const hook = await subscribe(r.url, ['interrupt.created']);
    const rotated = await http()
      .post(`/api/webhooks/${hook.id}/rotate-secret`)
      .set('cookie', suite.owner.cookie);
    await openInterrupt(suite.t.app.getHttpServer(), suite.key, { title: 'Rotated' });
    await r.until(() => r.requests.length >= 1);
    const [req] = r.requests;
    expect(req.headers['webhook-signature']).toMatch(
      /^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/,
    );
    expect(verifyWithReference(req, rotated.body.secret)).toMatchObject({
      type: 'interrupt.created',
    });
    expect(verifyWithReference(req, hook.secret)).toMatchObject({ type: 'interrupt.created' });
    // Once the 24 hours are over, only the new secret signs.
    await db().query(
      `UPDATE webhooks SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
      [hook.id],
    );
    await openInterrupt(suite.t.app.getHttpServer(), suite.key, { title: 'Rotated later' });
    await r.until(() => r.requests.length >= 2);
    expect(r.requests[1].headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyWithReference(r.requests[1], rotated.body.secret)).toMatchObject({
      type: 'interrupt.created',
    });
    expect(() => verifyWithReference(r.requests[1], hook.secret)).toThrow();
  });

  it('writes no event when no webhook wants it, and none for a disabled webhook', async () => {
    const other = await signUpOwner(suite.t.app.getHttpServer(), { organisationName: 'Quiet' });
    const otherKey = (await createApiKey(suite.t.app.getHttpServer(), other.cookie)).key;
    const r = await receiver();
    const hook = await http()
      .post('/api/webhooks')
      .set('cookie', other.cookie)
      .send({ url: r.url, enabled: false });
    await openInterrupt(suite.t.app.getHttpServer(), otherKey, { title: 'Nobody listens' });
    const [{ n }] = await db().query(
      `SELECT count(*)::int AS n FROM webhook_events WHERE organisation_id = $1`,
      [other.organisationId],
    );
    expect(n).toBe(0);
    expect(
      (
        await http()
          .patch(`/api/webhooks/${hook.body.id}`)
          .set('cookie', other.cookie)
          .send({ enabled: true })
      ).status,
    ).toBe(200);
    await openInterrupt(suite.t.app.getHttpServer(), otherKey, { title: 'Someone listens' });
    await r.until(() => r.requests.length >= 1);
    expect(r.events().map((e) => (e.data as { title: string }).title)).toEqual(['Someone listens']);
  });

  it('recorded every attempt (no lock conflict between the worker and members’ changes)', () => {
    expect(
      suite.t.logs.filter((l) => l.msg === 'webhook delivery attempt could not be recorded'),
    ).toEqual([]);
  });
});

describe('webhook delivery: a slow or dead endpoint, and one that keeps failing', () => {
  const suite = webhookSuite({
    WEBHOOK_CONCURRENCY: '6',
    WEBHOOK_ENDPOINT_CONCURRENCY: '2',
    // The hanging endpoint's attempts hang this long: the live one's 20 deliveries must all have
    // gone before it (6 s left a loaded machine too little room to open 20 interrupts).
    WEBHOOK_TIMEOUT: '20s',
    WEBHOOK_RETRY_SCHEDULE:
      '150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms,150ms',
    WEBHOOK_DISABLE_AFTER: '1s',
    WEBHOOK_POLL_INTERVAL: '50ms',
  });
  const { http, receiver } = suite;

  it('a hanging endpoint holds at most its share of the slots; the others are delivered meanwhile', async () => {
    const dead = await receiver(() => 'hold');
    const alive = await receiver();
    const deadHook = await http()
      .post('/api/webhooks')
      .set('cookie', suite.owner.cookie)
      .send({ url: dead.url, eventTypes: ['interrupt.created'] });
    const aliveHook = await http()
      .post('/api/webhooks')
      .set('cookie', suite.owner.cookie)
      .send({ url: alive.url, eventTypes: ['interrupt.created'] });
    const started = Date.now();
    for (let i = 0; i < 20; i++)
      await openInterrupt(suite.t.app.getHttpServer(), suite.key, { title: `Busy ${i}` });
    await alive.until(() => alive.requests.length >= 20, 20_000);
    // Every delivery to the live endpoint left while the dead one's first attempts still hung (20 s timeout).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(dead.requests.length).toBe(2);
    dead.release(200);
    await http().delete(`/api/webhooks/${deadHook.body.id}`).set('cookie', suite.owner.cookie);
    await http().delete(`/api/webhooks/${aliveHook.body.id}`).set('cookie', suite.owner.cookie);
  });

  it('disables an endpoint that failed everything for the configured time, with an audit entry by the system', async () => {
    const down = await receiver(() => ({ status: 500 }));
    const hook = await http()
      .post('/api/webhooks')
      .set('cookie', suite.owner.cookie)
      .send({ url: down.url, eventTypes: ['interrupt.created'] });
    await openInterrupt(suite.t.app.getHttpServer(), suite.key, { title: 'Into the void' });
    let webhook: Record<string, unknown> = {};
    await waitFor(async () => {
      webhook = (
        await http().get(`/api/webhooks/${hook.body.id}`).set('cookie', suite.owner.cookie)
      ).body;
      return webhook.enabled === false;
    }, 'the failing webhook to be disabled');
    expect(webhook).toMatchObject({ enabled: false });
    expect(webhook.failingSince).not.toBeNull();
    const [audit] = await suite.t.app
      .get(DataSource)
      .query(
        `SELECT actor_type, actor_id, actor_name, summary, metadata FROM audit_log_entries WHERE organisation_id = $1 AND action = 'webhook.disabled'`,
        [suite.owner.organisationId],
      );
    expect(audit).toMatchObject({
      actor_type: 'system',
      actor_id: null,
      actor_name: 'Interlock',
      summary: `Webhook ${down.url} disabled: every delivery failed for 1 second`,
    });
    // An attempt under way as the webhook was disabled may still finish (and one retry it
    // scheduled meanwhile go); once the delivery rests — pending with no due time: nothing under
    // way, nothing due (awaited: a loaded machine can take more than a fixed 800 ms to get
    // there) — nothing more is sent.
    await waitFor(async () => {
      const [resting] = (
        await http()
          .get(`/api/webhooks/${hook.body.id}/deliveries`)
          .set('cookie', suite.owner.cookie)
      ).body.deliveries;
      return resting.status === 'pending' && resting.nextAttemptAt === null;
    }, 'the delivery to rest after the webhook was disabled');
    const seen = down.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(down.requests.length).toBe(seen);
    const [paused] = (
      await http().get(`/api/webhooks/${hook.body.id}/deliveries`).set('cookie', suite.owner.cookie)
    ).body.deliveries;
    expect(paused).toMatchObject({ status: 'pending', nextAttemptAt: null });

    // Enabled again (the endpoint is fixed): the waiting delivery goes, and the streak is cleared.
    down.answerWith(() => ({ status: 200 }));
    const enabled = await http()
      .patch(`/api/webhooks/${hook.body.id}`)
      .set('cookie', suite.owner.cookie)
      .send({ enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, failingSince: null });
    await down.until(() => down.requests.some((_q, i) => i >= seen), 5_000);
    await waitFor(async () => {
      const [d] = (
        await http()
          .get(`/api/webhooks/${hook.body.id}/deliveries`)
          .set('cookie', suite.owner.cookie)
      ).body.deliveries;
      return d.status === 'succeeded';
    }, 'the delivery to succeed after the webhook was enabled again');
  });
});
