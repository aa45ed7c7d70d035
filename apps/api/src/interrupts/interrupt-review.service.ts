import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { actorOf, MemberPrincipal } from '../auth/principal';
import { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { lockCurrentMember } from '../members/memberships.repository';
import { TeamsService } from '../teams/teams.service';
import type { InterruptStatus } from './interrupt.entity';
import { INTERRUPT_COLUMNS, InterruptRow, StoredActionRequest, toInterruptResponse } from './interrupt-record';
import type { AssignInterruptDto } from './dto/assign-interrupt.dto';
import type { DecideInterruptDto } from './dto/decide-interrupt.dto';
import type { InterruptResponse } from './dto/interrupt.response';
import { DomainError } from '@interlock/domain';

interface LockedInterrupt {
  title: string;
  status: InterruptStatus;
  action_requests: StoredActionRequest[];
  assignee_type: 'member' | 'team' | null;
  assignee_id: string | null;
  assignee_name: string | null;
  escalation_level: number;
}

const alreadyAnswered = () => new DomainError('CONFLICT', 'This interrupt is already answered.');

/**
 * What members do to interrupts (SPEC §6): decide, assign, escalate. Each writes its entry and,
 * once committed, announces it to the organisation's event streams.
 */
@Injectable()
export class InterruptReviewService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: OrganisationEventsAnnouncer,
    private readonly outbox: WebhookOutbox,
    private readonly teams: TeamsService,
  ) {}

  /**
   * One decision per action. The interrupt row is locked first, so concurrent decisions on one
   * interrupt queue and each sees the ones before it (the unique index is the backstop): of two
   * members deciding the same action at once, exactly one wins and the other gets 409.
   */
  async decide(member: MemberPrincipal, id: string, body: DecideInterruptDto, ip: string | null): Promise<InterruptResponse> {
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.lock(tx, member, id);
      const action = interrupt.action_requests.find((a) => a.name === body.actionName);
      // The body is well-formed; what it names conflicts with this interrupt: 409, not 400.
      if (action === undefined) {
        throw new DomainError('CONFLICT', `actionName must name one of this interrupt's action requests.`);
      }
      if (!action.allowedDecisions.includes(body.decision)) {
        throw new DomainError(
          'CONFLICT',
          `decision must be one of the decisions action ${action.name} allows: ${action.allowedDecisions.join(', ')}.`,
        );
      }
      const inserted: unknown[] = await tx.query(
        `INSERT INTO interrupt_decisions
           (organisation_id, id, interrupt_id, action_name, decision, edited_args, edited_name, message,
            decided_by_id, decided_by_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (organisation_id, interrupt_id, action_name) DO NOTHING
         RETURNING id`,
        [
          member.organisationId,
          randomUUID(),
          id,
          action.name,
          body.decision,
          body.editedArgs === undefined ? null : JSON.stringify(body.editedArgs),
          body.editedName ?? null,
          body.message ?? null,
          member.memberId,
          member.memberName,
        ],
      );
      if (inserted.length === 0) {
        throw new DomainError('CONFLICT', `Action ${action.name} of this interrupt has already been decided.`);
      }
      const [{ decided }]: { decided: number }[] = await tx.query(
        `SELECT count(*)::int AS decided FROM interrupt_decisions WHERE organisation_id = $1 AND interrupt_id = $2`,
        [member.organisationId, id],
      );
      const becameAnswered = decided === interrupt.action_requests.length;
      if (becameAnswered) {
        await tx.query(
          `UPDATE interrupts SET status = 'answered', answered_at = now() WHERE organisation_id = $1 AND id = $2`,
          [member.organisationId, id],
        );
      }
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'interrupt.decided',
        actor: actorOf(member),
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: { actionName: action.name, decision: body.decision, becameAnswered },
        ipAddress: ip,
      });
      const after = await this.read(tx, member, id);
      await this.outbox.write(tx, member.organisationId, [
        { type: 'interrupt.decided', subjectId: id, data: after },
        ...(becameAnswered ? [{ type: 'interrupt.answered' as const, subjectId: id, data: after }] : []),
      ]);
      return after;
    });
    await this.events.announce(member.organisationId);
    return result;
  }

  /**
   * Assigns to a member or a team of the organisation, or (`memberId: null`) to nobody; the same
   * assignee again changes nothing.
   */
  async assign(member: MemberPrincipal, id: string, body: AssignInterruptDto, ip: string | null): Promise<InterruptResponse> {
    if (body.memberId === null) return this.unassign(member, id, ip);
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.lock(tx, member, id);
      if (interrupt.status === 'answered') throw alreadyAnswered();
      const assignee =
        body.teamId !== undefined
          ? await this.findAssignee(tx, member, 'team', body.teamId)
          : await this.findAssignee(tx, member, 'member', body.memberId as string);
      if (interrupt.assignee_type === assignee.type && interrupt.assignee_id === assignee.id) return this.read(tx, member, id);
      await tx.query(
        `UPDATE interrupts SET assignee_type = $3, assignee_id = $4, assignee_name = $5
          WHERE organisation_id = $1 AND id = $2`,
        [member.organisationId, id, assignee.type, assignee.id, assignee.name],
      );
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'interrupt.assigned',
        actor: actorOf(member),
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: {
          assigneeType: assignee.type,
          assigneeId: assignee.id,
          assigneeName: assignee.name,
          previousAssigneeType: interrupt.assignee_type,
          previousAssigneeId: interrupt.assignee_id,
        },
        ipAddress: ip,
      });
      const assigned = await this.read(tx, member, id);
      await this.outbox.write(tx, member.organisationId, [{ type: 'interrupt.assigned', subjectId: id, data: assigned }]);
      return assigned;
    });
    await this.events.announce(member.organisationId);
    return result;
  }

  /** Removes the assignee (`interrupt.unassigned`); an unassigned interrupt stays as it is. */
  private async unassign(member: MemberPrincipal, id: string, ip: string | null): Promise<InterruptResponse> {
    let changed = false;
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.lock(tx, member, id);
      if (interrupt.status === 'answered') throw alreadyAnswered();
      if (interrupt.assignee_type === null) return this.read(tx, member, id);
      await tx.query(
        `UPDATE interrupts SET assignee_type = NULL, assignee_id = NULL, assignee_name = NULL
          WHERE organisation_id = $1 AND id = $2`,
        [member.organisationId, id],
      );
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'interrupt.unassigned',
        actor: actorOf(member),
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: {
          previousAssigneeType: interrupt.assignee_type,
          previousAssigneeId: interrupt.assignee_id,
          previousAssigneeName: interrupt.assignee_name,
        },
        ipAddress: ip,
      });
      changed = true;
      const unassigned = await this.read(tx, member, id);
      await this.outbox.write(tx, member.organisationId, [{ type: 'interrupt.unassigned', subjectId: id, data: unassigned }]);
      return unassigned;
    });
    if (changed) await this.events.announce(member.organisationId);
    return result;
  }

  /** Raises the escalation level by one, with an optional reason. */
  async escalate(member: MemberPrincipal, id: string, reason: string | undefined, ip: string | null): Promise<InterruptResponse> {
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.lock(tx, member, id);
      if (interrupt.status === 'answered') throw alreadyAnswered();
      const level = interrupt.escalation_level + 1;
      await tx.query(
        `UPDATE interrupts SET escalation_level = $3, escalation_reason = $4, escalated_at = now()
          WHERE organisation_id = $1 AND id = $2`,
        [member.organisationId, id, level, reason ?? null],
      );
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'interrupt.escalated',
        actor: actorOf(member),
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: { level, reason: reason ?? null },
        ipAddress: ip,
      });
      const escalated = await this.read(tx, member, id);
      await this.outbox.write(tx, member.organisationId, [{ type: 'interrupt.escalated', subjectId: id, data: escalated }]);
      return escalated;
    });
    await this.events.announce(member.organisationId);
    return result;
  }

  private async lock(tx: EntityManager, member: MemberPrincipal, id: string): Promise<LockedInterrupt> {
    const [row]: LockedInterrupt[] = await tx.query(
      `SELECT title, status, action_requests, assignee_type, assignee_id, assignee_name, escalation_level
         FROM interrupts WHERE organisation_id = $1 AND id = $2 FOR NO KEY UPDATE`,
      [member.organisationId, id],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return row;
  }

  /** A current member or a team of the caller's organisation (404 otherwise), locked against removal. */
  private async findAssignee(
    tx: EntityManager,
    member: MemberPrincipal,
    type: 'member' | 'team',
    assigneeId: string,
  ): Promise<{ type: 'member' | 'team'; id: string; name: string }> {
    // Each locked by its table's owner: the team by TeamsService, the member by memberships.
    if (type === 'team') return { type, ...(await this.teams.lockTeam(tx, member.organisationId, assigneeId, 'FOR KEY SHARE')) };
    const row = await lockCurrentMember(tx, member.organisationId, assigneeId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return { type, id: row.id, name: row.name };
  }

  private async read(tx: EntityManager, member: MemberPrincipal, id: string): Promise<InterruptResponse> {
    const [row]: InterruptRow[] = await tx.query(
      `SELECT ${INTERRUPT_COLUMNS} FROM interrupts i WHERE i.organisation_id = $1 AND i.id = $2`,
      [member.organisationId, id],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toInterruptResponse(row);
  }
}
