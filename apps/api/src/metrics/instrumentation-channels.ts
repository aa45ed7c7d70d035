import { channel } from 'node:diagnostics_channel';

/**
 * What the service's background parts report for metrics and traces, as Node diagnostics
 * channels: a part publishes a plain record when something finished, and whoever subscribes
 * (the metrics module, the tracer) turns it into series or spans. Publishing costs nothing while
 * nobody subscribes (`hasSubscribers`), so the job runner, the webhook worker and the
 * notification bus stay free of any metrics or tracing API.
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

/** A notification-bus probe came back to the instance that sent it (`PostgresNotificationBus`). */
export interface BusProbeRecord {
  /** From NOTIFY sent to the notification received: the bus's lag between instances. */
  readonly roundTripMs: number;
}

export const jobRoundChannel = channel('interlock.job.round');
export const periodicJobRunChannel = channel('interlock.job.periodic-run');
export const webhookAttemptChannel = channel('interlock.webhook.attempt');
export const busProbeChannel = channel('interlock.notification-bus.probe');
