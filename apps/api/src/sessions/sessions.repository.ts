import { Injectable } from '@nestjs/common';
import type { KeysetPosition } from '@interlock/cursor';
import { hasRow, type Queryable, queryRows } from '../database/query-rows.util';
import { deleteRowsOlderThan } from '../database/retention-delete.util';
import type { AgentHoursLeft } from '../allowances/allowances.repository';
import type { SessionRow } from './session-record';

const SESSION_COLUMNS = `id, name, external_id, status, metadata, message_count, started_at, ended_at`;

/**
 * A session's id, name and status as JSON (null when there is none), for a statement of another
 * module that shows the session it links to — the interrupt detail read (GET
 * /api/interrupts/{id}?include=session), a hot read that must stay one statement: a named
 * fragment this owner lends rather than a second call. `organisationId` and `sessionId` are the
 * caller's SQL expressions.
 */
export function linkedSessionJson(organisationId: string, sessionId: string): string {
  return `(SELECT json_build_object('id', s.id, 'name', s.name, 'status', s.status)
     FROM sessions s WHERE s.organisation_id = ${organisationId} AND s.id = ${sessionId})`;
}

export interface NewSession {
  id: string;
  name: string;
  /** The name's folded words (`searchWords`), what `q` finds it by. */
  nameWords: string[];
  externalId: string | null;
  metadata: Record<string, unknown> | null;
  startedByKeyId: string;
}

/** The listing's filters (SPEC §5): `ended` is every session no longer active. */
export interface SessionFilter {
  status?: 'active' | 'ended';
  externalId?: string;
}

/**
 * What a name search matches: every word a prefix of a word of the name (`words`, tsquery text
 * as `searchTsquery` writes it — keyed by the organisation for `searchIndex`; undefined: no word
 * typed), or the id within `idRange` (an id prefix typed, as its lowest and highest id).
 */
export interface SessionMatch {
  words?: string;
  idRange?: readonly [string, string];
}

const ORDER = 'started_at DESC, id DESC';
const PAGE_COLUMNS = SESSION_COLUMNS.split(', ')
  .map((column) => `s.${column}`)
  .join(', ');
const PAGE_ORDER = 's.started_at DESC, s.id DESC';

/** WHERE clauses and their parameters, `$1` the organisation. */
class Conditions {
  readonly params: unknown[];
  readonly where = ['organisation_id = $1'];

  constructor(organisationId: string) {
    this.params = [organisationId];
  }

  bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

function listingConditions(
  organisationId: string,
  filter: SessionFilter,
  after: KeysetPosition | undefined,
): Conditions {
  const c = new Conditions(organisationId);
  if (filter.status === 'active') c.where.push('ended_at IS NULL');
  if (filter.status === 'ended') c.where.push('ended_at IS NOT NULL');
  if (filter.externalId !== undefined) c.where.push(`external_id = ${c.bind(filter.externalId)}`);
  if (after !== undefined)
    c.where.push(`(started_at, id) < (${c.bind(after.createdAt)}, ${c.bind(after.id)})`);
  return c;
}

/**
 * A search's page: the first `take` of `found` (sessions' `id, started_at`: a subquery or a
 * CTE's name) in listing order, joined back to their sessions (`s`).
 */
function foundPage(c: Conditions, found: string, take: number): string {
  return `SELECT ${PAGE_COLUMNS}
         FROM (SELECT id FROM ${found} ORDER BY ${ORDER} LIMIT ${c.bind(take)}) page
         JOIN sessions s ON s.organisation_id = $1 AND s.id = page.id
        ORDER BY ${PAGE_ORDER}`;
}

/** The match as one condition on the words (`words`: a tsvector expression) or the id. */
function matchCondition(c: Conditions, match: SessionMatch, words: string, id: string): string {
  const either: string[] = [];
  if (match.words !== undefined) either.push(`${words} @@ ${c.bind(match.words)}::tsquery`);
  if (match.idRange !== undefined)
    either.push(
      `${id} BETWEEN ${c.bind(match.idRange[0])}::uuid AND ${c.bind(match.idRange[1])}::uuid`,
    );
  return either.length === 1 ? either[0] : `(${either.join(' OR ')})`;
}

export interface SessionMessageRow {
  seq: number;
  role: string;
  content: string;
  created_at: Date;
}

/**
 * The `sessions` and `session_messages` tables' one owner. Every method takes the handle to run
 * on (the caller's transaction, or the data source for a plain read) and the organisation first.
 */
@Injectable()
export class SessionsRepository {
  async insert(db: Queryable, organisationId: string, session: NewSession): Promise<SessionRow> {
    const [row] = await queryRows<SessionRow>(
      db,
      `INSERT INTO sessions (organisation_id, id, name, external_id, metadata, started_by_key_id, name_search)
       VALUES ($1, $2, $3, $4, $5, $6, array_to_tsvector($7::text[]))
       RETURNING ${SESSION_COLUMNS}`,
      [
        organisationId,
        session.id,
        session.name,
        session.externalId,
        session.metadata === null ? null : JSON.stringify(session.metadata),
        session.startedByKeyId,
        session.nameWords,
      ],
    );
    return row;
  }

