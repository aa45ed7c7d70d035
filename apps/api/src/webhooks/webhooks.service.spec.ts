import type { MemberCall } from '../auth/caller';
import { DomainError, type MemberActor } from '@interlock/domain';
import type { AppConfig } from '../config/app-config';
import type { JobRunner } from '../jobs/job-runner';
import { WebhookSecretBox } from './webhook-secret.util';
import type { DeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository';
import { MAX_WEBHOOKS, WebhooksService } from './webhooks.service';
import { fakeDataSource } from '../database/testing/fake-data-source';

// The service's rules over a fake repository and a fake transaction: what it asks the owner of
// the tables, which audit entries it writes (the audit writer's INSERTs, recorded) and when it
// wakes the delivery worker.
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const byAda: MemberCall = { organisationId: ORG, actor: ada, ip: null };
const config = {
  cursorSecret: 'c'.repeat(32),
  nodeEnv: 'test',
  webhooks: { retryScheduleMs: [1_000, 2_000] },
} as unknown as AppConfig;
const at = new Date('2026-11-22T00:00:00.000Z');
const hook: WebhookRow = {
  id: 'w-1',
  url: 'https://example.com/hook',
  description: '',
  event_types: null,
  enabled: true,
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: at,
  updated_at: at,
};
const delivery: DeliveryRow = {
  id: 'd-1',
  webhook_id: 'w-1',
  event_id: 'e-1',
  event_type: 'interrupt.created',
  status: 'failed',
  attempt_count: 3,
  last_response_status: 500,
  last_duration_ms: 12,
  last_error: null,
  due_at: null,
  last_attempt_at: at,
  created_at: at,
  finished_at: at,
  attempts: [],
};

function setUp(overrides: Partial<Record<keyof WebhooksRepository, jest.Mock>> = {}) {
  const { dataSource, audit } = fakeDataSource();
  const repository = {
    read: jest.fn(async () => hook),
    lock: jest.fn(async () => hook),
    countForCreation: jest.fn(async () => 0),
    insert: jest.fn(async (_db: unknown, _org: string, w: { id: string; url: string }) => ({
      ...hook,
      id: w.id,
      url: w.url,
    })),
    update: jest.fn(async (_db: unknown, _org: string, _id: string, s: { enabled: boolean }) => ({
      ...hook,
      enabled: s.enabled,
    })),
    delete: jest.fn(async () => ({ url: hook.url })),
    rotateSecret: jest.fn(async () => ({ ...hook, previous_secret_expires_at: at })),
    queueSingleDelivery: jest.fn(async () => undefined),
    readDelivery: jest.fn(async () => ({ ...delivery, status: 'pending' })),
    lockDelivery: jest.fn(async () => ({
      status: 'failed',
      event_type: 'interrupt.created',
      event_id: 'e-1',
    })),
    requeueDelivery: jest.fn(async () => undefined),
    ...overrides,
  };
  const jobs = { wake: jest.fn() };
  const box = new WebhookSecretBox('s'.repeat(32));
  const service = new WebhooksService(
    dataSource,
    repository as unknown as WebhooksRepository,
    jobs as unknown as JobRunner,
    box,
    async () => [],
    config,
  );
  const actions = () => audit.map((entry) => entry.action);
  return { service, repository, actions, jobs, box };
}

describe('WebhooksService', () => {
  it('creates a webhook with its secret sealed, returns the secret once and audits it', async () => {
    const { service, repository, actions, box } = setUp();
    const created = await service.create({
      webhook: { url: 'https://example.com/hook' },
      ...byAda,
    });
    expect(created.secret).toMatch(/^whsec_/);
    const stored = repository.insert.mock.calls[0][2] as { sealedSecret: Buffer; id: string };
    expect(box.open(stored.sealedSecret, ORG, stored.id)).toBe(created.secret);
    expect(stored.sealedSecret.toString('utf8')).not.toContain(created.secret);
    expect(actions()).toEqual(['webhook.created']);
  });

  it(`refuses a webhook beyond the ${MAX_WEBHOOKS}th with a 409, writing nothing`, async () => {
    const { service, repository, actions } = setUp({
      countForCreation: jest.fn(async () => MAX_WEBHOOKS),
    });
    await expect(
      service.create({
        webhook: { url: 'https://example.com/hook' },
        ...byAda,
      }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `This organisation already has ${MAX_WEBHOOKS} webhooks, the most it can have.`,
    });
    expect(repository.insert).not.toHaveBeenCalled();
    expect(actions()).toEqual([]);
  });

  it('refuses a URL that is not https before touching the tables', async () => {
    const { service, repository } = setUp();
    await expect(
      service.create({
        webhook: { url: 'ftp://example.com/hook' },
        ...byAda,
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(repository.countForCreation).not.toHaveBeenCalled();
  });

  it('updates only what changed, audits the changes, and wakes the worker when enabling', async () => {
    const same = setUp();
    await same.service.update({
      webhookId: 'w-1',
      changes: { description: '' },
      ...byAda,
    });
    expect(same.repository.update).not.toHaveBeenCalled();
    expect(same.actions()).toEqual([]);
    const off = setUp();
    await off.service.update({
      webhookId: 'w-1',
      changes: { enabled: false },
      ...byAda,
    });
    expect(off.repository.update).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      'w-1',
      expect.objectContaining({ enabled: false }),
      true,
    );
    expect(off.actions()).toEqual(['webhook.updated']);
    expect(off.jobs.wake).not.toHaveBeenCalled();
    const on = setUp({ lock: jest.fn(async () => ({ ...hook, enabled: false })) });
    await on.service.update({
      webhookId: 'w-1',
      changes: { enabled: true },
      ...byAda,
    });
    expect(on.jobs.wake).toHaveBeenCalled();
  });

  it("answers 404 for a webhook that is not the organisation's, writing nothing", async () => {
    const gone = setUp({
      delete: jest.fn(async () => undefined),
      lock: jest.fn(async () => undefined),
    });
    const error = await gone.service.remove(byAda, 'nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(gone.service.rotateSecret(byAda, 'nope')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(gone.repository.rotateSecret).not.toHaveBeenCalled();
    expect(gone.actions()).toEqual([]);
  });

  it('retries a finished delivery once more and audits it; refuses a waiting one, and a disabled webhook', async () => {
    const ok = setUp();
    const queued = await ok.service.retryDelivery(byAda, 'w-1', 'd-1');
    expect(queued.status).toBe('pending');
    expect(ok.repository.requeueDelivery).toHaveBeenCalledWith(expect.anything(), ORG, 'd-1');
    expect(ok.actions()).toEqual(['webhook.delivery_retried']);
    expect(ok.jobs.wake).toHaveBeenCalled();

    const waiting = setUp({
      lockDelivery: jest.fn(async () => ({
        status: 'pending',
        event_type: 'interrupt.created',
        event_id: 'e-1',
      })),
    });
    await expect(waiting.service.retryDelivery(byAda, 'w-1', 'd-1')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This delivery is already waiting to be sent.',
    });
    const disabled = setUp({ read: jest.fn(async () => ({ ...hook, enabled: false })) });
    await expect(disabled.service.retryDelivery(byAda, 'w-1', 'd-1')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This webhook is disabled: enable it to retry its deliveries.',
    });
    for (const refused of [waiting, disabled]) {
      expect(refused.repository.requeueDelivery).not.toHaveBeenCalled();
      expect(refused.actions()).toEqual([]);
    }
  });

  it('queues a webhook.test event to the webhook alone, naming who sent it', async () => {
    const { service, repository, jobs } = setUp();
    await service.sendTest(byAda, 'w-1');
    const [, org, webhookId, event, , maxAttempts] = repository.queueSingleDelivery.mock
      .calls[0] as unknown as [
      unknown,
      string,
      string,
      { type: string; body: string },
      string,
      number,
    ];
    expect([org, webhookId, event.type, maxAttempts]).toEqual([ORG, 'w-1', 'webhook.test', 3]);
    expect(JSON.parse(event.body).data).toEqual({
      webhookId: 'w-1',
      message: 'A test event sent from Interlock by Ada Lovelace.',
    });
    expect(jobs.wake).toHaveBeenCalled();
  });
});
