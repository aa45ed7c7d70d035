import { writeAuditEntry } from '@interlock/audit';
import { DomainError } from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { organisationsOfUser, type UserOrganisationRow } from '../members/memberships.repository';
import { organisationsRequiringSso } from './sso.repository';

const SIGN_IN_WITH_SSO =
  'choose "Sign in with single sign-on" on the sign-in page instead of your password';

/** `SSO_REQUIRED` (403) texts (SPEC §8f). */
export const SSO_REQUIRED_MESSAGES = {
  /** A password sign-in of a person whose every organisation requires single sign-on. */
  signIn: (names: readonly string[]) =>
    names.length === 1
      ? `${names[0]} signs its members in with single sign-on: ${SIGN_IN_WITH_SSO}.`
      : `${listed(names)} sign their members in with single sign-on: ${SIGN_IN_WITH_SSO}.`,
  /** A password sign-in session naming such an organisation. */
  actFor:
    'This organisation requires single sign-on: sign in with single sign-on to act for it (your password sign-in acts only for your other organisations).',
  /** Accepting or joining with an invitation into such an organisation. */
  join: (name: string) =>
    `${name} signs its members in with single sign-on: ${SIGN_IN_WITH_SSO}, which makes you a member with this invitation's role.`,
} as const;

function listed(names: readonly string[]): string {
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] as string}`;
}

/** Whether a password sign-in session acts for a membership: not where single sign-on is required, unless an Owner's. */
export function passwordActsFor(
  membership: Pick<UserOrganisationRow, 'id' | 'role_built_in'>,
  requiring: ReadonlySet<string>,
): boolean {
  return !requiring.has(membership.id) || membership.role_built_in === 'owner';
}

/** Of the person's organisations, the ids a password sign-in session may not act for (SPEC §8f). */
export async function refusedToPassword(db: Queryable, userId: string): Promise<Set<string>> {
  const organisations = await organisationsOfUser(db, userId);
  const requiring = await organisationsRequiringSso(
    db,
    organisations.map((o) => o.id),
  );
  return new Set(organisations.filter((o) => !passwordActsFor(o, requiring)).map((o) => o.id));
}

/**
 * A password sign-in, the password (and second factor) right, inside its transaction (SPEC §8f):
 * refused with 403 `SSO_REQUIRED` when every organisation of the person requires single sign-on
 * and they are an Owner of none; an Owner's sign-in where it is required is the break-glass path,
 * written as `member.break_glass_sign_in` in each such organisation.
 */
export async function admitPasswordSignIn(
  tx: Queryable,
  person: { id: string; name: string; email: string },
  ip: string | null,
): Promise<void> {
  const organisations = await organisationsOfUser(tx, person.id);
  const requiring = await organisationsRequiringSso(
    tx,
    organisations.map((o) => o.id),
  );
  if (requiring.size === 0) return;
  if (organisations.every((o) => !passwordActsFor(o, requiring)))
    throw new DomainError(
      'SSO_REQUIRED',
      SSO_REQUIRED_MESSAGES.signIn(organisations.map((o) => o.name)),
    );
  for (const organisation of organisations) {
    if (!requiring.has(organisation.id) || organisation.role_built_in !== 'owner') continue;
    await writeAuditEntry(tx, {
      organisationId: organisation.id,
      action: 'member.break_glass_sign_in',
      actor: { type: 'member', id: person.id, name: person.name },
      target: { type: 'user', id: person.id, name: person.name },
      metadata: { email: person.email },
      ipAddress: ip,
    });
  }
}

/** An invitation into an organisation that requires single sign-on is used by signing in with it: 403 `SSO_REQUIRED`. */
export async function refuseJoinWithoutSso(
  db: Queryable,
  organisation: { id: string; name: string },
): Promise<void> {
  if ((await organisationsRequiringSso(db, [organisation.id])).size > 0)
    throw new DomainError('SSO_REQUIRED', SSO_REQUIRED_MESSAGES.join(organisation.name));
}
