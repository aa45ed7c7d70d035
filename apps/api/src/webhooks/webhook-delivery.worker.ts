import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { writeAuditEntry } from '@interlock/audit';
import type { WebhookConfig } from '../config/app-config';
import { queryRows } from '../database/query-rows.util';
import { OutboxWorker, type OutboxWorkerBase } from '../jobs/outbox-worker';
import {
  webhookAttemptChannel,
  type WebhookAttemptRecord,
} from '../metrics/instrumentation-channels';
import { inSpan } from '../tracing/spans';
import { attemptOutcome } from './webhook-retry.util';
import { WebhookSecretBox } from './webhook-secret.util';
import { type AttemptResult, WebhookSender } from './webhook-sender';
import { type AddressResolver, checkForAttempt } from './webhook-url.util';

interface ClaimedDelivery {
  organisation_id: string;
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt_count: number;
  max_attempts: number;
  body: string;
  /** The trace the event was written in (traces on). */
  trace_parent: string | null;
  /** The webhook's; null when it was deleted since the claim's look-ahead. */
  url: string | null;
  enabled: boolean | null;
  secret: Buffer | null;
  previous_secret: Buffer | null;
  previous_valid: boolean | null;
}

interface RecordedAttempt {
  enabled: boolean;
  /** How long every attempt has failed, as the statement began (null after a success); a bigint. */
  failing_for_ms: string | null;
}

/**
 * Claims due deliveries. A look-ahead of the oldest due rows is read without locks, in due order
 * (the partial due index), leaving out rows held back by an earlier unfinished delivery of the
 * same subject to the same webhook (event order per interrupt or session) and rows of webhooks
 * that already have their share of this instance's slots; of those, at most the webhook's free
 * share each is chosen, so a slow or dead endpoint can hold a few slots but never all of them.
 * Only the chosen rows are then locked, FOR UPDATE SKIP LOCKED with the conditions checked again
 * on the locked row, so of several instances exactly one takes each. A claim is a lease: the row
 * turns `delivering` with `due_at` the lease's end; if this instance dies, the row is due again
 * when the lease runs out, and the lost attempt is recorded as such. Paused rows (a disabled
 * webhook's) have no `due_at`, so they are not in the due index at all.
 */
const CLAIM = `
WITH candidates AS (
  SELECT d.organisation_id, d.id, d.webhook_id, d.due_at, d.seq
    FROM webhook_deliveries d
   WHERE d.status IN ('pending', 'delivering') AND d.due_at <= now()
     AND d.webhook_id <> ALL($3::uuid[])
     AND NOT EXISTS (
           SELECT 1 FROM webhook_deliveries e
            WHERE e.organisation_id = d.organisation_id AND e.webhook_id = d.webhook_id AND e.subject_id = d.subject_id
              AND e.seq < d.seq AND e.status IN ('pending', 'delivering'))
   ORDER BY d.due_at
   LIMIT $1
), chosen AS (
  SELECT r.organisation_id, r.id
    FROM (SELECT c.*, row_number() OVER (PARTITION BY c.webhook_id ORDER BY c.due_at, c.seq) AS n FROM candidates c) r
    LEFT JOIN unnest($4::uuid[], $5::int[]) AS room(webhook_id, slots) ON room.webhook_id = r.webhook_id
   WHERE r.n <= coalesce(room.slots, $6)
   ORDER BY r.due_at
   LIMIT $2
), locked AS (
  SELECT d.organisation_id, d.id, d.status AS was
    FROM webhook_deliveries d JOIN chosen c ON c.organisation_id = d.organisation_id AND c.id = d.id
   WHERE d.status IN ('pending', 'delivering') AND d.due_at <= now()
   FOR UPDATE OF d SKIP LOCKED
), lost AS (
  INSERT INTO webhook_delivery_attempts (organisation_id, delivery_id, number, started_at, response_status, duration_ms, error)
  SELECT d.organisation_id, d.id, d.attempt_count, coalesce(d.last_attempt_at, now()), NULL, 0,
         'No result: the instance that claimed this delivery stopped before it recorded an answer.'
    FROM webhook_deliveries d JOIN locked l ON l.organisation_id = d.organisation_id AND l.id = d.id
   WHERE l.was = 'delivering' AND d.attempt_count > 0
  ON CONFLICT DO NOTHING
), claimed AS (
  UPDATE webhook_deliveries d
     SET status = 'delivering', attempt_count = d.attempt_count + 1, last_attempt_at = now(),
         due_at = now() + $7::int * interval '1 millisecond'
    FROM locked l
   WHERE d.organisation_id = l.organisation_id AND d.id = l.id
  RETURNING d.organisation_id, d.id, d.webhook_id, d.event_id, d.event_type, d.attempt_count, d.max_attempts
)
SELECT c.*, (SELECT count(*) FROM candidates)::int AS seen, e.body, e.trace_parent, w.url, w.enabled, w.secret, w.previous_secret,
       w.previous_secret_expires_at > now() AS previous_valid
  FROM claimed c
  JOIN webhook_events e ON e.organisation_id = c.organisation_id AND e.id = c.event_id
  LEFT JOIN webhooks w ON w.organisation_id = c.organisation_id AND w.id = c.webhook_id`;

