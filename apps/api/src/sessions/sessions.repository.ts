import { Injectable } from '@nestjs/common';
import type { KeysetPosition } from '@interlock/cursor';
import { type Queryable, queryRows } from '../database/query-rows.util';
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
  externalId: string | null;
  metadata: Record<string, unknown> | null;
  startedByKeyId: string;
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
      `INSERT INTO sessions (organisation_id, id, name, external_id, metadata, started_by_key_id)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${SESSION_COLUMNS}`,
      [
        organisationId,
        session.id,
        session.name,
        session.externalId,
        session.metadata === null ? null : JSON.stringify(session.metadata),
        session.startedByKeyId,
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
    const rows = await queryRows<unknown>(
      db,
      `SELECT 1 FROM sessions WHERE organisation_id = $1 AND id = $2 FOR KEY SHARE`,
      [organisationId, id],
    );
    return rows.length > 0;
  }

  /** Newest first, by keyset (startedAt, id). `ended_at` is set exactly when a session stops being active. */
  page(
    db: Queryable,
    organisationId: string,
    filter: { status?: 'active' | 'ended'; externalId?: string },
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<SessionRow[]> {
    const params: unknown[] = [organisationId];
    const where = ['organisation_id = $1'];
    if (filter.status === 'active') where.push('ended_at IS NULL');
    if (filter.status === 'ended') where.push('ended_at IS NOT NULL');
    if (filter.externalId !== undefined) {
      params.push(filter.externalId);
      where.push(`external_id = $${params.length}`);
    }
    if (after !== undefined) {
      params.push(after.createdAt, after.id);
      where.push(`(started_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(take);
    return queryRows<SessionRow>(
      db,
      `SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE ${where.join(' AND ')}
        ORDER BY started_at DESC, id DESC
        LIMIT $${params.length}`,
      params,
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
