import type { ArgusPipeline } from '../classification/argus-pipeline';
import type { DataSource } from 'typeorm';
import { type ApiKeyActor, DomainError, JsonText } from '@interlock/domain';
import type { AllowancesService } from '../allowances/allowances.service';
import type { AppConfig } from '../config/app-config';
import type { PreparedReads } from '../database/prepared-reads';
import type { Statement } from '../database/combined-statement';
import type { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { IdempotencyRepository } from '../idempotency/idempotency.repository';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { SessionsService } from '../sessions/sessions.service';
import type { TeamsService } from '../teams/teams.service';
import type { WebhookOutbox } from '../webhooks/webhook-outbox';
import type { NewInterrupt } from './create-interrupt.command';
import {
  type InterruptDetailRow,
  type InterruptRow,
  toInterruptDetailResponse,
} from './interrupt-record';
import type { InterruptsRepository } from './interrupts.repository';
import { InterruptsService } from './interrupts.service';
import { InterruptWaits } from './interrupt-waits';
import { DeadlineSettingsCache } from '../organisation/deadline-settings-cache';
import type { OrganisationsRepository } from '../organisation/organisations.repository';
import { InProcessNotificationBus } from '../notifications/notification-bus';
import pino from 'pino';

// The interrupts' rules over a fake repository and a fake transaction: what opening one writes
// and in which order, what is refused before anything is written, and the listing's validation.
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const SESSION = '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10';
const agent: ApiKeyActor = { type: 'api_key', id: 'k-1', name: 'nightly agent' };
const row: InterruptRow = {
  id: 'i-1',
  title: 'Deploy to prod',
  description: null,
  external_id: null,
  session_id: null,
  status: 'open',
  action_requests: [
    { name: 'deploy', args: {}, description: null, allowedDecisions: ['approve', 'reject'] },
  ],
  assignee_type: null,
  assignee_id: null,
  assignee_name: null,
  escalation_level: 0,
  escalation_reason: null,
  escalated_at: null,
  metadata: null,
  created_at: new Date('2026-11-22T10:00:00.000Z'),
  answered_at: null,
  expires_at: null,
  on_timeout: null,
  closed_at: null,
  withdrawn_reason: null,
  opened_by_key_id: null,
  opened_by_key_name: null,
  risk: null,
  risk_labels: null,
  priority: 'normal',
  agent_labels: null,
  decisions: [],
};
const body: NewInterrupt = {
  title: 'Deploy to prod',
  actionRequests: [{ name: 'deploy', allowedDecisions: ['approve', 'reject'] }],
};
const config = {
  cursorSecret: 'a-cursor-secret-of-enough-length-for-tests',
} as unknown as AppConfig;

// Argus with no rules: nothing to plan (its own behaviour is tested in classification/ and the e2e).
const noRules = {
  plan: async () => ({ ok: true, actions: [], risk: null, labels: [] }),
} as unknown as ArgusPipeline;

function setUp(
  overrides: Partial<Record<keyof InterruptsRepository, jest.Mock>> = {},
  more: { consumeMessage?: jest.Mock; lockForLink?: jest.Mock; teamIdsOf?: jest.Mock } = {},
) {
  const steps: string[] = [];
  // The audit writer's INSERT is the only statement the fake transaction sees: its action is the third parameter.
  const tx = {
    query: jest.fn(
      async (_sql: string, params: unknown[]) => (
        steps.push(`audit ${String(params[2])} by ${String(params[4])} ${String(params[5])}`),
        []
      ),
    ),
  };
  const dataSource = {
    transaction: async (work: (t: typeof tx) => Promise<unknown>) => work(tx),
    query: jest.fn(),
  } as unknown as DataSource;
  const repository = {
    insert: jest.fn(async () => (steps.push('insert'), row)),
    keepRecordStatement: jest.fn((organisationId: string, id: string, json: string) => ({
      text: 'keep record',
      values: [organisationId, id, json],
    })),
    readDetail: jest.fn(async () => row),
    readRecord: jest.fn(async () => ({ record_json: null })),
    page: jest.fn(async () => [row]),
    counts: jest.fn(async () => ({
      open: 1001,
      assigned_to_me: 3,
      waiting_for_me: 5,
      escalated: 1000,
      answered: 0,
    })),
    ...overrides,
  } as unknown as InterruptsRepository;
  const sessions = {
    lockForLink: more.lockForLink ?? jest.fn(async () => void steps.push('lock session')),
  } as unknown as SessionsService;
  // The count, then the statements sent with it (its WITH entries run after it).
  const allowances = {
    consumeMessage:
      more.consumeMessage ??
      jest.fn(async (db: typeof tx, _organisationId: string, alongside: Statement[] = []) => {
        steps.push('count message');
        for (const statement of alongside) await db.query(statement.text, [...statement.values]);
      }),
  } as unknown as AllowancesService;
  const teams = { teamIdsOf: more.teamIdsOf ?? jest.fn(async () => []) } as unknown as TeamsService;
  const events = {
    announce: jest.fn(async () => undefined),
  } as unknown as OrganisationEventsAnnouncer;
  // Rows written one by one (`statements` answers undefined, as for several events); the one
  // statement is the round-trips e2e's.
  const outbox = {
    statements: jest.fn(async () => undefined),
    writeEach: jest.fn(
      async (_tx, _organisationId, _events, _cause, alongside: { text: string }[] = []) => {
        for (const statement of alongside) steps.push(statement.text);
        steps.push('webhook event');
      },
    ),
  } as unknown as WebhookOutbox;
  const organisations = {
    deadlineSettings: jest.fn(async () => ({
      interrupt_timeout_default_seconds: null,
      interrupt_timeout_max_seconds: null,
      interrupt_timeout_approve_allowed: false,
    })),
  } as unknown as OrganisationsRepository;
  // The hot reads' named prepared statements: the detail read runs on them, and the create's
  // transaction through them (PreparedReads.within).
  const prepared = { query: (sql: string, params: unknown[]) => tx.query(sql, params) };
  const reads = { query: jest.fn(), within: jest.fn(() => prepared) } as unknown as PreparedReads;
  const service = new InterruptsService(
    dataSource,
    repository,
    sessions,
    allowances,
    new IdempotencyService(new IdempotencyRepository()),
    teams,
    events,
    outbox,
    new InterruptWaits(new InProcessNotificationBus(), pino({ enabled: false })),
    noRules,
    new DeadlineSettingsCache(organisations, new InProcessNotificationBus()),
    undefined as never, // no resumeUrl in these cases
    config,
    reads,
  );
  return { service, repository, events, steps, reads, prepared };
}

describe('InterruptsService', () => {
  it('opens an interrupt: the row, its webhook event, then the count and the audit entry by the key; then announces it', async () => {
    const { service, repository, events, steps, prepared } = setUp();
    const { value, replayed } = await service.create({
      organisationId: ORG,
      actor: agent,
      interrupt: body,
      ip: null,
    });
    expect((repository.insert as jest.Mock).mock.calls[0][0]).toBe(prepared);
    expect(value).toMatchObject({ id: 'i-1', status: 'open', decisions: [] });
    expect(replayed).toBe(false);
    expect(repository.insert).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      expect.objectContaining({
        title: 'Deploy to prod',
        openedByKeyId: 'k-1',
        titleWords: ['deploy', 'to', 'prod'],
        actionRequests: [
          { name: 'deploy', args: {}, description: null, allowedDecisions: ['approve', 'reject'] },
        ],
      }),
    );
    expect(steps).toEqual([
      'insert',
      'keep record',
      'webhook event',
      'count message',
      'audit interrupt.created by api_key k-1',
    ]);
    // The record kept with the row is the answer, written out.
    expect(repository.keepRecordStatement).toHaveBeenCalledWith(ORG, 'i-1', JSON.stringify(value));
    expect(events.announce).toHaveBeenCalledWith(ORG);
  });

  it("locks the linked session through its owner first; a session that is not the organisation's is 404 and nothing is written", async () => {
    const linked = setUp();
    await linked.service.create({
      organisationId: ORG,
      actor: agent,
      interrupt: { ...body, sessionId: SESSION },
      ip: null,
    });
    expect(linked.steps[0]).toBe('lock session');
    const missing = setUp(
      {},
      { lockForLink: jest.fn(async () => Promise.reject(DomainError.of('NOT_FOUND'))) },
    );
    await expect(
      missing.service.create({
        organisationId: ORG,
        actor: agent,
        interrupt: { ...body, sessionId: SESSION },
        ip: null,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(missing.repository.insert).not.toHaveBeenCalled();
    expect(missing.steps).toEqual([]);
    expect(missing.events.announce).not.toHaveBeenCalled();
  });

  it("writes no audit entry and announces nothing when the month's messages are spent", async () => {
    const spent = new DomainError('MESSAGES_ALLOWANCE_EXHAUSTED', 'spent');
    const { service, steps, events } = setUp(
      {},
      { consumeMessage: jest.fn(async () => Promise.reject(spent)) },
    );
    await expect(
      service.create({ organisationId: ORG, actor: agent, interrupt: body, ip: null }),
    ).rejects.toBe(spent);
    expect(steps.some((s) => s.startsWith('audit'))).toBe(false);
    expect(events.announce).not.toHaveBeenCalled();
  });

  it("reads one interrupt with what was asked to be included; 404 when it is not the organisation's", async () => {
    const { service, repository, reads } = setUp({ readDetail: jest.fn(async () => undefined) });
    await expect(service.get(ORG, 'i-x', new Set(['session']))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
    expect(repository.readDetail).toHaveBeenCalledWith(reads, ORG, 'i-x', new Set(['session']));
  });

  it('answers a read without include with the record kept with the row, as it is; one not kept, or with include, is read and rendered', async () => {
    const kept = setUp({ readRecord: jest.fn(async () => ({ record_json: '{"id":"i-1"}' })) });
    const answer = await kept.service.getAnswer(ORG, 'i-1', new Set());
    expect(answer).toBeInstanceOf(JsonText);
    expect((answer as JsonText).text).toBe('{"id":"i-1"}');
    expect(kept.repository.readRecord).toHaveBeenCalledWith(kept.reads, ORG, 'i-1');
    expect(kept.repository.readDetail).not.toHaveBeenCalled();
    const notKept = setUp();
    expect(await notKept.service.getAnswer(ORG, 'i-1', new Set())).toEqual(
      toInterruptDetailResponse(row as InterruptDetailRow),
    );
    expect(notKept.repository.readDetail).toHaveBeenCalledWith(
      notKept.reads,
      ORG,
      'i-1',
      new Set(),
    );
    const included = setUp();
    await included.service.getAnswer(ORG, 'i-1', new Set(['history']));
    expect(included.repository.readRecord).not.toHaveBeenCalled();
    expect(included.repository.readDetail).toHaveBeenCalledWith(
      included.reads,
      ORG,
      'i-1',
      new Set(['history']),
    );
    const missing = setUp({ readRecord: jest.fn(async () => undefined) });
    await expect(missing.service.getAnswer(ORG, 'i-x', new Set())).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('refuses a listing with too many search words, or from after to, before reading anything', async () => {
    const { service, repository } = setUp();
    await expect(
      service.list({ organisationId: ORG, caller: {}, listing: { q: 'a b c d e f g h i' } }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'q: must have at most 8 words',
    });
    await expect(
      service.list({
        organisationId: ORG,
        caller: {},
        listing: { from: '2026-11-22T00:00:00Z', to: '2026-11-21T00:00:00Z' },
      }),
    ).rejects.toMatchObject({
      message: 'from: must not be after to',
    });
    expect(repository.page).not.toHaveBeenCalled();
  });

  it('matches nothing for "me" that names no member (a key), or a member in no team, without a query', async () => {
    const { service, repository } = setUp();
    expect(
      await service.list({
        organisationId: ORG,
        caller: { apiKeyId: 'k-1' },
        listing: { assignee: 'me' },
      }),
    ).toEqual({ interrupts: [], nextCursor: null });
    expect(
      await service.list({
        organisationId: ORG,
        caller: { memberId: 'u-1' },
        listing: { openedBy: 'me' },
      }),
    ).toEqual({ interrupts: [], nextCursor: null });
    expect(
      await service.list({
        organisationId: ORG,
        caller: { memberId: 'u-1' },
        listing: { assignee: 'my_teams' },
      }),
    ).toEqual({ interrupts: [], nextCursor: null });
    expect(repository.page).not.toHaveBeenCalled();
  });

  it('lists a page filtered by the key for openedBy=me', async () => {
    const { service, repository } = setUp();
    const page = await service.list({
      organisationId: ORG,
      caller: { apiKeyId: 'k-1' },
      listing: { openedBy: 'me', status: 'open' },
    });
    expect(page.interrupts.map((i) => i.id)).toEqual(['i-1']);
    expect(repository.page).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      expect.objectContaining({ openedByKeyId: 'k-1', statuses: ['open'] }),
      undefined,
      51,
      // The whole row (the HTTP listing, listAnswer, reads LISTED_INTERRUPT_COLUMNS).
      undefined,
    );
  });

  it('caps the tab counts', async () => {
    const { service } = setUp();
    expect(await service.counts(ORG, 'u-1')).toEqual({
      open: { count: 1000, capped: true },
      assignedToMe: { count: 3, capped: false },
      waitingForMe: { count: 5, capped: false },
      escalated: { count: 1000, capped: false },
      answered: { count: 0, capped: false },
      cap: 1000,
    });
  });
});
