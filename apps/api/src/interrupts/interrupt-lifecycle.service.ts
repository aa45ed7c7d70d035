import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import {
  DomainError,
  dueEscalationStep,
  escalationPosition,
  type EscalationStep,
  MAX_TIMEOUT_SECONDS,
} from '@interlock/domain';
import type { Call, MemberCall } from '../auth/caller';
import type { Queryable } from '../database/query-rows.util';
import { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { LOGGER } from '../logging/logger.module';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import type { InterruptResponse } from './dto/interrupt.response';
import { InterruptWaits } from './interrupt-waits';
import { InterruptsRepository, previousAssigneeOf } from './interrupts.repository';
import { lockCurrentMember } from '../members/memberships.repository';
import { TeamsService } from '../teams/teams.service';
import { InterruptExpiry, SYSTEM_ACTOR } from './interrupt-expiry';

/** How many due escalation steps one pass reads at a time, and applies at once. */
const DUE_BATCH = 200;
const ESCALATION_CONCURRENCY = 4;

const noLongerOpen = (status: string) =>
  new DomainError('CONFLICT', `This interrupt is no longer open: it is ${status}.`);

/**
 * An interrupt's life after it opens, beside the members' reviews (SPEC §8e): the deadline — applied
 * by the expiry job as actor `system`, exactly once across instances, in batches per organisation
 * (InterruptExpiry), or extended by a member — and withdrawal by its agent. Each change writes its
 * audit entry and webhook event in its transaction and, once committed, wakes the organisation's
 * event streams and the requests waiting on the interrupt.
 */
@Injectable()
export class InterruptLifecycleService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly interrupts: InterruptsRepository,
    private readonly organisations: OrganisationsRepository,
    private readonly events: OrganisationEventsAnnouncer,
    private readonly outbox: WebhookOutbox,
    private readonly waits: InterruptWaits,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly teams: TeamsService,
    private readonly expiry: InterruptExpiry,
  ) {}

  /**
   * Withdraws an open interrupt: its undecided actions can no longer be decided (409 afterwards),
   * its status becomes `withdrawn` with the reason. An interrupt that is no longer open answers 409.
   */
  async cancel(
    { organisationId, actor, ip }: Call,
    id: string,
    reason: string | null,
  ): Promise<InterruptResponse> {
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.interrupts.lockFound(tx, organisationId, id);
      if (interrupt.status !== 'open') throw noLongerOpen(interrupt.status);
      const before = await this.interrupts.render(tx, organisationId, id);
      const decided = new Set(before.decisions.map((d) => d.actionName));
      await this.interrupts.close(tx, organisationId, id, 'withdrawn', reason);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.withdrawn',
        actor,
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: {
          reason,
          actionNames: interrupt.action_requests
            .map((a) => a.name)
            .filter((name) => !decided.has(name)),
        },
        ipAddress: ip,
      });
      const withdrawn = await this.interrupts.keepRendered(tx, organisationId, id);
      await this.outbox.write(
        tx,
        organisationId,
        [{ type: 'interrupt.withdrawn', subjectId: id, data: withdrawn }],
        // Who withdrew it, for the notifications that say so (and leave a withdrawing member out).
        { memberId: actor.type === 'member' ? actor.id : undefined, actor },
      );
      return withdrawn;
    });
    await this.settled(organisationId, id);
    return result;
  }

  /**
   * Moves an open interrupt's deadline to `timeoutSeconds` from now: later than the current one,
   * within the organisation's maximum. An interrupt without a deadline gets one (`onTimeout`
   * reject).
   */
  async extend(
    { organisationId, actor, ip }: MemberCall,
    id: string,
    timeoutSeconds: number,
  ): Promise<InterruptResponse> {
    const result = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.interrupts.lockFound(tx, organisationId, id);
      if (interrupt.status !== 'open') throw noLongerOpen(interrupt.status);
      const settings = await this.organisations.deadlineSettings(tx, organisationId);
      const max = settings?.interrupt_timeout_max_seconds ?? MAX_TIMEOUT_SECONDS;
      if (timeoutSeconds > max)
        throw new DomainError(
          'VALIDATION_FAILED',
          `timeoutSeconds: must be at most ${max} (this organisation's maximum)`,
        );
      const to = new Date(Date.now() + timeoutSeconds * 1000);
      if (interrupt.expires_at !== null && to <= interrupt.expires_at) {
        throw new DomainError(
          'VALIDATION_FAILED',
          `timeoutSeconds: the new deadline must be later than the current one (${interrupt.expires_at.toISOString()})`,
        );
      }
      await this.interrupts.setDeadline(
        tx,
        organisationId,
        id,
        to,
        false,
        interrupt.on_timeout ?? 'reject',
      );
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.deadline_extended',
        actor,
        target: { type: 'interrupt', id, name: interrupt.title },
        metadata: { from: interrupt.expires_at?.toISOString() ?? 'none', to: to.toISOString() },
        ipAddress: ip,
      });
      return this.interrupts.keepRendered(tx, organisationId, id);
    });
    await this.events.announce(organisationId);
    return result;
  }

  /**
   * Applies every deadline at or before `now` (the expiry job; `now` is injected so tests need not
   * wait): in batches per organisation, each deadline once however many instances run
   * (InterruptExpiry). Returns how many interrupts it changed.
   */
  expireDue(now: Date): Promise<number> {
    return this.expiry.expireDue(now);
  }

  /**
   * One deadline: `escalate` (the first time) escalates and extends the deadline by its original
   * length; otherwise every undecided action is decided `reject` (or `approve`) by `system` and the
   * interrupt becomes `expired`. False when there was nothing to do (decided, withdrawn, extended
   * or expired meanwhile — by another instance too).
   */
  expire(organisationId: string, id: string, now: Date): Promise<boolean> {
    return this.expiry.expire(organisationId, id, now);
  }

  /**
   * Takes the due interrupts `find` lists, a batch at a time, and applies `apply` to each with
   * ESCALATION_CONCURRENCY workers (a failure is logged and the rest go on). A full batch of which none
   * changed was taken by another instance (or failed): it stops there, the next run picks up what
   * is left. Returns how many interrupts changed.
   */
  private async applyDue(
    find: (batch: number) => Promise<{ organisation_id: string; id: string }[]>,
    apply: (organisationId: string, id: string) => Promise<boolean>,
    failure: string,
  ): Promise<number> {
    let changed = 0;
    for (;;) {
      const due = await find(DUE_BATCH);
      let next = 0;
      let changedNow = 0;
      const worker = async () => {
        while (next < due.length) {
          const { organisation_id: organisationId, id } = due[next++];
          try {
            if (await apply(organisationId, id)) changedNow++;
          } catch (error) {
            this.logger.error({ err: error, organisationId, interruptId: id }, failure);
          }
        }
      };
      await Promise.all(Array.from({ length: ESCALATION_CONCURRENCY }, worker));
      changed += changedNow;
      if (due.length < DUE_BATCH || changedNow === 0) return changed;
    }
  }

  /**
   * Applies every escalation step that is due at `now` (the escalation job; `now` is injected so
   * tests need not wait). Like the expiry, each interrupt is locked and checked again, so a step
   * acts once however many instances run. Returns how many interrupts it changed.
   */
  async escalateDue(now: Date): Promise<number> {
    return this.applyDue(
      (batch) => this.interrupts.escalationDue(this.dataSource, now, batch),
      (organisationId, id) => this.escalationStep(organisationId, id, now),
      'could not apply an escalation step',
    );
  }

  /**
   * The interrupt's due escalation step (SPEC §8e): of the steps due at `now` that it has not
   * passed, the last acts — those before it pass silently (the policy was set, or the service was
   * down, after their time: one reminder says as much as several) — as actor `system`: `remind`
   * writes `interrupt.reminder`; `escalate` raises the level (`interrupt.escalated`) and assigns
   * (`interrupt.assigned`) when it names a member or team still there. A `when: unassigned` step
   * of an interrupt somebody holds passes without acting. False when nothing was due.
   */
  async escalationStep(organisationId: string, id: string, now: Date): Promise<boolean> {
    const acted = await this.dataSource.transaction(async (tx) => {
      const interrupt = await this.interrupts.lock(tx, organisationId, id);
      if (interrupt === undefined || interrupt.status !== 'open') return undefined;
      // The policy in force: the assignee team's, when it has one, else the organisation's.
      const team =
        interrupt.assignee_type === 'team' && interrupt.assignee_id !== null
          ? await this.teams.escalationPolicy(tx, organisationId, interrupt.assignee_id)
          : undefined;
      const teamPolicy = team?.policy ?? null;
      const position = escalationPosition(
        {
          createdAt: interrupt.created_at,
          assigneeTeamId: team?.id ?? null,
          assigneeChangedAt: interrupt.assignee_changed_at,
          step: interrupt.escalation_step,
          policyTeamId: interrupt.escalation_policy_team_id,
          clockAt: interrupt.escalation_clock_at,
        },
        teamPolicy !== null,
      );
      const steps =
        teamPolicy?.steps ??
        (await this.organisations.escalationPolicy(tx, organisationId))?.policy?.steps ??
        [];
      const last = dueEscalationStep(steps, position, now);
      if (last < 0) return undefined;
      await this.interrupts.setEscalationStep(tx, organisationId, id, {
        ...position,
        step: last + 1,
      });
      const step = steps[last];
      if (step.when === 'unassigned' && interrupt.assignee_type !== null) return 'passed' as const;
      const target = { type: 'interrupt' as const, id, name: interrupt.title };
      const stepNumber = last + 1;
      // A team's steps say whose they are; the organisation's say nothing more (as before teams had any).
      const policyTeam =
        teamPolicy === null || team === undefined ? {} : { teamId: team.id, teamName: team.name };
      if (step.action === 'remind') {
        await writeAuditEntry(tx, {
          organisationId,
          action: 'interrupt.reminder',
          actor: SYSTEM_ACTOR,
          target,
          metadata: {
            step: stepNumber,
            afterMinutes: step.afterMinutes,
            assigneeType: interrupt.assignee_type,
            assigneeId: interrupt.assignee_id,
            assigneeName: interrupt.assignee_name,
            ...policyTeam,
          },
          ipAddress: null,
        });
        const record = await this.interrupts.render(tx, organisationId, id);
        await this.outbox.write(tx, organisationId, [
          { type: 'interrupt.reminder', subjectId: id, data: record },
        ]);
        return 'acted' as const;
      }
      const level = interrupt.escalation_level + 1;
      const policyName =
        'teamName' in policyTeam
          ? `Escalation policy of team ${policyTeam.teamName}`
          : 'Escalation policy';
      const reason = `${policyName}, step ${stepNumber}: ${step.when === 'unassigned' ? 'unassigned and undecided' : 'undecided'} after ${step.afterMinutes} min.`;
      await this.interrupts.escalate(tx, organisationId, id, level, reason);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'interrupt.escalated',
        actor: SYSTEM_ACTOR,
        target,
        metadata: { level, reason },
        ipAddress: null,
      });
      const assignee = await this.stepAssignee(tx, organisationId, step.assignTo);
      const reassigned =
        assignee !== undefined &&
        !(interrupt.assignee_type === assignee.type && interrupt.assignee_id === assignee.id);
      if (reassigned) {
        await this.interrupts.setAssignee(tx, organisationId, id, assignee, now);
        await writeAuditEntry(tx, {
          organisationId,
          action: 'interrupt.assigned',
          actor: SYSTEM_ACTOR,
          target,
          metadata: {
            assigneeType: assignee.type,
            assigneeId: assignee.id,
            assigneeName: assignee.name,
            ...previousAssigneeOf(interrupt),
          },
          ipAddress: null,
        });
      }
      const escalated = await this.interrupts.keepRendered(tx, organisationId, id);
      await this.outbox.write(tx, organisationId, [
        { type: 'interrupt.escalated', subjectId: id, data: escalated },
        ...(reassigned
          ? [{ type: 'interrupt.assigned' as const, subjectId: id, data: escalated }]
          : []),
      ]);
      return 'acted' as const;
    });
    if (acted === undefined) return false;
    if (acted === 'acted') await this.events.announce(organisationId);
    return true;
  }

  /** The member or team an escalate step names, if still the organisation's (locked against removal). */
  private async stepAssignee(
    tx: Queryable,
    organisationId: string,
    to: EscalationStep['assignTo'],
  ): Promise<{ type: 'member' | 'team'; id: string; name: string } | undefined> {
    if (to === null) return undefined;
    if ('teamId' in to) {
      const team = await this.teams.findTeam(tx, organisationId, to.teamId);
      return team === undefined ? undefined : { type: 'team', ...team };
    }
    const member = await lockCurrentMember(tx, organisationId, to.memberId);
    return member === undefined ? undefined : { type: 'member', ...member };
  }

  private async settled(organisationId: string, id: string): Promise<void> {
    await this.events.announce(organisationId);
    await this.waits.announceSettled(organisationId, id);
  }
}
