import { randomUUID } from 'node:crypto';
import { AUDIT_EVENTS, renderAuditSummary } from '@interlock/domain';
import type {
  AuditAction,
  AuditActorRef,
  AuditCategory,
  AuditEvent,
  TargetType,
} from '@interlock/domain';
import { searchWords } from './search-words';

/** Who did it. `name` is the actor's name now; entries keep it as it was at the time. */
export type AuditActor = AuditActorRef;

export interface AuditTarget {
  type: TargetType;
  id: string;
  name: string;
}

/**
 * What the service writes: an event of the catalogue (`@interlock/domain`'s `AuditEvent`: the
 * action, actor, target and typed metadata) for an organisation. The category and the summary
 * sentence come from the catalogue.
 */
export type AuditEntryInput = AuditEvent & {
  organisationId: string;
  /** The client address, when the entry comes from a request. */
  ipAddress?: string | null;
};

/** One row of the log as stored, any action: for tests, benchmarks and data migrations. */
export interface AuditRecordInput {
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
 * Writes one audit event with the caller's transactional handle, so the entry commits or rolls
 * back with the change it records. Call it inside the same transaction as the change, and as
 * late in it as you can: the database appends the entry to the organisation's chain (sequence,
 * timestamp, hash) under a lock held until the transaction ends.
 */
export function writeAuditEntry(
  db: SqlExecutor,
  input: AuditEntryInput,
): Promise<WrittenAuditEntry> {
  const { organisationId, ipAddress, ...event } = input;
  return insertAuditRow(db, {
    organisationId,
    action: event.action,
    category: AUDIT_EVENTS[event.action].category,
    actor: event.actor,
    target: event.target,
    summary: renderAuditSummary(event as AuditEvent),
    metadata: event.metadata,
    ipAddress,
  });
}

/**
 * Writes one row as given, whatever its action (the category is the action's prefix). The
 * service writes through `writeAuditEntry`; this is for tests, benchmarks and data migrations.
 */
export function writeAuditRecord(
  db: SqlExecutor,
  input: AuditRecordInput,
): Promise<WrittenAuditEntry> {
  return insertAuditRow(db, {
    ...input,
    category: input.action.slice(0, input.action.indexOf('.')) as AuditCategory,
  });
}

async function insertAuditRow(
  db: SqlExecutor,
  input: AuditRecordInput & { category: AuditCategory },
): Promise<WrittenAuditEntry> {
  const category = input.category;
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
      input.metadata === undefined || input.metadata === null
        ? null
        : JSON.stringify(input.metadata),
      input.ipAddress ?? null,
      searchWords(input.summary, input.actor.name, input.target?.name, input.action),
    ],
  );
  return { id };
}
