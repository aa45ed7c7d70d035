import { Injectable } from '@nestjs/common';
import { hasRow, type Queryable, queryRows } from '../database/query-rows.util';
import { joinOrganisations } from '../organisation/organisations.repository';
import { joinRoles } from '../roles/roles.repository';

export interface InvitationRow {
  id: string;
  email: string;
  role_id: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

/** A pending invitation found by its token, with the names its preview and its `member.joined` entry show. */
export interface PendingInvitationRow {
  organisation_id: string;
  organisation_name: string;
  id: string;
  email: string;
  role_id: string;
  role_name: string;
  expires_at: Date;
}

export type InvitationState = 'pending' | 'accepted' | 'expired';

/**
 * A read of the unused, unexpired invitations `where` names, with their role's and organisation's
 * names composed from their owners' join fragments (one statement); `tail` orders, limits, locks.
 */
function selectPending(where: string, tail: string): string {
  return `SELECT i.organisation_id, o.name AS organisation_name, i.id, i.email, i.role_id, r.name AS role_name, i.expires_at
     FROM invitations i
     ${joinRoles('r', 'i.organisation_id', 'i.role_id')}
     ${joinOrganisations('o', 'i.organisation_id')}
    WHERE ${where} AND i.accepted_at IS NULL AND i.expires_at > now()
    ${tail}`;
}

/**
 * The `invitations` table's one owner. Every method takes the handle to run on (the caller's
 * transaction, or the data source for a plain read) and, but for the lookup by token (which is
 * how an organisation is found), the organisation first.
 */
@Injectable()
export class InvitationsRepository {
  /** Pending and accepted invitations, newest first; expired ones that were never used are left out. */
  list(db: Queryable, organisationId: string): Promise<InvitationRow[]> {
    return queryRows<InvitationRow>(
      db,
      `SELECT id, email, role_id, created_at, expires_at, accepted_at FROM invitations
        WHERE organisation_id = $1 AND (accepted_at IS NOT NULL OR expires_at > now())
        ORDER BY created_at DESC, id DESC`,
      [organisationId],
    );
  }

  /** Whether the address has a pending (unused, unexpired) invitation to the organisation. */
  async hasPending(db: Queryable, organisationId: string, email: string): Promise<boolean> {
    return hasRow(
      db,
      `SELECT 1 FROM invitations
        WHERE organisation_id = $1 AND email = $2 AND accepted_at IS NULL AND expires_at > now()`,
      [organisationId, email],
    );
  }

  async insert(
    db: Queryable,
    organisationId: string,
    invitation: {
      id: string;
      email: string;
      roleId: string;
      tokenHash: string;
      invitedBy: string;
      createdAt: Date;
      expiresAt: Date;
    },
  ): Promise<void> {
    const { id, email, roleId, tokenHash, invitedBy, createdAt, expiresAt } = invitation;
    await db.query(
      `INSERT INTO invitations (organisation_id, id, email, role_id, token_hash, invited_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [organisationId, id, email, roleId, tokenHash, invitedBy, createdAt, expiresAt],
    );
  }

  /** Deletes a pending invitation; what it was, or undefined when none is pending with that id. */
  async deletePending(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<{ email: string; role_id: string } | undefined> {
    const [row] = await queryRows<{ email: string; role_id: string }>(
      db,
      `DELETE FROM invitations
        WHERE organisation_id = $1 AND id = $2 AND accepted_at IS NULL AND expires_at > now()
        RETURNING email, role_id`,
      [organisationId, id],
    );
    return row;
  }

  /**
   * The unused, unexpired invitation a token's hash names (the token names its organisation),
   * locked FOR UPDATE when asked. One statement with its role's and organisation's names,
   * composed from their owners' join fragments: accepting locks the invitation and reads what
   * it offers at once.
   */
  async findPendingByToken(
    db: Queryable,
    tokenHash: string,
    lock: boolean,
  ): Promise<PendingInvitationRow | undefined> {
    const [row] = await queryRows<PendingInvitationRow>(
      db,
      selectPending('i.token_hash = $1', lock ? 'FOR UPDATE OF i' : ''),
      [tokenHash],
    );
    return row;
  }

  /**
   * The unused, unexpired invitation of an address to the organisation (the newest), locked FOR
   * UPDATE: a single sign-on of the invited person uses it (SPEC §8f).
   */
  async lockPendingByEmail(
    db: Queryable,
    organisationId: string,
    email: string,
  ): Promise<PendingInvitationRow | undefined> {
    const [row] = await queryRows<PendingInvitationRow>(
      db,
      selectPending(
        'i.organisation_id = $1 AND i.email = $2',
        'ORDER BY i.created_at DESC, i.id DESC LIMIT 1 FOR UPDATE OF i',
      ),
      [organisationId, email],
    );
    return row;
  }

  async markAccepted(db: Queryable, organisationId: string, id: string): Promise<void> {
    await db.query(
      `UPDATE invitations SET accepted_at = now() WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
  }

  /**
   * Locks the invitations naming a role, before the role itself is locked for deletion:
   * accepting an invitation locks the invitation and then (granting the role) the role, so
   * taking them in the same order makes a deletion racing an acceptance wait for it instead of
   * deadlocking.
   */
  async lockWithRole(db: Queryable, organisationId: string, roleId: string): Promise<void> {
    await db.query(
      `SELECT id FROM invitations WHERE organisation_id = $1 AND role_id = $2 FOR UPDATE`,
      [organisationId, roleId],
    );
  }

  /** Deletes every invitation naming a role; each one's id, email and state at deletion. */
  deleteWithRole(
    db: Queryable,
    organisationId: string,
    roleId: string,
  ): Promise<{ id: string; email: string; state: InvitationState }[]> {
    return queryRows<{ id: string; email: string; state: InvitationState }>(
      db,
      `DELETE FROM invitations WHERE organisation_id = $1 AND role_id = $2
       RETURNING id, email,
                 CASE WHEN accepted_at IS NOT NULL THEN 'accepted' WHEN expires_at <= now() THEN 'expired' ELSE 'pending' END AS state`,
      [organisationId, roleId],
    );
  }
}
