import type { ActorType } from '@interlock/domain';
import type { SqlExecutor } from './audit-writer';

/** An audit entry as the organisation's event stream reads it. */
export interface AuditStreamRow {
  /** The organisation's audit sequence number (bigint, as text). */
  seq: string;
  action: string;
  created_at: Date;
  actor_type: ActorType;
  actor_id: string | null;
  actor_name: string;
  target_id: string | null;
  target_name: string | null;
  metadata: Record<string, unknown> | null;
}

/** The organisation's newest audit sequence number (0 before its first entry): one primary-key read of its head. */
export async function auditHead(db: SqlExecutor, organisationId: string): Promise<number> {
  const rows = (await db.query(`SELECT last_seq FROM audit_log_heads WHERE organisation_id = $1`, [
    organisationId,
  ])) as { last_seq: string }[];
  return rows.length === 0 ? 0 : Number(rows[0].last_seq);
}

/**
 * The newest audit sequence number of each of `organisationIds` (0 before its first entry), in
 * one statement however many: the heartbeat of every open event stream at once.
 */
export async function auditHeads(
  db: SqlExecutor,
  organisationIds: readonly string[],
): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  if (organisationIds.length === 0) return heads;
  const rows = (await db.query(
    `SELECT organisation_id, last_seq FROM audit_log_heads WHERE organisation_id = ANY($1::uuid[])`,
    [[...new Set(organisationIds)]],
  )) as { organisation_id: string; last_seq: string }[];
  for (const row of rows) heads.set(row.organisation_id, Number(row.last_seq));
  return heads;
}

/**
 * Up to `limit` of the organisation's entries with sequence numbers in (`afterSeq`, `upToSeq`]
 * whose action is one of `actions`, in sequence order (the (organisation, seq) index): what the
 * event stream (GET /api/events) has not sent yet.
 */
export async function auditEntriesAfter(
  db: SqlExecutor,
  organisationId: string,
  afterSeq: number,
  upToSeq: number,
  actions: readonly string[],
  limit: number,
): Promise<AuditStreamRow[]> {
  return (await db.query(
    `SELECT seq, action, created_at, actor_type, actor_id, actor_name, target_id, target_name, metadata
       FROM audit_log_entries
      WHERE organisation_id = $1 AND seq > $2 AND seq <= $3 AND action = ANY($4::text[])
      ORDER BY seq LIMIT $5`,
    [organisationId, afterSeq, upToSeq, actions, limit],
  )) as AuditStreamRow[];
}
