import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import type { Queryable } from '../database/query-rows.util';
import type { GranterCall } from '../auth/caller';
import { assertHoldsAll, canonicalPermissions } from '../roles/permission-grant.util';
import { RolesRepository } from '../roles/roles.repository';
import { RolesService } from '../roles/roles.service';
import { TeamsRepository } from '../teams/teams.repository';
import type { MemberResponse } from './dto/member.response';
import {
  countRoleHolders,
  endMembership,
  listCurrentMembers,
  lockMemberForChange,
  type LockedMemberRow,
  type MemberRow,
  setMemberRole,
} from './memberships.repository';

function toResponse(row: MemberRow): MemberResponse {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roleId: row.role_id,
    roleName: row.role_name,
    createdAt: row.created_at.toISOString(),
  };
}

const lastOwner = (verb: string) =>
  new DomainError(
    'CONFLICT',
    `The organisation must keep at least one Owner: ${verb} the last Owner is not allowed.`,
  );

/**
 * Members of the organisation (SPEC §6, member.manage): its users with a current membership.
 * Nobody grants a role beyond their own permissions, nor changes or removes a member whose role
 * holds more than theirs; the organisation always keeps an Owner. Removing a member ends their
 * membership, never their user. The memberships are `memberships.repository`'s; the Owner role
 * is locked through the roles' owner, and the teams are left through theirs.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly roles: RolesService,
    private readonly roleRows: RolesRepository,
    private readonly teams: TeamsRepository,
  ) {}

  async list(organisationId: string): Promise<MemberResponse[]> {
    return (await listCurrentMembers(this.dataSource, organisationId)).map(toResponse);
  }

  async changeRole(
    { organisationId, ip, ...granter }: GranterCall,
    id: string,
    roleId: string,
  ): Promise<MemberResponse> {
    return this.dataSource.transaction(async (tx) => {
      const target = await this.lockTarget(tx, organisationId, id);
      const role = await this.roles.findGrantable(tx, organisationId, granter.permissions, roleId);
      if (target.id !== granter.actor.id)
        assertHoldsAll(granter.permissions, canonicalPermissions(target.permissions));
      if (role.id === target.role_id) return toResponse(target);
      if (target.built_in === 'owner' && role.builtIn !== 'owner') {
        await this.assertAnotherOwner(tx, organisationId, target.id, 'demoting');
      }
      await setMemberRole(tx, organisationId, id, role.id);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'member.role_changed',
        actor: granter.actor,
        target: { type: 'user', id, name: target.name },
        metadata: {
          fromRoleId: target.role_id,
          fromRole: target.role_name,
          toRoleId: role.id,
          toRole: role.name,
        },
        ipAddress: ip,
      });
      return toResponse({ ...target, role_id: role.id, role_name: role.name });
    });
  }

  /**
   * Removes a member from the organisation: their membership ends (with its role and their
   * teams). Their user and sign-in sessions stay, for their other organisations; here their
   * next request finds no membership (404) — on every instance, since each request reads it.
   */
  async remove({ organisationId, ip, ...granter }: GranterCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const target = await this.lockTarget(tx, organisationId, id);
      if (target.id !== granter.actor.id)
        assertHoldsAll(granter.permissions, canonicalPermissions(target.permissions));
      if (target.built_in === 'owner')
        await this.assertAnotherOwner(tx, organisationId, target.id, 'removing');
      await this.teams.removeMemberFromAll(tx, organisationId, id);
      await endMembership(tx, organisationId, id);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'member.removed',
        actor: granter.actor,
        target: { type: 'user', id, name: target.name },
        metadata: { email: target.email, roleId: target.role_id, role: target.role_name },
        ipAddress: ip,
      });
    });
  }

  private async lockTarget(
    tx: Queryable,
    organisationId: string,
    id: string,
  ): Promise<LockedMemberRow> {
    const target = await lockMemberForChange(tx, organisationId, id);
    if (target === undefined) throw DomainError.of('NOT_FOUND');
    return target;
  }

  /**
   * 409 unless someone other than `memberId` holds the Owner role. Locking the Owner role row
   * first serialises concurrent demotions and removals of Owners, so two of them cannot each
   * count the other and leave the organisation with none.
   */
  private async assertAnotherOwner(
    tx: Queryable,
    organisationId: string,
    memberId: string,
    verb: string,
  ): Promise<void> {
    // Two statements: the count must take its snapshot after the lock is granted.
    const ownerRole = await this.roleRows.lockBuiltIn(
      tx,
      organisationId,
      'owner',
      'FOR NO KEY UPDATE',
    );
    if (ownerRole === undefined) throw lastOwner(verb);
    if ((await countRoleHolders(tx, organisationId, ownerRole.id, memberId)) === 0)
      throw lastOwner(verb);
  }
}
