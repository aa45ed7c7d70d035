import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTOR_TYPES, AUDIT_CATEGORIES, KNOWN_AUDIT_ACTIONS, TARGET_TYPES } from '@interlock/domain';
import type { ActorType, AuditCategory, TargetType } from '@interlock/domain';

/** An audit entry as the API shows it (SPEC §7); absent fields are omitted, not null. */
export class AuditEntryResponse {
  @ApiProperty({ format: 'uuid', description: 'Entries are never edited or removed: a seen id is final.' })
  id!: string;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601, UTC, with milliseconds.', example: '2026-11-21T12:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({
    enum: KNOWN_AUDIT_ACTIONS,
    enumName: 'AuditAction',
    description: '<category>.<verb>: the actions the service writes today; new actions may appear: treat unknown ones as opaque.',
    example: 'api_key.created',
  })
  action!: string;

  @ApiProperty({ enum: AUDIT_CATEGORIES, enumName: 'AuditCategory' })
  category!: AuditCategory;

  @ApiProperty({ enum: ACTOR_TYPES, enumName: 'ActorType' })
  actorType!: ActorType;

  @ApiPropertyOptional({ description: "A member's user id or an API key's id; absent for the system." })
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

  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null at the end of the walk.' })
  nextCursor!: string | null;
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

/**
 * An entry as the page reads return it (`AUDIT_JSON_COLUMNS`): its JSON text, stored when it was
 * appended (migration 1795400000000: the bytes `auditEntryJson` writes of it), and its place in
 * the walk.
 */
export interface AuditJsonRow {
  /** `2026-11-21 12:00:00.123` in UTC (fraction without trailing zeros, or none). */
  created_at_utc: string;
  seq: string;
  /** Null for an entry appended before its JSON was stored. */
  entry_json: string | null;
}

/** An entry's columns as `AUDIT_TEXT_COLUMNS` reads them: the instant and the metadata as text. */
export interface AuditTextRow extends Omit<AuditEntryRow, 'created_at' | 'metadata'> {
  /** `2026-11-21 12:00:00.123456` in UTC (fraction without trailing zeros, or none). */
  created_at_utc: string;
  /** As Postgres writes jsonb (`{"a": 1, "b": [2, 3]}`), or null. */
  metadata: string | null;
}

/**
 * The JSON text of an entry read as text: the bytes `JSON.stringify(toAuditEntry(row))` gives
 * of the same entry, written without a Date, JSON.parse or an intermediate object; the same
 * bytes the database stores as `entry_json` for entries appended since migration 1795400000000
 * (the audit-log e2e suite holds the three together). It renders the entries appended before.
 * The metadata is jsonb's text without its spaces (`compactJson`).
 */
export function auditEntryJson(row: AuditTextRow): string {
  let json = `{"id":"${row.id}","createdAt":"${isoMillis(row.created_at_utc)}","action":${JSON.stringify(row.action)},"category":${JSON.stringify(row.category)},"actorType":${JSON.stringify(row.actor_type)},"actorName":${JSON.stringify(row.actor_name)},"summary":${JSON.stringify(row.summary)},"metadata":${row.metadata === null ? 'null' : compactJson(row.metadata)}`;
  if (row.actor_id !== null) json += `,"actorId":${JSON.stringify(row.actor_id)}`;
  if (row.target_type !== null && row.target_id !== null) {
    json += `,"targetType":${JSON.stringify(row.target_type)},"targetId":${JSON.stringify(row.target_id)},"targetName":${JSON.stringify(row.target_name ?? '')}`;
  }
  if (row.ip_address !== null) json += `,"ipAddress":${JSON.stringify(row.ip_address)}`;
  return json + '}';
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

/**
 * JSON text as Postgres writes jsonb, without the space it puts after every `:` and `,`: the
 * text `JSON.stringify` gives of the same value, with two exceptions no JSON reader tells apart
 * (both keep the value): a key that looks like an array index keeps jsonb's place for it (a
 * JavaScript object moves such keys first), and numbers keep jsonb's digits (`1e21` stays
 * `1000000000000000000000`). Outside strings, jsonb's text has no other whitespace; inside
 * them every `"` is escaped, so a string ends at the first `"` not escaped.
 */
export function compactJson(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x20) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}
