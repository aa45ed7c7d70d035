import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { Permission, Plan } from '@interlock/domain';
import { assertNever } from '../principal';

/**
 * What a route admits. Every route declares exactly one; an undeclared route is refused
 * (deny by default) and fails the route-declaration test.
 * - `public`: anyone (health checks, the contract).
 * - `api_key`: machine endpoints, `x-api-key` only; optionally a plan.
 * - `member`: human-only, signed in and acting for one organisation (chosen with the
 *   `x-organisation-id` header among the person's current memberships); optionally a
 *   permission (or any one of several), which that membership's role must hold. A key gets 403.
 * - `api_key_or_member`: a read shared with the dashboard (SPEC §5): any valid key (on `plan`,
 *   when given — members are not held to it), or a signed-in member holding `permission`.
 *   A request carrying `x-api-key` is a key request; otherwise the session cookie decides.
 * - `user`: human-only, signed in, acting for no organisation (the person's account and their
 *   list of organisations, creating or joining one, signing out). A key gets 403.
 * - `human`: human-only, not signed in (sign-up, sign-in, accepting an invitation). A key gets 403.
 */
export type RouteAccess =
  | { readonly principal: 'public' }
  | { readonly principal: 'api_key'; readonly plan?: Plan }
  | { readonly principal: 'member'; readonly permission?: PermissionRequirement }
  | {
      readonly principal: 'api_key_or_member';
      readonly permission: PermissionRequirement;
      readonly plan?: Plan;
    }
  | { readonly principal: 'user' }
  | { readonly principal: 'human' };

/** What a member must hold: one permission, or any one of several (`anyPermissionOf`). */
export type PermissionRequirement =
  Permission | { readonly anyOf: readonly [Permission, Permission, ...Permission[]] };

/** A requirement met by holding any one of the permissions (e.g. listing roles: inviting or managing roles). */
export const anyPermissionOf = (
  first: Permission,
  second: Permission,
  ...rest: Permission[]
): PermissionRequirement => ({
  anyOf: [first, second, ...rest],
});

/** The permissions of which a member must hold one. */
export function permissionsOf(requirement: PermissionRequirement): readonly Permission[] {
  return typeof requirement === 'string' ? [requirement] : requirement.anyOf;
}

/** How the 403 message and the route snapshot name it: `role.manage`, `member.invite or role.manage`. */
export function describePermission(requirement: PermissionRequirement): string {
  return permissionsOf(requirement).join(' or ');
}

export const ROUTE_ACCESS = 'interlock:route-access';

const declare = (access: RouteAccess) => applyDecorators(SetMetadata(ROUTE_ACCESS, access));

/** Anyone may call this route. */
export const PublicRoute = () => declare({ principal: 'public' });

/** A machine endpoint: any valid key of the organisation (SPEC §5), optionally on a plan. */
export const MachineRoute = (options: { plan?: Plan } = {}) =>
  declare(options.plan ? { principal: 'api_key', plan: options.plan } : { principal: 'api_key' });

/** A human-only endpoint for signed-in members holding `permission` (when given). */
export const MemberRoute = (permission?: PermissionRequirement) =>
  declare(permission ? { principal: 'member', permission } : { principal: 'member' });

/**
 * A read for agents and the dashboard alike: any valid key of the organisation (on `plan`, when
 * given: the plan binds the key path only), or a signed-in member holding `permission`.
 */
export const MachineOrMemberRoute = (
  permission: PermissionRequirement,
  options: { plan?: Plan } = {},
) =>
  declare(
    options.plan
      ? { principal: 'api_key_or_member', permission, plan: options.plan }
      : { principal: 'api_key_or_member', permission },
  );

/** A human-only endpoint for a signed-in person that acts for none of their organisations. */
export const UserRoute = () => declare({ principal: 'user' });

/** A human-only endpoint for people who are not signed in yet. */
export const HumanRoute = () => declare({ principal: 'human' });

export function isHumanOnly(access: RouteAccess): boolean {
  switch (access.principal) {
    case 'member':
    case 'user':
    case 'human':
      return true;
    case 'public':
    case 'api_key':
    case 'api_key_or_member':
      return false;
    default:
      return assertNever(access);
  }
}

export const ORGANISATION_IN_QUERY = 'interlock:organisation-in-query';

/**
 * On a member route read with `EventSource` (which cannot send headers), the organisation may
 * be chosen with the `organisationId` query parameter instead of `x-organisation-id`; it is
 * checked against the person's memberships exactly like the header.
 */
export const OrganisationInQuery = () =>
  applyDecorators(
    SetMetadata(ORGANISATION_IN_QUERY, true),
    ApiQuery({
      name: 'organisationId',
      required: false,
      schema: { type: 'string', format: 'uuid' },
      description:
        'The organisation to act for, as `x-organisation-id` (for EventSource, which cannot send headers).',
    }),
  );
