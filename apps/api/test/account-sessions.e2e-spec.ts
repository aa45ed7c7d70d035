import request from 'supertest';
import { DataSource } from 'typeorm';
import { sessionCookieOf, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const DAY = 86_400_000;

describe('sign-in sessions: the list in Settings → Security, ending them, the idle timeout (SPEC §8f, issue 33)', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());
  const db = () => t.app.get(DataSource);

  async function signInAs(owner: SignedUpOwner, userAgent: string): Promise<string> {
    const res = await http()
      .post('/api/auth/sign-in')
      .set('user-agent', userAgent)
      .send({ email: owner.email, password: owner.password });
    expect(res.status).toBe(200);
    return sessionCookieOf(res);
  }

  /** A new owner signed in a second time (the phone): its cookie and its session's id. */
  async function signedInOnPhone() {
    const ada = await signUpOwner(t.app.getHttpServer());
    const phone = await signInAs(ada, 'Safari on the phone');
    // A new session records no browser before its first recorded use.
    const [{ id: phoneId }] = await db().query(
      `SELECT id FROM sign_in_sessions WHERE user_id = $1 AND user_agent IS NULL ORDER BY created_at DESC LIMIT 1`,
      [ada.memberId],
    );
    return { ada, phone, phoneId: phoneId as string };
  }

  const list = (cookie: string, userAgent = 'Firefox on the laptop') =>
    http().get('/api/me/sessions').set('cookie', cookie).set('user-agent', userAgent);

  async function endedEntries(organisationId: string, userId: string) {
    return db().query(
      `SELECT actor_id, target_id, summary, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND target_id = $2 AND action = 'member.sessions_ended' ORDER BY seq`,
      [organisationId, userId],
    ) as Promise<Record<string, unknown>[]>;
  }

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists where I am signed in: created, last used, address, browser, when it ends, which is this one', async () => {
    const ada = await signUpOwner(t.app.getHttpServer());
    const laptop = await signInAs(ada, 'Firefox on the laptop');
    const phone = await signInAs(ada, 'Safari on the phone');
    // Each is used once from its browser.
    expect((await list(phone, 'Safari on the phone')).status).toBe(200);
    const res = await list(laptop);
    expect(res.status).toBe(200);
    const sessions = res.body.sessions as Record<string, unknown>[];
    // The sign-up's session (used by no request since) and the two sign-ins.
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.stringMatching(/Z$/),
      lastUsedAt: expect.stringMatching(/Z$/),
      endsAt: expect.stringMatching(/Z$/),
      ipAddress: expect.stringMatching(/127\.0\.0\.1/),
      userAgent: 'Firefox on the laptop',
      current: true,
    });
    expect(sessions[1]).toMatchObject({ userAgent: 'Safari on the phone', current: false });
    expect(sessions[2]).toMatchObject({ userAgent: null, ipAddress: null, current: false });
    // Idle for 7 days (the default) ends it before its absolute 30.
    expect(
      Date.parse(sessions[0].endsAt as string) - Date.parse(sessions[0].lastUsedAt as string),
    ).toBe(7 * DAY);
    // Another person's sessions are not mine.
    const bob = await signUpOwner(t.app.getHttpServer());
    expect((await list(bob.cookie)).body.sessions).toHaveLength(1);
    // Nor are the token hashes in the answer.
    expect(JSON.stringify(res.body)).not.toMatch(/token|[0-9a-f]{64}/i);
  });

  it('ends one session (audited); another person’s, an unknown or a malformed id is 404', async () => {
    const ada = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    const phone = await signInAs(ada, 'Safari on the phone');
    const sessions = (await list(ada.cookie)).body.sessions as { id: string; current: boolean }[];
    const other = sessions.find((s) => !s.current) as { id: string };

    const bob = await signUpOwner(t.app.getHttpServer());
    const notBobs = await http().delete(`/api/me/sessions/${other.id}`).set('cookie', bob.cookie);
    expect(notBobs.status).toBe(404);
    expect(notBobs.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    expect((await list(phone, 'Safari on the phone')).status).toBe(200);

    const ended = await http().delete(`/api/me/sessions/${other.id}`).set('cookie', ada.cookie);
    expect(ended.status).toBe(204);
    expect((await list(phone, 'Safari on the phone')).status).toBe(401);
    expect((await list(ada.cookie)).body.sessions).toHaveLength(1);
    expect(
      (await http().delete(`/api/me/sessions/${other.id}`).set('cookie', ada.cookie)).status,
    ).toBe(404);
    const malformed = await http().delete('/api/me/sessions/not-a-uuid').set('cookie', ada.cookie);
    // As every id route here (IdParam): a malformed id is as unknown as any other.
    expect(malformed.status).toBe(404);
    expect(malformed.body).toMatchObject({ code: 'NOT_FOUND' });

    expect(await endedEntries(ada.organisationId, ada.memberId)).toEqual([
      {
        actor_id: ada.memberId,
        target_id: ada.memberId,
        summary: 'Ada Lovelace ended one of their sign-in sessions',
        metadata: { scope: 'one', count: 1 },
      },
    ]);
  });

  it('ending this very session signs me out here (the cookie is cleared)', async () => {
    const ada = await signUpOwner(t.app.getHttpServer());
    const [mine] = (await list(ada.cookie)).body.sessions as { id: string }[];
    const res = await http().delete(`/api/me/sessions/${mine.id}`).set('cookie', ada.cookie);
    expect(res.status).toBe(204);
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toMatch(
      /^session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/,
    );
    expect((await list(ada.cookie)).status).toBe(401);
  });

  it('signs out everywhere else: every session but this one ends, audited with the count', async () => {
    const ada = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    const others = [
      await signInAs(ada, 'Safari on the phone'),
      await signInAs(ada, 'Chrome at home'),
    ];
    const res = await http().post('/api/me/sessions/revoke-others').set('cookie', ada.cookie);
    expect(res.status).toBe(204);
    for (const cookie of others) expect((await list(cookie)).status).toBe(401);
    const left = (await list(ada.cookie)).body.sessions as { current: boolean }[];
    expect(left).toEqual([expect.objectContaining({ current: true })]);
    // Nothing left to end: 204, and no entry.
    expect(
      (await http().post('/api/me/sessions/revoke-others').set('cookie', ada.cookie)).status,
    ).toBe(204);
    expect(await endedEntries(ada.organisationId, ada.memberId)).toEqual([
      expect.objectContaining({
        summary: 'Ada Lovelace signed out 2 other sessions',
        metadata: { scope: 'others', count: 2 },
      }),
    ]);
  });

  it('ends a session unused for the idle timeout, and records each use (at most once a minute)', async () => {
    const { ada, phone, phoneId } = await signedInOnPhone();
    // A use two minutes ago is recorded again now; one 20 s ago is not rewritten.
    await db().query(
      `UPDATE sign_in_sessions SET last_used_at = now() - interval '2 minutes', user_agent = 'Safari on the phone' WHERE id = $1`,
      [phoneId],
    );
    expect((await list(phone, 'Safari on the phone')).status).toBe(200);
    const [touched] = await db().query(
      `SELECT now() - last_used_at < interval '30 seconds' AS recent, ip_address FROM sign_in_sessions WHERE id = $1`,
      [phoneId],
    );
    expect(touched).toMatchObject({
      recent: true,
      ip_address: expect.stringMatching(/127\.0\.0\.1/),
    });
    await db().query(
      `UPDATE sign_in_sessions SET last_used_at = now() - interval '20 seconds' WHERE id = $1`,
      [phoneId],
    );
    expect((await list(phone, 'Safari on the phone')).status).toBe(200);
    const [kept] = await db().query(
      `SELECT now() - last_used_at >= interval '20 seconds' AS kept FROM sign_in_sessions WHERE id = $1`,
      [phoneId],
    );
    expect(kept.kept).toBe(true);

    // Unused for 7 days and a second: over.
    await db().query(
      `UPDATE sign_in_sessions SET last_used_at = now() - interval '7 days 1 second' WHERE id = $1`,
      [phoneId],
    );
    expect((await list(phone, 'Safari on the phone')).status).toBe(401);
    expect(
      ((await list(ada.cookie)).body.sessions as { id: string }[]).map((s) => s.id),
    ).not.toContain(phoneId);
  });

  it('ends a session at its absolute 30 days even when it was used a moment ago', async () => {
    const { ada, phone, phoneId } = await signedInOnPhone();
    // Signed in 30 days less a minute ago, used 10 s ago: well within the idle window, and
    // its list entry ends at the absolute end (sooner than the idle one).
    await db().query(
      `UPDATE sign_in_sessions
          SET created_at = now() - interval '30 days' + interval '1 minute',
              expires_at = now() + interval '1 minute',
              last_used_at = now() - interval '10 seconds',
              user_agent = 'Safari on the phone'
        WHERE id = $1`,
      [phoneId],
    );
    expect((await list(phone, 'Safari on the phone')).status).toBe(200);
    const [row] = await db().query(`SELECT expires_at FROM sign_in_sessions WHERE id = $1`, [
      phoneId,
    ]);
    const listed = (
      (await list(ada.cookie)).body.sessions as { id: string; endsAt: string }[]
    ).find((s) => s.id === phoneId);
    expect(listed && Date.parse(listed.endsAt)).toBe((row.expires_at as Date).getTime());

    // Two minutes on: past the absolute end, though used 10 s ago.
    await db().query(
      `UPDATE sign_in_sessions
          SET created_at = now() - interval '30 days' - interval '1 minute',
              expires_at = now() - interval '1 minute',
              last_used_at = now() - interval '10 seconds'
        WHERE id = $1`,
      [phoneId],
    );
    expect((await list(phone, 'Safari on the phone')).status).toBe(401);
    expect((await http().get('/api/me').set('cookie', phone)).status).toBe(401);
    expect(
      ((await list(ada.cookie)).body.sessions as { id: string }[]).map((s) => s.id),
    ).not.toContain(phoneId);
  });
});

describe('SESSION_IDLE_TIMEOUT', () => {
  it('sets the idle timeout', async () => {
    const t = await startTestApp({ env: { SESSION_IDLE_TIMEOUT: '1h' } });
    try {
      const ada = await signUpOwner(t.app.getHttpServer());
      const db = t.app.get(DataSource);
      const me = () => request(t.app.getHttpServer()).get('/api/me').set('cookie', ada.cookie);
      await db.query(
        `UPDATE sign_in_sessions SET last_used_at = now() - interval '59 minutes' WHERE user_id = $1`,
        [ada.memberId],
      );
      expect((await me()).status).toBe(200);
      await db.query(
        `UPDATE sign_in_sessions SET last_used_at = now() - interval '61 minutes' WHERE user_id = $1`,
        [ada.memberId],
      );
      expect((await me()).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
