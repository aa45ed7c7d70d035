import type { PeriodicJob } from '../jobs/periodic-jobs.worker';
import type { SsoDomainRecheck } from './sso-domain-recheck.service';

/** The most a domain's look-up waits past its due time: the job looks for due domains this often. */
const AT_MOST_HOURLY = 3_600_000;

/**
 * Once across all instances (the job runner's `scheduled_jobs`), every hour — or every
 * `SSO_DOMAIN_RECHECK_INTERVAL` when that is shorter: looks up the proven single sign-on domains
 * whose interval has passed (SPEC §8f), so each is looked up about once an interval, spread over
 * the day rather than all at once.
 */
export class SsoDomainRecheckJob implements PeriodicJob {
  readonly name = 'sso-domain-recheck';
  readonly everyMs: number;

  constructor(
    private readonly recheck: SsoDomainRecheck,
    intervalMs: number,
  ) {
    this.everyMs = Math.min(intervalMs, AT_MOST_HOURLY);
  }

  run(): Promise<unknown> {
    return this.recheck.recheckDue(new Date());
  }
}
