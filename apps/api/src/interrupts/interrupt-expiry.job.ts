import type { PeriodicJob } from '../jobs/periodic-jobs.worker';
import type { InterruptLifecycleService } from './interrupt-lifecycle.service';

/**
 * Every 5 seconds, once across all instances (the job runner's `scheduled_jobs`): applies the
 * deadlines that have passed (SPEC §8e: within 30 s of the deadline; the runner polls every 5 s).
 * Exactly once per deadline does not rest on the runner: each interrupt is locked and checked again.
 */
export class InterruptExpiryJob implements PeriodicJob {
  readonly name = 'interrupt-expiry';
  readonly everyMs = 5_000;

  constructor(
    private readonly lifecycle: InterruptLifecycleService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  run(): Promise<number> {
    return this.lifecycle.expireDue(this.now());
  }
}
