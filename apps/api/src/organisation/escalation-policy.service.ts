import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError, type EscalationPolicy, type EscalationStep } from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { lockCurrentMember } from '../members/memberships.repository';
import { TeamsService } from '../teams/teams.service';
import type {
  EscalationStepInput,
  ReplaceEscalationPolicyCommand,
  ReplaceTeamEscalationPolicyCommand,
} from './replace-escalation-policy.command';
import { OrganisationsRepository } from './organisations.repository';

const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message);

/** One step as a text, its fields in one order (Postgres's jsonb keeps its own). */
const stepKey = (s: EscalationStep) =>
  JSON.stringify([
    s.afterMinutes,
    s.action,
    s.when,
    s.assignTo === null
      ? null
      : 'teamId' in s.assignTo
        ? ['team', s.assignTo.teamId]
        : ['member', s.assignTo.memberId],
  ]);

function sameSteps(a: readonly EscalationStep[], b: readonly EscalationStep[]): boolean {
  return a.length === b.length && a.every((step, i) => stepKey(step) === stepKey(b[i]));
}

/**
 * The steps as given, checked and with their defaults: soonest first, each later than the one
 * before; only an `escalate` step assigns; a team's policy has no `when: unassigned` step.
 */
function normalise(input: readonly EscalationStepInput[], forTeam: boolean): EscalationStep[] {
  return input.map((step, i) => {
    const previous = input[i - 1];
    if (previous !== undefined && step.afterMinutes <= previous.afterMinutes)
      throw invalid(
        `steps.${i}.afterMinutes: must be later than the step before (${previous.afterMinutes})`,
      );
    const assignTo = step.assignTo ?? null;
    if (assignTo !== null && step.action !== 'escalate')
      throw invalid(`steps.${i}.assignTo: only an escalate step assigns`);
    if (assignTo !== null && assignTo.memberId === undefined && assignTo.teamId === undefined)
      throw invalid(`steps.${i}.assignTo: give memberId or teamId`);
    if (forTeam && step.when === 'unassigned')
      throw invalid(
        `steps.${i}.when: a team's policy governs only interrupts assigned to the team, so unassigned never holds`,
      );
    return {
      afterMinutes: step.afterMinutes,
      action: step.action,
      when: step.when ?? 'undecided',
      assignTo:
        assignTo === null
          ? null
          : assignTo.teamId !== undefined
            ? { teamId: assignTo.teamId }
            : { memberId: assignTo.memberId as string },
    };
  });
}

/**
 * Settings → Escalation (SPEC §8e): the organisation's escalation policy and its teams', each replaced whole. Steps
 * come soonest first, each later than the one before; only an `escalate` step assigns, and the
 * member or team it names must be the organisation's when the policy is set (one that is gone by
 * the time the step comes escalates without assigning). Changes are audited; a change to nothing
 * writes nothing.
 */
@Injectable()
export class EscalationPolicyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organisations: OrganisationsRepository,
    private readonly teams: TeamsService,
  ) {}

  async get(organisationId: string): Promise<EscalationPolicy> {
    const row = await this.organisations.escalationPolicy(this.dataSource, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return { steps: row.policy?.steps ?? [] };
  }

  async replace(command: ReplaceEscalationPolicyCommand): Promise<EscalationPolicy> {
    const { organisationId, actor, ip } = command;
    return this.replaceHeld(organisationId, normalise(command.steps, false), {
      lock: (tx) => this.organisations.escalationPolicy(tx, organisationId, 'FOR NO KEY UPDATE'),
      set: (tx, policy) => this.organisations.setEscalationPolicy(tx, organisationId, policy),
      audit: (tx, name, from, to) =>
        writeAuditEntry(tx, {
          organisationId,
          action: 'settings.escalation_policy_updated',
          actor,
          target: { type: 'organisation', id: organisationId, name },
          metadata: { changes: { steps: { from, to } } },
          ipAddress: ip,
        }),
    });
  }

  /** A team's escalation policy (SPEC §8e): 404 when the team is not the organisation's. */
  async getForTeam(organisationId: string, teamId: string): Promise<EscalationPolicy> {
    const row = await this.teams.escalationPolicy(this.dataSource, organisationId, teamId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return { steps: row.policy?.steps ?? [] };
  }

  /**
   * Replaces a team's escalation policy whole: it governs the interrupts assigned to the team,
   * its minutes counted from when the team got each one. As the organisation's, but no step can
   * wait for `unassigned` (an interrupt the policy governs is always the team's).
   */
  async replaceForTeam(command: ReplaceTeamEscalationPolicyCommand): Promise<EscalationPolicy> {
    const { organisationId, actor, teamId, ip } = command;
    return this.replaceHeld(organisationId, normalise(command.steps, true), {
      lock: (tx) => this.teams.escalationPolicy(tx, organisationId, teamId, 'FOR NO KEY UPDATE'),
      set: (tx, policy) => this.teams.setEscalationPolicy(tx, organisationId, teamId, policy),
      audit: (tx, name, from, to) =>
        writeAuditEntry(tx, {
          organisationId,
          action: 'team.escalation_policy_updated',
          actor,
          target: { type: 'team', id: teamId, name },
          metadata: { changes: { steps: { from, to } } },
          ipAddress: ip,
        }),
    });
  }

  /**
   * One policy replaced (the organisation's or a team's): its holder locked (404 when gone), the
   * steps' assignees checked, and — unless nothing changed — the steps written and audited.
   */
  private replaceHeld(
    organisationId: string,
    steps: EscalationStep[],
    holder: {
      lock: (
        tx: Queryable,
      ) => Promise<{ name: string; policy: EscalationPolicy | null } | undefined>;
      set: (tx: Queryable, policy: EscalationPolicy | null) => Promise<void>;
      audit: (
        tx: Queryable,
        name: string,
        from: EscalationStep[],
        to: EscalationStep[],
      ) => Promise<unknown>;
    },
  ): Promise<EscalationPolicy> {
    return this.dataSource.transaction(async (tx) => {
      const row = await holder.lock(tx);
      if (row === undefined) throw DomainError.of('NOT_FOUND');
      for (const [i, step] of steps.entries())
        await this.checkAssignee(tx, organisationId, step, i);
      const before = row.policy?.steps ?? [];
      if (sameSteps(before, steps)) return { steps };
      await holder.set(tx, steps.length === 0 ? null : { steps });
      await holder.audit(tx, row.name, before, steps);
      return { steps };
    });
  }

  private async checkAssignee(
    tx: Queryable,
    organisationId: string,
    step: EscalationStep,
    i: number,
  ): Promise<void> {
    const to = step.assignTo;
    if (to === null) return;
    if ('teamId' in to) {
      if ((await this.teams.findTeam(tx, organisationId, to.teamId)) === undefined)
        throw invalid(`steps.${i}.assignTo: no such team in this organisation`);
    } else if ((await lockCurrentMember(tx, organisationId, to.memberId)) === undefined) {
      throw invalid(`steps.${i}.assignTo: no such member in this organisation`);
    }
  }
}
