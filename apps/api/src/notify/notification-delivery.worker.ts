import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { NotificationConfig } from '../config/app-config';
import { queryRows } from '../database/query-rows.util';
import { OutboxWorker, type OutboxWorkerBase } from '../jobs/outbox-worker';
import type { Mailer } from '../mail/mailer';
import {
  notificationAttemptChannel,
  type NotificationAttemptRecord,
} from '../metrics/instrumentation-channels';
import { inSpan } from '../tracing/spans';
import { retryDelayMs } from '../webhooks/webhook-retry.util';
import type { RenderedMail } from './message-renderer';
import { MessageRenderer, type LinkToken } from './message-renderer';
import type { ActionLinkSigner } from './action-link-token.util';
import type { InterruptNotice, NotificationOutbox } from './notification-outbox';

interface ClaimedNotification {
  organisation_id: string;
  id: string;
  recipient_email: string;
  recipient_key: string;
  kind: string;
  mode: string;
  subject_id: string | null;
  data: Record<string, unknown>;
  batch_key: string;
  attempt_count: number;
  max_attempts: number;
  organisation_name: string;
  recipient_user_id: string | null;
  /** False when the recipient left the organisation since the notification was written. */
  still_member: boolean;
  /** Whether the message's action links decide by themselves: the organisation allows it and the recipient may decide. */
  token_links: boolean;
}

/**
 * Claims due notifications, a batch at a time: a batch is one message (one immediate
 * notification, or every row of one recipient's digest). Batches are taken with a transaction
 * advisory lock each (so no two instances split a digest) and their rows with FOR UPDATE SKIP
 * LOCKED, re-checked on the locked row, so of several instances exactly one takes each row. A
 * claim is a lease: the rows turn `sending` with `due_at` the lease's end; if the instance dies,
 * they are due again when it runs out.
 */
const CLAIM = `
WITH candidates AS (
  SELECT organisation_id, recipient_key, batch_key
    FROM notifications
   WHERE status IN ('pending', 'sending') AND due_at <= now()
   ORDER BY due_at
   LIMIT $1
), batches AS (
  SELECT DISTINCT organisation_id, recipient_key, batch_key FROM candidates
), mine AS (
  SELECT b.* FROM batches b
   WHERE pg_try_advisory_xact_lock(hashtextextended('notification:' || b.organisation_id::text || '/' || b.recipient_key || '/' || b.batch_key, 0))
   LIMIT $2
), locked AS (
  SELECT n.organisation_id, n.id
    FROM notifications n JOIN mine b
      ON b.organisation_id = n.organisation_id AND b.recipient_key = n.recipient_key AND b.batch_key = n.batch_key
   WHERE n.status IN ('pending', 'sending') AND n.due_at <= now()
   FOR UPDATE OF n SKIP LOCKED
), claimed AS (
  UPDATE notifications n
     SET status = 'sending', attempt_count = n.attempt_count + 1, due_at = now() + $3::int * interval '1 millisecond'
    FROM locked l
   WHERE n.organisation_id = l.organisation_id AND n.id = l.id
  RETURNING n.organisation_id, n.id, n.recipient_user_id, n.recipient_email, n.recipient_key, n.kind, n.mode, n.subject_id, n.data,
            n.batch_key, n.attempt_count, n.max_attempts, n.created_at
)
SELECT c.*, (SELECT count(*) FROM candidates)::int AS seen, o.name AS organisation_name,
       (c.recipient_user_id IS NULL OR EXISTS (
          SELECT 1 FROM memberships m WHERE m.organisation_id = c.organisation_id AND m.user_id = c.recipient_user_id AND m.left_at IS NULL
       )) AS still_member,
       (coalesce(ns.token_actions, false) AND EXISTS (
          SELECT 1 FROM memberships m JOIN roles r ON r.organisation_id = m.organisation_id AND r.id = m.role_id
           WHERE m.organisation_id = c.organisation_id AND m.user_id = c.recipient_user_id AND m.left_at IS NULL
             AND 'interrupt.decide' = ANY(r.permissions)
       )) AS token_links
  FROM claimed c JOIN organisations o ON o.id = c.organisation_id
  LEFT JOIN notification_settings ns ON ns.organisation_id = c.organisation_id
 ORDER BY c.created_at`;

/**
 * Records the outcomes of many messages in one statement (one row per notification: a digest's
 * rows share their message's outcome), each only on the row that is still that attempt's. A sent
 * invitation keeps no token: its sealed link is removed from the row. Returns the ids recorded.
 */
const RECORD = `
UPDATE notifications n
   SET status = a.status,
       due_at = CASE WHEN a.status = 'pending' THEN now() + a.delay * interval '1 millisecond' END,
       last_error = a.error, message_id = a.message_id,
       sent_at = CASE WHEN a.status IN ('sent', 'logged') THEN now() END,
       data = CASE WHEN a.status IN ('sent', 'logged', 'failed') THEN n.data - 'sealedToken' ELSE n.data END
  FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[])
       AS a(organisation_id, id, attempt, status, delay, error, message_id)
 WHERE n.organisation_id = a.organisation_id AND n.id = a.id AND n.status = 'sending' AND n.attempt_count = a.attempt
RETURNING n.id`;

