/** SPEC §7: the audit log's vocabulary. Clients treat unknown values as opaque. */
export const AUDIT_CATEGORIES = [
  'interrupt',
  'session',
  'member',
  'role',
  'team',
  'api_key',
  'webhook',
  'classification',
  'settings',
  'billing',
  'organisation',
] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

export const ACTOR_TYPES = ['member', 'api_key', 'system', 'argus'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export const TARGET_TYPES = [
  'interrupt',
  'session',
  'user',
  'invitation',
  'role',
  'team',
  'api_key',
  'webhook',
  'classification',
  'organisation',
] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** An action is `<category>.<verb>`, e.g. `api_key.created`. */
export type AuditAction = `${AuditCategory}.${string}`;
