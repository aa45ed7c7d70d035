import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ACTOR_TYPES,
  AUDIT_CATEGORIES,
  KNOWN_AUDIT_ACTIONS,
  TARGET_TYPES,
} from '@interlock/domain';
import type { ActorType, AuditCategory, TargetType } from '@interlock/domain';
import { ApiDateTime, ApiUuid } from '../openapi/api-field.decorator';

/** An audit entry as the API shows it (SPEC §7); absent fields are omitted, not null. */
export class AuditEntryResponse {
  @ApiUuid({
    description: 'Entries are never edited or removed: a seen id is final.',
  })
  id!: string;

  @ApiDateTime({
    description: 'ISO 8601, UTC, with milliseconds.',
    example: '2026-11-21T12:00:00.000Z',
  })
  createdAt!: string;

  @ApiProperty({
    enum: KNOWN_AUDIT_ACTIONS,
    enumName: 'AuditAction',
    description:
      '<category>.<verb>: the actions the service writes today; new actions may appear: treat unknown ones as opaque.',
    example: 'api_key.created',
  })
  action!: string;

  @ApiProperty({ enum: AUDIT_CATEGORIES, enumName: 'AuditCategory' })
  category!: AuditCategory;

  @ApiProperty({ enum: ACTOR_TYPES, enumName: 'ActorType' })
  actorType!: ActorType;

  @ApiPropertyOptional({
    description: "A member's user id or an API key's id; absent for the system.",
  })
  actorId?: string;

  @ApiProperty({ description: 'The name as it was at the time.' })
  actorName!: string;

  @ApiPropertyOptional({ enum: TARGET_TYPES, enumName: 'TargetType' })
  targetType?: TargetType;

  @ApiPropertyOptional()
  targetId?: string;

  @ApiPropertyOptional()
  targetName?: string;

  @ApiProperty({ example: 'Key ci-runner created by Ada Lovelace' })
  summary!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  metadata!: Record<string, unknown> | null;

  @ApiPropertyOptional({ description: 'Present when the entry came from a request.' })
  ipAddress?: string;
}

export class AuditLogPage {
  @ApiProperty({ type: [AuditEntryResponse] })
  entries!: AuditEntryResponse[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Opaque; null at the end of the walk.',
  })
  nextCursor!: string | null;
}

/**
 * An entry as every read returns it (`auditJsonColumns`): its API JSON text — the one rendering,
 * the database's `audit_log_entry_json` (stored when it was appended, or made again when the
 * renderer changed since) — and its place in the walk.
 */
export interface AuditJsonRow {
  /** `2026-11-21 12:00:00.123` in UTC (fraction without trailing zeros, or none). */
  created_at_utc: string;
  seq: string;
  entry_json: string;
}

/**
 * An entry as the page reads return it (`auditPageColumns`), a row as the array of its columns
 * (`PreparedReads.queryArrays`): its sequence number and its API JSON text; its instant is the
 * text's `createdAt` (`cursorInstantOf`). The search reads' rows (`AuditJsonRow`) are turned into
 * it (`pageRowOf`).
 */
export type AuditPageRow = readonly [seq: string, entryJson: string];

/** A first page's row (`firstPageQuery`): the entry, and the walk's snapshot (null: no entries). */
export type AuditFirstPageRow = readonly [seq: string, entryJson: string, snapshot: string | null];

/** A search read's entry as a page's row. */
export const pageRowOf = (row: AuditJsonRow): AuditPageRow => [row.seq, row.entry_json];

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What comes before the instant in the renderer's text: the id's end and the `createdAt` key. */
const CREATED_AT_KEY = '","createdAt":"';
/** `{"id":"`, the renderer's first member's start. */
const ID_KEY = '{"id":"';

/**
 * An entry's instant for a cursor, from its API JSON text: its `createdAt`, the column's instant
 * as `isoMillis` writes it — the column holds milliseconds (`timestamp(3)`), so the renderer's
 * `to_char` (which rounds) and `isoMillis` (which truncates) agree; the audit-log e2e suite holds
 * them together. One entry a page, its last, where Postgres would write the instant of every row
 * as text (issue 28, session 22).
 *
 * Read where the renderer (`audit_log_entry_json`) writes it, without parsing the entry (a
 * `JSON.parse` of the whole entry was ~5 µs of a page, issue 28, session 23): the text's first
 * member is the id, a string, and its second `createdAt` — checked, not assumed: the text must
 * start with `{"id":"`, and `","createdAt":"` must start at the next `"` (its second `"` follows a
 * `,`, so it is no escaped letter inside the id: the id's string ends there and the key is the
 * object's own), and the 24 letters after it must be an instant closed by `"`. Any other text (a
 * renderer that moved the member) is parsed.
 */
export function cursorInstantOf(entryJson: string): string {
  const end = entryJson.indexOf('"', ID_KEY.length);
  if (entryJson.startsWith(ID_KEY) && entryJson.startsWith(CREATED_AT_KEY, end)) {
    const start = end + CREATED_AT_KEY.length;
    const instant = entryJson.slice(start, start + 24);
    if (entryJson.charCodeAt(start + 24) === 0x22 && ISO_MILLIS.test(instant)) return instant;
  }
  return parsedInstantOf(entryJson);
}

/** `cursorInstantOf` by parsing the whole text. */
function parsedInstantOf(entryJson: string): string {
  const { createdAt } = JSON.parse(entryJson) as { createdAt?: unknown };
  if (typeof createdAt !== 'string' || !ISO_MILLIS.test(createdAt))
    throw new Error(
      `an audit entry's createdAt is not an instant of four-digit years: ${String(createdAt)}`,
    );
  return createdAt;
}

const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?$/;

/**
 * `2026-11-21 12:00:00.123456` (a UTC timestamp as Postgres writes it) as `toISOString` writes
 * the same instant: `2026-11-21T12:00:00.123Z`, milliseconds truncated as a Date keeps them.
 */
export function isoMillis(utc: string): string {
  if (!UTC_TIMESTAMP.test(utc)) throw new Error(`not a UTC timestamp of four-digit years: ${utc}`);
  const fraction = utc.length > 20 ? utc.slice(20, 23) : '';
  return `${utc.slice(0, 10)}T${utc.slice(11, 19)}.${fraction.padEnd(3, '0')}Z`;
}
