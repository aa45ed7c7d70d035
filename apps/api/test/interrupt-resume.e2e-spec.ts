import { createHmac } from 'node:crypto';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { InterruptLifecycleService } from '../src/interrupts/interrupt-lifecycle.service';
import { createApiKey, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { webhookSuite } from './support/webhook-suite';
import { waitFor } from './support/wait-for';
import type { ReceivedRequest } from './support/webhook-receiver';

/**
 * The signing secret as an agent computes it from its key (SPEC §8e), written out here rather
 * than imported, so the test holds the service to the documented derivation.
 */
function secretOf(apiKey: string): string {
  const mac = createHmac('sha256', apiKey).update('interlock resumeUrl signing secret v1');
  return `whsec_${mac.digest('base64')}`;
}

describe('resumeUrl (SPEC §8e): the result POSTed once, signed, retried', () => {
  const suite = webhookSuite({
    // Three attempts: the first, then after ~300 ms and ~600 ms.
    WEBHOOK_RETRY_SCHEDULE: '300ms,600ms',
    WEBHOOK_POLL_INTERVAL: '50ms',
    WEBHOOK_TIMEOUT: '5s',
  });
  const { http, db, receiver } = suite;
  const open = (extra: Record<string, unknown>, apiKey = suite.key) =>
    http()
      .post('/api/interrupts')
      .set('x-api-key', apiKey)
      .send({ title: 'Refund order 1138', actionRequests: [{ name: 'refund' }], ...extra });
  const opened = async (resumeUrl: string, extra: Record<string, unknown> = {}) => {
    const res = await open({ resumeUrl, ...extra });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const resumeRow = async (id: string) => {
    const [row] = await db().query(
      `SELECT status, attempt_count, last_response_status, last_error FROM interrupt_resumes WHERE organisation_id = $1 AND interrupt_id = $2`,
      [suite.owner.organisationId, id],
    );
    return row as {
      status: string;
      attempt_count: number;
      last_response_status: number | null;
      last_error: string | null;
    };
  };
  const settled = (id: string, status: string) =>
    waitFor(async () => (await resumeRow(id))?.status === status, `the resume to be ${status}`);
  /** Where the POST stands, as an agent reads it (include=resume). */
  const delivery = async (id: string) => {
    const res = await http()
      .get(`/api/interrupts/${id}?include=resume`)
      .set('x-api-key', suite.key);
    expect(res.status).toBe(200);
    return res.body.resume as Record<string, unknown> | null;
  };
  const verify = (req: ReceivedRequest, apiKey = suite.key) =>
    new Webhook(secretOf(apiKey)).verify(req.body, req.headers) as {
      id: string;
      type: string;
      createdAt: string;
      organisationId: string;
      data: Record<string, unknown>;
    };

  it('answered: POSTs the interrupt once, signed under the key’s derived secret, with the API’s record', async () => {
    const r = await receiver();
    const id = await opened(`${r.url}/run-42?token=pre-signed-secret`);
    expect(await resumeRow(id)).toMatchObject({ status: 'waiting', attempt_count: 0 });
    expect(await delivery(id)).toEqual({
      status: 'waiting',
      attempts: 0,
      maxAttempts: 3,
      lastAttemptAt: null,
      lastResponseStatus: null,
      lastError: null,
      nextAttemptAt: null,
      finishedAt: null,
    });

    const decided = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', suite.owner.cookie)
      .send({ actionName: 'refund', decision: 'approve' });
    expect(decided.status).toBe(201);
    await r.until(() => r.requests.length >= 1, 30_000, 'the resume POST');
    await settled(id, 'succeeded');
    // Readers see that it was delivered, never where to (the URL is a credential).
    const state = await http()
      .get(`/api/interrupts/${id}?include=resume`)
      .set('cookie', suite.owner.cookie);
    expect(state.body.resume).toEqual({
      status: 'delivered',
      attempts: 1,
      maxAttempts: 3,
      lastAttemptAt: expect.any(String),
      lastResponseStatus: 204,
      lastError: null,
      nextAttemptAt: null,
      finishedAt: expect.any(String),
    });
    expect(JSON.stringify(state.body)).not.toContain('pre-signed-secret');
    expect(JSON.stringify(state.body)).not.toContain(String(r.port));

    const [req] = r.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hooks/run-42?token=pre-signed-secret');
    expect(req.headers['content-type']).toBe('application/json');
    const payload = verify(req);
    expect(Object.keys(payload).sort()).toEqual([
      'createdAt',
      'data',
      'id',
      'organisationId',
      'type',
    ]);
    expect(payload).toMatchObject({
      type: 'interrupt.answered',
      organisationId: suite.owner.organisationId,
    });
    expect(req.headers['webhook-id']).toBe(payload.id);
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', suite.key);
    expect(payload.data).toEqual(read.body);
    expect(payload.data).toMatchObject({
      status: 'answered',
      decisions: [{ decision: 'approve' }],
    });
    // Another key's secret does not verify it.
    const other = (await createApiKey(suite.t.app.getHttpServer(), suite.owner.cookie)).key;
    expect(() => verify(req, other)).toThrow();
    // Once: succeeded rows are never claimed again.
    expect(r.requests).toHaveLength(1);
    expect(await resumeRow(id)).toMatchObject({ attempt_count: 1, last_response_status: 204 });
    // The URL (a pre-signed one is a credential) is in no log line and no response.
    expect(JSON.stringify(suite.t.logs)).not.toContain('pre-signed-secret');
    expect(JSON.stringify(read.body)).not.toContain('pre-signed-secret');
  });

  it('withdrawn: a failed attempt is retried with the same webhook-id until the receiver takes it', async () => {
    const r = await receiver((_req, index) => ({ status: index === 0 ? 503 : 204 }));
    const id = await opened(r.url);
    const cancelled = await http()
      .post(`/api/interrupts/${id}/cancel`)
      .set('x-api-key', suite.key)
      .send({ reason: 'The customer paid after all.' });
    expect(cancelled.status).toBe(200);
    await settled(id, 'succeeded');

    expect(r.requests).toHaveLength(2);
    const [first, second] = r.requests.map((req) => verify(req));
    expect(first).toEqual(second);
    expect(r.requests[0].headers['webhook-id']).toBe(r.requests[1].headers['webhook-id']);
    expect(first).toMatchObject({
      type: 'interrupt.withdrawn',
      data: { id, status: 'withdrawn', withdrawnReason: 'The customer paid after all.' },
    });
    expect(await resumeRow(id)).toMatchObject({ attempt_count: 2, last_response_status: 204 });
  });

  it('expired: the deadline’s result is POSTed; a receiver that never takes it is given up after the schedule', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const id = await opened(r.url, { timeoutSeconds: 60 });
    const lifecycle = suite.t.app.get(InterruptLifecycleService);
    expect(
      await lifecycle.expire(suite.owner.organisationId, id, new Date(Date.now() + 61_000)),
    ).toBe(true);
    await settled(id, 'failed');

    // 1 + the two retries of the schedule, then no more.
    expect(r.requests).toHaveLength(3);
    const bodies = r.requests.map((req) => verify(req));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(bodies[0]).toMatchObject({
      type: 'interrupt.expired',
      data: { id, status: 'expired', decisions: [{ decidedBy: { type: 'system' } }] },
    });
    expect(await resumeRow(id)).toMatchObject({
      attempt_count: 3,
      last_response_status: 500,
      last_error: expect.stringContaining('500'),
    });
    expect(await delivery(id)).toEqual({
      status: 'failed',
      attempts: 3,
      maxAttempts: 3,
      lastAttemptAt: expect.any(String),
      lastResponseStatus: 500,
      lastError: 'The endpoint answered 500.',
      nextAttemptAt: null,
      finishedAt: expect.any(String),
    });
  });

  it('an open interrupt posts nothing; one without resumeUrl has no resume at all', async () => {
    const r = await receiver();
    const waiting = await opened(r.url);
    const plain = await open({});
    expect(plain.status).toBe(201);
    expect(await resumeRow(plain.body.id)).toBeUndefined();
    expect(await delivery(plain.body.id)).toBeNull();
    // Withdrawing the plain one writes events through the same outbox: the waiting one stays put.
    await http()
      .post(`/api/interrupts/${plain.body.id}/cancel`)
      .set('x-api-key', suite.key)
      .send({});
    await settled(waiting, 'waiting');
    expect(r.requests).toHaveLength(0);
  });

  it.each([
    ['ftp://agents.example.com/x', 'resumeUrl must be an absolute http or https URL.'],
    ['not a url', 'resumeUrl must be an absolute http or https URL.'],
    [
      'http://agents.example.com/resume',
      'resumeUrl must use https (http is allowed only for loopback addresses, outside production).',
    ],
    [
      'https://user:pw@agents.example.com/resume',
      'resumeUrl must not contain a username or password.',
    ],
  ])('refuses resumeUrl %s with 400 and opens nothing', async (resumeUrl, message) => {
    const count = async () =>
      Number(
        (
          await db().query(`SELECT count(*) AS n FROM interrupts WHERE organisation_id = $1`, [
            suite.owner.organisationId,
          ])
        )[0].n,
      );
    const before = await count();
    const res = await open({ resumeUrl });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
    expect(await count()).toBe(before);
  });

  it('refuses a resumeUrl that is not a string, or too long, by the contract’s rules', async () => {
    expect((await open({ resumeUrl: 42 })).status).toBe(400);
    const long = await open({ resumeUrl: `https://agents.example.com/${'a'.repeat(2048)}` });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('resumeUrl in production: the webhook SSRF guard', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        NODE_ENV: 'production',
        API_KEY_PEPPER: 'production-pepper-0123456789-0123456789-0123456789',
      },
    });
    const owner = await signUpOwner(t.app.getHttpServer(), { name: 'Grace Hopper' });
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['http://127.0.0.1:9/resume', 'resumeUrl must use https.'],
    [
      'https://[::ffff:169.254.169.254]/latest/meta-data',
      'resumeUrl must not reach a private, loopback, link-local or metadata address.',
    ],
    [
      'https://10.0.0.7/resume',
      'resumeUrl must not reach a private, loopback, link-local or metadata address.',
    ],
  ])('refuses %s', async (resumeUrl, message) => {
    const res = await request(t.app.getHttpServer())
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Deploy', actionRequests: [{ name: 'deploy' }], resumeUrl });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });
});

describe('resumeUrl delivery state (SPEC §8e): a failed attempt waiting for its retry', () => {
  // One retry, an hour later: the state between the two attempts holds still for the test.
  const suite = webhookSuite({
    WEBHOOK_RETRY_SCHEDULE: '1h',
    WEBHOOK_POLL_INTERVAL: '50ms',
    WEBHOOK_TIMEOUT: '5s',
  });
  const { http, receiver } = suite;

  it('include=resume says retrying, why, and when the next attempt is due', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const created = await http()
      .post('/api/interrupts')
      .set('x-api-key', suite.key)
      .send({ title: 'Refund order 1139', actionRequests: [{ name: 'refund' }], resumeUrl: r.url });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const before = Date.now();
    expect(
      (await http().post(`/api/interrupts/${id}/cancel`).set('x-api-key', suite.key).send({}))
        .status,
    ).toBe(200);
    await r.until(() => r.requests.length >= 1, 30_000, 'the first attempt');
    let resume: Record<string, unknown> = {};
    await waitFor(async () => {
      const res = await http()
        .get(`/api/interrupts/${id}?include=resume`)
        .set('x-api-key', suite.key);
      resume = res.body.resume;
      return resume.status === 'retrying';
    }, 'the attempt to be recorded');
    expect(resume).toEqual({
      status: 'retrying',
      attempts: 1,
      maxAttempts: 2,
      lastAttemptAt: expect.any(String),
      lastResponseStatus: 503,
      lastError: 'The endpoint answered 503.',
      nextAttemptAt: expect.any(String),
      finishedAt: null,
    });
    const next = Date.parse(resume.nextAttemptAt as string);
    // An hour from the attempt, give or take the schedule's jitter.
    expect(next).toBeGreaterThanOrEqual(before + 45 * 60_000);
    expect(next).toBeLessThanOrEqual(Date.now() + 75 * 60_000);
    expect(r.requests).toHaveLength(1);
  });
});
