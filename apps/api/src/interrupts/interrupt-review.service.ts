import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError, type MemberActor, storeDecider } from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { lockCurrentMember } from '../members/memberships.repository';
import { TeamsService } from '../teams/teams.service';
import { responseSchemaOf, type StoredActionRequest } from './interrupt-record';
import { responseProblem } from '@interlock/domain';
import { ArgusPipeline } from '../classification/argus-pipeline';
import { InterruptWaits } from './interrupt-waits';
import {
  type LockedInterrupt,
  InterruptsRepository,
  previousAssigneeOf,
} from './interrupts.repository';
import type { AssignInterruptCommand, SetPriorityCommand } from './assign-interrupt.command';
import type { DecideInterruptCommand } from './decide-interrupt.command';
import type { MemberCall } from '../auth/caller';
import type { InterruptResponse } from './dto/interrupt.response';

const alreadyAnswered = () => new DomainError('CONFLICT', 'This interrupt is already answered.');
const noLongerOpen = (status: string) =>
  new DomainError('CONFLICT', `This interrupt is no longer open: it is ${status}.`);
/** Assigning or escalating an interrupt that is not open: 409 (answered keeps its text). */
const closed = (status: string) =>
  status === 'answered' ? alreadyAnswered() : noLongerOpen(status);

/** The webhook events that tell of a member's change to an open interrupt (`changeOpen`). */
type MemberChangeEvent = 'interrupt.assigned' | 'interrupt.unassigned' | 'interrupt.escalated';

/** Who decides, once `decideAuthorised` has checked: a member, and (when not the dashboard or API) how. */
export interface DecisionAuthority {
  actor: MemberActor;
  via?: 'email_link' | 'slack';
}

/**
 * What members do to interrupts (SPEC §6): decide, assign, escalate. Each writes its entry and,
 * once committed, announces it to the organisation's event streams. The rules; the tables are
 * `InterruptsRepository`'s, the assignees' the teams' and memberships' owners'.
 */
