import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError, type BuiltInRoleKey, type Permission } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import type { Queryable } from '../database/query-rows.util';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { deleteInvitationsWithRole } from '../invitations/role-invitations.util';
import { countRoleHolders } from '../members/memberships.repository';
import type { GranterCall } from '../auth/caller';
import { assertHoldsAll, canonicalPermissions } from './permission-grant.util';
import type { RoleResponse } from './dto/role.response';
import { RoleRow, RolesRepository } from './roles.repository';

/** A role of the caller's organisation that the caller may grant (see `findGrantable`). */
export interface GrantableRole {
  id: string;
  name: string;
  permissions: Permission[];
  builtIn: BuiltInRoleKey | null;
}

function toResponse(row: RoleRow): RoleResponse {
  return {
    id: row.id,
    name: row.name,
    permissions: canonicalPermissions(row.permissions),
    builtIn: row.built_in,
    createdAt: row.created_at.toISOString(),
  };
}

const nameTaken = () => new DomainError('CONFLICT', 'A role with this name already exists.');
const stillHeld = (name: string, count: number) =>
  new DomainError(
    'CONFLICT',
    `Role ${name} is still held by ${count} ${count === 1 ? 'member' : 'members'}; give them another role first.`,
  );

/**
 * Custom roles (SPEC §6). Built-in roles are fixed. Nobody creates, changes or grants a role
 * holding permissions they do not hold themselves. The `roles` table is `RolesRepository`'s;
 * the holders are counted by the memberships' owner, the invitations naming a role by theirs.
 */
@Injectable()
export class RolesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly roles: RolesRepository,
    private readonly invitations: InvitationsRepository,
  ) {}

  async list(organisationId: string): Promise<RoleResponse[]> {
    return (await this.roles.list(this.dataSource, organisationId)).map(toResponse);
  }

  async create(
    { organisationId, ip, ...granter }: GranterCall,
    name: string,
    permissions: Permission[],
  ): Promise<RoleResponse> {
    assertHoldsAll(granter.permissions, permissions);
    const ordered = canonicalPermissions(permissions);
    const row = await this.dataSource.transaction(async (tx) => {
      const created = await this.roles.insert(tx, organisationId, {
        id: randomUUID(),
        name,
        permissions: ordered,
      });
      if (created === undefined) throw nameTaken();
      await writeAuditEntry(tx, {
        organisationId,
        action: 'role.created',
        actor: granter.actor,
        target: { type: 'role', id: created.id, name },
        metadata: { permissions: ordered },
        ipAddress: ip,
      });
      return created;
    });
    return toResponse(row);
  }

  async update(
    { organisationId, ip, ...granter }: GranterCall,
    id: string,
    changes: { name?: string; permissions?: Permission[] },
  ): Promise<RoleResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const before = await this.roles.lock(tx, organisationId, id, 'FOR NO KEY UPDATE');
      if (before === undefined) throw DomainError.of('NOT_FOUND');
      if (before.built_in !== null)
        throw new DomainError('CONFLICT', 'Built-in roles cannot be changed.');
      const previous = canonicalPermissions(before.permissions);
      // Neither widen a role beyond one's own permissions, nor change one that holds more.
      if (changes.permissions !== undefined)
        assertHoldsAll(granter.permissions, changes.permissions);
      assertHoldsAll(granter.permissions, previous);

      const name = changes.name ?? before.name;
      const permissions =
        changes.permissions === undefined ? previous : canonicalPermissions(changes.permissions);
      const added = permissions.filter((p) => !previous.includes(p));
      const removed = previous.filter((p) => !permissions.includes(p));
      if (name === before.name && added.length === 0 && removed.length === 0) return before;

      const updated = await this.roles.update(tx, organisationId, id, { name, permissions });
      if (updated === undefined) throw nameTaken();
      await writeAuditEntry(tx, {
        organisationId,
        action: 'role.updated',
        actor: granter.actor,
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
  async remove({ organisationId, ip, ...granter }: GranterCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await this.invitations.lockWithRole(tx, organisationId, id);
      // FOR UPDATE waits for any transaction granting this role (its foreign key check holds a
      // KEY SHARE lock), so the count below sees every holder.
      const role = await this.roles.lock(tx, organisationId, id, 'FOR UPDATE');
      if (role === undefined) throw DomainError.of('NOT_FOUND');
      if (role.built_in !== null)
        throw new DomainError('CONFLICT', 'Built-in roles cannot be deleted.');
      const count = await countRoleHolders(tx, organisationId, id);
      if (count > 0) throw stillHeld(role.name, count);
      // Not left to the foreign key's cascade, which would remove them without their entries.
      const invitationsDeleted = await deleteInvitationsWithRole(
        tx,
        this.invitations,
        organisationId,
        role,
        granter.actor,
        ip,
      );
      if (!(await this.roles.delete(tx, organisationId, id))) throw stillHeld(role.name, 1);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'role.deleted',
        actor: granter.actor,
        target: { type: 'role', id, name: role.name },
        metadata: { permissions: canonicalPermissions(role.permissions), invitationsDeleted },
        ipAddress: ip,
      });
    });
  }

  /**
   * The role `roleId` of the organisation, for granting it inside the caller's transaction
   * (member role changes, invitations): 404 when it is not the organisation's, 403 when it
   * holds a permission the granter lacks (`held`). The row stays locked against deletion until
   * the transaction ends.
   */
  async findGrantable(
    tx: Queryable,
    organisationId: string,
    held: ReadonlySet<Permission>,
    roleId: string,
  ): Promise<GrantableRole> {
    const row = await this.roles.lock(tx, organisationId, roleId, 'FOR KEY SHARE');
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    const permissions = canonicalPermissions(row.permissions);
    assertHoldsAll(held, permissions);
    return { id: row.id, name: row.name, permissions, builtIn: row.built_in };
  }
}
