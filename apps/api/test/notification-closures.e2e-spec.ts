import { DataSource } from 'typeorm';
import { InterruptLifecycleService } from '../src/interrupts/interrupt-lifecycle.service';
import { JoinedMember, SignedUpOwner } from './support/factories';
import { notificationSuite } from './support/notification-suite';
import { shown, SlackStandIn } from './support/slack-stand-in';
import { SmtpSink, type ReceivedMail } from './support/smtp-sink';
import { TestApp } from './support/test-app';

const DASHBOARD = 'https://review.example.test/app';
const BOT_TOKEN = 'xoxb-1111-2222-closurestoken';
const CHANNEL = 'C0CLOSURES';
const EXPIRED = 'Expired: its deadline passed before every action was decided';
/** Long enough for a loaded machine; every wait ends as soon as its condition holds. */
const WAIT_MS = 60_000;

// Issue 30: an interrupt withdrawn (by a member or its agent) or expired at its deadline tells
// the people it waited on — by email through a real SMTP server, and in its Slack message (the
// stand-in for Slack's Web API) — who closed it and why; a member who withdrew it is not told.
describe('notifications when an interrupt is withdrawn or expires: who and why, in every channel', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let slack: SlackStandIn;
  let owner: SignedUpOwner;
  let grace: JoinedMember;
  let key: string;
  // Ada owns it; its agent's key is named billing-agent; Grace is a manager (may decide).
  const suite = notificationSuite({
    organisationName: 'Analytical Engines',
    managers: ['Grace Hopper'],
    slack: {
      teamId: 'T0CLOSURES',
      teamName: 'Closures Slack',
      token: BOT_TOKEN,
      channelId: CHANNEL,
      signingSecret: '5c1a5e5c1a5e00aa11bb22cc33dd44ee',
    },
    env: { DASHBOARD_URL: DASHBOARD },
  });
  const { http } = suite;
  beforeAll(() => {
    ({ t, sink, slack, owner, key } = suite);
    grace = suite.managers['Grace Hopper'];
  });

  const open = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, actionRequests: [{ name: 'deploy', args: { to: 'prod' } }], ...extra });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const mailTo = (address: string, subject: string) => sink.withSubject(address, subject);
  const untilMail = (address: string, subject: string) =>
    sink.until(() => mailTo(address, subject).length === 1, WAIT_MS);
  /** Who the closing notifications went to (written in the closing transaction: final once it answered). */
  const closedRecipients = async (id: string) =>
    (
      (await t.app.get(DataSource).query(
        `SELECT recipient_user_id FROM notifications
            WHERE organisation_id = $1 AND subject_id = $2 AND kind = 'interrupt.closed'
            ORDER BY recipient_user_id`,
        [owner.organisationId, id],
      )) as { recipient_user_id: string }[]
    ).map((r) => r.recipient_user_id);
  /** The Slack message of `title` once it shows `line`. */
  const slackShowing = async (title: string, line: string) => {
    const find = () =>
      slack
        .messagesIn(CHANNEL)
        .map((m) => shown(m.args))
        .find((m) => m.texts[0] === title && m.texts.includes(line));
    await slack.until(() => find() !== undefined, WAIT_MS);
    return find() as ReturnType<typeof shown>;
  };
  const linksIn = (mail: ReceivedMail) =>
    `${mail.parsed.text ?? ''}${String(mail.parsed.html)}`.match(/\/confirm\?|\/decide#/g) ?? [];

  it('a member withdraws: the others it waited on are emailed who withdrew it and why (no action links), the member is not; Slack says the same', async () => {
    const title = 'Rotate the signing keys';
    const id = await open(title);
    await untilMail(owner.email, `[Analytical Engines] Approval needed: ${title}`);
    await untilMail(grace.email, `[Analytical Engines] Approval needed: ${title}`);

    const withdrawn = await http()
      .post(`/api/interrupts/${id}/cancel`)
      .set('cookie', grace.cookie)
      .send({ reason: 'Done by hand <already>' });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({
      status: 'withdrawn',
      withdrawnReason: 'Done by hand <already>',
    });
    // Ada, who was asked, is told; Grace, who withdrew it, is not.
    expect(await closedRecipients(id)).toEqual([owner.memberId]);

    const subject = `[Analytical Engines] Withdrawn: ${title}`;
    await untilMail(owner.email, subject);
    const mail = mailTo(owner.email, subject)[0];
    expect(mail.parsed.text).toContain('Withdrawn by Grace Hopper: Done by hand <already>');
    expect(mail.parsed.html).toContain('Withdrawn by Grace Hopper: Done by hand &lt;already&gt;');
    expect(linksIn(mail)).toEqual([]);
    expect(mail.parsed.text).toContain(`${DASHBOARD}/interrupts/${id}`);
    expect(mailTo(grace.email, subject)).toEqual([]);

    const message = await slackShowing(title, 'Withdrawn by Grace Hopper: Done by hand <already>');
    expect(message.buttons).toEqual([]);
    expect(message.text).toBe(`${title} — Withdrawn by Grace Hopper: Done by hand <already>`);
  });

  it('its agent withdraws: the assignee it waited on hears it was the agent (by its key’s name) and why; the other readers are not asked, so not told', async () => {
    const title = 'Refund order 1138';
    const id = await open(title);
    const assigned = await http()
      .post(`/api/interrupts/${id}/assign`)
      .set('cookie', owner.cookie)
      .send({ memberId: grace.memberId });
    expect(assigned.status).toBe(200);
    await untilMail(grace.email, `[Analytical Engines] Assigned to you: ${title}`);

    const withdrawn = await http()
      .post(`/api/interrupts/${id}/cancel`)
      .set('x-api-key', key)
      .send({ reason: 'superseded by order 1139' });
    expect(withdrawn.status).toBe(200);
    expect(await closedRecipients(id)).toEqual([grace.memberId]);

    const subject = `[Analytical Engines] Withdrawn: ${title}`;
    await untilMail(grace.email, subject);
    const mail = mailTo(grace.email, subject)[0];
    expect(mail.parsed.text).toContain(
      'Withdrawn by the agent (billing-agent): superseded by order 1139 · assigned to Grace Hopper',
    );
    expect(linksIn(mail)).toEqual([]);

    const message = await slackShowing(
      title,
      'Withdrawn by the agent (billing-agent): superseded by order 1139 · Assigned to Grace Hopper',
    );
    expect(message.buttons).toEqual([]);
  });

  it('expired at its deadline: those it waited on hear it expired and what the deadline decided — except who turned these emails off; Slack says it expired', async () => {
    // Grace does not want to hear of closed interrupts by email.
    const off = await http()
      .put('/api/notifications/preferences')
      .set('cookie', grace.cookie)
      .send({ preferences: { 'interrupt.closed': { email: 'off' } } });
    expect(off.status).toBe(200);
    const settings = await http().get('/api/notifications/preferences').set('cookie', grace.cookie);
    expect(settings.body.effective['interrupt.closed']).toEqual({ email: 'off', browser: 'off' });

    const title = 'Scale the cluster down';
    const id = await open(title, { timeoutSeconds: 3600 });
    await untilMail(owner.email, `[Analytical Engines] Approval needed: ${title}`);
    // The expiry job's own step, at a moment past the deadline (the job would take an hour).
    const lifecycle = t.app.get(InterruptLifecycleService);
    expect(await lifecycle.expire(owner.organisationId, id, new Date(Date.now() + 3_601_000))).toBe(
      true,
    );
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(read.body).toMatchObject({ status: 'expired' });
    expect(await closedRecipients(id)).toEqual([owner.memberId]);

    const subject = `[Analytical Engines] Expired: ${title}`;
    await untilMail(owner.email, subject);
    const mail = mailTo(owner.email, subject)[0];
    expect(mail.parsed.text).toContain(EXPIRED);
    expect(mail.parsed.text).toContain('reject by system');
    expect(linksIn(mail)).toEqual([]);

    const message = await slackShowing(title, EXPIRED);
    expect(message.texts).toContain('Rejected by system');
    expect(message.buttons).toEqual([]);
  });
});