/** Gives back a claim not sent because the instance is stopping: due again at once, elsewhere. */
const RELEASE = `
UPDATE webhook_deliveries SET status = 'pending', attempt_count = attempt_count - 1, due_at = now()
 WHERE organisation_id = $1 AND id = $2 AND status = 'delivering' AND attempt_count = $3`;

/** Gives back a claim that must not be sent now (its webhook was disabled or deleted meanwhile). */
const UNCLAIM = `
UPDATE webhook_deliveries SET status = 'pending', attempt_count = attempt_count - 1, due_at = NULL
 WHERE organisation_id = $1 AND id = $2 AND status = 'delivering' AND attempt_count = $3`;

/**
 * Records an attempt's result, if the row is still this attempt's (a lease that ran out may have
 * been taken over), and keeps the webhook's failure streak: set at the first failure, cleared by
 * a success — written only when it changes, so a healthy endpoint costs no webhook write.
 */
const RECORD = `
WITH delivery AS (
  UPDATE webhook_deliveries
     SET status = $4::text,
         -- A retry of a webhook disabled meanwhile waits without a due time (tests still go).
         due_at = CASE WHEN $4::text = 'pending'
                        AND ((SELECT w.enabled FROM webhooks w WHERE w.organisation_id = $1 AND w.id = webhook_deliveries.webhook_id)
                             OR event_type = 'webhook.test')
                       THEN now() + $5::int * interval '1 millisecond' END,
         last_response_status = $6::int, last_duration_ms = $7::int, last_error = $8::text,
         finished_at = CASE WHEN $4::text IN ('succeeded', 'failed') THEN now() END
   WHERE organisation_id = $1 AND id = $2 AND status = 'delivering' AND attempt_count = $3
  RETURNING organisation_id, id, webhook_id, attempt_count, last_attempt_at
), attempt AS (
  INSERT INTO webhook_delivery_attempts (organisation_id, delivery_id, number, started_at, response_status, duration_ms, error)
  SELECT organisation_id, id, attempt_count, last_attempt_at, $6::int, $7::int, $8::text FROM delivery
  ON CONFLICT (organisation_id, delivery_id, number) DO UPDATE
     SET response_status = EXCLUDED.response_status, duration_ms = EXCLUDED.duration_ms, error = EXCLUDED.error
), streak AS (
  UPDATE webhooks w SET failing_since = CASE WHEN $9::boolean THEN NULL ELSE now() END
    FROM delivery d
   WHERE w.organisation_id = d.organisation_id AND w.id = d.webhook_id
     AND (CASE WHEN $9::boolean THEN w.failing_since IS NOT NULL ELSE w.failing_since IS NULL END)
)
SELECT w.enabled,
       CASE WHEN $9::boolean THEN NULL
            WHEN w.failing_since IS NULL THEN 0
            ELSE (extract(epoch FROM now() - w.failing_since) * 1000)::bigint END AS failing_for_ms
  FROM delivery d JOIN webhooks w ON w.organisation_id = d.organisation_id AND w.id = d.webhook_id`;

/** See `quietUntil`. Short: it only delays other endpoints' retries coming due, never new events. */
const QUIET_MS = 100;

export const SYSTEM_ACTOR = { type: 'system' as const, id: null, name: 'Interlock' };

/**
 * The delivery worker (SPEC §8a), one per instance, driven by the job runner: each round claims
 * due deliveries ahead of its free slots and sends them concurrently, each endpoint's at most
 * `endpointConcurrency` at a time; a finished one starts the next claimed one and wakes the
 * next round. Every attempt resolves the host again and, in production,
 * refuses private addresses before connecting. Failures are retried on the configured schedule
 * (with jitter) and then marked failed; an endpoint that has failed everything for
 * `disableAfterMs` is disabled, with an audit entry.
 */