@Injectable()
export class InterruptReviewService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly interrupts: InterruptsRepository,
    private readonly events: OrganisationEventsAnnouncer,
    private readonly outbox: WebhookOutbox,
    private readonly teams: TeamsService,
    private readonly waits: InterruptWaits,
    private readonly argus: ArgusPipeline,
  ) {}

  /**
   * One decision per action. The interrupt row is locked first, so concurrent decisions on one
   * interrupt queue and each sees the ones before it (the unique index is the backstop): of two
   * members deciding the same action at once, exactly one wins and the other gets 409.
   */
  async decide(command: DecideInterruptCommand): Promise<InterruptResponse> {
    const { actor, ...decision } = command;
    return this.decideAuthorised(decision, () => Promise.resolve({ actor }));
  }

  /**
   * A decision whose decider is established inside its transaction, after the interrupt is
   * locked and the action found: `authorise` names the member (and how they decided) or throws,
   * and may write rows of its own there (an emailed action link records its use, notify's
   * `ActionLinksService`). Otherwise exactly `decide`.
   */
  async decideAuthorised(
    body: Omit<DecideInterruptCommand, 'actor'>,
    authorise: (
      tx: Queryable,
      action: { name: string; args: Record<string, unknown> },
    ) => Promise<DecisionAuthority>,
  ): Promise<InterruptResponse> {
    const { organisationId, interruptId: id, ip } = body;
    let pausedRules = false;
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.interrupts.lockFound(tx, organisationId, id);
      if (interrupt.status === 'expired' || interrupt.status === 'withdrawn')
        throw noLongerOpen(interrupt.status);
      const action = interrupt.action_requests.find((a) => a.name === body.actionName);
      // The body is well-formed; what it names conflicts with this interrupt: 409, not 400.
      if (action === undefined) {
        throw new DomainError(
          'CONFLICT',
          `actionName must name one of this interrupt's action requests.`,
        );
      }
      if (!action.allowedDecisions.includes(body.decision)) {
        throw new DomainError(
          'CONFLICT',
          `decision must be one of the decisions action ${action.name} allows: ${action.allowedDecisions.join(', ')}.`,
        );
      }
      checkResponse(action, body);
      const { actor, via } = await authorise(tx, { name: action.name, args: action.args });
      const alreadyDecided = () =>
        new DomainError(
          'CONFLICT',
          `Action ${action.name} of this interrupt has already been decided.`,
        );
      // Several approvers (SPEC §8e): only the approver team's members decide, and an approval
      // short of the quorum is counted, not decided.
      const required = action.requiredApprovals ?? 1;
      const team = action.approverTeam ?? null;
      if (team !== null && !(await this.teams.isTeamMember(tx, organisationId, team.id, actor.id)))
        throw new DomainError(
          'FORBIDDEN',
          `Only members of team ${team.name} may decide action ${action.name}.`,
        );
      let quorum: { approvals: number; requiredApprovals: number } | undefined;
      if (required > 1) {
        if (await this.interrupts.hasDecision(tx, organisationId, id, action.name))
          throw alreadyDecided();
        if (body.decision === 'approve') {
          const approvals = await this.interrupts.insertApproval(tx, organisationId, {
            interruptId: id,
            actionName: action.name,
            memberId: actor.id,
            memberName: actor.name,
          });
          if (approvals === null)
            throw new DomainError(
              'CONFLICT',
              `You have already approved action ${action.name} of this interrupt: it needs another member's approval.`,
            );
          quorum = { approvals, requiredApprovals: required };
          if (approvals < required) {
            await writeAuditEntry(tx, {
              organisationId,
              action: 'interrupt.approval_added',
              actor,
              target: { type: 'interrupt', id, name: interrupt.title },
              metadata: {
                actionName: action.name,
                approvals,
                requiredApprovals: required,
                ...(via === undefined ? {} : { via }),
              },
              ipAddress: ip,
            });
            // Live and to webhooks too (SPEC §8e): a dashboard and an agent see "1 of 2".
            const counted = await this.interrupts.keepRendered(tx, organisationId, id);
            await this.outbox.write(
              tx,
              organisationId,
              [{ type: 'interrupt.approval_added', subjectId: id, data: counted }],
              { memberId: actor.id },
            );
            return counted;
          }
        }
      }
      const inserted = await this.interrupts.insertDecision(tx, organisationId, {
        id: randomUUID(),
        interruptId: id,
        actionName: action.name,
        decision: body.decision,
        editedArgs: body.editedArgs ?? null,
        editedName: body.editedName ?? null,
        message: body.message ?? null,
        response: body.response ?? null,
        ...storeDecider({ type: 'member', id: actor.id, name: actor.name }),
      });
      if (!inserted) throw alreadyDecided();
      const decided = await this.interrupts.decisionCount(tx, organisationId, id);
      const becameAnswered = decided === interrupt.action_requests.length;
      if (becameAnswered) await this.interrupts.markAnswered(tx, organisationId, id);
      // Shadow rules that matched this action: would argus have agreed? A rejection pauses the
      // "Always allow this" rules that would have approved it (SPEC §8d).
      const { opinions: argus, paused } = await this.argus.personDecided(tx, organisationId, {
        interruptId: id,
        title: interrupt.title,
        keyId: interrupt.opened_by_key_id,
        sessionId: interrupt.session_id,
        actionName: action.name,
        args: action.args,
        decision: body.decision,
        actor,
        ip,
      });
      pausedRules = paused.length > 0;
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.decided',
        actor,
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: {
          actionName: action.name,
          decision: body.decision,
          becameAnswered,
          ...(quorum ?? (required > 1 ? { requiredApprovals: required } : {})),
          ...(via === undefined ? {} : { via }),
          ...(argus.length === 0 ? {} : { argus }),
        },
        ipAddress: ip,
      });
      const after = await this.interrupts.keepRendered(tx, organisationId, id);
      await this.outbox.write(
        tx,
        organisationId,
        [
          { type: 'interrupt.decided', subjectId: id, data: after },
          ...(becameAnswered
            ? [{ type: 'interrupt.answered' as const, subjectId: id, data: after }]
            : []),
        ],
        { memberId: actor.id },
      );
      return after;
    });
    if (pausedRules) await this.argus.rulesChanged(organisationId);
    await this.events.announce(organisationId);
    if (result.status !== 'open') await this.waits.announceSettled(organisationId, id);
    return result;
  }

  /**
   * Assigns to a member or a team of the organisation, or (`memberId: null`) to nobody; the same
   * assignee again changes nothing.
   */
  async assign(command: AssignInterruptCommand): Promise<InterruptResponse> {
    const { organisationId, actor, interruptId: id, ip } = command;
    const wanted = command.assignee;
    if (wanted === null) return this.unassign(command);
    return this.changeOpen(command, async (tx, interrupt) => {
      const assignee = await this.findAssignee(tx, organisationId, wanted.type, wanted.id);
      if (interrupt.assignee_type === assignee.type && interrupt.assignee_id === assignee.id)
        return 'unchanged';
      await this.interrupts.setAssignee(tx, organisationId, id, assignee);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.assigned',
        actor,
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: {
          assigneeType: assignee.type,
          assigneeId: assignee.id,
          assigneeName: assignee.name,
          ...previousAssigneeOf(interrupt),
        },
        ipAddress: ip,
      });
      return { event: 'interrupt.assigned' };
    });
  }

  /** Removes the assignee (`interrupt.unassigned`); an unassigned interrupt stays as it is. */
  private unassign(command: AssignInterruptCommand): Promise<InterruptResponse> {
    const { organisationId, actor, interruptId: id, ip } = command;
    return this.changeOpen(command, async (tx, interrupt) => {
      if (interrupt.assignee_type === null) return 'unchanged';
      await this.interrupts.setAssignee(tx, organisationId, id, null);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.unassigned',
        actor,
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: previousAssigneeOf(interrupt),
        ipAddress: ip,
      });
      return { event: 'interrupt.unassigned' };
    });
  }

  /** Raises the escalation level by one, with an optional reason. */
  escalate(
    { organisationId, actor, ip }: MemberCall,
    id: string,
    reason: string | undefined,
  ): Promise<InterruptResponse> {
    return this.changeOpen({ organisationId, actor, interruptId: id }, async (tx, interrupt) => {
      const level = interrupt.escalation_level + 1;
      await this.interrupts.escalate(tx, organisationId, id, level, reason ?? null);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.escalated',
        actor,
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: { level, reason: reason ?? null },
        ipAddress: ip,
      });
      return { event: 'interrupt.escalated' };
    });
  }

  /**
   * Changes how urgent the interrupt is (SPEC §8e): audited `interrupt.priority_changed` {from,
   * to}; the same priority changes nothing and writes nothing; 409 once it is no longer open.
   */
  setPriority(command: SetPriorityCommand): Promise<InterruptResponse> {
    const { organisationId, actor, interruptId: id, priority, ip } = command;
    return this.changeOpen(command, async (tx, interrupt) => {
      if (interrupt.priority === priority) return 'unchanged';
      await this.interrupts.setPriority(tx, organisationId, id, priority);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.priority_changed',
        actor,
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: { from: interrupt.priority, to: priority },
        ipAddress: ip,
      });
      return { event: null };
    });
  }

  /**
   * A member's change to an open interrupt (409 once it is not: `closed`), in one transaction
   * with the interrupt locked: `change` makes it and writes its audit entry, and says which
   * webhook event tells of it (none: `null`) — or that nothing changed, when the interrupt is
   * answered as it is and nothing is written or announced. A change keeps the new rendering,
   * sends its event and, once committed, is announced to the organisation's event streams.
   */
  private async changeOpen(
    {
      organisationId,
      actor,
      interruptId: id,
    }: Pick<AssignInterruptCommand, 'organisationId' | 'actor' | 'interruptId'>,
    change: (
      tx: Queryable,
      interrupt: LockedInterrupt,
    ) => Promise<'unchanged' | { event: MemberChangeEvent | null }>,
  ): Promise<InterruptResponse> {
    let changed = false;
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.interrupts.lockFound(tx, organisationId, id);
      if (interrupt.status !== 'open') throw closed(interrupt.status);
      const made = await change(tx, interrupt);
      if (made === 'unchanged') return this.interrupts.render(tx, organisationId, id);
      changed = true;
      const after = await this.interrupts.keepRendered(tx, organisationId, id);
      if (made.event !== null)
        await this.outbox.write(
          tx,
          organisationId,
          [{ type: made.event, subjectId: id, data: after }],
          { memberId: actor.id },
        );
      return after;
    });
    if (changed) await this.events.announce(organisationId);
    return result;
  }

  /** A current member or a team of the organisation (404 otherwise), locked against removal. */
  private async findAssignee(
    tx: Queryable,
    organisationId: string,
    type: 'member' | 'team',
    assigneeId: string,
  ): Promise<{ type: 'member' | 'team'; id: string; name: string }> {
    // Each locked by its table's owner: the team by TeamsService, the member by memberships.
    if (type === 'team')
      return {
        type,
        ...(await this.teams.lockTeam(tx, organisationId, assigneeId, 'FOR KEY SHARE')),
      };
    const row = await lockCurrentMember(tx, organisationId, assigneeId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return { type, id: row.id, name: row.name };
  }
}

/**
 * Typed input (SPEC §5): a `respond` on an action with a `responseSchema` must carry a `response`
 * valid against it (400 naming the field); a `response` on an action without one conflicts with
 * this interrupt (409).
 */
function checkResponse(
  action: StoredActionRequest,
  body: Pick<DecideInterruptCommand, 'decision' | 'response'>,
): void {
  const schema = responseSchemaOf(action);
  if (schema === null) {
    if (body.response !== undefined)
      throw new DomainError(
        'CONFLICT',
        `response is only allowed for an action with a responseSchema; action ${action.name} has none.`,
      );
    return;
  }
  if (body.decision !== 'respond') return;
  if (body.response === undefined)
    throw new DomainError(
      'VALIDATION_FAILED',
      `response is required: action ${action.name} asks for a typed answer (its responseSchema).`,
    );
  const problem = responseProblem(body.response, schema);
  if (problem !== null) throw new DomainError('VALIDATION_FAILED', problem);
}
