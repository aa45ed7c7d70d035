import { writeAuditEntry } from '@interlock/audit';
import type { AuditActor } from '@interlock/audit';
import type { Queryable } from '../database/query-rows.util';
import type { InvitationsRepository } from './invitations.repository';

/**
 * Deletes the invitations naming a role that is being deleted, each with its audit entry
 * (`member.invitation_deleted`) in the caller's transaction: a pending one can no longer be
 * accepted, and accepted or expired ones leave the invitation list. Returns how many. The
 * caller has locked them first (`InvitationsRepository.lockWithRole`, before the role).
 */
export async function deleteInvitationsWithRole(
  tx: Queryable,
  invitations: InvitationsRepository,
  organisationId: string,
  role: { id: string; name: string },
  actor: AuditActor,
  ip: string | null,
): Promise<number> {
  const deleted = await invitations.deleteWithRole(tx, organisationId, role.id);
  deleted.sort((a, b) => a.email.localeCompare(b.email) || a.id.localeCompare(b.id));
  for (const invitation of deleted) {
    await writeAuditEntry(tx, {
      organisationId,
      action: 'member.invitation_deleted',
      actor,
      target: { type: 'invitation', id: invitation.id, name: invitation.email },
      metadata: {
        email: invitation.email,
        roleId: role.id,
        role: role.name,
        state: invitation.state,
        reason: 'role.deleted',
      },
      ipAddress: ip,
    });
  }
  return deleted.length;
}
