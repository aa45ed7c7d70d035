import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  createApiKey,
  memberWithPermissions,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhook management (SPEC §6, §8a)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());
  const db = () => t.app.get(DataSource);

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'trace' } });
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  const create = async (body: Record<string, unknown> = {}) => {
    const res = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: 'https://hooks.example.com/interlock', ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string; url: string };
  };

  it('creates a webhook and shows its secret once: whsec_ and the base64 of 32 bytes', async () => {
    const res = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({
        url: 'https://hooks.example.com/a',
        description: 'CI',
        eventTypes: ['interrupt.answered', 'session.ended'],
      });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'createdAt',
        'description',
        'enabled',
        'eventTypes',
        'failingSince',
        'id',
        'previousSecretExpiresAt',
        'secret',
        'updatedAt',
        'url',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      url: 'https://hooks.example.com/a',
      description: 'CI',
      eventTypes: ['interrupt.answered', 'session.ended'],
      enabled: true,
      failingSince: null,
      previousSecretExpiresAt: null,
    });
    expect(res.body.secret).toMatch(SECRET);
    expect(Buffer.from(res.body.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const listed = await http().get('/api/webhooks').set('cookie', owner.cookie);
    expect(listed.status).toBe(200);
    const mine = listed.body.webhooks.find((w: { id: string }) => w.id === res.body.id);
    expect(mine).toMatchObject({
      url: 'https://hooks.example.com/a',
      eventTypes: ['interrupt.answered', 'session.ended'],
    });
    expect(mine.secret).toBeUndefined();
    const one = await http().get(`/api/webhooks/${res.body.id}`).set('cookie', owner.cookie);
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
    expect(JSON.stringify([listed.body, one.body])).not.toContain(res.body.secret.slice(6, 30));

    // Stored encrypted: neither the secret nor its bytes are in the row.
    const [row] = await db().query(`SELECT secret FROM webhooks WHERE id = $1`, [res.body.id]);
    const raw = Buffer.from(res.body.secret.slice(6), 'base64');
    expect((row.secret as Buffer).includes(raw)).toBe(false);
    expect((row.secret as Buffer).toString('latin1')).not.toContain(res.body.secret.slice(6, 20));
    // …and never logged, not even at trace level.
    expect(JSON.stringify(t.logs)).not.toContain(res.body.secret.slice(6, 30));

    const [audit] = await db().query(
      `SELECT action, actor_type, actor_id, target_type, target_id, target_name, summary, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND target_id = $2`,
      [owner.organisationId, res.body.id],
    );
    expect(audit).toMatchObject({
      action: 'webhook.created',
      actor_type: 'member',
      actor_id: owner.memberId,
      target_type: 'webhook',
      target_name: 'https://hooks.example.com/a',
      summary: 'Webhook https://hooks.example.com/a created by Ada Lovelace',
    });
    expect(JSON.stringify(audit)).not.toContain(res.body.secret.slice(6, 30));
  });

  it('every webhook route refuses a key with the exact 403, valid key or not', async () => {
    const { id } = await create();
    const routes: [string, string][] = [
      ['get', '/api/webhooks'],
      ['post', '/api/webhooks'],
      ['get', `/api/webhooks/${id}`],
      ['patch', `/api/webhooks/${id}`],
      ['delete', `/api/webhooks/${id}`],
      ['post', `/api/webhooks/${id}/rotate-secret`],
      ['post', `/api/webhooks/${id}/test`],
      ['get', `/api/webhooks/${id}/deliveries`],
      ['post', `/api/webhooks/${id}/deliveries/${id}/retry`],
    ];
    for (const [method, path] of routes) {
      for (const sent of [key, 'ilk_not-a-key']) {
        const res = await (http() as unknown as Record<string, (p: string) => request.Test>)
          [method](path)
          .set('x-api-key', sent)
          .set('cookie', owner.cookie);
        expect([method, path, res.status, res.body.code, res.body.message]).toEqual([
          method,
          path,
          403,
          'HUMANS_ONLY',
          'This endpoint is reserved for humans.',
        ]);
      }
    }
    const anonymous = await http().get('/api/webhooks');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Sign-in required.');
  });

  it('needs webhook.manage', async () => {
    const reader = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
      'interrupt.read',
    ]);
    const res = await http().get('/api/webhooks').set('cookie', reader.cookie);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'MISSING_PERMISSION',
      message: 'Missing permission: webhook.manage.',
    });
    const manager = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['webhook.manage'],
      'Hook Keeper',
    );
    expect((await http().get('/api/webhooks').set('cookie', manager.cookie)).status).toBe(200);
  });

  it.each([
    ['ftp://hooks.example.com/x', 'url must be an absolute http or https URL.'],
    ['not a url', 'url must be an absolute http or https URL.'],
    ['https://user:pass@hooks.example.com/x', 'url must not contain a username or password.'],
    [
      'http://hooks.example.com/x',
      'url must use https (http is allowed only for loopback addresses, outside production).',
    ],
    [
      'http://10.0.0.7/x',
      'url must use https (http is allowed only for loopback addresses, outside production).',
    ],
  ])('refuses the URL %s', async (url, message) => {
    const res = await http().post('/api/webhooks').set('cookie', owner.cookie).send({ url });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it.each([
    'http://localhost:8080/x',
    'http://127.0.0.1:8080/x',
    'http://[::1]:8080/x',
    'https://10.0.0.7/x',
  ])('accepts %s outside production (http for loopback)', async (url) => {
    const res = await http().post('/api/webhooks').set('cookie', owner.cookie).send({ url });
    expect(res.status).toBe(201);
  });

  it.each([
    [
      { eventTypes: [] },
      'eventTypes must list at least one event type (or be null for every type)',
    ],
    [
      { eventTypes: ['webhook.test'] },
      'eventTypes must list only interrupt.created, interrupt.decided, interrupt.answered, interrupt.assigned, interrupt.unassigned, interrupt.escalated, interrupt.expired, interrupt.withdrawn, interrupt.reminder, interrupt.approval_added, session.started, session.ended',
    ],
    [
      { eventTypes: ['interrupt.created', 'interrupt.created'] },
      'eventTypes must not repeat a type',
    ],
    [{ enabled: 'yes' }, 'enabled must be a boolean value'],
    [{ secret: 'whsec_mine' }, 'property secret should not exist'],
    [
      { description: 'x'.repeat(501) },
      'description must be shorter than or equal to 500 characters',
    ],
  ])('validates the body (%#)', async (body, message) => {
    const res = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: 'https://hooks.example.com/x', ...body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('updates: URL, description, event types (null: all), enable / disable — each audited', async () => {
    const { id } = await create({ eventTypes: ['interrupt.created'] });
    const res = await http()
      .patch(`/api/webhooks/${id}`)
      .set('cookie', owner.cookie)
      .send({ url: 'https://hooks.example.com/b', eventTypes: null, description: 'moved' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      url: 'https://hooks.example.com/b',
      eventTypes: null,
      description: 'moved',
      enabled: true,
    });
    expect(res.body.secret).toBeUndefined();
    const disabled = await http()
      .patch(`/api/webhooks/${id}`)
      .set('cookie', owner.cookie)
      .send({ enabled: false });
    expect(disabled.body.enabled).toBe(false);
    const same = await http()
      .patch(`/api/webhooks/${id}`)
      .set('cookie', owner.cookie)
      .send({ enabled: false });
    expect(same.status).toBe(200);
    const bad = await http()
      .patch(`/api/webhooks/${id}`)
      .set('cookie', owner.cookie)
      .send({ url: 'http://hooks.example.com/' });
    expect(bad.status).toBe(400);

    const audit = await db().query(
      `SELECT action, summary, metadata FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2 ORDER BY seq`,
      [owner.organisationId, id],
    );
    expect(audit.map((a: { action: string }) => a.action)).toEqual([
      'webhook.created',
      'webhook.updated',
      'webhook.updated',
    ]);
    expect(audit[1].summary).toBe(
      'Webhook https://hooks.example.com/b updated (url, description, eventTypes) by Ada Lovelace',
    );
    expect(audit[1].metadata.changes.eventTypes).toEqual({ from: ['interrupt.created'], to: null });
    expect(audit[2].summary).toBe('Webhook https://hooks.example.com/b disabled by Ada Lovelace');
  });

  it('refuses an update that changes nothing, and null for a field that is not nullable (400, never 500)', async () => {
    const { id } = await create();
    for (const [body, message] of [
      [{}, 'body: must hold at least one of url, description, eventTypes, enabled.'],
      [{ url: null }, 'url must be a string'],
      [{ enabled: null }, 'enabled must be a boolean value'],
      [{ description: null }, 'description must be a string'],
    ] as const) {
      const res = await http().patch(`/api/webhooks/${id}`).set('cookie', owner.cookie).send(body);
      expect({ body, status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(message),
      });
    }
    const created = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: 'https://hooks.example.com/x', enabled: null });
    expect(created.status).toBe(400);
    expect(created.body.message).toContain('enabled must be a boolean value');
  });

  it('rotates the secret: a new one, shown once; the previous one is kept 24 hours', async () => {
    const { id, secret } = await create();
    const before = Date.now();
    const res = await http().post(`/api/webhooks/${id}/rotate-secret`).set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(SECRET);
    expect(res.body.secret).not.toBe(secret);
    const expires = Date.parse(res.body.previousSecretExpiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 5_000);
    const one = await http().get(`/api/webhooks/${id}`).set('cookie', owner.cookie);
    expect(one.body.secret).toBeUndefined();
    expect(one.body.previousSecretExpiresAt).toBe(res.body.previousSecretExpiresAt);
    const [audit] = await db().query(
      `SELECT summary FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2 AND action = 'webhook.secret_rotated'`,
      [owner.organisationId, id],
    );
    expect(audit.summary).toBe(
      'Signing secret of webhook https://hooks.example.com/interlock rotated by Ada Lovelace',
    );
    expect(JSON.stringify(t.logs)).not.toContain(res.body.secret.slice(6, 30));
  });

  it('deletes: 204, audited, then 404; another organisation’s webhook is 404 everywhere', async () => {
    const { id } = await create();
    const other = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Rival' });
    for (const [method, path] of [
      ['get', `/api/webhooks/${id}`],
      ['patch', `/api/webhooks/${id}`],
      ['delete', `/api/webhooks/${id}`],
      ['post', `/api/webhooks/${id}/rotate-secret`],
      ['post', `/api/webhooks/${id}/test`],
      ['get', `/api/webhooks/${id}/deliveries`],
    ] as const) {
      // A valid body where one is needed: the refusal is about the webhook, not the input.
      const body = method === 'patch' ? { enabled: false } : {};
      const res = await (http() as unknown as Record<string, (p: string) => request.Test>)
        [method](path)
        .set('cookie', other.cookie)
        .send(body);
      expect([method, path, res.status, res.body.message]).toEqual([
        method,
        path,
        404,
        'Not found.',
      ]);
    }
    expect((await http().get('/api/webhooks').set('cookie', other.cookie)).body.webhooks).toEqual(
      [],
    );

    expect((await http().delete(`/api/webhooks/${id}`).set('cookie', owner.cookie)).status).toBe(
      204,
    );
    expect((await http().get(`/api/webhooks/${id}`).set('cookie', owner.cookie)).status).toBe(404);
    expect((await http().delete(`/api/webhooks/${id}`).set('cookie', owner.cookie)).status).toBe(
      404,
    );
    expect((await http().get('/api/webhooks/not-a-uuid').set('cookie', owner.cookie)).status).toBe(
      404,
    );
    const [audit] = await db().query(
      `SELECT summary FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2 AND action = 'webhook.deleted'`,
      [owner.organisationId, id],
    );
    expect(audit.summary).toBe(
      'Webhook https://hooks.example.com/interlock deleted by Ada Lovelace',
    );
  });

  it('lists deliveries with a cursor bound to the filters', async () => {
    const { id } = await create({ enabled: false });
    for (let i = 0; i < 3; i++)
      expect(
        (await http().post(`/api/webhooks/${id}/test`).set('cookie', owner.cookie)).status,
      ).toBe(202);
    const first = await http()
      .get(`/api/webhooks/${id}/deliveries?limit=2`)
      .set('cookie', owner.cookie);
    expect(first.status).toBe(200);
    expect(first.body.deliveries).toHaveLength(2);
    expect(first.body.deliveries[0]).toMatchObject({ webhookId: id, eventType: 'webhook.test' });
    const second = await http()
      .get(`/api/webhooks/${id}/deliveries?limit=2&cursor=${first.body.nextCursor}`)
      .set('cookie', owner.cookie);
    expect(second.body.deliveries).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.deliveries, ...second.body.deliveries].map(
      (d: { id: string }) => d.id,
    );
    expect(new Set(ids).size).toBe(3);
    const misuse = await http()
      .get(`/api/webhooks/${id}/deliveries?limit=2&status=failed&cursor=${first.body.nextCursor}`)
      .set('cookie', owner.cookie);
    expect(misuse.status).toBe(400);
    expect(misuse.body.message).toBe(
      'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
    );
    expect(
      (await http().get(`/api/webhooks/${id}/deliveries?limit=500`).set('cookie', owner.cookie))
        .status,
    ).toBe(400);
  });

  it('caps an organisation at 50 webhooks', async () => {
    const other = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Hooky' });
    const results = await Promise.all(
      Array.from({ length: 53 }, (_, i) =>
        http()
          .post('/api/webhooks')
          .set('cookie', other.cookie)
          .send({ url: `https://hooks.example.com/${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0].body.message).toBe(
      'This organisation already has 50 webhooks, the most it can have.',
    );
  });
});
