import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError, type EscalationPolicy } from '@interlock/domain';
import type { MemberCall } from '../auth/caller';
import type { Queryable } from '../database/query-rows.util';
import { lockCurrentMember } from '../members/memberships.repository';
import type { TeamResponse } from './dto/team.response';
import { TeamLock, TeamRow, TeamsRepository } from './teams.repository';

function toResponse(row: TeamRow): TeamResponse {
  return {
    id: row.id,
    name: row.name,
    memberIds: row.member_ids,
    createdAt: row.created_at.toISOString(),
  };
}

const nameTaken = () => new DomainError('CONFLICT', 'A team with this name already exists.');

/** Teams of members (SPEC §6, team.manage): the rules; the tables are `TeamsRepository`'s. */
@Injectable()
export class TeamsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly teams: TeamsRepository,
  ) {}

  async list(organisationId: string): Promise<TeamResponse[]> {
    return (await this.teams.list(this.dataSource, organisationId)).map(toResponse);
  }

  /** The ids of the teams a member belongs to now (for "assigned to my teams"). */
  teamIdsOf(organisationId: string, memberId: string): Promise<string[]> {
    return this.teams.teamIdsOf(this.dataSource, organisationId, memberId);
  }

  /** The team, locked as asked until the transaction ends (404 when it is not the organisation's). */
  async lockTeam(
    tx: Queryable,
    organisationId: string,
    id: string,
    lock: TeamLock,
  ): Promise<{ id: string; name: string }> {
    const team = await this.teams.lock(tx, organisationId, id, lock);
    if (team === undefined) throw DomainError.of('NOT_FOUND');
    return team;
  }

  /** The team, locked against removal until the transaction ends; undefined when it is not the organisation's. */
  findTeam(
    tx: Queryable,
    organisationId: string,
    id: string,
  ): Promise<{ id: string; name: string } | undefined> {
    return this.teams.lock(tx, organisationId, id, 'FOR KEY SHARE');
  }

  /** `findTeam` by the team's name (exact). */
  findTeamByName(
    tx: Queryable,
    organisationId: string,
    name: string,
  ): Promise<{ id: string; name: string } | undefined> {
    return this.teams.lockByName(tx, organisationId, name, 'FOR KEY SHARE');
  }

  /**
   * A team named by id or by name, with how many members it has, locked against removal until
   * the transaction ends; undefined when it is not the organisation's (an action's approvers).
   */
  async findApproverTeam(
    tx: Queryable,
    organisationId: string,
    team: { teamId?: string; teamName?: string },
  ): Promise<{ id: string; name: string; memberCount: number } | undefined> {
    const found =
      team.teamId !== undefined
        ? await this.teams.lock(tx, organisationId, team.teamId, 'FOR KEY SHARE')
        : await this.teams.lockByName(tx, organisationId, team.teamName ?? '', 'FOR KEY SHARE');
    if (found === undefined) return undefined;
    return { ...found, memberCount: await this.teams.memberCount(tx, organisationId, found.id) };
  }

  /**
   * The team's escalation policy (SPEC §8e) in the caller's transaction, locked as asked
   * (`FOR NO KEY UPDATE` to replace it); undefined when the team is not the organisation's.
   */
  escalationPolicy(
    tx: Queryable,
    organisationId: string,
    id: string,
    lock: '' | 'FOR NO KEY UPDATE' = '',
  ): Promise<{ id: string; name: string; policy: EscalationPolicy | null } | undefined> {
    return this.teams.escalationPolicy(tx, organisationId, id, lock);
  }

  /** Sets (null: removes) the team's escalation policy, in the caller's transaction. */
  setEscalationPolicy(
    tx: Queryable,
    organisationId: string,
    id: string,
    policy: EscalationPolicy | null,
  ): Promise<void> {
    return this.teams.setEscalationPolicy(tx, organisationId, id, policy);
  }

  /** Whether the member belongs to the team now (in the caller's transaction). */
  isTeamMember(
    tx: Queryable,
    organisationId: string,
    teamId: string,
    memberId: string,
  ): Promise<boolean> {
    return this.teams.isMember(tx, organisationId, teamId, memberId);
  }

  async create({ organisationId, actor, ip }: MemberCall, name: string): Promise<TeamResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const created = await this.teams.insert(tx, organisationId, randomUUID(), name);
      if (created === undefined) throw nameTaken();
      await writeAuditEntry(tx, {
        organisationId,
        action: 'team.created',
        actor,
        target: { type: 'team', id: created.id, name },
        metadata: null,
        ipAddress: ip,
      });
      return { ...created, member_ids: [] };
    });
    return toResponse(row);
  }

  async rename(
    { organisationId, actor, ip }: MemberCall,
    id: string,
    name: string,
  ): Promise<TeamResponse> {
    return this.dataSource.transaction(async (tx) => {
      const before = await this.lockTeam(tx, organisationId, id, 'FOR NO KEY UPDATE');
      if (before.name !== name) {
        if (!(await this.teams.rename(tx, organisationId, id, name))) throw nameTaken();
        await writeAuditEntry(tx, {
          organisationId,
          action: 'team.renamed',
          actor,
          target: { type: 'team', id, name },
          metadata: { previousName: before.name, name },
          ipAddress: ip,
        });
      }
      const after = await this.teams.read(tx, organisationId, id);
      if (after === undefined) throw DomainError.of('NOT_FOUND');
      return toResponse(after);
    });
  }

  async remove({ organisationId, actor, ip }: MemberCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const team = await this.lockTeam(tx, organisationId, id, 'FOR UPDATE');
      const count = await this.teams.memberCount(tx, organisationId, id);
      await this.teams.delete(tx, organisationId, id);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'team.deleted',
        actor,
        target: { type: 'team', id, name: team.name },
        metadata: { memberCount: count },
        ipAddress: ip,
      });
    });
  }

  /** Adds a member of the organisation to the team; adding one already in it changes nothing. */
  addMember(call: MemberCall, id: string, memberId: string): Promise<void> {
    return this.changeMembership(call, id, memberId, 'team.member_added');
  }

  /** Removes a member of the organisation from the team; removing one not in it changes nothing. */
  removeMember(call: MemberCall, id: string, memberId: string): Promise<void> {
    return this.changeMembership(call, id, memberId, 'team.member_removed');
  }

  /**
   * Adds or removes a current member of the organisation; audited only when the team changed.
   * The team is locked against removal and the member against leaving until the entry is written.
   */
  private async changeMembership(
    { organisationId, actor, ip }: MemberCall,
    id: string,
    memberId: string,
    action: 'team.member_added' | 'team.member_removed',
  ): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const team = await this.lockTeam(tx, organisationId, id, 'FOR KEY SHARE');
      const member = await this.currentMember(tx, organisationId, memberId);
      const inTeam = action === 'team.member_added';
      if (!(await this.teams.setMember(tx, organisationId, id, member.id, inTeam))) return;
      await writeAuditEntry(tx, {
        organisationId,
        action,
        actor,
        target: { type: 'team', id, name: team.name },
        metadata: { memberId: member.id, memberName: member.name },
        ipAddress: ip,
      });
    });
  }

  /** A current member of the organisation, locked against removal until the transaction ends. */
  private async currentMember(
    tx: Queryable,
    organisationId: string,
    memberId: string,
  ): Promise<{ id: string; name: string }> {
    const member = await lockCurrentMember(tx, organisationId, memberId);
    if (member === undefined) throw DomainError.of('NOT_FOUND');
    return member;
  }
}
