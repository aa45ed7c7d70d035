import type { ArgusPipeline } from '../classification/argus-pipeline';
import { DomainError, type MemberActor } from '@interlock/domain';
import { fakeDataSource } from '../database/testing/fake-data-source';
import type { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import type { TeamsService } from '../teams/teams.service';
import { fakeOf } from '../testing/fake-of';
import type { WebhookOutbox } from '../webhooks/webhook-outbox';
import type { AssignInterruptCommand } from './assign-interrupt.command';
import type { DecideInterruptCommand } from './decide-interrupt.command';
import { type InterruptRow, toInterruptResponse } from './interrupt-record';
import { InterruptsRepository, type LockedInterrupt } from './interrupts.repository';
import { InterruptReviewService } from './interrupt-review.service';
import type { InterruptWaits } from './interrupt-waits';

// The review rules over a fake repository: the conflicts (409 with the exact texts), not-found,
// which audit entries and webhook events are written, and that a refusal writes nothing.
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const locked: LockedInterrupt = {
  title: 'Deploy to prod',
  status: 'open',
  priority: 'normal',
  action_requests: [
    { name: 'deploy', args: {}, description: null, allowedDecisions: ['approve', 'reject'] },
    { name: 'notify', args: {}, description: null, allowedDecisions: ['approve'] },
  ],
  assignee_type: null,
  assignee_id: null,
  assignee_name: null,
  escalation_level: 0,
  escalation_step: 0,
  escalation_policy_team_id: null,
  escalation_clock_at: null,
  assignee_changed_at: null,
  expires_at: null,
  on_timeout: null,
  created_at: new Date('2026-11-22T10:00:00.000Z'),
  timeout_escalated: false,
  opened_by_key_id: null,
  session_id: null,
};
const row = {
  id: 'i-1',
  title: 'Deploy to prod',
  action_requests: locked.action_requests,
  decisions: [],
  created_at: new Date(),
  status: 'open',
} as unknown as InterruptRow;

function setUp(overrides: Partial<Record<keyof InterruptsRepository, jest.Mock>> = {}) {
  const { dataSource, audit } = fakeDataSource();
  // The repository's own lockFound/render/keepRendered run over these fakes of its statements.
  const repository = Object.assign(Object.create(InterruptsRepository.prototype), {
    lock: jest.fn(async () => locked),
    read: jest.fn(async () => row),
    insertDecision: jest.fn(async () => true),
    decisionCount: jest.fn(async () => 1),
    markAnswered: jest.fn(async () => undefined),
    setAssignee: jest.fn(async () => undefined),
    escalate: jest.fn(async () => undefined),
    keepRecord: jest.fn(async () => undefined),
    ...overrides,
  }) as InterruptsRepository;
  const events = fakeOf<OrganisationEventsAnnouncer>({
    announce: jest.fn(async () => undefined),
  });
  const outbox = fakeOf<WebhookOutbox>({ write: jest.fn(async () => undefined) });
  const teams = fakeOf<TeamsService>({
    lockTeam: jest.fn(async () => ({ id: 't-1', name: 'Ops' })),
  });
  const waits = fakeOf<InterruptWaits>({ announceSettled: jest.fn(async () => undefined) });
  const argus = fakeOf<ArgusPipeline>({
    personDecided: jest.fn(async () => ({ opinions: [], paused: [] })),
    rulesChanged: jest.fn(async () => undefined),
  });
  const service = new InterruptReviewService(
    dataSource,
    repository,
    events,
    outbox,
    teams,
    waits,
    argus,
  );
  const actions = () => audit.map((entry) => entry.action);
  const webhookTypes = () =>
    (outbox.write as jest.Mock).mock.calls.flatMap((call) =>
      (call[2] as { type: string }[]).map((e) => e.type),
    );
  return { service, repository, events, outbox, teams, waits, audit, actions, webhookTypes };
}

const byAda = { organisationId: ORG, actor: ada, ip: null };
const decision = (
  actionName: string,
  d: DecideInterruptCommand['decision'],
): DecideInterruptCommand => ({
  organisationId: ORG,
  actor: ada,
  interruptId: 'i-1',
  actionName,
  decision: d,
  ip: null,
});
const assignTo = (assignee: AssignInterruptCommand['assignee']): AssignInterruptCommand => ({
  organisationId: ORG,
  actor: ada,
  interruptId: 'i-1',
  assignee,
  ip: null,
});

describe('InterruptReviewService', () => {
  it('records a decision by the member and audits it; not yet answered while an action is undecided', async () => {
    const { service, repository, audit, webhookTypes, events } = setUp();
    await service.decide(decision('deploy', 'approve'));
    expect(repository.insertDecision).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      expect.objectContaining({
        interruptId: 'i-1',
        actionName: 'deploy',
        decision: 'approve',
        decidedById: 'u-ada',
        decidedByName: 'Ada Lovelace',
      }),
    );
    expect(repository.markAnswered).not.toHaveBeenCalled();
    expect(audit.map((e) => [e.action, e.actor.type, e.actor.id])).toEqual([
      ['interrupt.decided', 'member', 'u-ada'],
    ]);
    expect(webhookTypes()).toEqual(['interrupt.decided']);
    expect(events.announce).toHaveBeenCalledWith(ORG);
    // The decision cleared the record kept with the row: the answer is kept again.
    expect(repository.keepRecord).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      'i-1',
      JSON.stringify(toInterruptResponse(row)),
    );
  });

  it('answers the interrupt with its last decision: interrupt.decided then interrupt.answered', async () => {
    const { service, repository, webhookTypes } = setUp({ decisionCount: jest.fn(async () => 2) });
    await service.decide(decision('notify', 'approve'));
    expect(repository.markAnswered).toHaveBeenCalledWith(expect.anything(), ORG, 'i-1');
    expect(webhookTypes()).toEqual(['interrupt.decided', 'interrupt.answered']);
  });

  it('refuses, with 409 and nothing written: an unknown action, a decision the action does not allow, an action already decided', async () => {
    const unknown = setUp();
    await expect(unknown.service.decide(decision('launch', 'approve'))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: "actionName must name one of this interrupt's action requests.",
    });
    await expect(unknown.service.decide(decision('notify', 'reject'))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'decision must be one of the decisions action notify allows: approve.',
    });
    expect(unknown.repository.insertDecision).not.toHaveBeenCalled();
    const twice = setUp({ insertDecision: jest.fn(async () => false) });
    await expect(twice.service.decide(decision('deploy', 'approve'))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Action deploy of this interrupt has already been decided.',
    });
    for (const { actions, events, outbox } of [unknown, twice]) {
      expect(actions()).toEqual([]);
      expect(outbox.write).not.toHaveBeenCalled();
      expect(events.announce).not.toHaveBeenCalled();
    }
  });

  it("answers 404 for an interrupt that is not the organisation's", async () => {
    const { service, actions } = setUp({ lock: jest.fn(async () => undefined) });
    const error = await service.escalate(byAda, 'i-x', undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(actions()).toEqual([]);
  });

  it('assigns to a team through its owner; the same assignee again changes nothing', async () => {
    const { service, repository, teams, actions, webhookTypes } = setUp();
    await service.assign(assignTo({ type: 'team', id: 't-1' }));
    expect(teams.lockTeam).toHaveBeenCalledWith(expect.anything(), ORG, 't-1', 'FOR KEY SHARE');
    expect(repository.setAssignee).toHaveBeenCalledWith(expect.anything(), ORG, 'i-1', {
      type: 'team',
      id: 't-1',
      name: 'Ops',
    });
    expect(actions()).toEqual(['interrupt.assigned']);
    expect(webhookTypes()).toEqual(['interrupt.assigned']);
    const same = setUp({
      lock: jest.fn(async () => ({
        ...locked,
        assignee_type: 'team',
        assignee_id: 't-1',
        assignee_name: 'Ops',
      })),
    });
    await same.service.assign(assignTo({ type: 'team', id: 't-1' }));
    expect(same.repository.setAssignee).not.toHaveBeenCalled();
    expect(same.repository.keepRecord).not.toHaveBeenCalled();
    expect(same.actions()).toEqual([]);
  });

  it('unassigns only an assigned interrupt, and announces only then', async () => {
    const none = setUp();
    await none.service.assign(assignTo(null));
    expect(none.repository.setAssignee).not.toHaveBeenCalled();
    expect(none.events.announce).not.toHaveBeenCalled();
    const assigned = setUp({
      lock: jest.fn(async () => ({
        ...locked,
        assignee_type: 'member',
        assignee_id: 'u-bob',
        assignee_name: 'Bob',
      })),
    });
    await assigned.service.assign(assignTo(null));
    expect(assigned.repository.setAssignee).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      'i-1',
      null,
    );
    expect(assigned.actions()).toEqual(['interrupt.unassigned']);
    expect(assigned.repository.keepRecord).toHaveBeenCalledTimes(1);
    expect(assigned.events.announce).toHaveBeenCalledWith(ORG);
  });

  it('refuses to assign or escalate an answered interrupt (409), and escalates an open one a level up', async () => {
    const answered = setUp({ lock: jest.fn(async () => ({ ...locked, status: 'answered' })) });
    await expect(
      answered.service.assign(assignTo({ type: 'team', id: 't-1' })),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This interrupt is already answered.',
    });
    await expect(answered.service.escalate(byAda, 'i-1', 'late')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(answered.actions()).toEqual([]);
    const open = setUp({ lock: jest.fn(async () => ({ ...locked, escalation_level: 1 })) });
    await open.service.escalate(byAda, 'i-1', 'late');
    expect(open.repository.escalate).toHaveBeenCalledWith(expect.anything(), ORG, 'i-1', 2, 'late');
    expect(open.actions()).toEqual(['interrupt.escalated']);
    expect(open.repository.keepRecord).toHaveBeenCalledTimes(1);
  });
});