export class WebhookDeliveryWorker extends OutboxWorker {
  static readonly NAME = 'webhook-deliveries';
  readonly name = WebhookDeliveryWorker.NAME;
  /** Per webhook: deliveries being sent, and claimed ones waiting for one of its slots. */
  private readonly lanes = new Map<string, { running: number; waiting: ClaimedDelivery[] }>();
  private held = 0;
  private readonly leaseMs: number;
  /** After a claim that found nothing beside the webhooks at their share: no such claim again before this. */
  private quietUntil = 0;

  constructor(
    base: OutboxWorkerBase,
    private readonly config: WebhookConfig,
    private readonly production: boolean,
    private readonly box: WebhookSecretBox,
    private readonly sender: WebhookSender,
    private readonly resolve: AddressResolver,
  ) {
    super(base, config.pollMs);
    // Long enough for a claimed delivery to wait for its endpoint's slot (one attempt at most,
    // since at most a slot's worth wait) and then to be sent.
    this.leaseMs = 2 * config.timeoutMs + 5_000;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * Claims ahead: up to twice the instance's slots, and twice each endpoint's share, so that a
   * finished delivery's slot is filled from memory at once while the next claim is under way
   * (claims, not sends, would otherwise pace the worker). At most `endpointConcurrency` per
   * endpoint are sent at a time.
   */
  async poll(): Promise<boolean> {
    const free = 2 * this.config.concurrency - this.held;
    if (free <= 0 || this.stopping) return false;
    const share = 2 * this.config.endpointConcurrency;
    const full: string[] = [];
    const roomIds: string[] = [];
    const roomSlots: number[] = [];
    for (const [webhookId, lane] of this.lanes) {
      const room = share - lane.running - lane.waiting.length;
      if (room <= 0) full.push(webhookId);
      else {
        roomIds.push(webhookId);
        roomSlots.push(room);
      }
    }
    // Looking past a busy endpoint's backlog walks all of it: when that found nothing else, do
    // not walk it again on every one of its completions (news of other events ends the pause).
    if (full.length > 0 && Date.now() < this.quietUntil) return false;
    const lookahead = Math.max(free * 2, 64);
    const rows = await queryRows<ClaimedDelivery & { seen: number }>(this.dataSource, CLAIM, [
      lookahead,
      free,
      full,
      roomIds,
      roomSlots,
      share,
      this.leaseMs,
    ]);
    if (rows.length === 0 && full.length > 0) this.quietUntil = Date.now() + QUIET_MS;
    for (const row of rows) {
      const lane = this.lanes.get(row.webhook_id) ?? { running: 0, waiting: [] };
      this.lanes.set(row.webhook_id, lane);
      lane.waiting.push(row);
      this.held++;
      this.pump(row.webhook_id);
    }
    // Another round at once only if the look-ahead was full: there may be more due than it saw.
    return rows.length > 0 && rows[0].seen >= lookahead;
  }

  /** New events were written (on any instance): look for them now, past any pause. */
  nudge(): void {
    this.quietUntil = 0;
    this.wakeMe();
  }

  /** On shutdown: claimed deliveries not yet sent are given back at once; those being sent finish. */
  protected override async giveBack(): Promise<void> {
    const unsent = [...this.lanes.values()].flatMap((lane) => lane.waiting.splice(0));
    this.held -= unsent.length;
    for (const row of unsent) {
      await this.dataSource
        .query(RELEASE, [row.organisation_id, row.id, row.attempt_count])
        .catch((error: unknown) => {
          this.logger.warn(
            { err: error, deliveryId: row.id },
            'could not give back a claimed webhook delivery (its lease will run out)',
          );
        });
    }
  }

  /** Starts the webhook's waiting deliveries while it has a free slot. */
  private pump(webhookId: string): void {
    const lane = this.lanes.get(webhookId);
    if (lane === undefined) return;
    while (
      lane.running < this.config.endpointConcurrency &&
      lane.waiting.length > 0 &&
      !this.stopping
    ) {
      const row = lane.waiting.shift() as ClaimedDelivery;
      lane.running++;
      this.inFlight.run(
        this.attempt(row),
        (error) =>
          this.logger.error(
            { err: error, deliveryId: row.id, webhookId },
            'webhook delivery attempt could not be recorded',
          ),
        () => {
          this.held--;
          lane.running--;
          if (lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(webhookId);
          else this.pump(webhookId);
        },
      );
    }
  }

  /**
   * One attempt in a span of its own (traces on), in the trace of the request or job that wrote
   * the event (its stored `traceparent`), else a new one: the request to the endpoint is its child
   * and carries `traceparent`, so the receiver's spans join that trace too.
   */
  private attempt(row: ClaimedDelivery): Promise<void> {
    const attributes = {
      'interlock.webhook.event_type': row.event_type,
      'interlock.webhook.delivery_id': row.id,
      'interlock.attempt': row.attempt_count,
    };
    return inSpan(
      'webhook delivery',
      { kind: SpanKind.CONSUMER, attributes, parent: row.trace_parent },
      (span) => this.attemptTraced(row, span),
    );
  }

  private async attemptTraced(row: ClaimedDelivery, span: Span): Promise<void> {
    if (row.url === null) return; // the webhook was deleted, and its deliveries with it
    if (row.enabled === false && row.event_type !== 'webhook.test') {
      await this.dataSource.query(UNCLAIM, [row.organisation_id, row.id, row.attempt_count]);
      return;
    }
    const result = await this.send(row as ClaimedDelivery & { url: string; secret: Buffer });
    const ok = result.error === null;
    const { status, delayMs } = attemptOutcome(
      ok,
      row.attempt_count,
      row.max_attempts,
      this.config.retryScheduleMs,
    );
    const [recorded] = await queryRows<RecordedAttempt>(this.dataSource, RECORD, [
      row.organisation_id,
      row.id,
      row.attempt_count,
      status,
      delayMs,
      result.status,
      result.durationMs,
      result.error,
      ok,
    ]);
    span.setAttribute('interlock.outcome', status === 'pending' ? 'retrying' : status);
    if (!ok) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? undefined });
    if (recorded !== undefined && webhookAttemptChannel.hasSubscribers) {
      const outcome = status === 'pending' ? 'retrying' : status;
      webhookAttemptChannel.publish({
        outcome,
        durationMs: result.durationMs,
      } satisfies WebhookAttemptRecord);
    }
    this.logger.info(
      {
        webhookId: row.webhook_id,
        deliveryId: row.id,
        eventId: row.event_id,
        attempt: row.attempt_count,
        status,
        responseStatus: result.status,
        durationMs: result.durationMs,
      },
      'webhook delivery attempt',
    );
    if (
      recorded !== undefined &&
      recorded.enabled &&
      recorded.failing_for_ms !== null &&
      Number(recorded.failing_for_ms) >= this.config.disableAfterMs
    ) {
      await this.disableFailing(row.organisation_id, row.webhook_id);
    }
  }

