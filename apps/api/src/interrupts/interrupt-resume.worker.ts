import type { WebhookConfig } from '../config/app-config';
import { queryRows } from '../database/query-rows.util';
import { leaseClaimStatement } from '../jobs/lease-claim.util';
import { OutboxWorker, type OutboxWorkerBase } from '../jobs/outbox-worker';
import { attemptOutcome } from '../webhooks/webhook-retry.util';
import type { AttemptResult, WebhookSender } from '../webhooks/webhook-sender';
import { type AddressResolver, checkForAttempt } from '../webhooks/webhook-url.util';
import type { InterruptResumes } from './interrupt-resumes';

interface ClaimedResume {
  organisation_id: string;
  interrupt_id: string;
  sealed: Buffer;
  event_id: string;
  body: string;
  attempt_count: number;
  max_attempts: number;
}

/** Claims due resumes as leases (`leaseClaimStatement`): `delivering` while one is attempted. */
const CLAIM = leaseClaimStatement({
  table: 'interrupt_resumes',
  key: ['organisation_id', 'interrupt_id'],
  leased: 'delivering',
  alsoSet: 'last_attempt_at = now()',
  returning:
    'r.organisation_id, r.interrupt_id, r.sealed, r.event_id, r.body, r.attempt_count, r.max_attempts',
});

/** Records an attempt, if the row is still this attempt's (a lease that ran out may have been taken over). */
const RECORD = `
UPDATE interrupt_resumes
   SET status = $4::text,
       due_at = CASE WHEN $4::text = 'pending' THEN now() + $5::int * interval '1 millisecond' END,
       last_response_status = $6::int, last_error = $7::text,
       finished_at = CASE WHEN $4::text IN ('succeeded', 'failed') THEN now() END
 WHERE organisation_id = $1 AND interrupt_id = $2 AND status = 'delivering' AND attempt_count = $3`;

/**
 * POSTs each ended interrupt's result to its resumeUrl (SPEC §8e): signed as webhooks are
 * (Standard Webhooks, under the secret derived from the opening key), the webhook URL rules
 * checked again and the host resolved and checked before every attempt, retried on the webhook
 * schedule (`WEBHOOK_RETRY_SCHEDULE`) and then marked failed. Driven by the job runner on every
 * instance, woken by the organisation-event announcements that follow every change.
 */
export class InterruptResumeWorker extends OutboxWorker {
  static readonly NAME = 'interrupt-resumes';
  readonly name = InterruptResumeWorker.NAME;
  private readonly leaseMs: number;

  constructor(
    base: OutboxWorkerBase,
    private readonly config: WebhookConfig,
    private readonly production: boolean,
    private readonly resumes: InterruptResumes,
    private readonly sender: WebhookSender,
    private readonly resolve: AddressResolver,
  ) {
    super(base, config.pollMs);
    this.leaseMs = 2 * config.timeoutMs + 5_000;
  }

  async poll(): Promise<boolean> {
    const free = this.config.concurrency - this.inFlight.size;
    if (free <= 0 || this.stopping) return false;
    const rows = await queryRows<ClaimedResume>(this.dataSource, CLAIM, [free, this.leaseMs]);
    for (const row of rows) {
      this.inFlight.run(this.attempt(row), (error) =>
        this.logger.error(
          { err: error, interruptId: row.interrupt_id },
          'resumeUrl attempt could not be recorded',
        ),
      );
    }
    return rows.length === free;
  }

  private async attempt(row: ClaimedResume): Promise<void> {
    const result = await this.send(row);
    const { status, delayMs } = attemptOutcome(
      result.error === null,
      row.attempt_count,
      row.max_attempts,
      this.config.retryScheduleMs,
    );
    await this.dataSource.query(RECORD, [
      row.organisation_id,
      row.interrupt_id,
      row.attempt_count,
      status,
      delayMs,
      result.status,
      result.error,
    ]);
    // Never the URL: a pre-signed one is a credential.
    this.logger.info(
      {
        interruptId: row.interrupt_id,
        eventId: row.event_id,
        attempt: row.attempt_count,
        status,
        responseStatus: result.status,
        durationMs: result.durationMs,
      },
      'resumeUrl attempt',
    );
  }

  private async send(row: ClaimedResume): Promise<AttemptResult> {
    let target: { url: string; secret: string };
    try {
      target = this.resumes.open(row.sealed, row.organisation_id, row.interrupt_id);
    } catch {
      // Sealed under another server secret (API_KEY_PEPPER changed): nothing can mend it.
      return {
        status: null,
        durationMs: 0,
        error: 'Not sent: the resumeUrl cannot be read.',
      };
    }
    const checked = await checkForAttempt(
      target.url,
      this.production,
      this.resolve,
      this.config.timeoutMs,
    );
    if (typeof checked === 'string')
      return { status: null, durationMs: 0, error: `Not sent: ${checked}` };
    return this.sender.send(checked.url, checked.target, {
      id: row.event_id,
      body: row.body,
      secrets: [target.secret],
    });
  }
}
