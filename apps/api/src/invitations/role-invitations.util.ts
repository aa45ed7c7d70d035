import type { EntityManager } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import type { AuditActor } from '@interlock/audit';
import { queryRows } from '../database/query-rows.util';

type InvitationState = 'pending' | 'accepted' | 'expired';

/**
 * Locks the invitations naming a role, before the role itself is locked for deletion: accepting
 * an invitation locks the invitation and then (granting the role) the role, so taking them in
 * the same order makes a deletion racing an acceptance wait for it instead of deadlocking.
 */
export async function lockInvitationsWithRole(tx: EntityManager, organisationId: string, roleId: string): Promise<void> {
  await tx.query(`SELECT id FROM invitations WHERE organisation_id = $1 AND role_id = $2 FOR UPDATE`, [organisationId, roleId]);
}

/**
 * Deletes the invitations naming a role that is being deleted, each with its audit entry
 * (`member.invitation_deleted`) in the caller's transaction: a pending one can no longer be
 * accepted, and accepted or expired ones leave the invitation list. Returns how many.
 */
export async function deleteInvitationsWithRole(
  tx: EntityManager,
  organisationId: string,
  role: { id: string; name: string },
  actor: AuditActor,
  ip: string | null,
): Promise<number> {
  const deleted = await queryRows<{ id: string; email: string; state: InvitationState }>(
    tx,
    `DELETE FROM invitations WHERE organisation_id = $1 AND role_id = $2
     RETURNING id, email,
               CASE WHEN accepted_at IS NOT NULL THEN 'accepted' WHEN expires_at <= now() THEN 'expired' ELSE 'pending' END AS state`,
    [organisationId, role.id],
  );
  deleted.sort((a, b) => a.email.localeCompare(b.email) || a.id.localeCompare(b.id));
  for (const invitation of deleted) {
    await writeAuditEntry(tx, {
      organisationId,
      action: 'member.invitation_deleted',
      actor,
      target: { type: 'invitation', id: invitation.id, name: invitation.email },
      metadata: { email: invitation.email, roleId: role.id, role: role.name, state: invitation.state, reason: 'role.deleted' },
      ipAddress: ip,
    });
  }
  return deleted.length;
}
