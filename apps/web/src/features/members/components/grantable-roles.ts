import type { Permission, RoleResponse } from '@interlock/api-client';

/**
 * Whether a member holding `held` may grant the role: nobody invites to, or gives, a role holding
 * a permission they do not hold themselves (SPEC §6; the API refuses it at submit otherwise).
 */
export function mayGrant(role: Pick<RoleResponse, 'permissions'>, held: readonly Permission[]) {
  return role.permissions.every((p) => held.includes(p));
}

/** The roles the member may grant, as options of a role picker. */
export function grantableRoleOptions(
  roles: readonly Pick<RoleResponse, 'id' | 'name' | 'permissions'>[],
  held: readonly Permission[],
): { value: string; label: string }[] {
  return roles.filter((r) => mayGrant(r, held)).map((r) => ({ value: r.id, label: r.name }));
}
