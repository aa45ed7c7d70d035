import { writeAuditEntry } from '@interlock/audit';
import type { Queryable } from '../database/query-rows.util';
import { beginMembership } from '../members/memberships.repository';
import type { InvitationsRepository, PendingInvitationRow } from './invitations.repository';

/**
 * A person joins an organisation by its pending invitation, inside the caller's transaction: the
 * membership with the invitation's role, the invitation used up, and the `member.joined` entry
 * (by the person). Accepting the invitation's link and single sign-on both admit this way.
 * `already` when they are a current member: nothing is written, and the caller decides.
 */
export async function admitByInvitation(
  tx: Queryable,
  invitations: InvitationsRepository,
  invitation: PendingInvitationRow,
  who: { userId: string; name: string; ip: string | null },
): Promise<'joined' | 'rejoined' | 'already'> {
  const organisationId = invitation.organisation_id;
  const began = await beginMembership(tx, organisationId, who.userId, invitation.role_id);
  if (began === 'already') return began;
  await invitations.markAccepted(tx, organisationId, invitation.id);
  await writeAuditEntry(tx, {
    organisationId,
    action: 'member.joined',
    actor: { type: 'member', id: who.userId, name: who.name },
    target: { type: 'user', id: who.userId, name: who.name },
    metadata: {
      invitationId: invitation.id,
      email: invitation.email,
      roleId: invitation.role_id,
      role: invitation.role_name,
      ...(began === 'rejoined' ? { rejoined: true as const } : {}),
    },
    ipAddress: who.ip,
  });
  return began;
}
