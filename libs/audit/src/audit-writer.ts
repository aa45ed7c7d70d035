import { randomUUID } from 'node:crypto';
import type { ActorType, AuditAction, AuditCategory, TargetType } from '@interlock/domain';
import { searchWords } from './search-words';

/** Who did it. `name` is the actor's name now; entries keep it as it was at the time. */
export interface AuditActor {
  type: ActorType;
  /** A member's id or an API key's id; null for the system. */
  id: string | null;
  name: string;
}

export interface AuditTarget {
  type: TargetType;
  id: string;
  name: string;
}

export interface AuditEntryInput {
  organisationId: string;
  action: AuditAction;
  actor: AuditActor;
  target?: AuditTarget;
  /** The sentence the dashboard shows, e.g. "Key ci-runner created by Ada Lovelace". */
  summary: string;
  metadata?: Record<string, unknown> | null;
  /** The client address, when the entry comes from a request. */
  ipAddress?: string | null;
}

/** What the writer needs of a database handle: TypeORM's EntityManager and QueryRunner fit. */
export interface SqlExecutor {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export interface WrittenAuditEntry {
  id: string;
}

/**
 * Writes one audit entry with the caller's transactional handle, so the entry commits or rolls
 * back with the change it records. Call it inside the same transaction as the change, and as
 * late in it as you can: the database appends the entry to the organisation's chain (sequence,
 * timestamp, hash) under a lock held until the transaction ends.
 */
export async function writeAuditEntry(db: SqlExecutor, input: AuditEntryInput): Promise<WrittenAuditEntry> {
  const category = input.action.slice(0, input.action.indexOf('.')) as AuditCategory;
  const id = randomUUID();
  await db.query(
    `INSERT INTO audit_log_entries
       (organisation_id, id, action, category, actor_type, actor_id, actor_name,
        target_type, target_id, target_name, summary, metadata, ip_address, search)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, array_to_tsvector($14::text[]))`,
    [
      input.organisationId,
      id,
      input.action,
      category,
      input.actor.type,
      input.actor.id,
      input.actor.name,
      input.target?.type ?? null,
      input.target?.id ?? null,
      input.target?.name ?? null,
      input.summary,
      input.metadata === undefined || input.metadata === null ? null : JSON.stringify(input.metadata),
      input.ipAddress ?? null,
      searchWords(input.summary, input.actor.name, input.target?.name, input.action),
    ],
  );
  return { id };
}
