import type { PeriodicJob } from '../jobs/periodic-jobs.worker';
import type { InterruptLifecycleService } from './interrupt-lifecycle.service';

/**
 * Every 15 seconds, once across all instances: applies the escalation steps (reminders,
 * escalations) of the organisations' policies that have come due (SPEC §8e). Each interrupt is
 * locked and checked again, so a step acts once however the runner is scheduled.
 */
export class InterruptEscalationJob implements PeriodicJob {
  readonly name = 'interrupt-escalation';
  readonly everyMs = 15_000;

  constructor(
    private readonly lifecycle: InterruptLifecycleService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  run(): Promise<number> {
    return this.lifecycle.escalateDue(this.now());
  }
}
