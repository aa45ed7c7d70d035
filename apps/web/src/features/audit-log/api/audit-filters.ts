import type { ActorType, AuditCategory, TargetType } from '@interlock/api-client';
import type { AuditFilters } from './audit-log.queries';

export const CATEGORIES: AuditCategory[] = [
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
];
export const ACTOR_TYPES: ActorType[] = ['member', 'api_key', 'system', 'argus'];
export const TARGET_TYPES: TargetType[] = [
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
];

export const FILTER_NAMES = [
  'q',
  'category',
  'action',
  'actorType',
  'actorId',
  'targetType',
  'targetId',
  'from',
  'to',
] as const;

/** The filters of the page's address (`?targetType=interrupt&targetId=…`), unknown values dropped. */
export function filtersFromParams(params: URLSearchParams): AuditFilters {
  const f: AuditFilters = {};
  const text = (name: string) => {
    const v = params.get(name)?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const category = text('category');
  if (category && (CATEGORIES as string[]).includes(category))
    f.category = category as AuditCategory;
  const actorType = text('actorType');
  if (actorType && (ACTOR_TYPES as string[]).includes(actorType))
    f.actorType = actorType as ActorType;
  const targetType = text('targetType');
  if (targetType && (TARGET_TYPES as string[]).includes(targetType))
    f.targetType = targetType as TargetType;
  for (const name of ['q', 'action', 'actorId', 'targetId', 'from', 'to'] as const) {
    const v = text(name);
    if (v !== undefined) f[name] = v;
  }
  return f;
}

/** `datetime-local` value (the reader's time) → ISO 8601 UTC; '' stays ''. */
export function localToIso(local: string): string {
  if (local === '') return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** ISO 8601 → `datetime-local` value in the reader's time. */
export function isoToLocal(iso: string | undefined): string {
  if (iso === undefined) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
