import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  JoinedMember,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { shown, type SlackBlock, SlackStandIn } from './support/slack-stand-in';
import { linkToken, SmtpSink } from './support/smtp-sink';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const DASHBOARD = 'https://review.example.test/app';
const BOT_TOKEN = 'xoxb-1111-2222-interlockteststoken';
const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const CHANNEL = 'C0REVIEWS';

describe('Slack (issue 30 §4): messages with buttons, verified interactions, edited on every change', () => {
  let t: TestApp;
  let slack: SlackStandIn;
  let sink: SmtpSink;
  let owner: SignedUpOwner;
  let grace: JoinedMember;
  let key: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    slack = new SlackStandIn({
      teamId: 'T0WORKSPACE',
      teamName: 'Analytical Engines Slack',
      botUserId: 'U0BOT',
      token: BOT_TOKEN,
    });
    await slack.start();
    // A real SMTP server: members verify their address through the emailed link (SPEC §8f).
    sink = new SmtpSink();
    await sink.start();
    t = await startTestApp({
      env: {
        SLACK_API_URL: slack.url,
        SMTP_URL: sink.url,
        NOTIFICATION_POLL_INTERVAL: '50ms',
        DASHBOARD_URL: DASHBOARD,
      },
    });
    owner = await signUpOwner(t.app.getHttpServer(), {
      name: 'Ada Lovelace',
      organisationName: 'Analytical Engines',
    });
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
    const roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    grace = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.manager,
      'Grace Hopper',
    );
    slack.users.set('U0GRACE', { id: 'U0GRACE', email: grace.email.toUpperCase() });
    slack.users.set('U0STRANGER', { id: 'U0STRANGER', email: 'someone.else@example.test' });
    slack.users.set('U0UNCONFIRMED', {
      id: 'U0UNCONFIRMED',
      email: grace.email,
      emailConfirmed: false,
    });
  });
  afterAll(async () => {
    await t.close();
    await slack.stop();
    await sink.stop();
    await classifier?.stop();
  });
  let classifier: WebhookReceiver | undefined;

  const connect = (cookie: string, body: Record<string, unknown>) =>
    http().put('/api/notifications/slack').set('cookie', cookie).send(body);
  const open = async (title: string, actions: string[] = ['deploy']) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, actionRequests: actions.map((name) => ({ name, args: { target: 'prod' } })) });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const messageOf = async (title: string) => {
    await slack.until(() =>
      slack.messagesIn(CHANNEL).some((m) => shown(m.args).texts[0] === title),
    );
    return slack.messagesIn(CHANNEL).find((m) => shown(m.args).texts[0] === title) as {
      ts: string;
      args: Record<string, unknown>;
    };
  };
  /** Waits until the message of `title` shows `line` (it is edited after the change commits). */
  const messageShowing = async (title: string, line: string) => {
    await slack.until(() =>
      slack
        .messagesIn(CHANNEL)
        .some((m) => shown(m.args).texts[0] === title && shown(m.args).texts.includes(line)),
    );
    return shown((await messageOf(title)).args);
  };
  const interact = (
    payload: unknown,
    options: { secret?: string; timestamp?: number; organisationId?: string } = {},
  ) => {
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const headers = SlackStandIn.sign(options.secret ?? SIGNING_SECRET, body, options.timestamp);
    let req = http().post(
      `/api/slack/interactions/${options.organisationId ?? owner.organisationId}`,
    );
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return req.send(body);
  };
  const click = (slackUser: string, button: { value: string; actionId?: string }, ts: string) => ({
    type: 'block_actions',
    team: { id: 'T0WORKSPACE', domain: 'analytical' },
    user: { id: slackUser, team_id: 'T0WORKSPACE' },
    channel: { id: CHANNEL },
    container: { type: 'message', channel_id: CHANNEL, message_ts: ts },
    actions: [{ type: 'button', action_id: button.actionId, value: button.value, action_ts: '1' }],
  });
  /** Grace proves her address the way a member does, the emailed link (once; later calls find it done). */
  const verifyGrace = async () => {
    const me = async () =>
      (await http().get('/api/me').set('cookie', grace.cookie)).body.user.emailVerified;
    if ((await me()) === true) return;
    const subject = 'Verify your email address for Interlock';
    expect(
      (await http().post('/api/me/email-verification').set('cookie', grace.cookie)).status,
    ).toBe(202);
    await sink.until(() => sink.withSubject(grace.email, subject).length === 1, 60_000);
    const token = linkToken(sink.withSubject(grace.email, subject)[0], DASHBOARD, 'verify-email');
    expect((await http().post('/api/auth/verify-email').send({ token })).status).toBe(204);
    expect(await me()).toBe(true);
  };
  const read = async (id: string) =>
    (await http().get(`/api/interrupts/${id}`).set('x-api-key', key)).body;

  it('connects with webhook.manage only; the token is checked with Slack; secrets are never shown; audited', async () => {
    expect((await http().get('/api/notifications/slack').set('cookie', owner.cookie)).body).toEqual(
      {
        connection: null,
        messages: [],
      },
    );
    const refused = await connect(grace.cookie, {
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      channelId: CHANNEL,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing permission: webhook.manage.');

    const badToken = await connect(owner.cookie, {
      botToken: 'xoxb-0000-wrong',
      signingSecret: SIGNING_SECRET,
      channelId: CHANNEL,
    });
    expect(badToken.status).toBe(409);
    expect(badToken.body.message).toBe(
      "Slack refused the bot token (invalid_auth): check it under the Slack app's OAuth & Permissions.",
    );
    const badShape = await connect(owner.cookie, {
      botToken: 'not-a-token',
      signingSecret: SIGNING_SECRET,
      channelId: '#reviews',
    });
    expect(badShape.status).toBe(400);
    expect(badShape.body.message).toContain('botToken must be a Slack bot token (xoxb-…).');
    expect(badShape.body.message).toContain(
      'channelId must be a Slack channel id such as C0123ABCD.',
    );
    const unknownTeam = await connect(owner.cookie, {
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      channelId: CHANNEL,
      teamId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownTeam.status).toBe(404);

    const ok = await connect(owner.cookie, {
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      channelId: CHANNEL,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.connection).toMatchObject({
      slackTeamId: 'T0WORKSPACE',
      slackTeamName: 'Analytical Engines Slack',
      channelId: CHANNEL,
      teamId: null,
      teamName: null,
    });
    expect(ok.body.connection.requestUrl).toMatch(
      new RegExp(`^https?://[^/]+/api/slack/interactions/${owner.organisationId}$`),
    );
    const read = await http().get('/api/notifications/slack').set('cookie', grace.cookie);
    expect(read.status).toBe(200);
    expect(read.body.connection).toEqual(ok.body.connection);
    for (const body of [ok.text, read.text]) {
      expect(body).not.toContain(BOT_TOKEN);
      expect(body).not.toContain(SIGNING_SECRET);
    }
    // Encrypted at rest.
    const [row] = await t.app
      .get(DataSource)
      .query(`SELECT bot_token, signing_secret FROM slack_connections WHERE organisation_id = $1`, [
        owner.organisationId,
      ]);
    expect(Buffer.from(row.bot_token).toString('latin1')).not.toContain(BOT_TOKEN);
    expect(Buffer.from(row.signing_secret).toString('latin1')).not.toContain(SIGNING_SECRET);

    const audit = await http()
      .get('/api/audit-log?action=settings.notifications_updated')
      .set('cookie', owner.cookie);
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0]).toMatchObject({
      category: 'settings',
      actorName: 'Ada Lovelace',
      metadata: {
        changes: {
          slack: {
            from: null,
            to: {
              slackTeamId: 'T0WORKSPACE',
              slackTeamName: 'Analytical Engines Slack',
              channelId: CHANNEL,
              teamId: null,
            },
          },
        },
      },
    });
    expect(JSON.stringify(audit.body)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(audit.body)).not.toContain(SIGNING_SECRET);
  });

  it('posts a new interrupt with Approve / Reject buttons and a link; agent text stays plain text', async () => {
    const { id } = await open('Deploy <!channel> to *prod*', ['deploy', 'notify']);
    const message = await messageOf('Deploy <!channel> to *prod*');
    const post = slack.callsOf('chat.postMessage').find((c) => c.args.channel === CHANNEL);
    expect(post?.token).toBe(BOT_TOKEN);
    const view = shown(message.args);
    expect(view.text).toBe('Deploy <!channel> to *prod* — Waiting for a decision');
    expect(view.texts).toContain('deploy {"target":"prod"}');
    expect(view.buttons.map((b) => b.label)).toEqual([
      'Approve deploy',
      'Reject deploy',
      'Approve notify',
      'Reject notify',
    ]);
    expect(JSON.parse(view.buttons[0].value)).toMatchObject({ i: id, a: 'deploy', d: 'approve' });
    // Every text object an agent wrote is plain_text: nothing becomes a mention or a link.
    const blocks = message.args.blocks as SlackBlock[];
    expect(blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Deploy <!channel> to *prod*', emoji: false },
    });
    const link = blocks
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'interlock_open') as { url?: string };
    expect(link.url).toBe(`${DASHBOARD}/interrupts/${id}`);
    const listed = await http().get('/api/notifications/slack').set('cookie', owner.cookie);
    expect(listed.body.messages[0]).toMatchObject({
      interruptId: id,
      status: 'sent',
      posted: true,
      lastError: null,
    });
  });

  it('refuses interactions not signed with the signing secret, too old, or from another workspace', async () => {
    await open('Signed requests only');
    const message = await messageOf('Signed requests only');
    const button = shown(message.args).buttons[0];
    const payload = click('U0GRACE', button, message.ts);

    const forged = await interact(payload, { secret: '0000000000000000000000000000000a' });
    expect(forged.status).toBe(403);
    expect(forged.body.message).toBe(
      "This request is not signed by this organisation's Slack app.",
    );
    const stale = await interact(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(403);
    expect(stale.body.message).toBe(
      'This Slack request is too old (its timestamp is more than five minutes from now).',
    );
    const unsigned = await http()
      .post(`/api/slack/interactions/${owner.organisationId}`)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
    expect(unsigned.status).toBe(403);
    const elsewhere = await interact({
      ...payload,
      team: { id: 'T0OTHER' },
      user: { id: 'U0GRACE', team_id: 'T0OTHER' },
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe(
      'This Slack request comes from another workspace than the connected one.',
    );
    const notConnected = await interact(payload, {
      organisationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(notConnected.status).toBe(404);
    // A body changed after signing is refused (the signature covers the exact bytes).
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const headers = SlackStandIn.sign(SIGNING_SECRET, body);
    let tampered = http().post(`/api/slack/interactions/${owner.organisationId}`);
    for (const [name, value] of Object.entries(headers)) tampered = tampered.set(name, value);
    expect((await tampered.send(`${body}&x=1`)).status).toBe(403);

    const id = JSON.parse(button.value).i as string;
    expect((await read(id)).decisions).toEqual([]);
  });

  it('an unlinked Slack user (no member has their email, Slack has not confirmed it, or the member has not verified it in Interlock) is told so and decides nothing', async () => {
    await open('Strangers cannot decide');
    const message = await messageOf('Strangers cannot decide');
    const button = shown(message.args).buttons[0];
    const id = JSON.parse(button.value).i as string;
    // U0GRACE's confirmed Slack address is Grace's, but Grace has not verified it in Interlock yet.
    expect((await http().get('/api/me').set('cookie', grace.cookie)).body.user.emailVerified).toBe(
      false,
    );
    for (const user of ['U0STRANGER', 'U0UNCONFIRMED', 'U0GRACE']) {
      const before = slack.callsOf('chat.postEphemeral').length;
      const res = await interact(click(user, button, message.ts));
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      const told = slack.callsOf('chat.postEphemeral').slice(before);
      expect(told).toHaveLength(1);
      expect(told[0].args).toMatchObject({
        channel: CHANNEL,
        user,
        text: 'Your Slack account is not linked to a member of this Interlock organisation (its email address is not a member’s verified address). Decide in Interlock instead.',
      });
    }
    expect((await read(id)).decisions).toEqual([]);
  });

  it('a linked member (verified address) decides from Slack (via slack, audited as theirs) and the message is edited: no buttons left', async () => {
    await verifyGrace();

    await open('Decide from Slack');
    const message = await messageOf('Decide from Slack');
    const approve = shown(message.args).buttons.find((b) => b.label === 'Approve deploy') as {
      value: string;
    };
    const id = JSON.parse(approve.value).i as string;
    const res = await interact(click('U0GRACE', approve, message.ts));
    expect(res.status).toBe(200);
    const interrupt = await read(id);
    expect(interrupt.status).toBe('answered');
    expect(interrupt.decisions[0]).toMatchObject({
      actionName: 'deploy',
      decision: 'approve',
      decidedBy: { type: 'member', id: grace.memberId, name: 'Grace Hopper' },
    });
    const audit = await http()
      .get(`/api/audit-log?action=interrupt.decided&targetId=${id}`)
      .set('cookie', owner.cookie);
    expect(audit.body.entries[0]).toMatchObject({
      actorName: 'Grace Hopper',
      metadata: { actionName: 'deploy', decision: 'approve', via: 'slack' },
    });
    const edited = await messageShowing('Decide from Slack', 'Approved by Grace Hopper');
    expect(edited.buttons).toEqual([]);
    expect(edited.text).toBe('Decide from Slack — Answered');
    // The same message was edited, not a second one posted.
    expect(
      slack.messagesIn(CHANNEL).filter((m) => shown(m.args).texts[0] === 'Decide from Slack'),
    ).toHaveLength(1);
    expect(slack.callsOf('chat.update').some((c) => c.args.ts === message.ts)).toBe(true);

    // Pressing again (an old client view): told it was decided, nothing changes.
    const before = slack.callsOf('chat.postEphemeral').length;
    expect((await interact(click('U0GRACE', approve, message.ts))).status).toBe(200);
    await slack.until(() => slack.callsOf('chat.postEphemeral').length === before + 1);
    expect((await read(id)).decisions).toHaveLength(1);
  });

  it('decided on the web, or withdrawn by the agent: the message is edited to say so (never a stale "waiting")', async () => {
    const web = await open('Decided in the dashboard');
    await messageOf('Decided in the dashboard');
    const decided = await http()
      .post(`/api/interrupts/${web.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'deploy', decision: 'reject', message: 'not today' });
    expect(decided.status).toBe(201);
    const view = await messageShowing('Decided in the dashboard', 'Rejected by Ada Lovelace');
    expect(view.buttons).toEqual([]);
    expect(view.text).toBe('Decided in the dashboard — Answered');

    const gone = await open('Withdrawn by its agent');
    await messageOf('Withdrawn by its agent');
    const cancelled = await http()
      .post(`/api/interrupts/${gone.id}/cancel`)
      .set('x-api-key', key)
      .send({ reason: 'no longer needed' });
    expect(cancelled.status).toBe(200);
    const withdrawn = await messageShowing(
      'Withdrawn by its agent',
      'Withdrawn by the agent (ci-runner): no longer needed',
    );
    expect(withdrawn.buttons).toEqual([]);
  });

  it("with a team chosen, only that team's interrupts are posted (when assigned to it); disconnecting stops posting and is audited", async () => {
    const team = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Release desk' });
    expect(team.status).toBe(201);
    const reconnected = await connect(owner.cookie, {
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      channelId: CHANNEL,
      teamId: team.body.id,
    });
    expect(reconnected.status).toBe(200);
    expect(reconnected.body.connection).toMatchObject({
      teamId: team.body.id,
      teamName: 'Release desk',
    });

    const everyone = await open('Not for the release desk');
    const theirs = await open('For the release desk');
    const assigned = await http()
      .post(`/api/interrupts/${theirs.id}/assign`)
      .set('cookie', owner.cookie)
      .send({ teamId: team.body.id });
    expect(assigned.status).toBe(200);
    const view = shown((await messageOf('For the release desk')).args);
    expect(view.texts).toContain('Waiting for a decision · Assigned to Release desk');
    expect(
      slack.messagesIn(CHANNEL).some((m) => shown(m.args).texts[0] === 'Not for the release desk'),
    ).toBe(false);
    expect(everyone.id).toBeDefined();

    const gone = await http().delete('/api/notifications/slack').set('cookie', owner.cookie);
    expect(gone.status).toBe(204);
    expect(
      (await http().delete('/api/notifications/slack').set('cookie', owner.cookie)).status,
    ).toBe(404);
    const audit = await http()
      .get('/api/audit-log?action=settings.notifications_updated')
      .set('cookie', owner.cookie);
    expect(audit.body.entries[0].metadata.changes.slack).toMatchObject({
      from: { teamId: team.body.id, channelId: CHANNEL },
      to: null,
    });
    const posts = slack.callsOf('chat.postMessage').length;
    await open('After disconnecting');
    // Nothing is queued for Slack any more (checked in the table the worker reads).
    const queued = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM slack_messages WHERE organisation_id = $1`, [
        owner.organisationId,
      ]);
    expect(queued[0].n).toBe(0);
    expect(slack.callsOf('chat.postMessage').length).toBe(posts);
  });
  it('a channel for high risk only: posts what the classifier rated at least high and what it could not rate, with the risk and labels shown in Slack and in the email', async () => {
    await verifyGrace(); // so she is emailed (EMAIL_VERIFICATION is required with SMTP_URL set)
    // The organisation's classifier (a real HTTP endpoint on loopback): its answer depends on the action.
    classifier = new WebhookReceiver((req) => {
      const name = (JSON.parse(req.body) as { data: { action: { name: string } } }).data.action
        .name;
      if (name === 'read-logs') return { status: 200, body: JSON.stringify({ risk: 'low' }) };
      if (name === 'drop-table')
        return {
          status: 200,
          body: JSON.stringify({ risk: 'critical', labels: ['prod', 'data-loss'] }),
        };
      if (name === 'restart') return { status: 200, body: JSON.stringify({ risk: 'high' }) };
      return { status: 503 }; // the classifier fails: the risk is unknown
    });
    await classifier.start();
    const setUp = await http()
      .put('/api/classification/classifier')
      .set('cookie', owner.cookie)
      .send({ url: classifier.url, timeoutMs: 10_000 });
    expect(setUp.status).toBe(200);

    const bad = await connect(owner.cookie, {
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      channelId: CHANNEL,
      minRisk: 'severe',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain(
      'minRisk must be one of low, medium, high, critical, or null.',
    );
    const connected = await connect(owner.cookie, {
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      channelId: CHANNEL,
      minRisk: 'high',
    });
    expect(connected.status).toBe(200);
    expect(connected.body.connection).toMatchObject({ teamId: null, minRisk: 'high' });
    const audit = await http()
      .get('/api/audit-log?action=settings.notifications_updated')
      .set('cookie', owner.cookie);
    expect(audit.body.entries[0].metadata.changes.slack.to).toMatchObject({
      channelId: CHANNEL,
      teamId: null,
      minRisk: 'high',
    });

    const low = await open('Read the logs', ['read-logs']);
    const critical = await open('Drop the orders table', ['read-logs', 'drop-table']);
    const high = await open('Restart the web tier', ['restart']);
    const unknown = await open('Unrated by the classifier', ['mystery']);
    const records = await Promise.all([low, critical, high, unknown].map((i) => read(i.id)));
    expect(records.map((r) => [r.risk, r.labels])).toEqual([
      ['low', []],
      ['critical', ['prod', 'data-loss']],
      ['high', []],
      [null, []],
    ]);

    const rated = shown((await messageOf('Drop the orders table')).args);
    expect(rated.texts).toContain(
      'Waiting for a decision · Risk: critical · Labels: prod, data-loss',
    );
    expect(shown((await messageOf('Restart the web tier')).args).texts).toContain(
      'Waiting for a decision · Risk: high',
    );
    // Unknown risk goes to a person, so a high-risk channel is told (SPEC §8h).
    expect(shown((await messageOf('Unrated by the classifier')).args).texts).toContain(
      'Waiting for a decision',
    );
    // The low-risk one was never queued for Slack (the row is written in its create transaction).
    const queued = await t.app
      .get(DataSource)
      .query(`SELECT interrupt_id FROM slack_messages WHERE organisation_id = $1`, [
        owner.organisationId,
      ]);
    const queuedIds = (queued as { interrupt_id: string }[]).map((r) => r.interrupt_id);
    expect(queuedIds).toEqual(expect.arrayContaining([critical.id, high.id, unknown.id]));
    expect(queuedIds).not.toContain(low.id);
    expect(slack.messagesIn(CHANNEL).some((m) => shown(m.args).texts[0] === 'Read the logs')).toBe(
      false,
    );

    // The email says it too (every reader is emailed whatever the risk): text and HTML parts.
    const subject = '[Analytical Engines] Approval needed: Drop the orders table';
    await sink.until(() => sink.withSubject(grace.email, subject).length === 1, 60_000);
    const [mail] = sink.withSubject(grace.email, subject);
    expect(mail.parsed.text).toContain('\nRisk: critical · Labels: prod, data-loss\n');
    expect(String(mail.parsed.html)).toContain(
      '<strong>Risk: critical · Labels: prod, data-loss</strong>',
    );
    const plainSubject = '[Analytical Engines] Approval needed: Unrated by the classifier';
    await sink.until(() => sink.withSubject(grace.email, plainSubject).length === 1, 60_000);
    expect(sink.withSubject(grace.email, plainSubject)[0].parsed.text).not.toContain('Risk');
  });
});
