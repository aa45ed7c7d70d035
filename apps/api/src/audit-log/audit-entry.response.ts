import type { ActorType, AuditCategory, TargetType } from '@interlock/domain';

/** An audit entry as the API shows it (SPEC §7); absent fields are omitted, not null. */
export interface AuditEntryResponse {
  id: string;
  createdAt: string;
  action: string;
  category: AuditCategory;
  actorType: ActorType;
  actorId?: string;
  actorName: string;
  targetType?: TargetType;
  targetId?: string;
  targetName?: string;
  summary: string;
  metadata: Record<string, unknown> | null;
  ipAddress?: string;
}

export interface AuditEntryRow {
  id: string;
  created_at: Date;
  seq: string;
  action: string;
  category: AuditCategory;
  actor_type: ActorType;
  actor_id: string | null;
  actor_name: string;
  target_type: TargetType | null;
  target_id: string | null;
  target_name: string | null;
  summary: string;
  metadata: Record<string, unknown> | null;
  ip_address: string | null;
}

export function toAuditEntry(row: AuditEntryRow): AuditEntryResponse {
  const entry: AuditEntryResponse = {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    action: row.action,
    category: row.category,
    actorType: row.actor_type,
    actorName: row.actor_name,
    summary: row.summary,
    metadata: row.metadata,
  };
  if (row.actor_id !== null) entry.actorId = row.actor_id;
  if (row.target_type !== null && row.target_id !== null) {
    entry.targetType = row.target_type;
    entry.targetId = row.target_id;
    entry.targetName = row.target_name ?? '';
  }
  if (row.ip_address !== null) entry.ipAddress = row.ip_address;
  return entry;
}
