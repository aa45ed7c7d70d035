import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BUILT_IN_ROLES, BuiltInRoleKey } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import { ApiError } from '../http/api-error';
import { hashPassword } from '../auth/password.util';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';

export interface NewOrganisation {
  organisationName: string;
  ownerEmail: string;
  ownerName: string;
  password: string;
  ipAddress: string | null;
}

export interface CreatedOrganisation {
  organisationId: string;
  ownerId: string;
  roleIds: Record<BuiltInRoleKey, string>;
}

/** Normalised form of an email address: trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates an organisation on the Free plan with its built-in roles and its Owner, inside the
 * caller's transaction (sign-up, and the CLI when sign-up is closed).
 */
@Injectable()
export class OrganisationSetupService {
  async create(tx: EntityManager, input: NewOrganisation): Promise<CreatedOrganisation> {
    const email = normaliseEmail(input.ownerEmail);
    const [taken]: unknown[] = await tx.query(`SELECT 1 FROM members WHERE email = $1`, [email]);
    if (taken !== undefined) throw new ApiError('CONFLICT', 'An account with this email already exists.');

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
    const ownerId = randomUUID();
    try {
      await tx.query(
        `INSERT INTO members (organisation_id, id, email, name, password_hash, role_id) VALUES ($1, $2, $3, $4, $5, $6)`,
        [organisationId, ownerId, email, input.ownerName, await hashPassword(input.password), roleIds.owner],
      );
    } catch (error) {
      // A concurrent sign-up with the same email won the unique index.
      if (hasSqlState(error, UNIQUE_VIOLATION)) throw new ApiError('CONFLICT', 'An account with this email already exists.');
      throw error;
    }
    await writeAuditEntry(tx, {
      organisationId,
      action: 'organisation.created',
      actor: { type: 'member', id: ownerId, name: input.ownerName },
      target: { type: 'organisation', id: organisationId, name: input.organisationName },
      summary: `Organisation ${input.organisationName} created by ${input.ownerName}`,
      metadata: { plan: 'free' },
      ipAddress: input.ipAddress,
    });
    return { organisationId, ownerId, roleIds };
  }
}
