import { type AuditEntryInput, writeAuditEntry } from '@interlock/audit';
import type { AuditEventOf } from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { beginMembership } from './memberships.repository';

/** How a person came in: by an invitation, or provisioned by single sign-on. */
type Admission = {
  [A in 'member.joined' | 'member.provisioned']: {
    action: A;
    metadata: Omit<AuditEventOf<A>['metadata'], 'rejoined'>;
  };
}['member.joined' | 'member.provisioned'];

/**
 * A person becomes a current member with `roleId`, inside the caller's transaction, and the
 * admission's audit entry says so, by the person (`rejoined` when they had been a member before).
 * `already` when they are a current member: nothing is written, and the caller decides.
 * Accepting an invitation and single sign-on's first sign-in both admit this way.
 */
export async function admitMember(
  tx: Queryable,
  organisationId: string,
  who: { userId: string; name: string; ip: string | null },
  roleId: string,
  admission: Admission,
): Promise<'joined' | 'rejoined' | 'already'> {
  const began = await beginMembership(tx, organisationId, who.userId, roleId);
  if (began === 'already') return began;
  const person = { id: who.userId, name: who.name };
  // The action and its metadata go together (Admission); spread, the compiler no longer pairs them.
  const entry = {
    organisationId,
    action: admission.action,
    actor: { type: 'member', ...person },
    target: { type: 'user', ...person },
    metadata: {
      ...admission.metadata,
      ...(began === 'rejoined' ? { rejoined: true as const } : {}),
    },
    ipAddress: who.ip,
  } as AuditEntryInput;
  await writeAuditEntry(tx, entry);
  return began;
}
