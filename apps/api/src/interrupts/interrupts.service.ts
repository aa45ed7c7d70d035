import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { actorOf, ApiKeyPrincipal } from '../auth/principal';
import { AllowancesService } from '../allowances/allowances.service';
import { queryRows } from '../database/query-rows.util';
import { ApiError } from '../http/api-error';
import { IdempotencyService, IdempotentRequest, IdempotentResult } from '../idempotency/idempotency.service';
import { DECISIONS } from './interrupt-decision.entity';
import { KeysetCursorCodec, keysetPage } from '../http/keyset-cursor.util';
import { INTERRUPT_COLUMNS, InterruptRow, StoredActionRequest, toInterruptResponse } from './interrupt-record';
import type { CreateInterruptDto } from './dto/create-interrupt.dto';
import type { ListInterruptsQuery } from './dto/list-interrupts.query';
import type { InterruptListResponse, InterruptResponse } from './dto/interrupt.response';

const DEFAULT_PAGE = 50;

/** Interrupts as agents see them (SPEC §5): open one, read one, list them. */
@Injectable()
export class InterruptsService {
  private readonly cursors: KeysetCursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly allowances: AllowancesService,
    private readonly idempotency: IdempotencyService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new KeysetCursorCodec(config.apiKeyPepper, 'interrupts.list');
  }

  /**
   * Opens an interrupt, counts it against the month's messages and writes its
   * `interrupt.created` entry, all in one transaction: a refused or failed open leaves no trace
   * (the count included).
   */
  create(
    key: ApiKeyPrincipal,
    body: CreateInterruptDto,
    idempotency: IdempotentRequest | undefined,
    ip: string | null,
  ): Promise<IdempotentResult<InterruptResponse>> {
    const organisationId = key.organisationId;
    const actionRequests: StoredActionRequest[] = body.actionRequests.map((a) => ({
      name: a.name,
      args: a.args ?? {},
      description: a.description ?? null,
      allowedDecisions: a.allowedDecisions ?? [...DECISIONS],
    }));
    return this.dataSource.transaction((tx) =>
      this.idempotency.once(tx, idempotency, 201, async () => {
        if (body.sessionId !== undefined && body.sessionId !== null) {
          const [session]: unknown[] = await tx.query(
            `SELECT 1 FROM sessions WHERE organisation_id = $1 AND id = $2 FOR KEY SHARE`,
            [organisationId, body.sessionId],
          );
          if (session === undefined) throw ApiError.of('NOT_FOUND');
        }
        const id = randomUUID();
        const [row]: InterruptRow[] = await tx.query(
          `INSERT INTO interrupts AS i
             (organisation_id, id, title, description, external_id, session_id, action_requests, metadata, opened_by_key_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           RETURNING ${INTERRUPT_COLUMNS}`,
          [
            organisationId,
            id,
            body.title,
            body.description ?? null,
            body.externalId ?? null,
            body.sessionId ?? null,
            JSON.stringify(actionRequests),
            body.metadata === undefined || body.metadata === null ? null : JSON.stringify(body.metadata),
            key.apiKeyId,
          ],
        );
        // The count and the audit entry lock the organisation's counter row and audit chain
        // until the commit: they go last, so writes of one organisation queue for as short a
        // time as possible. A refusal (402) rolls the insert above back.
        await this.allowances.consumeMessage(tx, organisationId);
        await writeAuditEntry(tx, {
          organisationId,
          action: 'interrupt.created',
          actor: actorOf(key),
          target: { type: 'interrupt', id, name: body.title },
          summary: `Interrupt ${body.title} opened by key ${key.apiKeyName}`,
          metadata: { externalId: body.externalId ?? null, actionRequests: actionRequests.map((a) => a.name) },
          ipAddress: ip,
        });
        return toInterruptResponse(row);
      }),
    );
  }

  async get(organisationId: string, id: string): Promise<InterruptResponse> {
    const [row]: InterruptRow[] = await this.dataSource.query(
      `SELECT ${INTERRUPT_COLUMNS} FROM interrupts i WHERE i.organisation_id = $1 AND i.id = $2`,
      [organisationId, id],
    );
    if (row === undefined) throw ApiError.of('NOT_FOUND');
    return toInterruptResponse(row);
  }

  /** Newest first, by keyset (createdAt, id): a page is stable while new interrupts arrive. */
  async list(organisationId: string, query: ListInterruptsQuery): Promise<InterruptListResponse> {
    // A cursor is good for one organisation and one set of filters.
    const filters = JSON.stringify([organisationId, query.status ?? null, query.externalId ?? null]);
    const page = await keysetPage<InterruptRow>(
      this.cursors,
      { filters, cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE },
      (row) => row.created_at,
      (after, take) => {
        const params: unknown[] = [organisationId];
        const where = ['i.organisation_id = $1'];
        if (query.status !== undefined) {
          params.push(query.status);
          where.push(`i.status = $${params.length}`);
        }
        if (query.externalId !== undefined) {
          params.push(query.externalId);
          where.push(`i.external_id = $${params.length}`);
        }
        if (after !== undefined) {
          params.push(after.createdAt, after.id);
          where.push(`(i.created_at, i.id) < ($${params.length - 1}, $${params.length})`);
        }
        params.push(take);
        return queryRows<InterruptRow>(
          this.dataSource,
          `SELECT ${INTERRUPT_COLUMNS} FROM interrupts i
            WHERE ${where.join(' AND ')}
            ORDER BY i.created_at DESC, i.id DESC
            LIMIT $${params.length}`,
          params,
        );
      },
    );
    return { interrupts: page.rows.map(toInterruptResponse), nextCursor: page.nextCursor };
  }
}