  private async send(
    row: ClaimedDelivery & { url: string; secret: Buffer },
  ): Promise<AttemptResult> {
    const checked = await checkForAttempt(
      row.url,
      this.production,
      this.resolve,
      this.config.timeoutMs,
    );
    if (typeof checked === 'string')
      return { status: null, durationMs: 0, error: `Not sent: ${checked}` };
    const { url, target } = checked;
    const secrets: string[] = [];
    try {
      secrets.push(this.box.open(row.secret, row.organisation_id, row.webhook_id));
      if (row.previous_secret !== null && row.previous_valid === true) {
        secrets.push(this.box.open(row.previous_secret, row.organisation_id, row.webhook_id));
      }
    } catch {
      // Sealed under another server secret (API_KEY_PEPPER changed): rotating the secret mends it.
      return {
        status: null,
        durationMs: 0,
        error: 'Not sent: the signing secret cannot be read; rotate it.',
      };
    }
    return this.sender.send(url, target, { id: row.event_id, body: row.body, secrets });
  }

  /** Turns off an endpoint that has failed every attempt for `disableAfterMs`, with its audit entry. */
  private async disableFailing(organisationId: string, webhookId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const [webhook] = await queryRows<{ url: string }>(
        tx,
        `UPDATE webhooks SET enabled = false, updated_at = now()
          WHERE organisation_id = $1 AND id = $2 AND enabled AND failing_since <= now() - $3::bigint * interval '1 millisecond'
          RETURNING url`,
        [organisationId, webhookId, this.config.disableAfterMs],
      );
      if (webhook === undefined) return;
      // Pending deliveries wait, out of the workers' way, until the webhook is enabled again.
      await tx.query(
        `UPDATE webhook_deliveries SET due_at = NULL WHERE organisation_id = $1 AND webhook_id = $2 AND status = 'pending'`,
        [organisationId, webhookId],
      );
      await writeAuditEntry(tx, {
        organisationId,
        action: 'webhook.disabled',
        actor: SYSTEM_ACTOR,
        target: { type: 'webhook', id: webhookId, name: webhook.url },
        metadata: { reason: 'failing', failingForMs: this.config.disableAfterMs },
      });
    });
    this.logger.warn(
      { webhookId, organisationId },
      'webhook disabled after failing every delivery',
    );
  }
}
