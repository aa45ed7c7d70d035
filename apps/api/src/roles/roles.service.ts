import { DomainError } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { BuiltInRoleKey, Permission } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import { actorOf, MemberPrincipal } from '../auth/principal';
import { queryRows } from '../database/query-rows.util';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';
import { deleteInvitationsWithRole, lockInvitationsWithRole } from '../invitations/role-invitations.util';
import { assertHoldsAll, canonicalPermissions } from './permission-grant.util';
import type { RoleResponse } from './dto/role.response';

interface RoleRow {
  id: string;
  name: string;
  permissions: string[];
  built_in: BuiltInRoleKey | null;
  created_at: Date;
}

/** A role of the caller's organisation that the caller may grant (see `findGrantable`). */
export interface GrantableRole {
  id: string;
  name: string;
  permissions: Permission[];
  builtIn: BuiltInRoleKey | null;
}

const LISTED = `id, name, permissions, built_in, created_at`;

function toResponse(row: RoleRow): RoleResponse {
  return {
    id: row.id,
    name: row.name,
    permissions: canonicalPermissions(row.permissions),
    builtIn: row.built_in,
    createdAt: row.created_at.toISOString(),
  };
}

const FOREIGN_KEY_VIOLATION = '23503';

const nameTaken = () => new DomainError('CONFLICT', 'A role with this name already exists.');
const stillHeld = (name: string, count: number) =>
  new DomainError(
    'CONFLICT',
    `Role ${name} is still held by ${count} ${count === 1 ? 'member' : 'members'}; give them another role first.`,
  );

/**
 * Custom roles (SPEC §6). Built-in roles are fixed. Nobody creates, changes or grants a role
 * holding permissions they do not hold themselves.
 */
@Injectable()
export class RolesService {
  constructor(private readonly dataSource: DataSource) {}

  async list(member: MemberPrincipal): Promise<RoleResponse[]> {
    const rows: RoleRow[] = await this.dataSource.query(
      `SELECT ${LISTED} FROM roles
        WHERE organisation_id = $1
        ORDER BY CASE built_in WHEN 'owner' THEN 0 WHEN 'developer' THEN 1 WHEN 'manager' THEN 2 ELSE 3 END,
                 created_at, name`,
      [member.organisationId],
    );
    return rows.map(toResponse);
  }

  async create(member: MemberPrincipal, name: string, permissions: Permission[], ip: string | null): Promise<RoleResponse> {
    assertHoldsAll(member, permissions);
    const ordered = canonicalPermissions(permissions);
    const row = await this.dataSource.transaction(async (tx) => {
      const [created]: RoleRow[] = await tx.query(
        `INSERT INTO roles (organisation_id, id, name, permissions) VALUES ($1, $2, $3, $4)
         ON CONFLICT (organisation_id, name) DO NOTHING
         RETURNING ${LISTED}`,
        [member.organisationId, randomUUID(), name, ordered],
      );
      if (created === undefined) throw nameTaken();
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'role.created',
        actor: actorOf(member),
        target: { type: 'role', id: created.id, name },
        metadata: { permissions: ordered },
        ipAddress: ip,
      });
      return created;
    });
    return toResponse(row);
  }

  async update(
    member: MemberPrincipal,
    id: string,
    changes: { name?: string; permissions?: Permission[] },
    ip: string | null,
  ): Promise<RoleResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const [before]: RoleRow[] = await tx.query(
        `SELECT ${LISTED} FROM roles WHERE organisation_id = $1 AND id = $2 FOR NO KEY UPDATE`,
        [member.organisationId, id],
      );
      if (before === undefined) throw DomainError.of('NOT_FOUND');
      if (before.built_in !== null) throw new DomainError('CONFLICT', 'Built-in roles cannot be changed.');
      const previous = canonicalPermissions(before.permissions);
      // Neither widen a role beyond one's own permissions, nor change one that holds more.
      if (changes.permissions !== undefined) assertHoldsAll(member, changes.permissions);
      assertHoldsAll(member, previous);

      const name = changes.name ?? before.name;
      const permissions = changes.permissions === undefined ? previous : canonicalPermissions(changes.permissions);
      const added = permissions.filter((p) => !previous.includes(p));
      const removed = previous.filter((p) => !permissions.includes(p));
      if (name === before.name && added.length === 0 && removed.length === 0) return before;

      let updated: RoleRow;
      try {
        [updated] = await queryRows<RoleRow>(
          tx,
          `UPDATE roles SET name = $3, permissions = $4 WHERE organisation_id = $1 AND id = $2 RETURNING ${LISTED}`,
          [member.organisationId, id, name, permissions],
        );
      } catch (error) {
        if (hasSqlState(error, UNIQUE_VIOLATION)) throw nameTaken();
        throw error;
      }
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'role.updated',
        actor: actorOf(member),
        target: { type: 'role', id, name },
        metadata: { previousName: before.name, name, added, removed, permissions },
        ipAddress: ip,
      });
      return updated;
    });
    return toResponse(row);
  }

  /**
   * Deletes a custom role no member holds. The invitations naming it go with it, each with its
   * audit entry (`member.invitation_deleted`), in the same transaction.
   */
  async remove(member: MemberPrincipal, id: string, ip: string | null): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await lockInvitationsWithRole(tx, member.organisationId, id);
      // FOR UPDATE waits for any transaction granting this role (its foreign key check holds a
      // KEY SHARE lock), so the count below sees every holder.
      const [role]: RoleRow[] = await tx.query(
        `SELECT ${LISTED} FROM roles WHERE organisation_id = $1 AND id = $2 FOR UPDATE`,
        [member.organisationId, id],
      );
      if (role === undefined) throw DomainError.of('NOT_FOUND');
      if (role.built_in !== null) throw new DomainError('CONFLICT', 'Built-in roles cannot be deleted.');
      const [{ count }]: { count: number }[] = await tx.query(
        `SELECT count(*)::int AS count FROM memberships WHERE organisation_id = $1 AND role_id = $2`,
        [member.organisationId, id],
      );
      if (count > 0) throw stillHeld(role.name, count);
      // Not left to the foreign key's cascade, which would remove them without their entries.
      const invitationsDeleted = await deleteInvitationsWithRole(tx, member.organisationId, role, actorOf(member), ip);
      try {
        await tx.query(`DELETE FROM roles WHERE organisation_id = $1 AND id = $2`, [member.organisationId, id]);
      } catch (error) {
        if (hasSqlState(error, FOREIGN_KEY_VIOLATION)) throw stillHeld(role.name, 1);
        throw error;
      }
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'role.deleted',
        actor: actorOf(member),
        target: { type: 'role', id, name: role.name },
        metadata: { permissions: canonicalPermissions(role.permissions), invitationsDeleted },
        ipAddress: ip,
      });
    });
  }

  /**
   * The role `roleId` of the caller's organisation, for granting it inside the caller's
   * transaction (member role changes, invitations): 404 when it is not the organisation's, 403
   * when it holds a permission the caller lacks. The row stays locked against deletion until
   * the transaction ends.
   */
  async findGrantable(tx: EntityManager, member: MemberPrincipal, roleId: string): Promise<GrantableRole> {
    const [row]: RoleRow[] = await tx.query(
      `SELECT ${LISTED} FROM roles WHERE organisation_id = $1 AND id = $2 FOR KEY SHARE`,
      [member.organisationId, roleId],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    const permissions = canonicalPermissions(row.permissions);
    assertHoldsAll(member, permissions);
    return { id: row.id, name: row.name, permissions, builtIn: row.built_in };
  }
}
