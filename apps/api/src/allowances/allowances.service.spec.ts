import type { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import type { AppConfig } from '../config/app-config';
import type { AllowancesRepository } from './allowances.repository';
import { AllowancesService } from './allowances.service';

// The allowance rules over a fake repository: what is refused, with which exact text.
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const config = {
  plans: {
    free: { messages: 100, agentHours: 10, sessionMessageBytes: 2_000, activeSessions: 2 },
    pro: {
      messages: 10_000,
      agentHours: 500,
      sessionMessageBytes: 10 * 1024 ** 3,
      activeSessions: 50,
    },
  },
  sessions: { messageRetentionMs: 90 * 86_400_000 },
} as unknown as AppConfig;
const tx = { query: jest.fn() };

function setUp(overrides: Partial<Record<keyof AllowancesRepository, jest.Mock>> = {}) {
  const repository = {
    countMessage: jest.fn(async () => true),
    planAndRenewal: jest.fn(async () => ({ plan: 'free', renews_on: '2026-12-01' })),
    agentHours: jest.fn(async () => ({ plan: 'free', seconds: 0, renews_on: '2026-12-01' })),
    usage: jest.fn(async () => ({
      plan: 'pro',
      month: '2026-11',
      renews_at: new Date('2026-12-01T00:00:00.000Z'),
      messages: 7,
      seconds: 5400,
    })),
    agentHoursLeft: jest.fn(() => ({ from: 'f', where: 'w', params: [10, 500] })),
    sessionHoldings: jest.fn(async () => ({ plan: 'pro', bytes: 1_536, active: 3 })),
    addSessionBytes: jest.fn(async () => true),
    lockSessionStart: jest.fn(async () => ({
      plan: 'free',
      seconds: 0,
      active: 1,
      renews_on: '2026-12-01',
    })),
    ...overrides,
  } as unknown as AllowancesRepository;
  return { service: new AllowancesService({} as DataSource, repository, config), repository };
}

describe('AllowancesService', () => {
  it("counts a message with the plans' allowances, and reads nothing more when it is counted", async () => {
    const { service, repository } = setUp();
    await service.consumeMessage(tx, ORG);
    expect(repository.countMessage).toHaveBeenCalledWith(tx, ORG, { free: 100, pro: 10_000 }, []);
    expect(repository.planAndRenewal).not.toHaveBeenCalled();
    // The caller's statements go with the count.
    const entry = { text: 'INSERT INTO audit_log_entries VALUES ($1)', values: [ORG] };
    await service.consumeMessage(tx, ORG, [entry]);
    expect(repository.countMessage).toHaveBeenLastCalledWith(tx, ORG, { free: 100, pro: 10_000 }, [
      entry,
    ]);
  });

  it("refuses a message once the month's allowance is spent: 402 with the SPEC's text naming the plan and renewal", async () => {
    const { service } = setUp({ countMessage: jest.fn(async () => false) });
    const error = await service.consumeMessage(tx, ORG).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'MESSAGES_ALLOWANCE_EXHAUSTED',
      status: 402,
      message:
        'This organisation has used its included messages for the month (100 on the Free plan). ' +
        'The allowance renews on 2026-12-01 (UTC); the Pro plan includes 10,000 messages a month.',
    });
  });

  it('refuses agent time at the allowance exactly, not a second before', async () => {
    const under = setUp({
      agentHours: jest.fn(async () => ({
        plan: 'free',
        seconds: 10 * 3600 - 1,
        renews_on: '2026-12-01',
      })),
    });
    await expect(under.service.assertAgentHoursLeft(tx, ORG)).resolves.toBeUndefined();
    const spent = setUp({
      agentHours: jest.fn(async () => ({
        plan: 'pro',
        seconds: 500 * 3600,
        renews_on: '2026-12-01',
      })),
    });
    await expect(spent.service.assertAgentHoursLeft(tx, ORG)).rejects.toMatchObject({
      code: 'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
      message:
        'This organisation has used its included agent hours for the month (500 on the Pro plan). The allowance renews on 2026-12-01 (UTC).',
    });
  });

  it('answers 404 for an organisation that does not exist', async () => {
    const { service } = setUp({
      agentHours: jest.fn(async () => undefined),
      usage: jest.fn(async () => undefined),
    });
    await expect(service.assertAgentHoursLeft(tx, ORG)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(service.summary(ORG)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("summarises the month's use against the plan, hours to two decimals", async () => {
    const { service } = setUp();
    expect(await service.summary(ORG)).toEqual({
      month: '2026-11',
      renewsAt: '2026-12-01T00:00:00.000Z',
      messages: { used: 7, included: 10_000 },
      agentHours: { used: 1.5, included: 500 },
      sessionMessageBytes: { used: 1_536, included: 10 * 1024 ** 3 },
      activeSessions: { used: 3, included: 50 },
      sessionMessageRetentionSeconds: 90 * 86_400,
    });
  });

  it("adds an append's bytes with the plans' quotas; past them, 402 with the exact text", async () => {
    const { service, repository } = setUp();
    await service.consumeSessionStorage(tx, ORG, 120);
    expect(repository.addSessionBytes).toHaveBeenCalledWith(tx, ORG, 120, {
      free: 2_000,
      pro: 10 * 1024 ** 3,
    });
    expect(repository.sessionHoldings).not.toHaveBeenCalled();

    const free = setUp({
      addSessionBytes: jest.fn(async () => false),
      sessionHoldings: jest.fn(async () => ({ plan: 'free', bytes: 1_990, active: 0 })),
    });
    await expect(free.service.consumeSessionStorage(tx, ORG, 20)).rejects.toMatchObject({
      code: 'SESSION_STORAGE_EXHAUSTED',
      status: 402,
      message:
        'This organisation has used its included session-message storage (2,000 bytes on the Free plan). Messages are deleted 90 days after they were appended, which frees space; the Pro plan includes 10 GiB.',
    });
    const pro = setUp({ addSessionBytes: jest.fn(async () => false) });
    await expect(pro.service.consumeSessionStorage(tx, ORG, 20)).rejects.toMatchObject({
      message:
        'This organisation has used its included session-message storage (10 GiB on the Pro plan). Messages are deleted 90 days after they were appended, which frees space.',
    });
  });

  it('starts a session while hours are left and fewer than the active quota are open; else 402', async () => {
    const { service, repository } = setUp();
    await expect(service.assertSessionStartAllowed(tx, ORG)).resolves.toBeUndefined();
    expect(repository.lockSessionStart).toHaveBeenCalledWith(tx, ORG);

    const full = setUp({
      lockSessionStart: jest.fn(async () => ({
        plan: 'free',
        seconds: 0,
        active: 2,
        renews_on: '2026-12-01',
      })),
    });
    await expect(full.service.assertSessionStartAllowed(tx, ORG)).rejects.toMatchObject({
      code: 'ACTIVE_SESSIONS_EXHAUSTED',
      status: 402,
      message:
        'This organisation has as many active sessions as its plan includes (2 on the Free plan). End a session to start another; the Pro plan includes 50 active sessions.',
    });
    // Hours are checked first: both spent answers the hours' text.
    const both = setUp({
      lockSessionStart: jest.fn(async () => ({
        plan: 'free',
        seconds: 10 * 3600,
        active: 2,
        renews_on: '2026-12-01',
      })),
    });
    await expect(both.service.assertSessionStartAllowed(tx, ORG)).rejects.toMatchObject({
      code: 'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
    });
  });

  it("hands the sessions' owner the agent-hours fragment with the plans' hours", () => {
    const { service, repository } = setUp();
    service.agentHoursLeft('$1', 4);
    expect(repository.agentHoursLeft).toHaveBeenCalledWith('$1', 4, { free: 10, pro: 500 });
  });
});
