import { DomainError } from '@interlock/domain';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { BuiltInRoleKey } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import { actorOf, MemberPrincipal } from '../auth/principal';
import { assertHoldsAll, canonicalPermissions } from '../roles/permission-grant.util';
import { RolesService } from '../roles/roles.service';
import type { MemberResponse } from './dto/member.response';
import { endMembership } from './memberships.repository';

interface MemberRow {
  id: string;
  email: string;
  name: string;
  role_id: string;
  role_name: string;
  created_at: Date;
}

interface TargetRow extends MemberRow {
  permissions: string[];
  built_in: BuiltInRoleKey | null;
}

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

/** A current member: their user (id, email, name) and their membership (role, when they joined). */
const LISTED = `u.id, u.email, u.name, m.role_id, r.name AS role_name, m.joined_at AS created_at`;
const CURRENT_MEMBERS = `memberships m
         JOIN users u ON u.id = m.user_id
         JOIN roles r ON r.organisation_id = m.organisation_id AND r.id = m.role_id`;

const lastOwner = (verb: string) =>
  new DomainError('CONFLICT', `The organisation must keep at least one Owner: ${verb} the last Owner is not allowed.`);

/**
 * Members of the caller's organisation (SPEC §6, member.manage): its users with a current
 * membership. Nobody grants a role beyond their own permissions, nor changes or removes a
 * member whose role holds more than theirs; the organisation always keeps an Owner. Removing a
 * member ends their membership, never their user.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly roles: RolesService,
  ) {}

  async list(member: MemberPrincipal): Promise<MemberResponse[]> {
    const rows: MemberRow[] = await this.dataSource.query(
      `SELECT ${LISTED}
         FROM ${CURRENT_MEMBERS}
        WHERE m.organisation_id = $1 AND m.left_at IS NULL
        ORDER BY m.joined_at, u.id`,
      [member.organisationId],
    );
    return rows.map(toResponse);
  }

  async changeRole(member: MemberPrincipal, id: string, roleId: string, ip: string | null): Promise<MemberResponse> {
    return this.dataSource.transaction(async (tx) => {
      const target = await this.lockTarget(tx, member, id);
      const role = await this.roles.findGrantable(tx, member, roleId);
      if (target.id !== member.memberId) assertHoldsAll(member, canonicalPermissions(target.permissions));
      if (role.id === target.role_id) return toResponse(target);
      if (target.built_in === 'owner' && role.builtIn !== 'owner') {
        await this.assertAnotherOwner(tx, member.organisationId, target.id, 'demoting');
      }
      await tx.query(`UPDATE memberships SET role_id = $3 WHERE organisation_id = $1 AND user_id = $2`, [
        member.organisationId,
        id,
        role.id,
      ]);
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'member.role_changed',
        actor: actorOf(member),
        target: { type: 'user', id, name: target.name },
        metadata: { fromRoleId: target.role_id, fromRole: target.role_name, toRoleId: role.id, toRole: role.name },
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
  async remove(member: MemberPrincipal, id: string, ip: string | null): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const target = await this.lockTarget(tx, member, id);
      if (target.id !== member.memberId) assertHoldsAll(member, canonicalPermissions(target.permissions));
      if (target.built_in === 'owner') await this.assertAnotherOwner(tx, member.organisationId, target.id, 'removing');
      await endMembership(tx, member.organisationId, id);
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'member.removed',
        actor: actorOf(member),
        target: { type: 'user', id, name: target.name },
        metadata: { email: target.email, roleId: target.role_id, role: target.role_name },
        ipAddress: ip,
      });
    });
  }

  private async lockTarget(tx: EntityManager, member: MemberPrincipal, id: string): Promise<TargetRow> {
    const [target]: TargetRow[] = await tx.query(
      `SELECT ${LISTED}, r.permissions, r.built_in
         FROM ${CURRENT_MEMBERS}
        WHERE m.organisation_id = $1 AND m.user_id = $2 AND m.left_at IS NULL
        FOR UPDATE OF m`,
      [member.organisationId, id],
    );
    if (target === undefined) throw DomainError.of('NOT_FOUND');
    return target;
  }

  /**
   * 409 unless someone other than `memberId` holds the Owner role. Locking the Owner role row
   * first serialises concurrent demotions and removals of Owners, so two of them cannot each
   * count the other and leave the organisation with none.
   */
  private async assertAnotherOwner(tx: EntityManager, organisationId: string, memberId: string, verb: string): Promise<void> {
    // Two statements: the count must take its snapshot after the lock is granted.
    const [ownerRole]: { id: string }[] = await tx.query(
      `SELECT id FROM roles WHERE organisation_id = $1 AND built_in = 'owner' FOR NO KEY UPDATE`,
      [organisationId],
    );
    if (ownerRole === undefined) throw lastOwner(verb);
    const [{ count }]: { count: number }[] = await tx.query(
      `SELECT count(*)::int AS count FROM memberships WHERE organisation_id = $1 AND role_id = $2 AND user_id <> $3`,
      [organisationId, ownerRole.id, memberId],
    );
    if (count === 0) throw lastOwner(verb);
  }
}
