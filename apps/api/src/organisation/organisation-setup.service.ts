import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BUILT_IN_ROLES, BuiltInRoleKey } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import { beginMembership } from '../members/memberships.repository';

export { normaliseEmail } from '../users/users.repository';

export interface NewOrganisation {
  organisationName: string;
  /** The user who becomes its first Owner. */
  owner: { userId: string; name: string };
  ipAddress: string | null;
}

export interface CreatedOrganisation {
  organisationId: string;
  roleIds: Record<BuiltInRoleKey, string>;
}

/**
 * Creates an organisation on the Free plan with its built-in roles and an existing user as its
 * Owner, inside the caller's transaction (sign-up, a signed-in person creating another
 * organisation, and the CLI when sign-up is closed).
 */
@Injectable()
export class OrganisationSetupService {
  async create(tx: EntityManager, input: NewOrganisation): Promise<CreatedOrganisation> {
    const organisationId = randomUUID();
    await tx.query(`INSERT INTO organisations (id, name, plan) VALUES ($1, $2, 'free')`, [organisationId, input.organisationName]);
    const roleIds = {} as Record<BuiltInRoleKey, string>;
    for (const role of Object.values(BUILT_IN_ROLES)) {
      roleIds[role.key] = randomUUID();
      await tx.query(
        `INSERT INTO roles (organisation_id, id, name, permissions, built_in) VALUES ($1, $2, $3, $4, $5)`,
        [organisationId, roleIds[role.key], role.name, [...role.permissions], role.key],
      );
    }
    await beginMembership(tx, organisationId, input.owner.userId, roleIds.owner);
    await writeAuditEntry(tx, {
      organisationId,
      action: 'organisation.created',
      actor: { type: 'member', id: input.owner.userId, name: input.owner.name },
      target: { type: 'organisation', id: organisationId, name: input.organisationName },
      metadata: { plan: 'free' },
      ipAddress: input.ipAddress,
    });
    return { organisationId, roleIds };
  }
}
