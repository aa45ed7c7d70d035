import type { DataSource } from 'typeorm';
import type { PeriodicJob } from '../jobs/periodic-jobs.worker';
import type { InterruptsRepository } from '../interrupts/interrupts.repository';
import type { DeadlineNotice, NotificationOutbox } from './notification-outbox';

/** How many interrupts one transaction of the job warns about. */
const WARNING_BATCH = 100;

/** What the deadline will do when it comes, as the expiry would decide it now (SPEC §8e). */
export function deadlineOutcome(row: {
  on_timeout: 'reject' | 'approve' | 'escalate' | null;
  timeout_escalated: boolean;
  approve_allowed: boolean;
}): DeadlineNotice['onTimeout'] {
  if (row.on_timeout === 'escalate' && !row.timeout_escalated) return 'escalate';
  return row.on_timeout === 'approve' && row.approve_allowed ? 'approve' : 'reject';
}

/**
 * Every 15 seconds, once across all instances: warns the people each open interrupt waits on
 * that its deadline is near (SPEC §8h, `interrupt.deadline_approaching`), once per deadline. One
 * statement claims the due interrupts (marking them warned); their notifications are written in
 * the same transaction, so a warning exists if and only if the mark committed.
 */
export class DeadlineWarningJob implements PeriodicJob {
  readonly name = 'interrupt-deadline-warning';
  readonly everyMs = 15_000;

  constructor(
    private readonly dataSource: DataSource,
    private readonly interrupts: InterruptsRepository,
    private readonly outbox: NotificationOutbox,
    /** Wakes the delivery worker once warnings were written. */
    private readonly written: () => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(): Promise<number> {
    let warned = 0;
    for (;;) {
      const now = this.now();
      const claimed = await this.dataSource.transaction(async (tx) => {
        const rows = await this.interrupts.claimDeadlineWarnings(tx, now, WARNING_BATCH);
        for (const row of rows) {
          const interrupt = await this.interrupts.render(tx, row.organisation_id, row.id);
          await this.outbox.writeDeadlineApproaching(tx, row.organisation_id, interrupt, {
            expiresAt: row.expires_at.toISOString(),
            minutesLeft: Math.max(
              1,
              Math.ceil((row.expires_at.getTime() - now.getTime()) / 60_000),
            ),
            onTimeout: deadlineOutcome(row),
          });
        }
        return rows.length;
      });
      warned += claimed;
      if (claimed > 0) this.written();
      if (claimed < WARNING_BATCH) return warned;
    }
  }
}
