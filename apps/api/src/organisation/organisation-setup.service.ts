import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { BUILT_IN_ROLES, BuiltInRoleKey } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import type { Queryable } from '../database/query-rows.util';
import { beginMembership } from '../members/memberships.repository';
import { RolesRepository } from '../roles/roles.repository';
import { OrganisationsRepository } from './organisations.repository';

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
 * organisation, and the CLI when sign-up is closed). The rows are their owners': the
 * organisation's, the roles', the membership's.
 */
@Injectable()
export class OrganisationSetupService {
  constructor(
    private readonly organisations: OrganisationsRepository,
    private readonly roles: RolesRepository,
  ) {}

  async create(tx: Queryable, input: NewOrganisation): Promise<CreatedOrganisation> {
    const organisationId = randomUUID();
    await this.organisations.insert(tx, organisationId, input.organisationName);
    const roleIds = {} as Record<BuiltInRoleKey, string>;
    for (const role of Object.values(BUILT_IN_ROLES)) {
      roleIds[role.key] = randomUUID();
      const created = await this.roles.insert(tx, organisationId, {
        id: roleIds[role.key],
        name: role.name,
        permissions: role.permissions,
        builtIn: role.key,
      });
      if (created === undefined)
        throw new Error(`Built-in role ${role.name} already exists in a new organisation`);
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
