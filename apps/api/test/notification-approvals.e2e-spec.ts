import { DataSource } from 'typeorm';
import { joinOrganisation, JoinedMember, SignedUpOwner } from './support/factories';
import { notificationSuite } from './support/notification-suite';
import { shown, SlackStandIn } from './support/slack-stand-in';
import { SmtpSink } from './support/smtp-sink';
import { TestApp } from './support/test-app';

const DASHBOARD = 'https://review.example.test/app';
const BOT_TOKEN = 'xoxb-1111-2222-approvalstoken';
const CHANNEL = 'C0APPROVALS';
/** Long enough for a loaded machine; every wait ends as soon as its condition holds. */
const WAIT_MS = 60_000;

// Issue 30 with issue 37 §3: an action that needs several approvers, approved by one member,
// tells the other members who may still approve it — by email through a real SMTP server — that
// their approval is needed, and its Slack message (the stand-in for Slack's Web API) shows the
// count; the member who approved, members who may not decide, and (with an approver team)
// members outside it are not told.
describe('partial approvals: the other approvers are told their approval is needed', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let slack: SlackStandIn;
  let owner: SignedUpOwner;
  let key: string;
  let mary: JoinedMember;
  let grace: JoinedMember;
  let alan: JoinedMember;
  let viewer: JoinedMember;
  let paymentsTeamId: string;
  const suite = notificationSuite({
    organisationName: 'Analytical Engines',
    managers: ['Mary Manager', 'Grace Hopper', 'Alan Turing'],
    slack: {
      teamId: 'T0APPROVALS',
      teamName: 'Approvals Slack',
      token: BOT_TOKEN,
      channelId: CHANNEL,
      signingSecret: '5c1a5e5c1a5e00aa11bb22cc33dd44ff',
    },
    env: { DASHBOARD_URL: DASHBOARD },
  });
  const { http } = suite;

  beforeAll(async () => {
    ({ t, sink, slack, owner, key } = suite);
    ({ 'Mary Manager': mary, 'Grace Hopper': grace, 'Alan Turing': alan } = suite.managers);
    const server = t.app.getHttpServer();
    const viewerRole = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Viewer', permissions: ['interrupt.read'] });
    expect(viewerRole.status).toBe(201);
    viewer = await joinOrganisation(server, owner.cookie, viewerRole.body.id, 'Vera Viewer');
    const team = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Payments' });
    expect(team.status).toBe(201);
    paymentsTeamId = team.body.id;
    for (const m of [mary, grace]) {
      const added = await http()
        .post(`/api/teams/${paymentsTeamId}/members`)
        .set('cookie', owner.cookie)
        .send({ memberId: m.memberId });
      expect(added.status).toBe(204);
    }
  });

  const open = async (title: string, actionRequests: Record<string, unknown>[]) => {
    const res = await http().post('/api/interrupts').set('x-api-key', key).send({
      title,
      actionRequests,
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const approve = async (id: string, member: JoinedMember, actionName: string) => {
    const res = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', member.cookie)
      .send({ actionName, decision: 'approve' });
    expect(res.status).toBe(201);
    return res.body as { status: string };
  };
  /** Who was told their approval is needed (written in the approval's transaction: final once it answered). */
  const toldToApprove = async (id: string) =>
    (
      (await t.app.get(DataSource).query(
        `SELECT recipient_user_id FROM notifications
            WHERE organisation_id = $1 AND subject_id = $2 AND kind = 'interrupt.approval_needed'
            ORDER BY recipient_user_id`,
        [owner.organisationId, id],
      )) as { recipient_user_id: string }[]
    ).map((r) => r.recipient_user_id);
  const sorted = (ids: string[]) => [...ids].sort();
  const subject = (title: string) => `[Analytical Engines] Your approval is needed: ${title}`;

  it('1 of 2 approved: every other member who may decide is emailed (with links to approve); the approver and a member who may only read are not; Slack shows the count', async () => {
    const title = 'Pay invoice 117';
    const id = await open(title, [{ name: 'pay', args: { amount: 12000 }, requiredApprovals: 2 }]);
    await slack.until(() =>
      slack.messagesIn(CHANNEL).some((m) => shown(m.args).texts[0] === title),
    );
    expect((await approve(id, mary, 'pay')).status).toBe('open');

    expect(await toldToApprove(id)).toEqual(
      sorted([owner.memberId, grace.memberId, alan.memberId]),
    );
    await sink.until(
      () =>
        [owner.email, grace.email, alan.email].every(
          (to) => sink.withSubject(to, subject(title)).length === 1,
        ),
      WAIT_MS,
    );
    const [mail] = sink.withSubject(grace.email, subject(title));
    const text = mail.parsed.text ?? '';
    expect(text).toContain('1 of 2 approved — your approval is needed');
    expect(text).toContain('1 of 2 approvals: Mary Manager');
    expect(text).toContain(
      `Approve pay: ${DASHBOARD}/interrupts/${id}/confirm?action=pay&decision=approve`,
    );
    expect(String(mail.parsed.html)).toContain('1 of 2 approved — your approval is needed');
    expect(sink.withSubject(mary.email, subject(title))).toEqual([]);
    expect(sink.withSubject(viewer.email, subject(title))).toEqual([]);

    // The Slack message is edited to show who approved; its buttons stay for the second approver.
    await slack.until(
      () =>
        slack
          .messagesIn(CHANNEL)
          .some(
            (m) =>
              shown(m.args).texts[0] === title &&
              shown(m.args).texts.includes('1 of 2 approvals: Mary Manager'),
          ),
      WAIT_MS,
    );
    const message = slack.messagesIn(CHANNEL).find((m) => shown(m.args).texts[0] === title);
    const view = shown(message?.args ?? {});
    expect(view.buttons.map((b) => b.label)).toEqual(['Approve pay', 'Reject pay']);

    // The second approval answers it: nobody is told that an approval is needed again.
    expect((await approve(id, grace, 'pay')).status).toBe('answered');
    expect(await toldToApprove(id)).toEqual(
      sorted([owner.memberId, grace.memberId, alan.memberId]),
    );
  });

  it('with an approver team, only its other members are told; of several actions, the line names the action', async () => {
    const title = 'Refund order 88';
    const id = await open(title, [
      {
        name: 'refund',
        args: { amount: 900 },
        requiredApprovals: 2,
        approverTeam: { teamId: paymentsTeamId },
      },
      { name: 'notify', args: { customer: 88 } },
    ]);
    await approve(id, mary, 'refund');
    expect(await toldToApprove(id)).toEqual([grace.memberId]);
    await sink.until(() => sink.withSubject(grace.email, subject(title)).length === 1, WAIT_MS);
    const text = sink.withSubject(grace.email, subject(title))[0].parsed.text ?? '';
    expect(text).toContain('1 of 2 approved (refund) — your approval is needed');
  });

  it('a member who turned the kind off is not told; the others are', async () => {
    const off = await http()
      .put('/api/notifications/preferences')
      .set('cookie', alan.cookie)
      .send({ preferences: { 'interrupt.approval_needed': { email: 'off' } } });
    expect(off.status).toBe(200);
    expect(off.body.effective['interrupt.approval_needed']).toEqual({
      email: 'off',
      browser: 'off',
    });
    const id = await open('Wire 40,000 EUR', [
      { name: 'wire', args: { amount: 40000 }, requiredApprovals: 3 },
    ]);
    await approve(id, grace, 'wire');
    expect(await toldToApprove(id)).toEqual(sorted([owner.memberId, mary.memberId]));
  });
});
