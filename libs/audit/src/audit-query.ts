import { ACTOR_TYPES, AUDIT_CATEGORIES, TARGET_TYPES } from '@interlock/domain';
import type { ActorType, AuditCategory, TargetType } from '@interlock/domain';
import { searchWords } from './search-words';

/** SPEC §7 / §10: a page holds 1 to 200 entries, 50 by default. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;
/** `q` is capped: at most this many characters, and this many words. */
export const AUDIT_QUERY_MAX_LENGTH = 200;
export const AUDIT_QUERY_MAX_WORDS = 8;

export interface AuditFilter {
  words: string[];
  /**
   * For each word, the exact words of the organisation it is a prefix of (from the lexicon),
   * or null to search it as a prefix (when it matches too many words to list).
   */
  expanded?: (string[] | null)[];
  category?: AuditCategory;
  action?: string;
  actorType?: ActorType;
  actorId?: string;
  targetType?: TargetType;
  targetId?: string;
  /** ISO 8601 instants, passed to Postgres as they are (it keeps microseconds). */
  from?: string;
  to?: string;
}

export interface ParsedAuditQuery {
  filter: AuditFilter;
  limit: number;
  cursor?: string;
  /** Every parameter but the cursor, normalised: what a cursor's digest covers. */
  parameters: Record<string, unknown>;
}

export class AuditQueryError extends Error {}

const ALLOWED = new Set([
  'q',
  'category',
  'action',
  'actorType',
  'actorId',
  'targetType',
  'targetId',
  'from',
  'to',
  'cursor',
  'limit',
]);

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Validates an ISO 8601 timestamp strictly: real calendar dates and times, a zone when timed. */
export function parseTimestamp(value: string): string | null {
  const m = ISO_8601.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', , zone] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  const daysInMonth = lastDay.getUTCDate();
  if (day < 1 || day > daysInMonth) return null;
  if (zone !== undefined && zone !== 'Z') {
    const [zh, zm] = zone.slice(1).split(':').map(Number);
    if (zh > 23 || zm > 59) return null;
  }
  return m[4] === undefined ? `${value}T00:00:00Z` : value;
}

function single(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new AuditQueryError(`${name}: must be given once, as a string`);
  return value;
}

