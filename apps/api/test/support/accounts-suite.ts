import request from 'supertest';
import { DataSource } from 'typeorm';
import { AfterAnswer } from '../../src/users/after-answer';
import { type ReceivedMail, SmtpSink } from './smtp-sink';
import { startTestApp, type TestApp } from './test-app';

/** Where the account emails' links point in the account suites. */
export const ACCOUNTS_DASHBOARD = 'https://review.example.test/app';

/** What an account suite works with; set before its first test. */
export interface AccountsSuite {
  t: TestApp;
  /** The real SMTP server the service sends the account emails through. */
  sink: SmtpSink;
  server: () => ReturnType<TestApp['app']['getHttpServer']>;
  http: () => ReturnType<typeof request>;
  db: () => DataSource;
  /** The emails of `subject` to `address` received so far. */
  mailsTo: (address: string, subject: string) => ReceivedMail[];
}

/**
 * The set-up the account e2e suites share (sign-up confirmation, email verification, passwords),
 * called inside a `describe`: an SMTP sink, the service sending through it from
 * `Interlock <accounts@interlock.test>` with links to `ACCOUNTS_DASHBOARD` (plus `env`), and at
 * the end the work done after answers settled, the service and the sink stopped.
 */
export function accountsSuite(env: Record<string, string> = {}): AccountsSuite {
  const suite = {
    server: () => suite.t.app.getHttpServer(),
    http: () => request(suite.t.app.getHttpServer()),
    db: () => suite.t.app.get(DataSource),
    mailsTo: (address: string, subject: string) => suite.sink.withSubject(address, subject),
  } as AccountsSuite;
  beforeAll(async () => {
    suite.sink = new SmtpSink();
    await suite.sink.start();
    suite.t = await startTestApp({
      env: {
        SMTP_URL: suite.sink.url,
        MAIL_FROM: 'Interlock <accounts@interlock.test>',
        DASHBOARD_URL: ACCOUNTS_DASHBOARD,
        ...env,
      },
    });
  });
  afterAll(async () => {
    await suite.t?.app.get(AfterAnswer).settled();
    await suite.t?.close();
    await suite.sink?.stop();
  });
  return suite;
}
