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
  return insertAuditRow(db, catalogued(input));
}

/** An event of the catalogue as the row it is stored as: its category and summary filled in. */
function catalogued(input: AuditEntryInput): AuditRecordInput & { category: AuditCategory } {
  const { organisationId, ipAddress, ...event } = input;
  return {
    organisationId,
    action: event.action,
    category: AUDIT_EVENTS[event.action].category,
    actor: event.actor,
    target: event.target,
    summary: renderAuditSummary(event as AuditEvent),
    metadata: event.metadata,
    ipAddress,
  };
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

/**
 * Writes several audit events in one statement per AUDIT_ROWS_PER_STATEMENT, in the order given:
 * the database appends them to the organisation's chain one after another, as that many
 * `writeAuditEntry` calls would, but in a round trip (a batch of expiries). Same rules: the
 * caller's transaction, as late in it as it can.
 */
export async function writeAuditEntries(
  db: SqlExecutor,
  inputs: readonly AuditEntryInput[],
): Promise<WrittenAuditEntry[]> {
  const rows = inputs.map((input) => auditRow(catalogued(input)));
  for (let start = 0; start < rows.length; start += AUDIT_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + AUDIT_ROWS_PER_STATEMENT);
    const values = chunk.map((_, r) => {
      const n = r * AUDIT_COLUMN_COUNT;
      const p = Array.from({ length: AUDIT_COLUMN_COUNT - 1 }, (__, c) => `$${n + c + 1}`);
      return `(${p.join(', ')}, array_to_tsvector($${n + AUDIT_COLUMN_COUNT}::text[]))`;
    });
    // A multi-row VALUES is inserted in its order; each row's BEFORE trigger sees the rows before it.
    await db.query(`${INSERT_AUDIT_ROW} VALUES ${values.join(', ')}`, chunk.flat());
  }
  return rows.map((row) => ({ id: row[1] as string }));
}

/** At most this many entries per statement of `writeAuditEntries` (14 parameters each). */
export const AUDIT_ROWS_PER_STATEMENT = 1_000;

const AUDIT_COLUMN_COUNT = 14;

const INSERT_AUDIT_ROW = `INSERT INTO audit_log_entries
       (organisation_id, id, action, category, actor_type, actor_id, actor_name,
        target_type, target_id, target_name, summary, metadata, ip_address, search)`;

/** The parameters of one row, in INSERT_AUDIT_ROW's column order (the last: its search words). */
function auditRow(input: AuditRecordInput & { category: AuditCategory }): unknown[] {
  return [
    input.organisationId,
    randomUUID(),
    input.action,
    input.category,
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
  ];
}

/** One row's INSERT, its parameters `auditRow`'s. */
const INSERT_ONE_AUDIT_ROW = `${INSERT_AUDIT_ROW}
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, array_to_tsvector($14::text[]))`;

async function insertAuditRow(
  db: SqlExecutor,
  input: AuditRecordInput & { category: AuditCategory },
): Promise<WrittenAuditEntry> {
  const row = auditRow(input);
  await db.query(INSERT_ONE_AUDIT_ROW, row);
  return { id: row[1] as string };
}

/** `writeAuditEntry`'s statement and the entry's id, unsent. */
export interface AuditEntryStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly id: string;
}

/**
 * The statement `writeAuditEntry` would run, for a caller that sends it with others of the same
 * change in one round trip (a new interrupt's count and entry, issue 28). The same rules: the
 * change's transaction, as late in it as it can; the entry takes the chain's lock when it runs.
 */
export function auditEntryStatement(input: AuditEntryInput): AuditEntryStatement {
  const values = auditRow(catalogued(input));
  return { text: INSERT_ONE_AUDIT_ROW, values, id: values[1] as string };
}
