import type { Queryable } from '../database/query-rows.util';
import { admitMember } from '../members/member-admission.util';
import type { InvitationsRepository, PendingInvitationRow } from './invitations.repository';

/**
 * A person joins an organisation by its pending invitation, inside the caller's transaction: the
 * membership with the invitation's role, the `member.joined` entry (by the person; `admitMember`)
 * and the invitation used up. Accepting the invitation's link and single sign-on both admit this
 * way. `already` when they are a current member: nothing is written, and the caller decides.
 */
export async function admitByInvitation(
  tx: Queryable,
  invitations: InvitationsRepository,
  invitation: PendingInvitationRow,
  who: { userId: string; name: string; ip: string | null },
): Promise<'joined' | 'rejoined' | 'already'> {
  const organisationId = invitation.organisation_id;
  const began = await admitMember(tx, organisationId, who, invitation.role_id, {
    action: 'member.joined',
    metadata: {
      invitationId: invitation.id,
      email: invitation.email,
      roleId: invitation.role_id,
      role: invitation.role_name,
    },
  });
  if (began !== 'already') await invitations.markAccepted(tx, organisationId, invitation.id);
  return began;
}
