import { missingPermissionMessage, Permission, PERMISSIONS, DomainError } from '@interlock/domain';
import type { MemberPrincipal } from '../auth/principal';

/**
 * No privilege escalation: a member may only create, grant or change what they hold themselves.
 * Answers 403 MISSING_PERMISSION naming the first permission (in the order given) they lack.
 */
export function assertHoldsAll(member: MemberPrincipal, permissions: readonly Permission[]): void {
  const missing = permissions.find((p) => !member.permissions.has(p));
  if (missing !== undefined) throw new DomainError('MISSING_PERMISSION', missingPermissionMessage(missing));
}

/** A role's permissions in PERMISSIONS order, whatever order they were given or stored in. */
export function canonicalPermissions(permissions: readonly string[]): Permission[] {
  return PERMISSIONS.filter((p) => permissions.includes(p));
}
