import type { Request } from 'express';
import type { Permission, Plan } from '@interlock/domain';

/** An agent, authenticated by an organisation API key. */
export interface ApiKeyPrincipal {
  readonly kind: 'api_key';
  readonly organisationId: string;
  readonly plan: Plan;
  readonly apiKeyId: string;
  readonly apiKeyName: string;
}

/** A signed-in person, authenticated by the session cookie. */
export interface MemberPrincipal {
  readonly kind: 'member';
  readonly organisationId: string;
  readonly plan: Plan;
  readonly memberId: string;
  readonly memberName: string;
  readonly sessionId: string;
  readonly permissions: ReadonlySet<Permission>;
}

/** Nobody yet: public routes, and the human routes that sign people in. */
export interface AnonymousPrincipal {
  readonly kind: 'anonymous';
}

/**
 * The one classification of a caller every guard and handler reads. A new kind added here
 * fails to compile at every `switch` that does not decide it (see `assertNever`).
 */
export type Principal = ApiKeyPrincipal | MemberPrincipal | AnonymousPrincipal;

export function assertNever(value: never): never {
  throw new Error(`Unhandled principal ${JSON.stringify(value)}`);
}

const PRINCIPAL = Symbol('principal');

export function setPrincipal(req: Request, principal: Principal): void {
  (req as unknown as Record<symbol, Principal>)[PRINCIPAL] = principal;
}

export function principalOf(req: Request): Principal {
  return (req as unknown as Record<symbol, Principal | undefined>)[PRINCIPAL] ?? { kind: 'anonymous' };
}

/** The audit actor for a principal. */
export function actorOf(principal: ApiKeyPrincipal | MemberPrincipal): {
  type: 'api_key' | 'member';
  id: string;
  name: string;
} {
  switch (principal.kind) {
    case 'api_key':
      return { type: 'api_key', id: principal.apiKeyId, name: principal.apiKeyName };
    case 'member':
      return { type: 'member', id: principal.memberId, name: principal.memberName };
    default:
      return assertNever(principal);
  }
}
