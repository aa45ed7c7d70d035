import { writeAuditEntry, type AuditEntryInput } from '@interlock/audit';
import type { Queryable } from '../database/query-rows.util';
import { organisationsOfUser } from '../members/memberships.repository';

/** The account events of SPEC §8f: about a person, not about one organisation. */
type AccountEvent = Extract<
  AuditEntryInput,
  {
    action:
      | 'member.password_changed'
      | 'member.sessions_ended'
      | 'member.email_verified'
      | 'member.email_changed'
      | 'member.renamed'
      | 'member.two_factor_enabled'
      | 'member.two_factor_disabled'
      | 'member.recovery_code_used'
      | 'member.recovery_codes_regenerated';
  }
>;

/**
 * Audits something a person did to their own account (actor and target the person, unless an
 * operator did it) in every
 * organisation they are a current member of, in the caller's transaction — in a fixed order (by
 * organisation id), so two such writes never wait on each other's chain heads.
 */
export async function auditAccountEvent(
  tx: Queryable,
  person: { id: string; name: string },
  event: Pick<AccountEvent, 'action' | 'metadata'>,
  ip: string | null,
  /** Who did it, when not the person themselves (an operator's CLI: `system`). */
  actor: AccountEvent['actor'] = { type: 'member', id: person.id, name: person.name },
): Promise<void> {
  const organisations = (await organisationsOfUser(tx, person.id)).sort((a, b) =>
    a.id < b.id ? -1 : 1,
  );
  for (const organisation of organisations) {
    await writeAuditEntry(tx, {
      ...event,
      organisationId: organisation.id,
      actor,
      target: { type: 'user', id: person.id, name: person.name },
      ipAddress: ip,
    } as AccountEvent);
  }
}