/** Gives back claims not sent because the instance is stopping: due again at once, elsewhere. */
const RELEASE = `
UPDATE notifications n SET status = 'pending', attempt_count = n.attempt_count - 1, due_at = now()
  FROM unnest($2::uuid[], $3::int[]) AS a(id, attempt)
 WHERE n.organisation_id = $1 AND n.id = a.id AND n.status = 'sending' AND n.attempt_count = a.attempt`;

type Batch = ClaimedNotification[];

/** One message's outcome, waiting to be written with the others that finished meanwhile. */
interface Outcome {
  batch: Batch;
  status: 'sent' | 'logged' | 'pending' | 'failed';
  delayMs: number;
  error: string | null;
  messageId: string | null;
  transportMs: number;
}

/**
 * The notification delivery worker (issue 30), one per instance, driven by the job runner. It
 * holds up to four times NOTIFICATION_CONCURRENCY claimed messages (a message is one immediate
 * notification, or every row of one recipient's digest: queued, being sent, or waiting for their
 * record), sends up to NOTIFICATION_CONCURRENCY at once through the shared pooled `Mailer`, and
 * talks to Postgres in bulk: it claims only once at least half of NOTIFICATION_CONCURRENCY places
 * are free (one claim statement for many messages, not one per message), and the outcomes of the
 * messages that finished while the previous record was being written are written together (one
 * UPDATE). A failure is retried on NOTIFICATION_RETRY_SCHEDULE and then marked failed.
 */
export class NotificationDeliveryWorker extends OutboxWorker {
  static readonly NAME = 'notification-deliveries';
  readonly name = NotificationDeliveryWorker.NAME;
  private readonly waiting: Batch[] = [];
  private readonly leaseMs = 120_000;
  /** Messages claimed but not recorded yet (queued, being sent, or waiting for their record). */
  private readonly capacity: number;
  /** The fewest messages a claim asks for: a claim waits until this many places are free. */
  private readonly minClaim: number;
  private outcomes: Outcome[] = [];
  private recording: Promise<void> | undefined;
  /** How many messages the record being written holds. */
  private recordingCount = 0;

  constructor(
    base: OutboxWorkerBase,
    private readonly config: NotificationConfig,
    private readonly mailer: Mailer,
    private readonly renderer: MessageRenderer,
    private readonly outbox: NotificationOutbox,
    private readonly signer: ActionLinkSigner,
  ) {
    super(base, config.pollMs);
    this.capacity = 4 * config.concurrency;
    this.minClaim = Math.ceil(config.concurrency / 2);
  }

  async poll(): Promise<boolean> {
    if (this.stopping) return false;
    const free =
      this.capacity - this.inFlight.size - this.waiting.length - this.unrecordedMessages();
    // Woken after every message: most wakes find too few free places and cost no statement.
    if (free < this.minClaim) return false;
    const lookahead = Math.max(free * 4, 64);
    const rows = await queryRows<ClaimedNotification & { seen: number }>(this.dataSource, CLAIM, [
      lookahead,
      free,
      this.leaseMs,
    ]);
    const batches = new Map<string, Batch>();
    for (const row of rows) {
      const key = `${row.organisation_id}/${row.recipient_key}/${row.batch_key}`;
      const batch = batches.get(key) ?? [];
      batch.push(row);
      batches.set(key, batch);
    }
    this.waiting.push(...batches.values());
    this.pump();
    return rows.length > 0 && rows[0].seen >= lookahead;
  }

  protected override async giveBack(): Promise<void> {
    for (const batch of this.waiting.splice(0)) {
      await this.dataSource
        .query(RELEASE, [
          batch[0].organisation_id,
          batch.map((r) => r.id),
          batch.map((r) => r.attempt_count),
        ])
        .catch((error: unknown) =>
          this.logger.warn(
            { err: error },
            'could not give back claimed notifications (their lease will run out)',
          ),
        );
    }
  }

  protected override async afterSends(): Promise<void> {
    while (this.recording !== undefined || this.outcomes.length > 0) {
      this.record();
      await this.recording;
    }
  }

  private unrecordedMessages(): number {
    return this.outcomes.length + this.recordingCount;
  }

  private pump(): void {
    while (
      this.inFlight.size < this.config.concurrency &&
      this.waiting.length > 0 &&
      !this.stopping
    ) {
      const batch = this.waiting.shift() as Batch;
      this.inFlight.run(
        this.deliver(batch).then((outcome) => {
          this.outcomes.push(outcome);
          this.record();
        }),
        (error) =>
          this.logger.error(
            { err: error, notificationIds: batch.map((r) => r.id) },
            'notification delivery failed unexpectedly (its lease will run out)',
          ),
        () => this.pump(),
      );
    }
  }

