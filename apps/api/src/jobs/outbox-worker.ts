import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { InFlightTasks } from './in-flight-tasks';
import type { JobWorker } from './job-runner';

/**
 * What every outbox worker is given (`outboxWorkerProvider` makes it): the database, the log, and
 * a wake-up that asks this instance's job runner to poll it again.
 */
export interface OutboxWorkerBase {
  readonly dataSource: DataSource;
  readonly logger: Logger;
  readonly wakeMe: () => void;
}

/**
 * What the outbox delivery workers share (webhook deliveries, notifications, resumeUrls): a
 * job-runner worker that looks every `pollMs`, claims due rows as leases and sends them
 * concurrently as `InFlightTasks` (each send's end wakes it to claim again). Its drain stops
 * claiming, gives back the claims it has not started (`giveBack`: due again at once, on another
 * instance), waits for the sends under way, then for what they left to write (`afterSends`).
 */
export abstract class OutboxWorker implements JobWorker {
  abstract readonly name: string;
  readonly idleMs: number;
  protected readonly inFlight: InFlightTasks;
  protected readonly dataSource: DataSource;
  protected readonly logger: Logger;
  protected readonly wakeMe: () => void;
  protected stopping = false;

  constructor(base: OutboxWorkerBase, pollMs: number) {
    this.dataSource = base.dataSource;
    this.logger = base.logger;
    this.wakeMe = base.wakeMe;
    this.idleMs = pollMs;
    this.inFlight = new InFlightTasks(base.wakeMe);
  }

  abstract poll(): Promise<boolean>;

  async drain(): Promise<void> {
    this.stopping = true;
    await this.giveBack();
    await this.inFlight.settled();
    await this.afterSends();
  }

  /** Claimed rows whose send has not started, given back on shutdown (none by default). */
  protected giveBack(): Promise<void> {
    return Promise.resolve();
  }

  /** What the ended sends left to write, written on shutdown (nothing by default). */
  protected afterSends(): Promise<void> {
    return Promise.resolve();
  }
}
