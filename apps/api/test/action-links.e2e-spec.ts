import { ActionLinkSigner } from '../src/notify/action-link-token.util';
import { actionDigest } from '../src/interrupts/action-digest.util';
import { builtInRoleIds, JoinedMember, SignedUpOwner } from './support/factories';
import { notificationSuite } from './support/notification-suite';
import { linksOf, SmtpSink, type ReceivedMail } from './support/smtp-sink';
import { TestApp } from './support/test-app';

const DASHBOARD = 'https://review.example.test/app';

/** The token of each single-use link of a message, by its label's words ("Approve deploy"). */
function tokensOf(mail: ReceivedMail): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (mail.parsed.text as string).matchAll(/ {2}(Approve|Reject) (\S+): (\S+)/g)) {
    const url = new URL(m[3]);
    expect(url.origin + url.pathname).toBe(`${DASHBOARD}/decide`);
    expect(url.search).toBe('');
    out[`${m[1].toLowerCase()} ${m[2]}`] = url.hash.slice(1);
  }
  return out;
}

describe('emailed single-use action links (issue 30 §2)', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let owner: SignedUpOwner;
  let grace: JoinedMember;
  let key: string;
  const suite = notificationSuite({
    organisationName: 'Analytical Engines',
    managers: ['Grace Hopper'],
    env: { DASHBOARD_URL: DASHBOARD },
  });
  const { http } = suite;

  beforeAll(async () => {
    ({ t, sink, owner, key } = suite);
    grace = suite.managers['Grace Hopper'];
    await sink.until(() => sink.to(grace.email).length === 1);
    sink.messages.length = 0;
  });

  const open = async (
    title: string,
    actions: { name: string; args?: Record<string, unknown> }[],
  ) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, actionRequests: actions });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const mailFor = async (to: string, title: string) => {
    await sink.until(() => sink.to(to).some((m) => (m.parsed.subject ?? '').endsWith(title)));
    return sink.to(to).find((m) => (m.parsed.subject ?? '').endsWith(title)) as ReceivedMail;
  };
  const setTokenActions = async (on: boolean) => {
    const res = await http()
      .patch('/api/notifications/settings')
      .set('cookie', owner.cookie)
      .send({ tokenActions: on });
    expect(res.status).toBe(200);
    expect(res.body.tokenActions).toBe(on);
  };
  const preview = (token: unknown) => http().post('/api/action-links/preview').send({ token });
  const decide = (token: unknown, message?: string) =>
    http()
      .post('/api/action-links/decide')
      .send({ token, ...(message === undefined ? {} : { message }) });
  const read = async (id: string) =>
    (await http().get(`/api/interrupts/${id}`).set('x-api-key', key)).body;

  it('is off by default (links open the signed-in confirmation page); turning it on needs member.manage and is audited', async () => {
    const { id } = await open('Before the switch', [{ name: 'deploy' }]);
    const links = linksOf(await mailFor(owner.email, 'Before the switch'));
    expect(links).toContain(`${DASHBOARD}/interrupts/${id}/confirm?action=deploy&decision=approve`);
    expect(links.some((l) => l.includes('/decide'))).toBe(false);

    expect(
      (await http().get('/api/notifications/settings').set('cookie', owner.cookie)).body
        .tokenActions,
    ).toBe(false);
    const refused = await http()
      .patch('/api/notifications/settings')
      .set('cookie', grace.cookie)
      .send({ tokenActions: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing permission: member.manage.');
    expect(
      (await http().patch('/api/notifications/settings').set('cookie', owner.cookie).send({}))
        .status,
    ).toBe(400);

    await setTokenActions(true);
    await setTokenActions(true); // unchanged: no second entry
    const audit = await http()
      .get('/api/audit-log?action=settings.notifications_updated')
      .set('cookie', owner.cookie);
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0]).toMatchObject({
      actorName: 'Ada Lovelace',
      metadata: { changes: { tokenActions: { from: false, to: true } } },
    });
    // The defaults are left as they were.
    expect(
      (await http().get('/api/notifications/settings').set('cookie', owner.cookie)).body,
    ).toMatchObject({ defaults: {}, tokenActions: true });
  });

  it('each recipient gets links of their own; fetching every link (as a mail scanner does) and previewing decide nothing', async () => {
    const { id } = await open('Rotate the signing keys', [
      { name: 'rotate', args: { key: 'k-1' } },
      { name: 'announce' },
    ]);
    const mails = [
      await mailFor(owner.email, 'Rotate the signing keys'),
      await mailFor(grace.email, 'Rotate the signing keys'),
    ];
    const [ada, gh] = mails.map(tokensOf);
    expect(Object.keys(ada).sort()).toEqual([
      'approve announce',
      'approve rotate',
      'reject announce',
      'reject rotate',
    ]);
    expect(gh['approve rotate']).not.toBe(ada['approve rotate']);
    for (const mail of mails) {
      for (const link of linksOf(mail)) {
        // What a scanner's GET sends: the path and query; a fragment never leaves the client.
        const url = new URL(link);
        const res = await http().get(`${url.pathname.replace(/^\/app/, '')}${url.search}`);
        expect(res.status).toBeLessThan(500);
      }
    }
    for (const token of [...Object.values(ada), ...Object.values(gh)])
      expect((await preview(token)).status).toBe(200);
    expect(await read(id)).toMatchObject({ status: 'open', decisions: [] });
    // The tokens never reach the log.
    const log = JSON.stringify(t.logs);
    for (const token of Object.values(ada)) expect(log).not.toContain(token.split('.')[2]);
  });

  it('a link decides once, as the member it was sent to, with the audit entry saying how', async () => {
    const { id } = await open('Deploy to prod', [
      { name: 'deploy', args: { image: 'web:42' } },
      { name: 'notify' },
    ]);
    const ada = tokensOf(await mailFor(owner.email, 'Deploy to prod'));
    const gh = tokensOf(await mailFor(grace.email, 'Deploy to prod'));

    const seen = await preview(gh['approve deploy']);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      organisationName: 'Analytical Engines',
      memberName: 'Grace Hopper',
      interruptId: id,
      title: 'Deploy to prod',
      status: 'open',
      action: {
        name: 'deploy',
        args: { image: 'web:42' },
        allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
      },
      decision: 'approve',
      used: false,
      decided: null,
    });
    expect(Date.parse(seen.body.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const decided = await decide(gh['approve deploy']);
    expect(decided.status).toBe(200);
    expect(decided.body.status).toBe('open');
    expect(decided.body.decisions).toMatchObject([
      {
        actionName: 'deploy',
        decision: 'approve',
        decidedBy: { type: 'member', id: grace.memberId, name: 'Grace Hopper' },
      },
    ]);

    const again = await decide(gh['approve deploy']);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', message: 'This link was already used.' });
    const other = await decide(ada['reject deploy']);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe('Action deploy of this interrupt has already been decided.');
    expect((await preview(gh['approve deploy'])).body).toMatchObject({
      used: true,
      decided: { decision: 'approve', decidedBy: 'Grace Hopper' },
    });

    const rejected = await decide(ada['reject notify'], 'Not on a Friday');
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('answered');
    expect(rejected.body.decisions[1]).toMatchObject({
      actionName: 'notify',
      decision: 'reject',
      message: 'Not on a Friday',
      decidedBy: { name: 'Ada Lovelace' },
    });

    const audit = await http()
      .get(`/api/audit-log?action=interrupt.decided&targetId=${id}`)
      .set('cookie', owner.cookie);
    expect(
      audit.body.entries.map((e: { actorName: string; actorType: string; metadata: unknown }) => [
        e.actorType,
        e.actorName,
        e.metadata,
      ]),
    ).toEqual([
      [
        'member',
        'Ada Lovelace',
        { actionName: 'notify', decision: 'reject', becameAnswered: true, via: 'email_link' },
      ],
      [
        'member',
        'Grace Hopper',
        { actionName: 'deploy', decision: 'approve', becameAnswered: false, via: 'email_link' },
      ],
    ]);
  });

  it('refuses a changed, expired or foreign link, a key, a member who may no longer decide, and every link once the organisation turns them off', async () => {
    const { id } = await open('Drop the staging database', [
      { name: 'drop', args: { db: 'staging' } },
    ]);
    const ada = tokensOf(await mailFor(owner.email, 'Drop the staging database'));
    const gh = tokensOf(await mailFor(grace.email, 'Drop the staging database'));
    const token = ada['approve drop'];
    const [prefix, body, mac] = token.split('.');

    const cases: [unknown, number, string][] = [
      [
        `${prefix}.${body}.${mac.slice(0, -2)}`,
        403,
        'This link is not valid (it was changed, cut short, or not made by this service).',
      ],
      [
        `${prefix}.${Buffer.from(Buffer.from(body, 'base64url').toString().replace('"approve"', '"reject"')).toString('base64url')}.${mac}`,
        403,
        'This link is not valid (it was changed, cut short, or not made by this service).',
      ],
    ];
    const signer = t.app.get(ActionLinkSigner);
    const claims = signer.read(token);
    expect(claims).not.toBeNull();
    const c = claims as NonNullable<typeof claims>;
    cases.push([
      signer.mint({ ...c, nonce: undefined, expiresAt: Math.floor(Date.now() / 1000) - 1 }),
      403,
      'This link has expired (links in emails work for 24 hours): open the interrupt in Interlock to decide.',
    ]);
    cases.push([
      signer.mint({
        ...c,
        nonce: undefined,
        actionDigest: actionDigest(id, 'drop', { db: 'production' }),
      }),
      409,
      'This action is not the one the email showed: open the interrupt in Interlock to decide.',
    ]);
    cases.push([
      new ActionLinkSigner('another-server-secret-0123456789-0123456789').mint({
        ...c,
        nonce: undefined,
      }),
      403,
      'This link is not valid (it was changed, cut short, or not made by this service).',
    ]);
    for (const [bad, status, message] of cases) {
      for (const res of [await preview(bad), await decide(bad)]) {
        expect([res.status, res.body.message]).toEqual([status, message]);
      }
    }
    const keyed = await http()
      .post('/api/action-links/decide')
      .set('x-api-key', key)
      .send({ token });
    expect([keyed.status, keyed.body.code]).toEqual([403, 'HUMANS_ONLY']);
    expect((await decide(42)).status).toBe(400);

    // Grace may no longer decide: her role loses interrupt.decide.
    const roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const viewer = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Viewer', permissions: ['interrupt.read'] });
    expect(viewer.status).toBe(201);
    expect(
      (
        await http()
          .patch(`/api/members/${grace.memberId}`)
          .set('cookie', owner.cookie)
          .send({ roleId: viewer.body.id })
      ).status,
    ).toBe(200);
    const demoted = await decide(gh['approve drop']);
    expect([demoted.status, demoted.body.message]).toEqual([
      403,
      'The member this link was sent to may no longer decide interrupts in this organisation.',
    ]);
    expect(
      (
        await http()
          .patch(`/api/members/${grace.memberId}`)
          .set('cookie', owner.cookie)
          .send({ roleId: roles.manager })
      ).status,
    ).toBe(200);

    await setTokenActions(false);
    const off = await decide(token);
    expect([off.status, off.body.message]).toEqual([
      403,
      'This organisation does not let email links decide: sign in to Interlock to decide.',
    ]);
    expect((await preview(token)).status).toBe(403);
    expect(await read(id)).toMatchObject({ status: 'open', decisions: [] });
    await setTokenActions(true);
    expect((await decide(token)).status).toBe(200);
  });

  it('posted many times at once, a link decides exactly once', async () => {
    const { id } = await open('Pay invoice 77', [{ name: 'pay' }]);
    const token = tokensOf(await mailFor(grace.email, 'Pay invoice 77'))['approve pay'];
    const results = await Promise.all(Array.from({ length: 6 }, () => decide(token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await read(id)).decisions).toHaveLength(1);
  });
});