  /** One message's rendering and send in a span of its own (traces on); its outcome is recorded with others' after it. */
  private deliver(batch: Batch): Promise<Outcome> {
    const attributes = {
      'interlock.notification.kind': batch[0].kind,
      'interlock.notification.mode': batch[0].mode,
      'interlock.notification.count': batch.length,
      'interlock.attempt': batch[0].attempt_count,
    };
    return inSpan('notification delivery', { kind: SpanKind.CONSUMER, attributes }, (span) =>
      this.send(batch, span),
    );
  }

  private async send(batch: Batch, span: Span): Promise<Outcome> {
    const first = batch[0];
    let status: Outcome['status'];
    let error: string | null = null;
    let messageId: string | null = null;
    let transportMs = 0;
    if (!first.still_member) {
      status = 'failed';
      error = 'Not sent: the recipient is no longer a member of the organisation.';
    } else {
      try {
        const mail = this.render(batch);
        const started = performance.now();
        try {
          const sent = await this.mailer.send({ to: first.recipient_email, ...mail });
          messageId = sent.messageId;
          status = sent.transport === 'smtp' ? 'sent' : 'logged';
        } finally {
          transportMs = performance.now() - started;
        }
      } catch (failure) {
        error = failure instanceof Error ? failure.message.slice(0, 1000) : String(failure);
        status = first.attempt_count < first.max_attempts ? 'pending' : 'failed';
      }
    }
    const delayMs =
      status === 'pending' ? retryDelayMs(this.config.retryScheduleMs, first.attempt_count) : 0;
    span.setAttribute('interlock.outcome', status === 'pending' ? 'retrying' : status);
    if (error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    return { batch, status, delayMs, error, messageId, transportMs };
  }

  /**
   * Writes the outcomes gathered so far in one statement, unless a write is under way: then
   * they wait for it and go with the next (so under load one UPDATE records many messages, and
   * when quiet each is recorded at once).
   */
  private record(): void {
    if (this.recording !== undefined || this.outcomes.length === 0) return;
    const outcomes = this.outcomes;
    this.outcomes = [];
    this.recordingCount = outcomes.length;
    this.recording = this.writeOutcomes(outcomes)
      .catch((error: unknown) => {
        this.logger.error(
          { err: error, notificationIds: outcomes.flatMap((o) => o.batch.map((r) => r.id)) },
          'notification delivery could not be recorded (its lease will run out)',
        );
      })
      .finally(() => {
        this.recording = undefined;
        this.recordingCount = 0;
        this.record();
        this.wakeMe();
      });
  }

  private async writeOutcomes(outcomes: Outcome[]): Promise<void> {
    const rows = outcomes.flatMap((o) => o.batch.map((row) => ({ row, o })));
    const recorded = await queryRows<{ id: string }>(this.dataSource, RECORD, [
      rows.map(({ row }) => row.organisation_id),
      rows.map(({ row }) => row.id),
      rows.map(({ row }) => row.attempt_count),
      rows.map(({ o }) => o.status),
      rows.map(({ o }) => o.delayMs),
      rows.map(({ o }) => o.error),
      rows.map(({ o }) => o.messageId),
    ]);
    const ids = new Set(recorded.map((r) => r.id));
    for (const { batch, status, transportMs } of outcomes) {
      const first = batch[0];
      const outcome = status === 'pending' ? 'retrying' : status;
      // Counted once per message, when this attempt's outcome was recorded (its lease still held).
      if (notificationAttemptChannel.hasSubscribers && batch.some((r) => ids.has(r.id))) {
        notificationAttemptChannel.publish({
          outcome,
          durationMs: transportMs,
        } satisfies NotificationAttemptRecord);
      }
      this.logger.info(
        {
          organisationId: first.organisation_id,
          notificationIds: batch.map((r) => r.id),
          kind: first.kind,
          mode: first.mode,
          status,
          attempt: first.attempt_count,
        },
        'notification delivery attempt',
      );
    }
  }

  private render(batch: Batch): RenderedMail {
    const first = batch[0];
    if (first.kind === 'invitation') {
      const data = first.data as {
        inviterName: string;
        roleName: string;
        expiresAt: string;
        sealedToken: string;
      };
      const token = this.outbox.openInvitationToken(
        first.organisation_id,
        first.subject_id as string,
        data.sealedToken,
      );
      return this.renderer.invitation(first.organisation_name, {
        ...data,
        token,
        invitationId: first.subject_id as string,
        email: first.recipient_email,
      });
    }
    const items = batch.map((row) => ({
      kind: row.kind,
      interrupt: row.data as unknown as InterruptNotice,
    }));
    // Single-use links, minted as the message is sent (so their 24 hours start now), for this recipient only.
    const recipient = first.recipient_user_id;
    const token: LinkToken | undefined =
      first.token_links && recipient !== null
        ? (interruptId, action, decision) =>
            this.signer.mint({
              organisationId: first.organisation_id,
              interruptId,
              actionName: action.name,
              decision,
              userId: recipient,
              actionDigest: action.digest,
            })
        : undefined;
    if (first.mode === 'immediately')
      return this.renderer.interrupt(first.organisation_name, items[0], token);
    return this.renderer.digest(first.organisation_name, first.mode, items, token);
  }
}