  async read(db: Queryable, organisationId: string, id: string): Promise<SessionRow | undefined> {
    const [row] = await queryRows<SessionRow>(
      db,
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
    return row;
  }

  /**
   * Where each of many sessions stands — its message count and status — in one statement (the
   * Live View's heartbeat for every viewer at once). Pairs name (organisation, session); a
   * session not of its organisation is absent.
   */
  positions(
    db: Queryable,
    pairs: readonly { organisationId: string; id: string }[],
  ): Promise<
    { organisation_id: string; id: string; message_count: number; status: SessionRow['status'] }[]
  > {
    return queryRows(
      db,
      `SELECT s.organisation_id, s.id, s.message_count, s.status
         FROM unnest($1::uuid[], $2::uuid[]) AS q(organisation_id, id)
         JOIN sessions s ON s.organisation_id = q.organisation_id AND s.id = q.id`,
      [pairs.map((p) => p.organisationId), pairs.map((p) => p.id)],
    );
  }

  async status(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<SessionRow['status'] | undefined> {
    const [row] = await queryRows<{ status: SessionRow['status'] }>(
      db,
      `SELECT status FROM sessions WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
    return row?.status;
  }

  /** Whether the session exists, locked against deletion until the transaction ends (an interrupt links to it). */
  async lockForLink(db: Queryable, organisationId: string, id: string): Promise<boolean> {
    return hasRow(
      db,
      `SELECT 1 FROM sessions WHERE organisation_id = $1 AND id = $2 FOR KEY SHARE`,
      [organisationId, id],
    );
  }

  /** Newest first, by keyset (startedAt, id). `ended_at` is set exactly when a session stops being active. */
  page(
    db: Queryable,
    organisationId: string,
    filter: SessionFilter,
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<SessionRow[]> {
    const c = listingConditions(organisationId, filter, after);
    return queryRows<SessionRow>(
      db,
      `SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE ${c.where.join(' AND ')}
        ORDER BY ${ORDER} LIMIT ${c.bind(take)}`,
      c.params,
    );
  }

  /**
   * A name search, first plan: the next `window` sessions of the listing, newest first (its
   * index), of which the first `take` that match. Cheap when matches are common.
   */
  searchWalk(
    db: Queryable,
    organisationId: string,
    filter: SessionFilter,
    match: SessionMatch,
    after: KeysetPosition | undefined,
    take: number,
    window: number,
  ): Promise<SessionRow[]> {
    const c = listingConditions(organisationId, filter, after);
    const size = c.bind(window);
    const matches = matchCondition(c, match, 'name_search', 'id');
    const walk = `(SELECT id, started_at, name_search FROM sessions WHERE ${c.where.join(' AND ')}
                    ORDER BY ${ORDER} LIMIT ${size}) w
                  WHERE ${matches}`;
    return queryRows<SessionRow>(db, foundPage(c, walk, take), c.params);
  }

  /**
   * Where a walk of `window` sessions ended (its last session), or undefined when the listing
   * ended within it: where the word index takes over. Asked only when the walk did not fill its
   * page, since it reads the whole window (the listing's index alone).
   */
  async windowEnd(
    db: Queryable,
    organisationId: string,
    filter: SessionFilter,
    after: KeysetPosition | undefined,
    window: number,
  ): Promise<KeysetPosition | undefined> {
    const c = listingConditions(organisationId, filter, after);
    const [end] = await queryRows<{ id: string; started_at: Date }>(
      db,
      `SELECT id, started_at FROM sessions WHERE ${c.where.join(' AND ')}
        ORDER BY ${ORDER} OFFSET ${c.bind(window)}::int - 1 LIMIT 1`,
      c.params,
    );
    return end === undefined ? undefined : { createdAt: end.started_at, id: end.id };
  }

  /**
   * A name search, second plan: every match through the word index (`<organisation id>:<word>`
   * keys, migration 1795781500000; `match.words` keyed so) and the primary key's range of ids,
   * then the page in keyset order.
   * Materialised, so Postgres collects the matches by those indexes rather than walking the
   * ordered listing: right when matches are rare.
   */
  searchIndex(
    db: Queryable,
    organisationId: string,
    filter: SessionFilter,
    match: SessionMatch,
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<SessionRow[]> {
    const c = listingConditions(organisationId, filter, after);
    c.where.push(
      matchCondition(c, match, 'audit_log_search_keys(organisation_id, name_search)', 'id'),
    );
    return queryRows<SessionRow>(
      db,
      `WITH matches AS MATERIALIZED (SELECT id, started_at FROM sessions WHERE ${c.where.join(' AND ')})
       ${foundPage(c, 'matches', take)}`,
      c.params,
    );
  }

  /**
   * Adds `count` to an active session's message count while the month's agent hours are not
   * spent (the allowance owner's fragment, in this one statement); the new count, or undefined
   * when the session is not active or not the organisation's, or the hours are spent.
   */
  async countMessages(
    db: Queryable,
    organisationId: string,
    id: string,
    count: number,
    hoursLeft: AgentHoursLeft,
  ): Promise<number | undefined> {
    const [row] = await queryRows<{ message_count: number }>(
      db,
      `UPDATE sessions s SET message_count = s.message_count + $3
         FROM ${hoursLeft.from}
        WHERE s.organisation_id = $1 AND s.id = $2 AND s.status = 'active'
          AND ${hoursLeft.where}
        RETURNING s.message_count`,
      [organisationId, id, count, ...hoursLeft.params],
    );
    return row?.message_count;
  }

  /** Inserts messages numbered on from `firstSeq`. */
  async insertMessages(
    db: Queryable,
    organisationId: string,
    id: string,
    firstSeq: number,
    messages: readonly { role: string; content: string }[],
  ): Promise<void> {
    await db.query(
      `INSERT INTO session_messages (organisation_id, session_id, seq, role, content)
       SELECT $1, $2, $3 + m.n - 1, m.role, m.content
         FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS m(role, content, n)`,
      [organisationId, id, firstSeq, messages.map((m) => m.role), messages.map((m) => m.content)],
    );
  }

  /** Ends an active session as `status`; undefined when it is not active or not the organisation's. */
  async close(
    db: Queryable,
    organisationId: string,
    id: string,
    status: 'ended' | 'disconnected',
  ): Promise<SessionRow | undefined> {
    const [row] = await queryRows<SessionRow>(
      db,
      `UPDATE sessions SET status = $3, ended_at = now()
        WHERE organisation_id = $1 AND id = $2 AND status = 'active'
        RETURNING ${SESSION_COLUMNS}`,
      [organisationId, id, status],
    );
    return row;
  }

  /** Up to `limit` messages after number `afterSeq`, in order. */
  messagesAfter(
    db: Queryable,
    organisationId: string,
    id: string,
    afterSeq: number,
    limit: number,
  ): Promise<SessionMessageRow[]> {
    return queryRows<SessionMessageRow>(
      db,
      `SELECT seq, role, content, created_at FROM session_messages
        WHERE organisation_id = $1 AND session_id = $2 AND seq > $3
        ORDER BY seq LIMIT $4`,
      [organisationId, id, afterSeq, limit],
    );
  }

  /**
   * Deletes up to `limit` messages, of any organisation, appended more than `retentionMs` ago
   * (the retention job; the BRIN index on `created_at` finds them). How many were deleted.
   */
  deleteMessagesOlderThan(db: Queryable, retentionMs: number, limit: number): Promise<number> {
    return deleteRowsOlderThan(
      db,
      'session_messages',
      ['organisation_id', 'session_id', 'seq'],
      retentionMs,
      limit,
    );
  }
}
