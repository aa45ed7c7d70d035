import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  assignAndEscalate,
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  JoinedMember,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';
import { InterruptsService } from '../src/interrupts/interrupts.service';
import { WebhookOutbox } from '../src/webhooks/webhook-outbox';
import { linksOf, SmtpSink } from './support/smtp-sink';
import { notificationSuite } from './support/notification-suite';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

/**
 * Waits until none of the organisation's notifications is due or being sent — every message that
 * was on its way has reached the SMTP server (the sink keeps a message before it answers, and a
 * row is `sent` only after that answer) — instead of waiting a fixed time.
 */
async function drained(app: TestApp['app'], organisationId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = (await app.get(DataSource).query(
      `SELECT count(*)::int AS n FROM notifications
        WHERE organisation_id = $1 AND (status = 'sending' OR (status = 'pending' AND due_at <= now()))`,
      [organisationId],
    )) as { n: number }[];
    if (row.n === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${row.n} notifications still on their way after 60 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('notifications (issue 30): outbox, email over SMTP, preferences, digests, invitations', () => {
  const suite = notificationSuite({
    organisationName: 'Analytical Engines',
    managers: ['Grace Hopper'],
    env: {
      MAIL_FROM: 'Interlock Review <review@interlock.test>',
      NOTIFICATION_RETRY_SCHEDULE: '200ms,200ms',
      DASHBOARD_URL: 'https://review.example.test/app',
    },
  });
  const { http, db } = suite;
  let t: TestApp;
  let sink: SmtpSink;
  let owner: SignedUpOwner;
  let grace: JoinedMember;
  let key: string;

  beforeAll(async () => {
    ({ t, sink, owner, key } = suite);
    grace = suite.managers['Grace Hopper'];
    // The invitation that brought Grace in was emailed; start each test from a clean sink.
    await sink.until(() => sink.to(grace.email).length === 1);
    sink.messages.length = 0;
  });

  const open = async (
    title: string,
    actions: { name: string; args?: Record<string, unknown> }[] = [{ name: 'deploy' }],
  ) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, description: 'Please <b>check</b> & decide', actionRequests: actions });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  /** Waits until the messages still on their way have arrived, then starts the sink afresh. */
  const settle = async () => {
    await drained(t.app, owner.organisationId);
    sink.messages.length = 0;
  };
  const setPreferences = async (cookie: string, body: Record<string, unknown>) => {
    const res = await http().put('/api/notifications/preferences').set('cookie', cookie).send(body);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('a new interrupt emails every member who may read it: multipart, from MAIL_FROM, agent values escaped, links to the dashboard', async () => {
    const title = 'Deploy <script>alert(1)</script> to prod';
    const { id } = await open(title, [
      { name: 'deploy', args: { image: '<img src=x onerror=alert(1)>' } },
      { name: 'notify' },
    ]);
    await sink.until(() => sink.to(owner.email).length === 1 && sink.to(grace.email).length === 1);
    const mail = sink.to(owner.email)[0];
    expect(mail.parsed.from?.value).toEqual([
      { address: 'review@interlock.test', name: 'Interlock Review' },
    ]);
    expect(mail.parsed.subject).toBe(`[Analytical Engines] Approval needed: ${title}`);
    const html = mail.parsed.html as string;
    const text = mail.parsed.text as string;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>check</b>');
    expect(html).toContain('Deploy &lt;script&gt;alert(1)&lt;/script&gt; to prod');
    expect(html).toContain('Please &lt;b&gt;check&lt;/b&gt; &amp; decide');
    expect(text).toContain(title);
    expect(text).toContain('Please <b>check</b> & decide');
    const links = linksOf(mail);
    expect(links).toContain(`https://review.example.test/app/interrupts/${id}`);
    expect(links).toContain(
      `https://review.example.test/app/interrupts/${id}/confirm?action=deploy&decision=approve`,
    );
    expect(links).toContain(
      `https://review.example.test/app/interrupts/${id}/confirm?action=notify&decision=reject`,
    );
    expect(links).toContain('https://review.example.test/app/settings/notifications');
    // Exactly one message each, however many rounds the workers ran.
    await drained(t.app, owner.organisationId);
    expect(sink.to(owner.email)).toHaveLength(1);
    expect(sink.to(grace.email)).toHaveLength(1);

    const deliveries = await http()
      .get('/api/notifications/deliveries')
      .set('cookie', owner.cookie);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.deliveries[0]).toMatchObject({
      kind: 'interrupt.opened',
      channel: 'email',
      mode: 'immediately',
      status: 'sent',
      subjectId: id,
      title,
      attempts: 1,
      lastError: null,
    });
  });

  it('fetching every link of a message, as a mail scanner does, decides nothing', async () => {
    await settle();
    const { id } = await open('Rotate the signing keys', [{ name: 'rotate' }]);
    await sink.until(() => sink.to(owner.email).length === 1);
    const mail = sink.to(owner.email)[0];
    const links = linksOf(mail);
    expect(links.length).toBeGreaterThanOrEqual(4);
    for (const link of links) {
      const url = new URL(link);
      // The scanner of a signed-in member's mailbox, even: with the cookie.
      const res = await http()
        .get(`${url.pathname.replace(/^\/app/, '')}${url.search}`)
        .set('cookie', owner.cookie);
      expect(res.status).toBeLessThan(500);
    }
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(read.body).toMatchObject({ status: 'open', decisions: [] });
  });

  it('assigning to a member or a team emails them "Assigned to you"', async () => {
    await settle();
    const { id } = await open('Refund order 1138');
    await sink.until(() => sink.messages.length === 2);
    const assigned = await http()
      .post(`/api/interrupts/${id}/assign`)
      .set('cookie', owner.cookie)
      .send({ memberId: grace.memberId });
    expect(assigned.status).toBe(200);
    await sink.until(() => sink.to(grace.email).length === 2);
    expect(sink.to(grace.email)[1].parsed.subject).toBe(
      '[Analytical Engines] Assigned to you: Refund order 1138',
    );
    expect(sink.to(owner.email)).toHaveLength(1);

    const team = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Payments' });
    expect(team.status).toBe(201);
    expect(
      (
        await http()
          .post(`/api/teams/${team.body.id}/members`)
          .set('cookie', owner.cookie)
          .send({ memberId: owner.memberId })
      ).status,
    ).toBe(204);
    // Grace hands it to Ada's team, then escalates it: Ada is told both times, Grace neither (she did it).
    expect(
      (
        await http()
          .post(`/api/interrupts/${id}/assign`)
          .set('cookie', grace.cookie)
          .send({ teamId: team.body.id })
      ).status,
    ).toBe(200);
    await sink.until(() => sink.to(owner.email).length === 2);
    expect(sink.to(owner.email)[1].parsed.subject).toBe(
      '[Analytical Engines] Assigned to you: Refund order 1138',
    );

    expect(
      (
        await http()
          .post(`/api/interrupts/${id}/escalate`)
          .set('cookie', grace.cookie)
          .send({ reason: 'Over <limit>' })
      ).status,
    ).toBe(200);
    await sink.until(() => sink.to(owner.email).length === 3);
    const escalated = sink.to(owner.email)[2];
    expect(escalated.parsed.subject).toBe('[Analytical Engines] Escalated: Refund order 1138');
    expect(escalated.parsed.html).toContain('escalation level 1: Over &lt;limit&gt;');
    await drained(t.app, owner.organisationId);
    expect(sink.to(grace.email)).toHaveLength(2);
  });

  it('argus at creation: an interrupt it decided notifies nobody; one it routes tells the assignee "Assigned to you" and the readers "Escalated", once each', async () => {
    const rule = (name: string, actions: string[], outcome: Record<string, unknown>) =>
      http()
        .post('/api/classification/rules')
        .set('cookie', owner.cookie)
        .send({ name, mode: 'enforce', priority: 10, match: { actions }, outcome });
    expect((await rule('Tidy-ups are fine', ['tidy-*'], { type: 'approve' })).status).toBe(201);
    expect(
      (
        await rule('Payouts go to Grace', ['payout'], {
          type: 'route',
          assignTo: { memberId: grace.memberId },
          escalate: true,
        })
      ).status,
    ).toBe(201);
    await settle();
    const decided = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Tidy the cache', actionRequests: [{ name: 'tidy-cache' }] });
    expect(decided.status).toBe(201);
    expect(decided.body.status).toBe('answered');
    await open('Payout 4411', [{ name: 'payout' }]);
    await sink.until(() => sink.to(grace.email).length >= 1 && sink.to(owner.email).length >= 1);
    // A plain interrupt after them: once its emails are in, theirs would have been too.
    await open('Sentinel after argus');
    await sink.until(() => sink.to(grace.email).length >= 2 && sink.to(owner.email).length >= 2);
    await drained(t.app, owner.organisationId);
    const subjects = (to: string) => sink.to(to).map((m) => m.parsed.subject);
    expect(subjects(grace.email)).toEqual([
      '[Analytical Engines] Assigned to you: Payout 4411',
      '[Analytical Engines] Approval needed: Sentinel after argus',
    ]);
    expect(subjects(owner.email)).toEqual([
      '[Analytical Engines] Escalated: Payout 4411',
      '[Analytical Engines] Approval needed: Sentinel after argus',
    ]);
    // The rules stay out of the other tests' way.
    const rules = await http().get('/api/classification/rules').set('cookie', owner.cookie);
    for (const r of rules.body.rules as { id: string }[])
      await http().delete(`/api/classification/rules/${r.id}`).set('cookie', owner.cookie);
  });

  it('a reminder (an escalation chain step, interrupt.reminder) emails the assignee, or every reader when nobody is assigned', async () => {
    const { id } = await open('Remind me about this');
    await sink.until(() => sink.to(grace.email).length >= 1 && sink.to(owner.email).length >= 1);
    await settle();
    // Written as the lifecycle's job writes it: through the outbox, in a transaction.
    const remind = async () => {
      const interrupt = await t.app.get(InterruptsService).get(owner.organisationId, id);
      await db().transaction((tx) =>
        t.app
          .get(WebhookOutbox)
          .write(tx, owner.organisationId, [
            { type: 'interrupt.reminder', subjectId: id, data: interrupt },
          ]),
      );
    };
    await remind();
    await sink.until(() => sink.to(grace.email).length === 1 && sink.to(owner.email).length === 1);
    expect(sink.to(owner.email)[0].parsed.subject).toBe(
      '[Analytical Engines] Still waiting: Remind me about this',
    );
    expect(
      (
        await http()
          .post(`/api/interrupts/${id}/assign`)
          .set('cookie', owner.cookie)
          .send({ memberId: grace.memberId })
      ).status,
    ).toBe(200);
    await sink.until(() => sink.to(grace.email).length === 2);
    await settle();
    await remind();
    await sink.until(() => sink.to(grace.email).length === 1);
    expect(sink.to(grace.email)[0].parsed.subject).toBe(
      '[Analytical Engines] Still waiting: Remind me about this',
    );
    await drained(t.app, owner.organisationId);
    expect(sink.to(owner.email)).toHaveLength(0);
  });

  it('the member who made a change is not told about it: assigning to themself or their team, escalating, deciding what was theirs', async () => {
    await settle();
    await setPreferences(owner.cookie, {
      preferences: { 'interrupt.decided': { email: 'immediately' } },
    });
    const { id } = await open('Archive the 2019 invoices', [{ name: 'archive' }]);
    await sink.until(() => sink.messages.length === 2);
    sink.messages.length = 0;

    await assignAndEscalate(
      t.app.getHttpServer(),
      owner.cookie,
      id,
      owner.memberId,
      'Needs a second look',
    );
    // Grace, a reader, hears of the escalation; Ada, who escalated, does not.
    await sink.until(() => sink.to(grace.email).length === 1);
    expect(sink.to(grace.email)[0].parsed.subject).toBe(
      '[Analytical Engines] Escalated: Archive the 2019 invoices',
    );
    expect(
      (
        await http()
          .post(`/api/interrupts/${id}/decisions`)
          .set('cookie', owner.cookie)
          .send({ actionName: 'archive', decision: 'approve' })
      ).status,
    ).toBe(201);
    await drained(t.app, owner.organisationId);
    expect(sink.to(owner.email)).toHaveLength(0);
    const mine = await http().get('/api/notifications/deliveries').set('cookie', owner.cookie);
    expect(
      mine.body.deliveries
        .filter((d: { subjectId: string }) => d.subjectId === id)
        .map((d: { kind: string }) => d.kind),
    ).toEqual(['interrupt.opened']);

    // Decided by someone else, the assignee does hear of it.
    const second = await open('Archive the 2020 invoices', [{ name: 'archive' }]);
    expect(
      (
        await http()
          .post(`/api/interrupts/${second.id}/assign`)
          .set('cookie', grace.cookie)
          .send({ memberId: owner.memberId })
      ).status,
    ).toBe(200);
    expect(
      (
        await http()
          .post(`/api/interrupts/${second.id}/decisions`)
          .set('cookie', grace.cookie)
          .send({ actionName: 'archive', decision: 'reject' })
      ).status,
    ).toBe(201);
    await sink.until(() =>
      sink
        .to(owner.email)
        .some(
          (m) => m.parsed.subject === '[Analytical Engines] Decided: Archive the 2020 invoices',
        ),
    );
    await setPreferences(owner.cookie, { preferences: {} });
  });

  it('an hourly digest gathers one member’s notifications into one message at the hour; off sends nothing', async () => {
    await settle();
    const prefs = await setPreferences(grace.cookie, {
      preferences: { 'interrupt.opened': { email: 'hourly' } },
    });
    expect(prefs).toMatchObject({
      timeZone: 'UTC',
      preferences: { 'interrupt.opened': { email: 'hourly' } },
      emailEnabled: true,
    });
    expect(prefs.effective['interrupt.opened']).toEqual({ email: 'hourly', browser: 'off' });
    expect(prefs.effective['interrupt.assigned']).toEqual({
      email: 'immediately',
      browser: 'immediately',
    });
    await setPreferences(owner.cookie, { preferences: { 'interrupt.opened': { email: 'off' } } });

    const first = await open('Digest item one');
    const second = await open('Digest item two <i>');
    const pending = await db().query(
      `SELECT mode, status, scheduled_for FROM notifications WHERE organisation_id = $1 AND recipient_user_id = $2 AND subject_id = ANY($3::uuid[])`,
      [owner.organisationId, grace.memberId, [first.id, second.id]],
    );
    expect(pending).toHaveLength(2);
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    hour.setUTCHours(hour.getUTCHours() + 1);
    for (const row of pending)
      expect(row).toMatchObject({ mode: 'hourly', status: 'pending', scheduled_for: hour });
    await drained(t.app, owner.organisationId);
    expect(sink.messages).toHaveLength(0);

    // The hour comes (the clock moved forward for these rows).
    await db().query(
      `UPDATE notifications SET due_at = now() WHERE organisation_id = $1 AND status = 'pending' AND mode = 'hourly'`,
      [owner.organisationId],
    );
    await sink.until(() => sink.to(grace.email).length === 1);
    const digest = sink.to(grace.email)[0];
    expect(digest.parsed.subject).toBe('[Analytical Engines] 2 interrupts for you this hour');
    expect(digest.parsed.text).toContain('Digest item one');
    expect(digest.parsed.text).toContain('Digest item two <i>');
    expect(digest.parsed.html).toContain('Digest item two &lt;i&gt;');
    expect(digest.parsed.html).toContain('https://review.example.test/app/inbox');
    await drained(t.app, owner.organisationId);
    expect(sink.messages).toHaveLength(1);
    await setPreferences(grace.cookie, { preferences: {} });
    await setPreferences(owner.cookie, { preferences: {} });
  });

  it('the daily digest leaves at 09:00 in the member’s time zone', async () => {
    await setPreferences(grace.cookie, {
      timeZone: 'Asia/Tokyo',
      preferences: { 'interrupt.opened': { email: 'daily' } },
    });
    const { id } = await open('Daily item');
    const [row] = await db().query(
      `SELECT scheduled_for FROM notifications WHERE organisation_id = $1 AND recipient_user_id = $2 AND subject_id = $3`,
      [owner.organisationId, grace.memberId, id],
    );
    const at = row.scheduled_for as Date;
    expect(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Tokyo',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }).format(at),
    ).toBe('09:00');
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(at.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    await setPreferences(grace.cookie, { timeZone: 'UTC', preferences: {} });
  });

  it('a failed send is retried with backoff and its status shows it', async () => {
    await settle();
    const before = 0;
    sink.failNext = 2;
    const { id } = await open('Retry me');
    await sink
      .until(() => sink.messages.length >= before + 2, 10_000)
      .catch(async (error: Error) => {
        throw new Error(
          `${error.message}: ${JSON.stringify(await db().query(`SELECT status, attempt_count, last_error, due_at FROM notifications WHERE subject_id = $1`, [id]))}`,
        );
      });
    await drained(t.app, owner.organisationId);
    const rows = await db().query(
      `SELECT status, attempt_count, last_error FROM notifications WHERE organisation_id = $1 AND subject_id = $2 ORDER BY recipient_email`,
      [owner.organisationId, id],
    );
    expect(rows).toHaveLength(2);
    // Two sends failed (one each, or both of one's first two): three attempts at most, all sent.
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['sent', 'sent']);
    expect(rows.reduce((n: number, r: { attempt_count: number }) => n + r.attempt_count, 0)).toBe(
      4,
    );
  });

  it('an invitation is emailed with its link, which works', async () => {
    await settle();
    const roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const email = uniqueEmail('invitee');
    const invited = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email, roleId: roles.developer });
    expect(invited.status).toBe(201);
    await sink.until(() => sink.to(email).length === 1);
    const mail = sink.to(email)[0];
    expect(mail.parsed.subject).toBe('Ada Lovelace invited you to Analytical Engines on Interlock');
    const link = linksOf(mail).find((l) => l.includes('/invitations/')) ?? '';
    // The fragment proves the address (SPEC §8f): only the email has it, not the inviter's answer.
    const [page, emailProof] = link.split('#');
    expect(page).toBe(`https://review.example.test/app/invitations/${invited.body.token}`);
    expect(emailProof).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(invited.body)).not.toContain(emailProof);
    // The token is not kept once the message left.
    await drained(t.app, owner.organisationId);
    const [row] = await db().query(
      `SELECT data, status FROM notifications WHERE organisation_id = $1 AND kind = 'invitation' AND recipient_email = $2`,
      [owner.organisationId, email],
    );
    expect(JSON.stringify(row.data)).not.toContain(invited.body.token);
    expect(row.data.sealedToken).toBeUndefined();
    expect(row.status).toBe('sent');
    // Another invitation's proof, or an altered one, is refused before anything is made.
    for (const wrong of [
      `${emailProof.slice(0, 42)}${emailProof.endsWith('A') ? 'B' : 'A'}`,
      'x',
    ]) {
      const refused = await http()
        .post(`/api/invitations/${invited.body.token}/accept`)
        .send({ name: 'Linus', password: 'correct horse battery staple', emailProof: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'INVALID_TOKEN',
        message:
          "This invitation link's address proof is not valid: open the link in the invitation email again.",
      });
    }
    const notAString = await http()
      .post(`/api/invitations/${invited.body.token}/accept`)
      .send({ name: 'Linus', password: 'correct horse battery staple', emailProof: null });
    expect(notAString.status).toBe(400);
    expect(notAString.body.message).toBe(
      'emailProof must be shorter than or equal to 100 characters; emailProof must be a string',
    );
    // Accepted by the emailed link: the new account's address is verified (the link proves it).
    const accepted = await http()
      .post(`/api/invitations/${invited.body.token}/accept`)
      .send({ name: 'Linus', password: 'correct horse battery staple', emailProof });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.emailVerified).toBe(true);
    const [audit] = await db().query(
      `SELECT metadata FROM audit_log_entries WHERE organisation_id = $1 AND action = 'member.email_verified' AND target_id = $2`,
      [owner.organisationId, accepted.body.user.id],
    );
    expect(audit.metadata).toEqual({ email, via: 'invitation_link' });
  });

  it('the deliveries list walks by cursor, newest first, bound to its scope', async () => {
    const all = await http()
      .get('/api/notifications/deliveries?scope=organisation&limit=200')
      .set('cookie', owner.cookie);
    expect(all.status).toBe(200);
    expect(all.body.nextCursor).toBeNull();
    const ids = all.body.deliveries.map((d: { id: string }) => d.id);
    expect(ids.length).toBeGreaterThan(5);
    const walked: string[] = [];
    let cursor: string | null = null;
    let first = '';
    do {
      const page: request.Response = await http()
        .get(
          `/api/notifications/deliveries?scope=organisation&limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        )
        .set('cookie', owner.cookie);
      expect(page.status).toBe(200);
      expect(page.body.deliveries.length).toBeLessThanOrEqual(2);
      walked.push(...page.body.deliveries.map((d: { id: string }) => d.id));
      cursor = page.body.nextCursor;
      if (first === '' && cursor !== null) first = cursor;
    } while (cursor !== null);
    expect(walked).toEqual(ids);
    // A cursor belongs to its scope (and organisation): reused for another, 400.
    const other = await http()
      .get(`/api/notifications/deliveries?scope=mine&limit=2&cursor=${encodeURIComponent(first)}`)
      .set('cookie', owner.cookie);
    expect([other.status, other.body.message]).toEqual([
      400,
      'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
    ]);
    expect(
      (await http().get('/api/notifications/deliveries?limit=0').set('cookie', owner.cookie))
        .status,
    ).toBe(400);
    const mine = await http().get('/api/notifications/deliveries').set('cookie', grace.cookie);
    expect(
      mine.body.deliveries.every(
        (d: { recipientEmail: string }) => d.recipientEmail === grace.email,
      ),
    ).toBe(true);
  });

  it('preferences and organisation defaults are validated, audited (settings), and the defaults need member.manage', async () => {
    const bad = await http()
      .put('/api/notifications/preferences')
      .set('cookie', grace.cookie)
      .send({ preferences: { 'interrupt.opened': { browser: 'hourly' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'preferences must give interrupt.opened.browser one of immediately, off, or null for the default.',
    );
    const kind = await http()
      .put('/api/notifications/preferences')
      .set('cookie', grace.cookie)
      .send({ preferences: { 'session.started': {} } });
    expect(kind.status).toBe(400);
    expect(kind.body.message).toBe(
      'preferences may only name the kinds interrupt.opened, interrupt.assigned, interrupt.escalated, interrupt.decided, interrupt.reminder, interrupt.closed, interrupt.approval_needed, interrupt.deadline_approaching.',
    );
    const zone = await http()
      .put('/api/notifications/preferences')
      .set('cookie', grace.cookie)
      .send({ timeZone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
    expect(zone.body.message).toBe(
      'timeZone must be an IANA time zone name such as Europe/Paris or UTC.',
    );
    const empty = await http()
      .put('/api/notifications/preferences')
      .set('cookie', grace.cookie)
      .send({});
    expect(empty.status).toBe(400);

    await setPreferences(grace.cookie, {
      timeZone: 'Europe/Paris',
      preferences: { 'interrupt.escalated': { email: 'daily', browser: null } },
    });
    const developer = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      (await builtInRoleIds(t.app.getHttpServer(), owner.cookie)).developer,
      'Dev',
    );
    const refused = await http()
      .patch('/api/notifications/settings')
      .set('cookie', developer.cookie)
      .send({ defaults: {} });
    expect(refused.status).toBe(403);
    const everyone = await http()
      .get('/api/notifications/deliveries?scope=organisation')
      .set('cookie', developer.cookie);
    expect(everyone.status).toBe(403);
    const changed = await http()
      .patch('/api/notifications/settings')
      .set('cookie', owner.cookie)
      .send({ defaults: { 'interrupt.decided': { email: 'immediately' } } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      defaults: { 'interrupt.decided': { email: 'immediately' } },
      emailEnabled: true,
    });
    const devPrefs = await http()
      .get('/api/notifications/preferences')
      .set('cookie', developer.cookie);
    expect(devPrefs.body.effective['interrupt.decided']).toEqual({
      email: 'immediately',
      browser: 'off',
    });

    const audit = await http().get('/api/audit-log?category=settings').set('cookie', owner.cookie);
    expect(audit.status).toBe(200);
    const actions = (
      audit.body.entries as { action: string; summary: string; metadata: unknown }[]
    ).map((e) => e.action);
    expect(actions).toContain('settings.notification_preferences_updated');
    expect(actions).toContain('settings.notifications_updated');
    const orgEntry = (
      audit.body.entries as { action: string; summary: string; metadata: unknown }[]
    ).find((e) => e.action === 'settings.notifications_updated');
    expect(orgEntry?.summary).toBe('Notification settings changed (defaults) by Ada Lovelace');
    expect(orgEntry?.metadata).toEqual({
      changes: { defaults: { from: {}, to: { 'interrupt.decided': { email: 'immediately' } } } },
    });
    await http()
      .patch('/api/notifications/settings')
      .set('cookie', owner.cookie)
      .send({ defaults: {} });
  });
});

describe('notifications across two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = new SmtpSink();
    await sink.start();
    const env = { SMTP_URL: sink.url, NOTIFICATION_POLL_INTERVAL: '20ms' };
    a = await startTestApp({ env });
    b = await startTestApp({ env, databaseUrl: a.database.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await sink.stop();
  });

  it('a burst of interrupts is delivered by both, each notification exactly once', async () => {
    const owner = await signUpOwner(a.app.getHttpServer());
    const key = (await createApiKey(a.app.getHttpServer(), owner.cookie)).key;
    const roles = await builtInRoleIds(a.app.getHttpServer(), owner.cookie);
    const grace = await joinOrganisation(
      a.app.getHttpServer(),
      owner.cookie,
      roles.developer,
      'Grace Hopper',
    );
    await sink.until(() => sink.messages.length === 1);
    sink.messages.length = 0;
    const servers = [a.app.getHttpServer(), b.app.getHttpServer()];
    const ids = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await request(servers[i % 2])
          .post('/api/interrupts')
          .set('x-api-key', key)
          .send({ title: `Burst ${i}`, actionRequests: [{ name: 'go' }] });
        expect(res.status).toBe(201);
        return res.body.id as string;
      }),
    );
    await sink.until(() => sink.messages.length >= 80, 30_000);
    await drained(a.app, owner.organisationId);
    expect(sink.messages).toHaveLength(80);
    const seen = sink.messages.map(
      (m) => `${m.to[0]} ${/\/interrupts\/([0-9a-f-]{36})/.exec(m.parsed.text as string)?.[1]}`,
    );
    expect(new Set(seen).size).toBe(80);
    for (const id of ids) {
      expect(seen).toContain(`${owner.email} ${id}`);
      expect(seen).toContain(`${grace.email} ${id}`);
    }
    // Between them, the two instances sent each once (which one sent which is up to their claims).
    const senders = (app: TestApp) =>
      app.logs.filter(
        (l) =>
          l.msg === 'notification delivery attempt' &&
          l.status === 'sent' &&
          l.kind !== 'invitation',
      ).length;
    // Each sender logs its attempt once the attempt is recorded, so the rows can read sent a turn
    // before the line is written (77 of 80 once, at load ~30): awaited, then counted exactly.
    await waitFor(
      async () => senders(a) + senders(b) >= 80,
      'each sent notification to be logged by its sender',
    );
    expect(senders(a) + senders(b)).toBe(80);
  });
});

describe('notifications without SMTP_URL (development)', () => {
  let t: TestApp;
  let mailDir: string;
  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'interlock-mail-test-'));
    t = await startTestApp({
      env: { NODE_ENV: 'development', NOTIFICATION_POLL_INTERVAL: '50ms', MAIL_DIR: mailDir },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(mailDir, { recursive: true, force: true });
  });

  it('writes each message to a file in MAIL_DIR, logs only where (never its body), marks it logged, and says email is off', async () => {
    const owner = await signUpOwner(t.app.getHttpServer());
    const key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
    const res = await request(t.app.getHttpServer())
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Logged, not sent', actionRequests: [{ name: 'deploy' }] });
    expect(res.status).toBe(201);
    const deadline = Date.now() + 10_000;
    let logged: Record<string, unknown> | undefined;
    while (logged === undefined && Date.now() < deadline) {
      logged = t.logs.find(
        (l) =>
          l.msg === 'email is off (no SMTP_URL): the message is in a file' && l.to === owner.email,
      );
      if (logged === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(logged).toMatchObject({
      subject: '[Analytical Engines] Approval needed: Logged, not sent',
    });
    expect(Object.keys(logged ?? {})).not.toContain('text');
    const file = String(logged?.file);
    expect(dirname(file)).toBe(mailDir);
    const parsed = await simpleParser(readFileSync(file));
    expect(parsed.subject).toBe('[Analytical Engines] Approval needed: Logged, not sent');
    expect(parsed.text).toContain(`/interrupts/${res.body.id}`);
    const links = parsed.text?.match(/https?:\/\/\S+/g) ?? [];
    expect(links.length).toBeGreaterThan(0);
    const logs = JSON.stringify(t.logs);
    for (const link of links) expect(logs).not.toContain(link);
    const prefs = await request(t.app.getHttpServer())
      .get('/api/notifications/preferences')
      .set('cookie', owner.cookie);
    expect(prefs.body.emailEnabled).toBe(false);
    await drained(t.app, owner.organisationId);
    const deliveries = await request(t.app.getHttpServer())
      .get('/api/notifications/deliveries')
      .set('cookie', owner.cookie);
    expect(deliveries.body.deliveries[0]).toMatchObject({
      status: 'logged',
      subjectId: res.body.id,
    });
  });
});
