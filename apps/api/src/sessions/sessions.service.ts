import { DomainError } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { writeAuditEntry } from '@interlock/audit';
import { actorOf, ApiKeyPrincipal, MemberPrincipal } from '../auth/principal';
import { AllowancesService } from '../allowances/allowances.service';
import { queryRows } from '../database/query-rows.util';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { KeysetCursorCodec, keysetPage } from '@interlock/cursor';
import { IdempotencyService, IdempotentRequest, IdempotentResult } from '../idempotency/idempotency.service';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { encodeSessionChange, LIVE_VIEW_CHANNEL, SessionChange } from './live-view-channel';
import { notActiveMessage, SESSION_COLUMNS, SessionRow, toSessionResponse } from './session-record';
import type { SessionMessageDto } from './dto/append-messages.dto';
import type { SessionListResponse, SessionResponse } from './dto/session.response';
import type { ListSessionsQuery } from './dto/list-sessions.query';
import type { StartSessionDto } from './dto/start-session.dto';

const DEFAULT_PAGE = 50;

/** Live View sessions (SPEC §5, §6): agents start, append to and end them; members disconnect them;
 * keys and members read them. */
@Injectable()
export class SessionsService {
  private readonly cursors: KeysetCursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly allowances: AllowancesService,
    private readonly idempotency: IdempotencyService,
    private readonly bus: NotificationBus,
    private readonly events: OrganisationEventsAnnouncer,
    private readonly outbox: WebhookOutbox,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new KeysetCursorCodec(config.cursorSecret, 'sessions.list');
  }

  async start(
    key: ApiKeyPrincipal,
    body: StartSessionDto,
    idempotency: IdempotentRequest | undefined,
    ip: string | null,
  ): Promise<IdempotentResult<SessionResponse>> {
    const result = await this.dataSource.transaction((tx) =>
      this.idempotency.once(tx, idempotency, 201, async () => {
        await this.allowances.assertAgentHoursLeft(tx, key.organisationId);
        const id = randomUUID();
        const [row]: SessionRow[] = await tx.query(
          `INSERT INTO sessions (organisation_id, id, name, external_id, metadata, started_by_key_id)
           VALUES ($1, $2, $3, $4, $5, $6)
           RETURNING ${SESSION_COLUMNS}`,
          [
            key.organisationId,
            id,
            body.name,
            body.externalId ?? null,
            body.metadata === undefined || body.metadata === null ? null : JSON.stringify(body.metadata),
            key.apiKeyId,
          ],
        );
        await writeAuditEntry(tx, {
          organisationId: key.organisationId,
          action: 'session.started',
          actor: actorOf(key),
          target: { type: 'session', id, name: body.name },
          metadata: { externalId: body.externalId ?? null },
          ipAddress: ip,
        });
        const session = toSessionResponse(row);
        await this.outbox.write(tx, key.organisationId, [{ type: 'session.started', subjectId: id, data: session }]);
        return session;
      }),
    );
    if (!result.replayed) await this.events.announce(key.organisationId);
    return result;
  }

  /**
   * Appends messages, numbered on from the session's count under its row lock: numbers are
   * gapless and become visible in order, so a viewer resuming after N misses nothing. Appending
   * is traffic, not activity: no audit entry (SPEC §7).
   *
   * The same statement checks the month's agent hours against the organisation's running total
   * (one primary-key read each of the organisation and its totals, no extra round trip): once
   * they are spent, appends answer 402 — before the session is looked at (SPEC §4: allowance,
   * then action) — while the session itself stays open for the agent to end.
   */
  async append(
    key: ApiKeyPrincipal,
    id: string,
    messages: SessionMessageDto[],
    idempotency: IdempotentRequest | undefined,
  ): Promise<IdempotentResult<{ appended: number }>> {
    let messageCount = 0;
    const hoursLeft = this.allowances.agentHoursLeftCondition(4);
    const result = await this.dataSource.transaction((tx) =>
      this.idempotency.once(tx, idempotency, 201, async () => {
        const count = () =>
          queryRows<{ message_count: number }>(
            tx,
            `UPDATE sessions s SET message_count = s.message_count + $3
               FROM organisations o LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id
              WHERE s.organisation_id = $1 AND s.id = $2 AND s.status = 'active' AND o.id = $1
                AND ${hoursLeft.sql}
              RETURNING s.message_count`,
            [key.organisationId, id, messages.length, ...hoursLeft.params],
          );
        let [row] = await count();
        if (row === undefined) {
          // Why not: hours spent (402), else no such session (404) or not active (409). An active
          // session with hours left means the plan was upgraded meanwhile: once more.
          await this.allowances.assertAgentHoursLeft(tx, key.organisationId);
          if ((await this.statusOf(tx, key.organisationId, id)) === 'active') [row] = await count();
          if (row === undefined) return this.refuseInactive(tx, key.organisationId, id, 'append');
        }
        messageCount = row.message_count;
        await tx.query(
          `INSERT INTO session_messages (organisation_id, session_id, seq, role, content)
           SELECT $1, $2, $3 + m.n - 1, m.role, m.content
             FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS m(role, content, n)`,
          [key.organisationId, id, messageCount - messages.length + 1, messages.map((m) => m.role), messages.map((m) => m.content)],
        );
        return { appended: messages.length };
      }),
    );
    if (!result.replayed) {
      await this.announce({ organisationId: key.organisationId, sessionId: id, messageCount, status: 'active' });
    }
    return result;
  }

  async end(key: ApiKeyPrincipal, id: string, ip: string | null): Promise<SessionResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const ended = await this.close(tx, key.organisationId, id, 'ended');
      await writeAuditEntry(tx, {
        organisationId: key.organisationId,
        action: 'session.ended',
        actor: actorOf(key),
        target: { type: 'session', id, name: ended.name },
        metadata: { messageCount: ended.message_count, durationSeconds: durationSeconds(ended) },
        ipAddress: ip,
      });
      await this.outbox.write(tx, key.organisationId, [{ type: 'session.ended', subjectId: id, data: toSessionResponse(ended) }]);
      return ended;
    });
    await this.announce({ organisationId: key.organisationId, sessionId: id, messageCount: row.message_count, status: row.status });
    await this.events.announce(key.organisationId);
    return toSessionResponse(row);
  }

  async disconnect(member: MemberPrincipal, id: string, ip: string | null): Promise<SessionResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const disconnected = await this.close(tx, member.organisationId, id, 'disconnected');
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'session.disconnected',
        actor: actorOf(member),
        target: { type: 'session', id, name: disconnected.name },
        metadata: { messageCount: disconnected.message_count, durationSeconds: durationSeconds(disconnected) },
        ipAddress: ip,
      });
      await this.outbox.write(tx, member.organisationId, [{ type: 'session.ended', subjectId: id, data: toSessionResponse(disconnected) }]);
      return disconnected;
    });
    await this.announce({ organisationId: member.organisationId, sessionId: id, messageCount: row.message_count, status: row.status });
    await this.events.announce(member.organisationId);
    return toSessionResponse(row);
  }

  async get(organisationId: string, id: string): Promise<SessionResponse> {
    const [row] = await queryRows<SessionRow>(
      this.dataSource,
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toSessionResponse(row);
  }

  /** Newest first, by keyset (startedAt, id). */
  async list(organisationId: string, query: ListSessionsQuery): Promise<SessionListResponse> {
    const filters = JSON.stringify([organisationId, query.status ?? null, query.externalId ?? null]);
    const page = await keysetPage<SessionRow>(
      this.cursors,
      { organisationId, filters, cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE },
      (row) => row.started_at,
      (after, take) => {
        const params: unknown[] = [organisationId];
        const where = ['organisation_id = $1'];
        // ended_at is set exactly when a session stops being active (ended or disconnected).
        if (query.status === 'active') where.push('ended_at IS NULL');
        if (query.status === 'ended') where.push('ended_at IS NOT NULL');
        if (query.externalId !== undefined) {
          params.push(query.externalId);
          where.push(`external_id = $${params.length}`);
        }
        if (after !== undefined) {
          params.push(after.createdAt, after.id);
          where.push(`(started_at, id) < ($${params.length - 1}, $${params.length})`);
        }
        params.push(take);
        return queryRows<SessionRow>(
          this.dataSource,
          `SELECT ${SESSION_COLUMNS} FROM sessions
            WHERE ${where.join(' AND ')}
            ORDER BY started_at DESC, id DESC
            LIMIT $${params.length}`,
          params,
        );
      },
    );
    return { sessions: page.rows.map(toSessionResponse), nextCursor: page.nextCursor };
  }

  private async close(tx: EntityManager, organisationId: string, id: string, status: 'ended' | 'disconnected'): Promise<SessionRow> {
    const [row] = await queryRows<SessionRow>(
      tx,
      `UPDATE sessions SET status = $3, ended_at = now()
        WHERE organisation_id = $1 AND id = $2 AND status = 'active'
        RETURNING ${SESSION_COLUMNS}`,
      [organisationId, id, status],
    );
    if (row === undefined) return this.refuseInactive(tx, organisationId, id, status === 'ended' ? 'end' : 'disconnect');
    return row;
  }

  private async statusOf(tx: EntityManager, organisationId: string, id: string): Promise<SessionRow['status'] | undefined> {
    const [row] = await queryRows<{ status: SessionRow['status'] }>(
      tx,
      `SELECT status FROM sessions WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
    return row?.status;
  }

  /** Why a session could not be changed: 404 when it is not this organisation's, else 409. */
  private async refuseInactive(
    tx: EntityManager,
    organisationId: string,
    id: string,
    doing: 'append' | 'end' | 'disconnect',
  ): Promise<never> {
    const status = await this.statusOf(tx, organisationId, id);
    if (status === undefined) throw DomainError.of('NOT_FOUND');
    if (status === 'active') throw new Error(`session ${id} is active but could not be changed`);
    throw new DomainError('CONFLICT', notActiveMessage(status, doing));
  }

  /** Tells every instance's viewers; a lost announcement is caught up by their next heartbeat. */
  private async announce(change: SessionChange): Promise<void> {
    try {
      await this.bus.publish(LIVE_VIEW_CHANNEL, encodeSessionChange(change));
    } catch (error) {
      this.logger.warn({ err: error, sessionId: change.sessionId }, 'could not announce a session change');
    }
  }
}

function durationSeconds(row: SessionRow): number {
  return Math.round(((row.ended_at?.getTime() ?? Date.now()) - row.started_at.getTime()) / 1000);
}
