import { AfterAnswer } from '../../src/users/after-answer';
import { SmtpSink } from './smtp-sink';
import { startTestApp, type TestApp } from './test-app';

/** Where the account emails' links point in these tests (`DASHBOARD_URL`). */
export const ACCOUNTS_DASHBOARD = 'https://review.example.test/app';

export interface AccountsApp {
  t: TestApp;
  /** The real SMTP stand-in the service sends the account emails to. */
  sink: SmtpSink;
  /** Waits for the emails started after earlier answers, then stops the app and the sink. */
  close(): Promise<void>;
}

/**
 * An app that sends the account emails of SPEC §8f (password reset, verification, sign-up and
 * email change links) to an SmtpSink, with `DASHBOARD_URL` = ACCOUNTS_DASHBOARD and `env` on top.
 */
export async function startAccountsApp(env: Record<string, string>): Promise<AccountsApp> {
  const sink = new SmtpSink();
  await sink.start();
  const t = await startTestApp({
    env: {
      SMTP_URL: sink.url,
      MAIL_FROM: 'Interlock <accounts@interlock.test>',
      DASHBOARD_URL: ACCOUNTS_DASHBOARD,
      ...env,
    },
  });
  return {
    t,
    sink,
    async close() {
      await t.app.get(AfterAnswer).settled();
      await t.close();
      await sink.stop();
    },
  };
}
