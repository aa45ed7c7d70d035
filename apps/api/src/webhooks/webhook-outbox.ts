import { randomUUID } from 'node:crypto';
import type { AuditActorRef, EventType, WebhookEventData } from '@interlock/domain';
import { combineStatements, type Statement } from '../database/combined-statement';
import type { Queryable } from '../database/query-rows.util';
import type { InterruptResponse } from '../interrupts/dto/interrupt.response';
import type { SessionResponse } from '../sessions/dto/session.response';
import { currentTraceparent } from '../tracing/spans';

/** The resources webhook events carry, as the API returns them. */
export interface ApiEventResources {
  interrupt: InterruptResponse;
  session: SessionResponse;
}

/** An event to record: its type, what it is about, and its data (typed by the catalogue). */
export type OutboxEvent = {
  [T in EventType]: { type: T; subjectId: string; data: WebhookEventData<ApiEventResources>[T] };
}[EventType];

/**
 * One event: it is kept, with a delivery to each enabled webhook subscribed to its type, only if
 * there is at least one — an organisation without webhooks pays one index probe per event.
 */
const WRITE_EVENT = `
WITH targets AS (
  SELECT id FROM webhooks
   WHERE organisation_id = $1 AND enabled AND (event_types IS NULL OR $3::text = ANY(event_types))
), event AS (
  INSERT INTO webhook_events (organisation_id, id, type, subject_id, body, created_at, trace_parent)
  SELECT $1, $2, $3, $4, $5, $6, $8 WHERE EXISTS (SELECT 1 FROM targets)
  RETURNING id
)
INSERT INTO webhook_deliveries (organisation_id, id, webhook_id, event_id, event_type, subject_id, due_at, max_attempts)
SELECT $1, gen_random_uuid(), t.id, e.id, $3, $4, now(), $7 FROM targets t CROSS JOIN event e`;

/**
 * Something else that records events in the same transaction (the notification outbox): it is
 * handed every event written, after the webhook rows, and may add rows of its own.
 */
export interface OutboxListener {
  write(
    tx: Queryable,
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause,
  ): Promise<void>;
  /**
   * The statements `write` would make for these events, when it needs none's answer and they may
   * run at once (none reads what another writes, none writes a row twice): the outbox then runs
   * them in one statement with its own and the other listeners' (`combineStatements`), and does
   * not call `write`. Undefined (or no such method): `write` is called.
   */
  statementsFor?(
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause,
  ): Promise<readonly Statement[] | undefined>;
}

/**
 * Who caused the events: `memberId` when a member did (people are not told about what they did
 * themselves); `actor`, where a listener's message names who did it (a withdrawal: the member or
 * the agent's key).
 */
export interface OutboxCause {
  memberId?: string;
  actor?: AuditActorRef;
}

/**
 * The transactional outbox (SPEC §8a). Features call `write` with the transaction of the change
 * an event reports, so the event exists if and only if the change committed; the delivery worker
 * sends it after the commit. Events of one call are written in order, and deliveries of one
 * subject to one webhook leave in that order.
 */
export class WebhookOutbox {
  private readonly listeners: OutboxListener[] = [];

  constructor(private readonly maxAttempts: number) {}

  /** Called once at start by a module that records events too (notifications). */
  listen(listener: OutboxListener): void {
    this.listeners.push(listener);
  }

  /**
   * `alongside`: the caller's statements of the same change, whose answers it does not read and
   * which neither read nor write the events' rows (the record kept with a new interrupt): run in
   * the one statement when the events' rows are, else first, one each.
   */
  async write(
    tx: Queryable,
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause = {},
    alongside: readonly Statement[] = [],
  ): Promise<void> {
    // One event (an interrupt opened, …): its rows and every listener's in one round trip.
    const all = await this.statements(organisationId, events, cause, alongside);
    const combined = all && combineStatements(all);
    if (combined) {
      await tx.query(combined.text, [...combined.values]);
      return;
    }
    await this.writeEach(tx, organisationId, events, cause, alongside);
  }

  /**
   * `write`, one statement at a time: for a caller to whom `statements` already answered
   * undefined (asked again, the listeners would only answer so again).
   */
  async writeEach(
    tx: Queryable,
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause = {},
    alongside: readonly Statement[] = [],
  ): Promise<void> {
    for (const statement of this.own(organisationId, events, alongside))
      await tx.query(statement.text, [...statement.values]);
    for (const listener of this.listeners) await listener.write(tx, organisationId, events, cause);
  }

  /**
   * What `write` would run, as statements that may run at once (none reads what another writes,
   * none writes a row twice), for a caller that sends them with statements of its own in one
   * (`combineStatements`; a new interrupt's, with its count and audit entry): the caller's
   * `alongside`, the events' rows and every listener's. Undefined when they are not such
   * statements (several events, or a listener that reads its own answers): then `write`.
   */
  async statements(
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause = {},
    alongside: readonly Statement[] = [],
  ): Promise<Statement[] | undefined> {
    if (events.length !== 1) return undefined;
    const all = this.own(organisationId, events, alongside);
    for (const listener of this.listeners) {
      const theirs = await listener.statementsFor?.(organisationId, events, cause);
      if (theirs === undefined) return undefined;
      all.push(...theirs);
    }
    return all;
  }

  /** The caller's statements, then the events' own (WRITE_EVENT each). */
  private own(
    organisationId: string,
    events: readonly OutboxEvent[],
    alongside: readonly Statement[],
  ): Statement[] {
    // The trace this change is part of (traces on): its deliveries continue it.
    const traceParent = currentTraceparent();
    return [
      ...alongside,
      ...events.map((event) => this.eventStatement(organisationId, event, traceParent)),
    ];
  }

  /** The event kept, with a delivery to each webhook subscribed (WRITE_EVENT). */
  private eventStatement(
    organisationId: string,
    event: OutboxEvent,
    traceParent: string | null,
  ): Statement {
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    const body = JSON.stringify({
      id,
      type: event.type,
      createdAt,
      organisationId,
      data: event.data,
    });
    return {
      text: WRITE_EVENT,
      values: [
        organisationId,
        id,
        event.type,
        event.subjectId,
        body,
        createdAt,
        this.maxAttempts,
        traceParent,
      ],
    };
  }
}
