import type { ApiKeyActor, MemberActor } from '@interlock/domain';
import type { HttpRequest } from '../http/platform';
import { requestStateOf } from '../http/request-state';
import type { Permission, Plan } from '@interlock/domain';
import type { KeyCall } from './caller';

/** An agent, authenticated by an organisation API key. */
export interface ApiKeyPrincipal {
  readonly kind: 'api_key';
  readonly organisationId: string;
  readonly plan: Plan;
  readonly apiKeyId: string;
  readonly apiKeyName: string;
}

/**
 * A signed-in person acting for one organisation (SPEC §3, docs/DECISIONS.md "Users and
 * memberships"): their sign-in session (the cookie) and their current membership of the
 * organisation the request chose. Permissions are that membership's role's, and only its.
 */
export interface MemberPrincipal {
  readonly kind: 'member';
  readonly organisationId: string;
  readonly plan: Plan;
  /** The member's id: the user's id, the same in every organisation they belong to. */
  readonly memberId: string;
  readonly memberName: string;
  readonly email: string;
  readonly roleId: string;
  readonly roleName: string;
  /** The person's sign-in session (not an agent's Live View session). */
  readonly signInSessionId: string;
  /**
   * How that session was made: `single_sign_on` by this organisation's provider, which acts for
   * it only (creating or joining another organisation answers 403: SPEC §8f).
   */
  readonly signedInWith: SignInMethod;
  readonly permissions: ReadonlySet<Permission>;
}

/** How a sign-in session was made (SPEC §8f). */
export type SignInMethod = 'password' | 'single_sign_on';

/**
 * A signed-in person on a route that acts for no organisation: their account, the list of
 * their organisations, creating one, joining one, signing out.
 */
export interface UserPrincipal {
  readonly kind: 'user';
  readonly userId: string;
  readonly userName: string;
  readonly email: string;
  readonly signInSessionId: string;
  /**
   * Made by that organisation's single sign-on: the session acts for it only (SPEC §8f); null
   * for a password sign-in.
   */
  readonly ssoOrganisationId: string | null;
}

/** Nobody yet: public routes, and the human routes that sign people in. */
export interface AnonymousPrincipal {
  readonly kind: 'anonymous';
}

/**
 * The one classification of a caller every guard and handler reads. A new kind added here
 * fails to compile at every `switch` that does not decide it (see `assertNever`).
 */
export type Principal = ApiKeyPrincipal | MemberPrincipal | UserPrincipal | AnonymousPrincipal;

export function assertNever(value: never): never {
  throw new Error(`Unhandled principal ${JSON.stringify(value)}`);
}

/** Nobody: one frozen value, shared by every public request. */
export const ANONYMOUS: AnonymousPrincipal = Object.freeze({ kind: 'anonymous' });

/** Records who is asking, in the request's state (`http/request-state.ts`). */
export function setPrincipal(req: HttpRequest, principal: Principal): void {
  requestStateOf(req).principal = principal;
}

/** Records the sign-in token a person's request was authenticated with (never logged, never answered). */
export function setSignInToken(req: HttpRequest, token: string): void {
  requestStateOf(req).signInToken = token;
}

/** The sign-in token the request was authenticated with, if a person's. */
export function signInTokenOf(req: HttpRequest): string | undefined {
  return requestStateOf(req).signInToken;
}

/** Where a person's request comes from, as their list of sign-in sessions shows it. */
export function signInClient(req: HttpRequest): { ip: string | null; userAgent: string | null } {
  const agent = req.headers['user-agent'];
  return {
    ip: req.ip ?? null,
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, 512) : null,
  };
}

export function principalOf(req: HttpRequest): Principal {
  return (requestStateOf(req).principal as Principal | undefined) ?? ANONYMOUS;
}

/** The audit actor for a principal: a person is the `member` actor, by their user id, in every organisation. */
export function actorOf(principal: ApiKeyPrincipal | MemberPrincipal | UserPrincipal): {
  type: 'api_key' | 'member';
  id: string;
  name: string;
} {
  switch (principal.kind) {
    case 'api_key':
      return { type: 'api_key', id: principal.apiKeyId, name: principal.apiKeyName };
    case 'member':
      return { type: 'member', id: principal.memberId, name: principal.memberName };
    case 'user':
      return { type: 'member', id: principal.userId, name: principal.userName };
    default:
      return assertNever(principal);
  }
}

/** The member as the actor a service takes (with the organisation id beside it). */
export function memberActorOf(member: MemberPrincipal): MemberActor {
  return { type: 'member', id: member.memberId, name: member.memberName };
}

/** The API key as the actor a service takes (with the organisation id beside it). */
export function apiKeyActorOf(key: ApiKeyPrincipal): ApiKeyActor {
  return { type: 'api_key', id: key.apiKeyId, name: key.apiKeyName };
}

/** The API key's call as a use case takes it (`auth/caller.ts`): its organisation and actor, and the address. */
export function keyCallOf(key: ApiKeyPrincipal, ip: string | null): KeyCall {
  return { organisationId: key.organisationId, actor: apiKeyActorOf(key), ip };
}
