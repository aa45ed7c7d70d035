import type { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { type ApiKeyActor, DomainError, type MemberActor } from '@interlock/domain';
import type { AllowancesService } from '../allowances/allowances.service';
import type { AppConfig } from '../config/app-config';
import type { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { IdempotencyRepository } from '../idempotency/idempotency.repository';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { NotificationBus } from '../notifications/notification-bus';
import type { WebhookOutbox } from '../webhooks/webhook-outbox';
import type { SessionMessageDto } from './dto/append-messages.dto';
import type { SessionRow } from './session-record';
import type { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import type { StartSessionCommand } from './start-session.command';

// The sessions' rules over a fake repository and a fake transaction: what is refused (and that a
// refusal writes nothing), which audit entries and webhook events are written, what is announced.
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const agent: ApiKeyActor = { type: 'api_key', id: 'k-1', name: 'nightly agent' };
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const byAgent = { organisationId: ORG, actor: agent, ip: null };
const byAda = { organisationId: ORG, actor: ada, ip: null };
const active: SessionRow = {
  id: 's-1',
  name: 'nightly',
  external_id: null,
  status: 'active',
  metadata: null,
  message_count: 3,
  started_at: new Date('2026-11-22T10:00:00.000Z'),
  ended_at: null,
};
const ended: SessionRow = {
  ...active,
  status: 'ended',
  ended_at: new Date('2026-11-22T10:01:30.000Z'),
};
const config = {
  cursorSecret: 'a-cursor-secret-of-enough-length-for-tests',
} as unknown as AppConfig;

/** The command a controller builds for `POST /api/sessions {name: 'nightly'}`. */
const start = (over: Partial<StartSessionCommand> = {}): StartSessionCommand => ({
  organisationId: ORG,
  actor: agent,
  name: 'nightly',
  externalId: null,
  metadata: null,
  ip: null,
  ...over,
});

function setUp(
  overrides: Partial<Record<keyof SessionsRepository, jest.Mock>> = {},
  allowance: Partial<Record<keyof AllowancesService, jest.Mock>> = {},
) {
  const audit: { action: unknown; actor: unknown[] }[] = [];
  // The audit writer's INSERT: the action is its third parameter, the actor the next three.
  const tx = {
    query: jest.fn(
      async (_sql: string, params: unknown[]) => (
        audit.push({ action: params[2], actor: params.slice(4, 7) }),
        []
      ),
    ),
  };
  const dataSource = {
    transaction: async (work: (t: typeof tx) => Promise<unknown>) => work(tx),
  } as unknown as DataSource;
  const repository = {
    insert: jest.fn(async () => active),
    read: jest.fn(async () => active),
    status: jest.fn(async () => 'active'),
    countMessages: jest.fn(async () => 5),
    insertMessages: jest.fn(async () => undefined),
    close: jest.fn(async () => ended),
    lockForLink: jest.fn(async () => true),
    ...overrides,
  } as unknown as SessionsRepository;
  const allowances = {
    assertAgentHoursLeft: jest.fn(async () => undefined),
    assertSessionStartAllowed: jest.fn(async () => undefined),
    consumeSessionStorage: jest.fn(async () => undefined),
    agentHoursLeft: jest.fn(() => ({ from: 'f', where: 'w', params: [] })),
    ...allowance,
  } as unknown as AllowancesService;
  const outbox = { write: jest.fn(async () => undefined) } as unknown as WebhookOutbox;
  const events = {
    announce: jest.fn(async () => undefined),
  } as unknown as OrganisationEventsAnnouncer;
  const bus = { publish: jest.fn(async () => undefined) } as unknown as NotificationBus;
  const service = new SessionsService(
    dataSource,
    repository,
    allowances,
    new IdempotencyService(new IdempotencyRepository()),
    bus,
    events,
    outbox,
    { warn: jest.fn() } as unknown as Logger,
    config,
  );
  return {
    service,
    repository,
    allowances,
    outbox,
    events,
    bus,
    audit,
    actions: () => audit.map((a) => a.action),
  };
}

describe('SessionsService', () => {
  it('starts a session for the key, audits it with the key as actor, writes its webhook event and announces it', async () => {
    const { service, repository, audit, outbox, events } = setUp();
    const { value } = await service.start(start({ ip: '203.0.113.7' }));
    expect(value).toMatchObject({ id: 's-1', name: 'nightly', status: 'active', messageCount: 3 });
    expect(repository.insert).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      expect.objectContaining({ name: 'nightly', nameWords: ['nightly'], startedByKeyId: 'k-1' }),
    );
    expect(audit).toEqual([
      { action: 'session.started', actor: ['api_key', 'k-1', 'nightly agent'] },
    ]);
    expect(outbox.write).toHaveBeenCalledWith(expect.anything(), ORG, [
      expect.objectContaining({ type: 'session.started' }),
    ]);
    expect(events.announce).toHaveBeenCalledWith(ORG);
  });

  it('refuses to start once the agent hours are spent or the active sessions full, and writes nothing', async () => {
    const spent = new DomainError('ACTIVE_SESSIONS_EXHAUSTED', 'full');
    const { service, repository, actions, events } = setUp(
      {},
      { assertSessionStartAllowed: jest.fn(async () => Promise.reject(spent)) },
    );
    await expect(service.start(start())).rejects.toBe(spent);
    expect(repository.insert).not.toHaveBeenCalled();
    expect(actions()).toEqual([]);
    expect(events.announce).not.toHaveBeenCalled();
  });

  it('numbers appended messages on from the count, writes no audit entry, and tells the viewers', async () => {
    const { service, repository, actions, bus, allowances } = setUp();
    const messages: SessionMessageDto[] = [
      { role: 'agent', content: 'a' },
      { role: 'tool', content: 'bé' },
    ];
    expect(
      (await service.append({ organisationId: ORG, sessionId: 's-1', messages: messages })).value,
    ).toEqual({ appended: 2 });
    // The content's UTF-8 bytes count against the storage quota: 1 + 3.
    expect(allowances.consumeSessionStorage).toHaveBeenCalledWith(expect.anything(), ORG, 4);
    expect(repository.insertMessages).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      's-1',
      4,
      messages,
    );
    expect(actions()).toEqual([]);
    expect(bus.publish).toHaveBeenCalledWith('interlock_live_view', `${ORG} s-1 5 active`);
  });

  it('refuses an append past the storage quota before looking at the session, and writes nothing', async () => {
    const full = new DomainError('SESSION_STORAGE_EXHAUSTED', 'full');
    const { service, repository, bus } = setUp(
      {},
      { consumeSessionStorage: jest.fn(async () => Promise.reject(full)) },
    );
    await expect(
      service.append({
        organisationId: ORG,
        sessionId: 's-1',
        messages: [{ role: 'agent', content: 'a' }],
      }),
    ).rejects.toBe(full);
    expect(repository.countMessages).not.toHaveBeenCalled();
    expect(repository.insertMessages).not.toHaveBeenCalled();
    expect(bus.publish).not.toHaveBeenCalled();
  });

  it('says why an append was refused: 404 for no such session, 409 for an ended one; no message written', async () => {
    const missing = setUp({
      countMessages: jest.fn(async () => undefined),
      status: jest.fn(async () => undefined),
    });
    await expect(
      missing.service.append({
        organisationId: ORG,
        sessionId: 's-x',
        messages: [{ role: 'agent', content: 'a' }],
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(missing.repository.insertMessages).not.toHaveBeenCalled();
    const over = setUp({
      countMessages: jest.fn(async () => undefined),
      status: jest.fn(async () => 'ended'),
    });
    await expect(
      over.service.append({
        organisationId: ORG,
        sessionId: 's-1',
        messages: [{ role: 'agent', content: 'a' }],
      }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This session has already ended: messages can no longer be appended.',
    });
    expect(over.repository.insertMessages).not.toHaveBeenCalled();
    expect(over.bus.publish).not.toHaveBeenCalled();
  });

  it('tries once more when the session is active but the count was refused (an upgrade meanwhile)', async () => {
    const countMessages = jest.fn().mockResolvedValueOnce(undefined).mockResolvedValueOnce(4);
    const { service, allowances, repository } = setUp({ countMessages });
    await service.append({
      organisationId: ORG,
      sessionId: 's-1',
      messages: [{ role: 'agent', content: 'a' }],
    });
    expect(allowances.assertAgentHoursLeft).toHaveBeenCalledTimes(1);
    expect(repository.insertMessages).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      's-1',
      4,
      expect.any(Array),
    );
  });

  it('ends with session.ended by the key; a member disconnects with session.disconnected; both send the session.ended webhook event', async () => {
    const byKey = setUp();
    expect(await byKey.service.end(byAgent, 's-1')).toMatchObject({
      status: 'ended',
      endedAt: '2026-11-22T10:01:30.000Z',
    });
    expect(byKey.repository.close).toHaveBeenCalledWith(expect.anything(), ORG, 's-1', 'ended');
    expect(byKey.audit).toEqual([
      { action: 'session.ended', actor: ['api_key', 'k-1', 'nightly agent'] },
    ]);
    const byMember = setUp({ close: jest.fn(async () => ({ ...ended, status: 'disconnected' })) });
    await byMember.service.disconnect(byAda, 's-1');
    expect(byMember.repository.close).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      's-1',
      'disconnected',
    );
    expect(byMember.audit).toEqual([
      { action: 'session.disconnected', actor: ['member', 'u-ada', 'Ada Lovelace'] },
    ]);
    expect(byMember.outbox.write).toHaveBeenCalledWith(expect.anything(), ORG, [
      expect.objectContaining({ type: 'session.ended' }),
    ]);
  });

  it('refuses to end a session twice (409, nothing audited) and one of another organisation (404)', async () => {
    const twice = setUp({
      close: jest.fn(async () => undefined),
      status: jest.fn(async () => 'disconnected'),
    });
    await expect(twice.service.end(byAgent, 's-1')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This session was disconnected.',
    });
    expect(twice.actions()).toEqual([]);
    expect(twice.events.announce).not.toHaveBeenCalled();
    const elsewhere = setUp({
      close: jest.fn(async () => undefined),
      status: jest.fn(async () => undefined),
    });
    await expect(elsewhere.service.disconnect(byAda, 's-1')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it("reads one session (404 when it is not the organisation's) and locks a linked one (404 likewise)", async () => {
    const { service } = setUp({
      read: jest.fn(async () => undefined),
      lockForLink: jest.fn(async () => false),
    });
    await expect(service.get(ORG, 's-x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.lockForLink({ query: jest.fn() }, ORG, 's-x')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
