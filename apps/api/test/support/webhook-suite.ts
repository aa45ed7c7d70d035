import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiKey, signUpOwner, type SignedUpOwner } from './factories';
import { startTestApp, type TestApp } from './test-app';
import { WebhookReceiver, WebhookReceivers } from './webhook-receiver';

/** What a suite of outgoing HTTP (webhooks, resumeUrls) works with; set before its first test. */
export interface WebhookSuite {
  t: TestApp;
  /** Ada Lovelace, the owner of the suite's organisation. */
  owner: SignedUpOwner;
  /** A key of that organisation. */
  key: string;
  receivers: WebhookReceivers;
  http: () => ReturnType<typeof request>;
  db: () => DataSource;
  /** A receiver stopped when the suite ends. */
  receiver: (answer?: ConstructorParameters<typeof WebhookReceiver>[0]) => Promise<WebhookReceiver>;
}

/**
 * The set-up the webhook and resumeUrl suites share, called inside a `describe`: the service with
 * `env`, an owner with a key, and receivers, all stopped when the suite ends.
 */
export function webhookSuite(env: Record<string, string>): WebhookSuite {
  const suite = {
    receivers: new WebhookReceivers(),
    http: () => request(suite.t.app.getHttpServer()),
    db: () => suite.t.app.get(DataSource),
    receiver: (answer?: ConstructorParameters<typeof WebhookReceiver>[0]) =>
      suite.receivers.start(answer),
  } as WebhookSuite;
  beforeAll(async () => {
    suite.t = await startTestApp({ env });
    suite.owner = await signUpOwner(suite.t.app.getHttpServer(), { name: 'Ada Lovelace' });
    suite.key = (await createApiKey(suite.t.app.getHttpServer(), suite.owner.cookie)).key;
  });
  afterAll(async () => {
    // Receivers first: a delivery still hanging on one ends at once, so the service closes fast.
    await suite.receivers.stopAll();
    await suite.t.close();
  });
  return suite;
}
