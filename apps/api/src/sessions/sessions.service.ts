import { type ApiKeyActor, DomainError, type MemberActor } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { searchTsquery, searchWords, writeAuditEntry } from '@interlock/audit';
import { AllowancesService } from '../allowances/allowances.service';
import type { Queryable } from '../database/query-rows.util';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { KeysetCursorCodec, type KeysetPosition, keysetPage } from '@interlock/cursor';
import { IdempotencyService, IdempotentResult } from '../idempotency/idempotency.service';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { encodeSessionChange, LIVE_VIEW_CHANNEL, SessionChange } from './live-view-channel';
import { notActiveMessage, SessionRow, toSessionResponse } from './session-record';
import { type SessionFilter, SessionsRepository } from './sessions.repository';
import { NAME_SEARCH_WINDOW, type NameSearch, nameSearchOf } from './session-search.util';
import type { AppendSessionMessagesCommand } from './append-session-messages.command';
import type { SessionListResponse, SessionResponse } from './dto/session.response';
import type { ListSessionsCommand } from './list-sessions.command';
import type { StartSessionCommand } from './start-session.command';
import type { KeyCall, MemberCall } from '../auth/caller';

const DEFAULT_PAGE = 50;

/**
 * Live View sessions (SPEC §5, §6): agents start, append to and end them; members disconnect
 * them; keys and members read them. The rules; the tables are `SessionsRepository`'s.
 */
@Injectable()
export class SessionsService {
  private readonly cursors: KeysetCursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsRepository,
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

  async start(command: StartSessionCommand): Promise<IdempotentResult<SessionResponse>> {
    const { organisationId, actor, idempotency, ip } = command;
    const result = await this.dataSource.transaction((tx) =>
      this.idempotency.once(tx, idempotency, 201, async () => {
        await this.allowances.assertSessionStartAllowed(tx, organisationId);
        const id = randomUUID();
        const row = await this.sessions.insert(tx, organisationId, {
          id,
          name: command.name,
          nameWords: searchWords(command.name),
          externalId: command.externalId,
          metadata: command.metadata,
          startedByKeyId: actor.id,
        });
        await writeAuditEntry(tx, {
          organisationId,
          action: 'session.started',
          actor,
          target: { type: 'session', id, name: command.name },
          metadata: { externalId: command.externalId },
          ipAddress: ip,
        });
        const session = toSessionResponse(row);
        await this.outbox.write(tx, organisationId, [
          { type: 'session.started', subjectId: id, data: session },
        ]);
        return session;
      }),
    );
    if (!result.replayed) await this.events.announce(organisationId);
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
   * then action) — while the session itself stays open for the agent to end. Before it, the
   * messages' bytes are added to the organisation's stored total, or refused with 402 past the
   * plan's storage quota (SPEC §8).
   */
  async append(
    command: AppendSessionMessagesCommand,
  ): Promise<IdempotentResult<{ appended: number }>> {
    const { organisationId, sessionId: id, messages, idempotency } = command;
    let messageCount = 0;
    const hoursLeft = this.allowances.agentHoursLeft('$1', 4);
    const result = await this.dataSource.transaction((tx) =>
      this.idempotency.once(tx, idempotency, 201, async () => {
        await this.allowances.consumeSessionStorage(tx, organisationId, contentBytes(messages));
        const count = () =>
          this.sessions.countMessages(tx, organisationId, id, messages.length, hoursLeft);
        let counted = await count();
        if (counted === undefined) {
          // Why not: hours spent (402), else no such session (404) or not active (409). An active
          // session with hours left means the plan was upgraded meanwhile: once more.
          await this.allowances.assertAgentHoursLeft(tx, organisationId);
          if ((await this.sessions.status(tx, organisationId, id)) === 'active')
            counted = await count();
          if (counted === undefined) return this.refuseInactive(tx, organisationId, id, 'append');
        }
        messageCount = counted;
        await this.sessions.insertMessages(
          tx,
          organisationId,
          id,
          messageCount - messages.length + 1,
          messages,
        );
        return { appended: messages.length };
      }),
    );
    if (!result.replayed) {
      await this.announce({ organisationId, sessionId: id, messageCount, status: 'active' });
    }
    return result;
  }

  /** The agent ends its session (`session.ended`). */
  end({ organisationId, actor, ip }: KeyCall, id: string): Promise<SessionResponse> {
    return this.finish(organisationId, actor, id, 'ended', ip);
  }

  /** A member disconnects a session from the dashboard (`session.disconnected`; its webhook event is `session.ended`). */
  disconnect({ organisationId, actor, ip }: MemberCall, id: string): Promise<SessionResponse> {
    return this.finish(organisationId, actor, id, 'disconnected', ip);
  }

  async get(organisationId: string, id: string): Promise<SessionResponse> {
    const row = await this.sessions.read(this.dataSource, organisationId, id);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toSessionResponse(row);
  }

