import type { ApiKeyActor, MemberActor, Permission } from '@interlock/domain';
import type { UserPrincipal } from './principal';

/**
 * Who asks a use case, as the credential says — never the request's body: the organisation the
 * request acts for, the actor its audit entries name, and the client address they record. A
 * handler takes it from `@MemberCaller()` (`auth/decorators/current-principal.decorator.ts`);
 * a use case takes it first, or a command extends it and the controller spreads it last
 * (`{ webhook: body, ...caller }`), so a body can never supply these fields.
 */
export interface Call<A extends MemberActor | ApiKeyActor = MemberActor | ApiKeyActor> {
  readonly organisationId: string;
  readonly actor: A;
  readonly ip: string | null;
}

/** A signed-in member's call (`@MemberCaller()`). */
export type MemberCall = Call<MemberActor>;

/** An agent's call, by its API key (`@KeyCaller()`). */
export type KeyCall = Call<ApiKeyActor>;

/**
 * A signed-in person's call on a route that acts for no organisation (`@UserCaller()`): the
 * person, whose account it changes, and the client address its audit entries record.
 */
export interface UserCall {
  readonly user: UserPrincipal;
  readonly ip: string | null;
}

/**
 * A member's call that grants, changes or removes roles and members: with the permissions their
 * role holds (`@GranterCaller()`); a `Granter` of `roles/permission-grant.util.ts`.
 */
export interface GranterCall extends MemberCall {
  readonly permissions: ReadonlySet<Permission>;
}