function oneOf<T extends string>(
  raw: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = single(raw, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new AuditQueryError(`${name}: must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function identifier(
  raw: Record<string, unknown>,
  name: string,
  pattern: RegExp,
  what: string,
): string | undefined {
  const value = single(raw, name);
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > 200 || !pattern.test(value))
    throw new AuditQueryError(`${name}: ${what}`);
  return value;
}

/** Parses GET /api/audit-log's query string; every problem names its parameter. */
export function parseAuditQuery(raw: Record<string, unknown>): ParsedAuditQuery {
  for (const name of Object.keys(raw)) {
    if (!ALLOWED.has(name))
      throw new AuditQueryError(`${name}: is not a parameter of this endpoint`);
  }
  const q = single(raw, 'q');
  if (q !== undefined && q.length > AUDIT_QUERY_MAX_LENGTH) {
    throw new AuditQueryError(`q: must be at most ${AUDIT_QUERY_MAX_LENGTH} characters`);
  }
  const words = q === undefined ? [] : searchWords(q);
  if (words.length > AUDIT_QUERY_MAX_WORDS)
    throw new AuditQueryError(`q: must have at most ${AUDIT_QUERY_MAX_WORDS} words`);

  const filter: AuditFilter = {
    words,
    category: oneOf(raw, 'category', AUDIT_CATEGORIES),
    action: identifier(
      raw,
      'action',
      /^[a-z_]+\.[a-z_]+$/,
      'must be an action such as api_key.created',
    ),
    actorType: oneOf(raw, 'actorType', ACTOR_TYPES),
    actorId: identifier(raw, 'actorId', /^[\x21-\x7e]+$/, 'must be an id'),
    targetType: oneOf(raw, 'targetType', TARGET_TYPES),
    targetId: identifier(raw, 'targetId', /^[\x21-\x7e]+$/, 'must be an id'),
  };
  for (const name of ['from', 'to'] as const) {
    const value = single(raw, name);
    if (value === undefined) continue;
    const parsed = parseTimestamp(value);
    if (parsed === null)
      throw new AuditQueryError(
        `${name}: must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z`,
      );
    filter[name] = parsed;
  }
  if (
    filter.from !== undefined &&
    filter.to !== undefined &&
    Date.parse(filter.from) > Date.parse(filter.to)
  ) {
    throw new AuditQueryError('from: must not be after to');
  }

  const limitRaw = single(raw, 'limit');
  let limit = AUDIT_PAGE_DEFAULT;
  if (limitRaw !== undefined) {
    if (!/^\d{1,3}$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > AUDIT_PAGE_MAX) {
      throw new AuditQueryError(`limit: must be an integer from 1 to ${AUDIT_PAGE_MAX}`);
    }
    limit = Number(limitRaw);
  }
  const cursor = single(raw, 'cursor');
  const parameters = { ...filter, words: words.join(' '), limit };
  return { filter, limit, cursor, parameters };
}

export interface AuditPosition {
  createdAt: string;
  seq: string;
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

export const AUDIT_COLUMNS = `id, created_at, seq, action, category, actor_type, actor_id, actor_name,
  target_type, target_id, target_name, summary, metadata, ip_address`;

/**
 * The version of the one renderer of an audit entry's API JSON, the database's
 * `audit_log_entry_json(e)`: what its `audit_log_render_version()` returns (the audit-log e2e
 * suite holds the two equal). Raised, with a migration replacing both functions, whenever the
 * rendering changes (migration 1795730000000 says how).
 */
export const AUDIT_RENDER_VERSION = 1;

/**
 * An entry's API rendering (SPEC §7) as a column: the text stored when it was appended
 * (`entry_json`) when today's renderer made it, and otherwise the entry rendered again now — an
 * entry appended before its text was stored, or by an earlier version of the renderer. `row` is
 * the table's name or alias in the statement.
 */
export function auditEntryJsonColumn(row: string): string {
  return `CASE WHEN ${row}.entry_render_version = audit_log_render_version() AND ${row}.entry_json IS NOT NULL
    THEN ${row}.entry_json ELSE audit_log_entry_json(${row}) END AS entry_json`;
}

/**
 * The page reads' columns: the entry's API rendering (`auditEntryJsonColumn`) and its place in
 * the walk — the instant as Postgres writes a UTC timestamp (`2026-11-21 12:00:00.123`) and the
 * sequence number — for the next cursor. Named so that ORDER BY created_at still means the
 * column. `row` is the table's name or alias in the statement.
 */
export function auditJsonColumns(row = 'audit_log_entries'): string {
  return `(${row}.created_at AT TIME ZONE 'UTC')::text AS created_at_utc, ${row}.seq, ${auditEntryJsonColumn(row)}`;
}

/**
 * The page reads' columns (a first page, a page of a walk): `auditJsonColumns` without the
 * instant as text. A next cursor needs the instant of one row a page, the page's last, and the
 * service reads it from that entry's rendering (its `createdAt`, the column's instant: the column
 * holds milliseconds), so Postgres does not write one for every row (issue 28, session 22). `row`
 * is the table's name or alias in the statement. The service reads these columns by their place
 * (`seq`, then `entry_json`; a first page's `snapshot` third): rows as arrays (issue 28, session 23).
 */
export function auditPageColumns(row = 'audit_log_entries'): string {
  return `${row}.seq, ${auditEntryJsonColumn(row)}`;
}

/** Bound parameters and the SQL conditions that use them, built up clause by clause. */
class Clauses {
  readonly params: unknown[] = [];
  readonly where: string[] = [];

  /** Binds `value` and adds the condition `sql` makes of its placeholder. */
  add(sql: (placeholder: string) => string, value: unknown): void {
    this.params.push(value);
    this.where.push(sql(`$${this.params.length}`));
  }

  /** Binds `value` without a condition; returns its placeholder. */
  bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/** The walk's scope: the organisation ($1, always), the snapshot bound and the cursor position. */
function scope(
  c: Clauses,
  organisationId: string,
  snapshot: string,
  after: AuditPosition | undefined,
): void {
  c.add((n) => `organisation_id = ${n}`, organisationId);
  c.add((n) => `seq <= ${n}`, snapshot);
  if (after) {
    const at = c.bind(after.createdAt);
    c.add((n) => `(created_at, seq) < (${at}::timestamptz, ${n}::bigint)`, after.seq);
  }
}

/** Every filter but `q`. */
function filters(c: Clauses, filter: AuditFilter): void {
  if (filter.category) c.add((n) => `category = ${n}`, filter.category);
  if (filter.action) c.add((n) => `action = ${n}`, filter.action);
  if (filter.actorType) c.add((n) => `actor_type = ${n}`, filter.actorType);
  if (filter.actorId) c.add((n) => `actor_id = ${n}`, filter.actorId);
  if (filter.targetType) c.add((n) => `target_type = ${n}`, filter.targetType);
  if (filter.targetId) c.add((n) => `target_id = ${n}`, filter.targetId);
  if (filter.from) c.add((n) => `created_at >= ${n}::timestamptz`, filter.from);
  if (filter.to) c.add((n) => `created_at < ${n}::timestamptz`, filter.to);
}

/** A tsquery lexeme, quoted: inside quotes only `'` and `\` are special. */
function lexeme(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * `q` as tsquery text: every word required, each one either the exact words the organisation
 * has with that prefix (OR-ed: the index's fast scan skips through them) or, when there are too
 * many to list, the prefix itself. Built from our own folded tokens, each quoted as a literal
 * lexeme — user text is never parsed as tsquery syntax (the words hold only letters and digits
 * in any case). `key` prefixes every lexeme: the word index holds `<organisation id>:<word>`
 * (migration 1795330000000).
 */
export function searchTsquery(filter: AuditFilter, key = ''): string {
  return filter.words
    .map((word, i) => {
      const exact = filter.expanded?.[i];
      if (exact) return `(${exact.map((x) => lexeme(key + x)).join(' | ')})`;
      return `${lexeme(key + word)}:*`;
    })
    .join(' & ');
}

const ORDER = 'ORDER BY created_at DESC, seq DESC';

/** The walk's next `take` entries in its order, `columns` of each; `take` is the last parameter. */
function walkPage(c: Clauses, columns: string, take: number): SqlQuery {
  const limit = c.bind(take);
  return {
    sql: `SELECT ${columns} FROM audit_log_entries WHERE ${c.where.join(' AND ')} ${ORDER} LIMIT ${limit}`,
    params: c.params,
  };
}

/** A page without `q`: an ordered walk of the best index for the filters (`auditPageColumns`). */
export function pageQuery(
  organisationId: string,
  filter: AuditFilter,
  snapshot: string,
  after: AuditPosition | undefined,
  take: number,
): SqlQuery {
  const c = new Clauses();
  scope(c, organisationId, snapshot, after);
  filters(c, filter);
  return walkPage(c, auditPageColumns(), take);
}

/**
 * The first page of a walk without `q` and the walk's snapshot, in one statement: `pageQuery`'s
 * rows, each with the organisation's newest sequence number (`snapshot`, text, read once by the
 * plan; null when it has no entries yet). The snapshot bound itself is left out: in one statement
 * every entry it can see has a sequence number up to the head's (the head moves in the
 * transaction that appends), so the entries are exactly `pageQuery`'s with that snapshot.
 *
 * Rows, not the page joined by Postgres into one row (issue 28, session 19): numbering the rows
 * with a window and `string_agg(… ORDER BY n)` sorted and copied every entry again in Postgres,
 * which costs the machine more CPU a page than the service saves by decoding one row.
 */
export function firstPageQuery(
  organisationId: string,
  filter: AuditFilter,
  take: number,
): SqlQuery {
  const c = new Clauses();
  c.add((n) => `organisation_id = ${n}`, organisationId);
  filters(c, filter);
  return walkPage(
    c,
    `${auditPageColumns()}, (SELECT h.last_seq::text FROM audit_log_heads h WHERE h.organisation_id = $1) AS snapshot`,
    take,
  );
}

/**
 * Search by walking (see search-plan.ts): the newest entries in the walk's scope, in order, at
 * most `window` of them, each tested against the words; reading stops once `take` matches are
 * found. Each row says whether it matched (`hit`); the window's last entry comes back too,
 * matched or not, so a search that read its whole window without filling the page can tell
 * that from a scope that simply ran out of entries.
 */
export function searchWalkQuery(
  organisationId: string,
  filter: AuditFilter,
  snapshot: string,
  after: AuditPosition | undefined,
  take: number,
  window: number,
): SqlQuery {
  const c = new Clauses();
  scope(c, organisationId, snapshot, after);
  filters(c, filter);
  const words = c.bind(searchTsquery(filter));
  const size = c.bind(window);
  const limit = c.bind(take);
  return {
    sql: `SELECT created_at_utc, seq, entry_json, hit, n FROM (
        SELECT created_at_utc, seq, entry_json, search @@ ${words}::tsquery AS hit, row_number() OVER (${ORDER}) AS n
          FROM (SELECT created_at, ${auditJsonColumns()}, search FROM audit_log_entries
                 WHERE ${c.where.join(' AND ')} ${ORDER} LIMIT ${size}) w
      ) x WHERE hit OR n = ${size} LIMIT ${limit}`,
    params: c.params,
  };
}

/**
 * Search through the word index (see search-plan.ts): every matching row from the index alone
 * (for exact words its fast scan drives from the rarest word's postings and skips through the
 * others'), then the walk's scope, the order and the page.
 *
 * The index's keys carry the organisation, so the index alone already stays inside it; the
 * scope's conditions are applied to the matches, outside the materialised scan, because the
 * planner cannot estimate how rare a word is in one organisation and would otherwise AND the
 * word index with a bitmap of every entry the organisation has (70 ms at a million entries,
 * for ten matches).
 */
export function searchIndexQuery(
  organisationId: string,
  filter: AuditFilter,
  snapshot: string,
  after: AuditPosition | undefined,
  take: number,
): SqlQuery {
  const c = new Clauses();
  scope(c, organisationId, snapshot, after);
  const outer = c.where.splice(0);
  filters(c, filter);
  // The index is driven by the words expanded into exact words; a prefix too broad to expand
  // would make GIN gather every posting under it, so it is checked on the rows instead — unless
  // every word is such a prefix.
  const exact = filter.words.map((_, i) => Boolean(filter.expanded?.[i]));
  const pick = (keep: boolean): AuditFilter => ({
    words: filter.words.filter((_, i) => exact[i] === keep),
    expanded: filter.expanded?.filter((_, i) => exact[i] === keep),
  });
  const [driver, checked] = exact.some(Boolean)
    ? [pick(true), pick(false)]
    : [filter, { words: [] }];
  const inner = [
    `audit_log_search_keys(organisation_id, search) @@ ${c.bind(searchTsquery(driver, `${organisationId}:`))}::tsquery`,
  ];
  if (checked.words.length > 0) inner.push(`search @@ ${c.bind(searchTsquery(checked))}::tsquery`);
  inner.push(...c.where);
  const limit = c.bind(take);
  return {
    sql: `WITH m AS MATERIALIZED (
        SELECT organisation_id, id, created_at, seq FROM audit_log_entries WHERE ${inner.join(' AND ')}
      ), page AS (
        SELECT * FROM m WHERE ${outer.join(' AND ')} ${ORDER} LIMIT ${limit}
      )
      SELECT ${auditJsonColumns('e')}
        FROM page JOIN audit_log_entries e ON e.organisation_id = page.organisation_id AND e.id = page.id
       ORDER BY page.created_at DESC, page.seq DESC`,
    params: c.params,
  };
}

/** A prefix that matches more words than this is searched as a prefix, not expanded. */
export const MAX_PREFIX_EXPANSION = 64;

/** A prefix whose words number more than this counts as unknown (the count would cost too much). */
export const MAX_PREFIX_COUNT = 5000;

/**
 * The organisation's words that start with `prefix` — the first MAX_PREFIX_EXPANSION + 1 of
 * them — and, over up to MAX_PREFIX_COUNT + 1 of its words, how many words the prefix has and
 * how many entries hold them (`words`, `entries_total`, on every row).
 */
export function prefixExpansionQuery(organisationId: string, prefix: string): SqlQuery {
  return {
    sql: `SELECT word, words, entries_total FROM (
        SELECT word, entries, count(*) OVER () AS words, sum(entries) OVER () AS entries_total
          FROM (SELECT word, entries FROM audit_log_words WHERE organisation_id = $1 AND word LIKE $2
                 ORDER BY word LIMIT ${MAX_PREFIX_COUNT + 1}) p
      ) c ORDER BY word LIMIT ${MAX_PREFIX_EXPANSION + 1}`,
    params: [organisationId, `${prefix}%`],
  };
}