  /** Newest first, by keyset (startedAt, id); `q` finds sessions by name or id (SPEC §5). */
  async list({
    organisationId,
    listing: query,
  }: ListSessionsCommand): Promise<SessionListResponse> {
    const search = nameSearchOf(query.q);
    // A cursor is good for one organisation and one set of filters, the search as read.
    const filters = JSON.stringify([
      organisationId,
      query.status ?? null,
      query.externalId ?? null,
      ...(search === undefined ? [] : [search.words.join(' '), search.idRange?.join(' ') ?? null]),
    ]);
    const filter: SessionFilter = { status: query.status, externalId: query.externalId };
    const page = await keysetPage<SessionRow>(
      this.cursors,
      { organisationId, filters, cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE },
      (row) => row.started_at,
      (after, take) =>
        search === undefined
          ? this.sessions.page(this.dataSource, organisationId, filter, after, take)
          : this.search(organisationId, filter, search, after, take),
    );
    return { sessions: page.rows.map(toSessionResponse), nextCursor: page.nextCursor };
  }

  /**
   * A page of a name search: a walk of the newest sessions (from the listing's index), which
   * serves common words at once; when it does not fill the page within `NAME_SEARCH_WINDOW`
   * sessions, matches are scarce and the word index (with the id's range) finds the rest.
   */
  private async search(
    organisationId: string,
    filter: SessionFilter,
    search: NameSearch,
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<SessionRow[]> {
    const words = search.words.length === 0 ? undefined : searchTsquery({ words: search.words });
    const match = { words, idRange: search.idRange };
    const db = this.dataSource;
    const { sessions } = this;
    const found = await sessions.searchWalk(
      db,
      organisationId,
      filter,
      match,
      after,
      take,
      NAME_SEARCH_WINDOW,
    );
    if (found.length === take) return found;
    const end = await sessions.windowEnd(db, organisationId, filter, after, NAME_SEARCH_WINDOW);
    if (end === undefined) return found;
    const keyed = {
      words:
        words === undefined
          ? undefined
          : searchTsquery({ words: search.words }, `${organisationId}:`),
      idRange: search.idRange,
    };
    const rest = await sessions.searchIndex(
      db,
      organisationId,
      filter,
      keyed,
      end,
      take - found.length,
    );
    return [...found, ...rest];
  }

  /** For an interrupt that links to the session: locks it against deletion until `tx` ends (404 when it is not the organisation's). */
  async lockForLink(tx: Queryable, organisationId: string, id: string): Promise<void> {
    if (!(await this.sessions.lockForLink(tx, organisationId, id)))
      throw DomainError.of('NOT_FOUND');
  }

  private async finish(
    organisationId: string,
    actor: ApiKeyActor | MemberActor,
    id: string,
    status: 'ended' | 'disconnected',
    ip: string | null,
  ): Promise<SessionResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const closed = await this.sessions.close(tx, organisationId, id, status);
      if (closed === undefined)
        return this.refuseInactive(
          tx,
          organisationId,
          id,
          status === 'ended' ? 'end' : 'disconnect',
        );
      await writeAuditEntry(tx, {
        organisationId,
        action: status === 'ended' ? 'session.ended' : 'session.disconnected',
        actor,
        target: { type: 'session', id, name: closed.name },
        metadata: { messageCount: closed.message_count, durationSeconds: durationSeconds(closed) },
        ipAddress: ip,
      });
      await this.outbox.write(tx, organisationId, [
        { type: 'session.ended', subjectId: id, data: toSessionResponse(closed) },
      ]);
      return closed;
    });
    await this.announce({
      organisationId,
      sessionId: id,
      messageCount: row.message_count,
      status: row.status,
    });
    await this.events.announce(organisationId);
    return toSessionResponse(row);
  }

  /** Why a session could not be changed: 404 when it is not this organisation's, else 409. */
  private async refuseInactive(
    tx: Queryable,
    organisationId: string,
    id: string,
    doing: 'append' | 'end' | 'disconnect',
  ): Promise<never> {
    const status = await this.sessions.status(tx, organisationId, id);
    if (status === undefined) throw DomainError.of('NOT_FOUND');
    if (status === 'active') throw new Error(`session ${id} is active but could not be changed`);
    throw new DomainError('CONFLICT', notActiveMessage(status, doing));
  }

  /** Tells every instance's viewers; a lost announcement is caught up by their next heartbeat. */
  private async announce(change: SessionChange): Promise<void> {
    try {
      await this.bus.publish(LIVE_VIEW_CHANNEL, encodeSessionChange(change));
    } catch (error) {
      this.logger.warn(
        { err: error, sessionId: change.sessionId },
        'could not announce a session change',
      );
    }
  }
}

/** The UTF-8 bytes of the messages' content: what Postgres's octet_length stores for them. */
function contentBytes(messages: AppendSessionMessagesCommand['messages']): number {
  let bytes = 0;
  for (const m of messages) bytes += Buffer.byteLength(m.content, 'utf8');
  return bytes;
}

function durationSeconds(row: SessionRow): number {
  return Math.round(((row.ended_at?.getTime() ?? Date.now()) - row.started_at.getTime()) / 1000);
}
