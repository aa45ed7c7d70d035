import { channel } from 'node:diagnostics_channel';
import type { ClassificationReceipt } from '@interlock/domain';

/**
 * What the service's background parts report for metrics and traces, as Node diagnostics
 * channels: a part publishes a plain record when something finished, and whoever subscribes
 * (the metrics module, the tracer) turns it into series or spans. Publishing costs nothing while
 * nobody subscribes (`hasSubscribers`), so the job runner, the webhook and notification workers,
 * argus and the notification bus stay free of any metrics or tracing API.
 */

/** One round of a job worker (`JobRunner`). */
export interface JobRoundRecord {
  readonly worker: string;
  /** `busy`: it asked for another round at once; `idle`: it waits; `failed`: the round threw. */
  readonly result: 'busy' | 'idle' | 'failed';
  readonly durationMs: number;
}

/** One run of a periodic job (`PeriodicJobsWorker`). */
export interface PeriodicJobRunRecord {
  readonly job: string;
  readonly result: 'ok' | 'failed';
  readonly durationMs: number;
}

/** One webhook delivery attempt, recorded (`WebhookDeliveryWorker`). */
export interface WebhookAttemptRecord {
  /** `succeeded`; `retrying` (failed, another attempt is scheduled); `failed` (no attempt left). */
  readonly outcome: 'succeeded' | 'retrying' | 'failed';
  readonly durationMs: number;
}

/** One notification message handed to the mail transport, recorded (`NotificationDeliveryWorker`). */
export interface NotificationAttemptRecord {
  /** `sent`; `logged` (email is off); `retrying` (failed, another attempt is scheduled); `failed`. */
  readonly outcome: 'sent' | 'logged' | 'retrying' | 'failed';
  /** How long the mail transport took (0 when nothing was handed to it). */
  readonly durationMs: number;
}

/** What argus did to a new interrupt, once it is committed (`InterruptsService.create`). */
export interface ArgusClassificationRecord {
  /** The pipeline failed closed: nothing was classified, a person decides. */
  readonly failed: boolean;
  /** The circuit breaker dropped argus's decisions. */
  readonly breakerTripped: boolean;
  /** One receipt per matching rule and action (`classification.applied` / `.shadowed`). */
  readonly receipts: readonly {
    readonly action: string;
    readonly metadata: ClassificationReceipt;
  }[];
}

/** A notification-bus probe came back to the instance that sent it (`PostgresNotificationBus`). */
export interface BusProbeRecord {
  /** From NOTIFY sent to the notification received: the bus's lag between instances. */
  readonly roundTripMs: number;
}

export const jobRoundChannel = channel('interlock.job.round');
export const periodicJobRunChannel = channel('interlock.job.periodic-run');
export const webhookAttemptChannel = channel('interlock.webhook.attempt');
export const notificationAttemptChannel = channel('interlock.notification.attempt');
export const argusClassificationChannel = channel('interlock.argus.classification');
export const busProbeChannel = channel('interlock.notification-bus.probe');
