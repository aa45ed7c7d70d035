import { DomainError } from '@interlock/domain';
import type { UserPrincipal } from './principal';

const SSO_SESSION =
  'You signed in with single sign-on, which acts only for the organisation that signed you in';

/**
 * What a sign-in session made by single sign-on may not do (SPEC §8f): act for, create or join
 * any organisation but the one whose provider vouched for the person, nor change the account
 * itself (its email address, password, two-factor sign-in, other sessions): the provider vouched
 * for the person in one organisation, not for the account. 403 `FORBIDDEN`.
 */
export const SSO_SESSION_MESSAGES = {
  otherOrganisation: `${SSO_SESSION}: sign in with your password to act for another organisation.`,
  createOrganisation: `${SSO_SESSION}: sign in with your password to create an organisation.`,
  joinOrganisation: `${SSO_SESSION}: sign in with your password to accept an invitation.`,
  changeEmail: `${SSO_SESSION}: sign in with your password to change your email address.`,
  changePassword: `${SSO_SESSION}: sign in with your password to change your password.`,
  twoFactor: `${SSO_SESSION}: sign in with your password to change your two-factor sign-in.`,
  endSessions: `${SSO_SESSION}: sign in with your password to end your other sign-in sessions.`,
} as const;

/** Refuses a person's request when their session was made by single sign-on. */
export function refuseUnderSso(
  user: UserPrincipal,
  what: Exclude<keyof typeof SSO_SESSION_MESSAGES, 'otherOrganisation'>,
): void {
  if (user.ssoOrganisationId !== null)
    throw new DomainError('FORBIDDEN', SSO_SESSION_MESSAGES[what]);
}
