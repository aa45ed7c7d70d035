import {
  missingPermissionMessage,
  Permission,
  PERMISSIONS,
  DomainError,
  type MemberActor,
} from '@interlock/domain';

/**
 * Who grants, changes or removes: the member as the audit actor (their id is their member id)
 * and the permissions their role holds. The controller takes it from the signed-in member
 * (`@GranterCaller()`, a `GranterCall`).
 */
export interface Granter {
  readonly actor: MemberActor;
  readonly permissions: ReadonlySet<Permission>;
}

/**
 * No privilege escalation: a member may only create, grant or change what they hold themselves.
 * Answers 403 MISSING_PERMISSION naming the first permission (in the order given) they lack.
 */
export function assertHoldsAll(
  held: ReadonlySet<Permission>,
  permissions: readonly Permission[],
): void {
  const missing = permissions.find((p) => !held.has(p));
  if (missing !== undefined)
    throw new DomainError('MISSING_PERMISSION', missingPermissionMessage(missing));
}

/** A role's permissions in PERMISSIONS order, whatever order they were given or stored in. */
export function canonicalPermissions(permissions: readonly string[]): Permission[] {
  return PERMISSIONS.filter((p) => permissions.includes(p));
}
