/**
 * Member permissions and the built-in roles (SPEC §6). API keys carry no permissions (SPEC §2):
 * these apply to signed-in members only.
 */
export const PERMISSIONS = [
  'apiKey.create',
  'apiKey.read',
  'apiKey.update',
  'apiKey.delete',
  'interrupt.decide',
  'interrupt.assign',
  'interrupt.escalate',
  'interrupt.read',
  'session.read',
  'session.disconnect',
  'webhook.manage',
  'billing.manage',
  'member.invite',
  'member.manage',
  'role.manage',
  'team.manage',
  'auditLog.read',
  'auditLog.export',
  'classification.read',
  'classification.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const PERMISSION_SET: ReadonlySet<string> = new Set(PERMISSIONS);

export function isPermission(x: unknown): x is Permission {
  return typeof x === 'string' && PERMISSION_SET.has(x);
}

export function hasPermission(held: readonly Permission[], permission: Permission): boolean {
  return held.includes(permission);
}

export type BuiltInRoleKey = 'owner' | 'developer' | 'manager';

export interface BuiltInRole {
  readonly key: BuiltInRoleKey;
  readonly name: string;
  readonly permissions: readonly Permission[];
}

/** `apiKey`, `interrupt`, …: the part before the dot. */
type PermissionGroup = Permission extends `${infer Group}.${string}` ? Group : never;

/** Every permission of the named groups (`interrupt` stands for `interrupt.*`). */
function allOf(...groups: PermissionGroup[]): Permission[] {
  return PERMISSIONS.filter((p) => groups.some((group) => p.startsWith(`${group}.`)));
}

function role(key: BuiltInRoleKey, name: string, permissions: readonly Permission[]): BuiltInRole {
  // In PERMISSIONS order, and frozen so that no caller can widen a built-in role at run time.
  const ordered = PERMISSIONS.filter((p) => permissions.includes(p));
  return Object.freeze({ key, name, permissions: Object.freeze(ordered) });
}

/**
 * SPEC §6: Owner (everything), Developer (apiKey.*, interrupt.*, session.*, webhook.manage,
 * auditLog.*, classification.*), Manager (apiKey.read, interrupt.*, session.read, member.invite,
 * auditLog.read, classification.read) — SPEC §8d for classification.
 * A `*` covers every permission of its group, including ones added later; the role tests list
 * each set literally, so such an addition shows up there for review.
 */
export const BUILT_IN_ROLES: Readonly<Record<BuiltInRoleKey, BuiltInRole>> = Object.freeze({
  owner: role('owner', 'Owner', PERMISSIONS),
  developer: role('developer', 'Developer', [
    ...allOf('apiKey', 'interrupt', 'session', 'auditLog', 'classification'),
    'webhook.manage',
  ]),
  manager: role('manager', 'Manager', [
    'apiKey.read',
    ...allOf('interrupt'),
    'session.read',
    'member.invite',
    'auditLog.read',
    'classification.read',
  ]),
});
