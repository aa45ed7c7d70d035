import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('sessions (SPEC §5, §6; issue 5)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let other: SignedUpOwner;
  let otherKey: string;

  const http = () => request(t.app.getHttpServer());
  const start = (body: Record<string, unknown> = { name: 'nightly-build' }, apiKey = key) =>
    http().post('/api/sessions').set('x-api-key', apiKey).send(body);
  const append = (id: string, messages: unknown, apiKey = key) =>
    http().post(`/api/sessions/${id}/messages`).set('x-api-key', apiKey).send({ messages });

  async function sessionAudit(id: string) {
    return t.app.get(DataSource).query(
      `SELECT action, actor_type, actor_name, target_type, target_name, summary, metadata
         FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2 ORDER BY seq`,
      [owner.organisationId, id],
    ) as Promise<
      { action: string; actor_type: string; summary: string; metadata: Record<string, unknown> }[]
    >;
  }

  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    owner = await signUpOwner(server, { name: 'Ada Lovelace' });
    key = (await createApiKey(server, owner.cookie, { name: 'ci-runner' })).key;
    other = await signUpOwner(server, {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    otherKey = (await createApiKey(server, other.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('start → append → end, with session.started and session.ended entries and none for appends', async () => {
    const started = await start({
      name: 'nightly-build',
      externalId: 'job-9',
      metadata: { branch: 'main' },
    });
    expect(started.status).toBe(201);
    expect(started.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'nightly-build',
      externalId: 'job-9',
      status: 'active',
      metadata: { branch: 'main' },
      messageCount: 0,
      startedAt: expect.stringMatching(/Z$/),
      endedAt: null,
    });
    const id = started.body.id as string;

    const appended = await append(id, [
      { role: 'agent', content: 'Building…' },
      { role: 'tool', content: 'npm ci\nadded 812 packages' },
      { role: 'user', content: '' },
    ]);
    expect(appended.status).toBe(201);
    expect(appended.body).toEqual({ appended: 3 });
    expect((await append(id, [{ role: 'system', content: 'done' }])).body).toEqual({ appended: 1 });
    const stored = await t.app
      .get(DataSource)
      .query(
        `SELECT seq, role, content FROM session_messages WHERE organisation_id = $1 AND session_id = $2 ORDER BY seq`,
        [owner.organisationId, id],
      );
    expect(stored).toEqual([
      { seq: 1, role: 'agent', content: 'Building…' },
      { seq: 2, role: 'tool', content: 'npm ci\nadded 812 packages' },
      { seq: 3, role: 'user', content: '' },
      { seq: 4, role: 'system', content: 'done' },
    ]);

    const ended = await http().post(`/api/sessions/${id}/end`).set('x-api-key', key);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({
      id,
      status: 'ended',
      messageCount: 4,
      endedAt: expect.stringMatching(/Z$/),
    });

    const again = await http().post(`/api/sessions/${id}/end`).set('x-api-key', key);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'CONFLICT',
      message: 'This session has already ended.',
    });
    const late = await append(id, [{ role: 'agent', content: 'one more' }]);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(
      'This session has already ended: messages can no longer be appended.',
    );
    const disconnect = await http()
      .post(`/api/sessions/${id}/disconnect`)
      .set('cookie', owner.cookie);
    expect(disconnect.status).toBe(409);

    expect(await sessionAudit(id)).toEqual([
      expect.objectContaining({
        action: 'session.started',
        actor_type: 'api_key',
        actor_name: 'ci-runner',
        target_type: 'session',
        target_name: 'nightly-build',
        summary: 'Session nightly-build started by key ci-runner',
        metadata: { externalId: 'job-9' },
      }),
      expect.objectContaining({
        action: 'session.ended',
        summary: 'Session nightly-build ended by key ci-runner',
        metadata: { messageCount: 4, durationSeconds: expect.any(Number) },
      }),
    ]);
  });

  it('a member disconnects a session: appends and end then answer 409', async () => {
    const { body: session } = await start({ name: 'support-bot' });
    await append(session.id, [{ role: 'agent', content: 'hi' }]);
    const res = await http()
      .post(`/api/sessions/${session.id}/disconnect`)
      .set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'disconnected', messageCount: 1 });
    expect(
      (await append(session.id, [{ role: 'agent', content: 'still here?' }])).body,
    ).toMatchObject({
      code: 'CONFLICT',
      message: 'This session was disconnected: messages can no longer be appended.',
    });
    const end = await http().post(`/api/sessions/${session.id}/end`).set('x-api-key', key);
    expect(end.status).toBe(409);
    expect(end.body.message).toBe('This session was disconnected.');
    expect(
      (await http().post(`/api/sessions/${session.id}/disconnect`).set('cookie', owner.cookie))
        .status,
    ).toBe(409);
    const entries = await sessionAudit(session.id);
    expect(entries.map((e) => e.action)).toEqual(['session.started', 'session.disconnected']);
    expect(entries[1]).toMatchObject({
      actor_type: 'member',
      summary: 'Session support-bot disconnected by Ada Lovelace',
    });
  });

  it.each([
    ['no messages', [], 'messages must contain at least 1 elements'],
    [
      '101 messages',
      Array.from({ length: 101 }, () => ({ role: 'agent', content: 'x' })),
      'messages must contain no more than 100 elements',
    ],
    [
      'an unknown role',
      [{ role: 'robot', content: 'x' }],
      'messages.0.role must be one of the following values: agent, user, tool, system',
    ],
    ['non-string content', [{ role: 'agent', content: 42 }], 'messages.0.content must be a string'],
    [
      'content over 32 kB',
      [{ role: 'agent', content: 'x'.repeat(32 * 1024 + 1) }],
      'messages.0.content must be at most 32 kB',
    ],
    [
      'multi-byte content over 32 kB',
      [{ role: 'agent', content: 'é'.repeat(16 * 1024 + 1) }],
      'messages.0.content must be at most 32 kB',
    ],
    [
      'an unknown field',
      [{ role: 'agent', content: 'x', at: 1 }],
      'property messages.0.at should not exist',
    ],
    [
      'a NUL character',
      [{ role: 'tool', content: 'a\u0000b' }],
      'body.messages.0.content: contains the NUL character',
    ],
    ['not an array', 'hello', 'messages must be an array'],
  ])('refuses an append with %s: 400 naming the field', async (_label, messages, expected) => {
    const { body: session } = await start();
    const res = await append(session.id, messages);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(expected);
  });

  it('accepts content of exactly 32 kB (30 such messages fit the 1 MiB body), and 100 messages in one call', async () => {
    const { body: session } = await start();
    const full = 'x'.repeat(32 * 1024);
    expect(
      (
        await append(
          session.id,
          Array.from({ length: 30 }, () => ({ role: 'tool', content: full })),
        )
      ).body,
    ).toEqual({ appended: 30 });
    expect(
      (
        await append(
          session.id,
          Array.from({ length: 100 }, (_, i) => ({ role: 'agent', content: `m${i}` })),
        )
      ).body,
    ).toEqual({ appended: 100 });
    const { count } = (
      await t.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS count FROM session_messages WHERE session_id = $1`, [
          session.id,
        ])
    )[0];
    expect(count).toBe(130);
  });

  it('concurrent appends number messages without gaps or duplicates', async () => {
    const { body: session } = await start();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        append(session.id, [
          { role: 'agent', content: `${i}-a` },
          { role: 'agent', content: `${i}-b` },
        ]),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const rows: { seq: number; content: string }[] = await t.app
      .get(DataSource)
      .query(`SELECT seq, content FROM session_messages WHERE session_id = $1 ORDER BY seq`, [
        session.id,
      ]);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Each call's two messages are consecutive.
    for (let i = 0; i < 40; i += 2)
      expect(rows[i].content.replace('-a', '')).toBe(rows[i + 1].content.replace('-b', ''));
  });

  it.each([
    ['missing name', {}, 'name'],
    [
      '201-character name',
      { name: 'x'.repeat(201) },
      'name must be shorter than or equal to 200 characters',
    ],
    ['non-object metadata', { name: 'n', metadata: [1] }, 'metadata must be an object'],
    ['unknown field', { name: 'n', colour: 'red' }, 'property colour should not exist'],
  ])('refuses a start with %s: 400', async (_label, body, expected) => {
    const res = await start(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(expected);
  });

  it('another organisation’s session answers 404; a key on disconnect or stream gets 403', async () => {
    const { body: session } = await start();
    expect((await append(session.id, [{ role: 'agent', content: 'x' }], otherKey)).status).toBe(
      404,
    );
    expect(
      (await http().post(`/api/sessions/${session.id}/end`).set('x-api-key', otherKey)).status,
    ).toBe(404);
    expect(
      (await http().post(`/api/sessions/${session.id}/disconnect`).set('cookie', other.cookie))
        .status,
    ).toBe(404);
    expect(
      (await http().get(`/api/sessions/${session.id}/stream`).set('cookie', other.cookie)).status,
    ).toBe(404);
    expect((await http().post('/api/sessions/not-a-uuid/end').set('x-api-key', key)).status).toBe(
      404,
    );
    for (const res of [
      await http().post(`/api/sessions/${session.id}/disconnect`).set('x-api-key', key),
      await http().get(`/api/sessions/${session.id}/stream`).set('x-api-key', key),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'HUMANS_ONLY',
        message: 'This endpoint is reserved for humans.',
      });
    }
    // Nothing happened to it.
    expect((await append(session.id, [{ role: 'agent', content: 'still open' }])).status).toBe(201);
  });

  it('/end and /disconnect take an empty body without a Content-Type', async () => {
    const { body: a } = await start();
    const ended = await http()
      .post(`/api/sessions/${a.id}/end`)
      .set('x-api-key', key)
      .set('content-length', '0');
    expect(ended.status).toBe(200);
    const { body: b } = await start();
    const res = await http().post(`/api/sessions/${b.id}/disconnect`).set('cookie', owner.cookie);
    expect(res.status).toBe(200);
  });
});
