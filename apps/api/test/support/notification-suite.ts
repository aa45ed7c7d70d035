import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  joinOrganisation,
  organisationWithKey,
  type JoinedMember,
  type SignedUpOwner,
} from './factories';
import { SlackStandIn } from './slack-stand-in';
import { SmtpSink } from './smtp-sink';
import { startTestApp, type TestApp } from './test-app';

/** A Slack workspace the suite connects its organisation to, through the stand-in for Slack's Web API. */
export interface SuiteSlack {
  teamId: string;
  teamName: string;
  token: string;
  channelId: string;
  signingSecret: string;
}

export interface NotificationSuiteOptions {
  /** The organisation Ada owns (with a key for its agent). */
  organisationName: string;
  /** Members who join as managers (may decide), by name: `suite.managers[name]`. */
  managers?: string[];
  /** When given, the stand-in runs and the organisation is connected to this workspace. */
  slack?: SuiteSlack;
  /** More of the service's environment (`DASHBOARD_URL`…). */
  env?: Record<string, string>;
}

/** What a notification suite works with; set before its first test. */
export interface NotificationSuite {
  t: TestApp;
  /** The real SMTP server the service sends through. */
  sink: SmtpSink;
  /** The stand-in for Slack (only with `options.slack`). */
  slack: SlackStandIn;
  owner: SignedUpOwner;
  /** A key of the organisation. */
  key: string;
  managers: Record<string, JoinedMember>;
  http: () => ReturnType<typeof request>;
  db: () => DataSource;
}

/**
 * The set-up the notification suites share, called inside a `describe`: an SMTP sink (and the
 * Slack stand-in, when asked), the service sending through them with a 50 ms outbox poll, an
 * organisation with a key, its managers, and its Slack connection — all stopped when the suite ends.
 */
export function notificationSuite(options: NotificationSuiteOptions): NotificationSuite {
  const suite = {
    managers: {},
    http: () => request(suite.t.app.getHttpServer()),
    db: () => suite.t.app.get(DataSource),
  } as NotificationSuite;
  beforeAll(async () => {
    suite.sink = new SmtpSink();
    await suite.sink.start();
    const slack = options.slack;
    if (slack !== undefined) {
      suite.slack = new SlackStandIn({
        teamId: slack.teamId,
        teamName: slack.teamName,
        botUserId: 'U0BOT',
        token: slack.token,
      });
      await suite.slack.start();
    }
    suite.t = await startTestApp({
      env: {
        SMTP_URL: suite.sink.url,
        ...(slack === undefined ? {} : { SLACK_API_URL: suite.slack.url }),
        NOTIFICATION_POLL_INTERVAL: '50ms',
        ...options.env,
      },
    });
    const server = suite.t.app.getHttpServer();
    ({ owner: suite.owner, key: suite.key } = await organisationWithKey(
      server,
      options.organisationName,
    ));
    if ((options.managers ?? []).length > 0) {
      const { manager } = await builtInRoleIds(server, suite.owner.cookie);
      for (const name of options.managers ?? [])
        suite.managers[name] = await joinOrganisation(server, suite.owner.cookie, manager, name);
    }
    if (slack !== undefined) {
      const connected = await suite
        .http()
        .put('/api/notifications/slack')
        .set('cookie', suite.owner.cookie)
        .send({
          botToken: slack.token,
          signingSecret: slack.signingSecret,
          channelId: slack.channelId,
        });
      expect(connected.status).toBe(200);
    }
  });
  afterAll(async () => {
    await suite.t?.close();
    await suite.slack?.stop();
    await suite.sink?.stop();
  });
  return suite;
}
