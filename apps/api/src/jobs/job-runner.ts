import type { Logger } from 'pino';
import { jobRoundChannel, type JobRoundRecord } from '../metrics/instrumentation-channels';

/**
 * A kind of background work the runner drives. The work itself lives in Postgres (a queue table
 * the worker claims from with `FOR UPDATE SKIP LOCKED`), so every instance runs every worker and
 * they share the work without a coordinator.
 */
export interface JobWorker {
  readonly name: string;
  /** How long to wait after a round that found nothing before looking again. */
  readonly idleMs: number;
  /**
   * One round: claim due work and do it, or start it. True when it found work, so the next round
   * runs at once; false to wait `idleMs` (or until `wake`).
   */
  poll(): Promise<boolean>;
  /** Resolves once the work `poll` started has finished. Called on shutdown, after the last round. */
  drain?(): Promise<void>;
}

interface Lane {
  readonly worker: JobWorker;
  /** Set by `wake` while a round runs: run another at once instead of sleeping. */
  woken: boolean;
  wakeUp: (() => void) | undefined;
  timer: NodeJS.Timeout | undefined;
  loop: Promise<void> | undefined;
  failures: number;
}

/** A failing round (the database away, say) waits longer each time, up to this. */
const MAX_FAILURE_BACKOFF_MS = 30_000;

/**
 * The one runner of background work (STYLE §17): one loop per worker, woken early by `wake`
 * (after a change on this instance, or an announcement from another), stopped and drained on
 * shutdown. No stray intervals: a loop sleeps between rounds with one timer it clears.
 */
export class JobRunner {
  private readonly lanes = new Map<string, Lane>();
  private started = false;
  private stopping = false;

  constructor(private readonly logger: Logger) {}

  register(worker: JobWorker): void {
    if (this.lanes.has(worker.name))
      throw new Error(`job worker ${worker.name} is registered twice`);
    const lane: Lane = {
      worker,
      woken: false,
      wakeUp: undefined,
      timer: undefined,
      loop: undefined,
      failures: 0,
    };
    this.lanes.set(worker.name, lane);
    if (this.started && !this.stopping) lane.loop = this.run(lane);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const lane of this.lanes.values()) lane.loop = this.run(lane);
  }

  /** Runs the worker's next round now (or right after the current one). Unknown names are ignored. */
  wake(name: string): void {
    const lane = this.lanes.get(name);
    if (lane === undefined || this.stopping) return;
    lane.woken = true;
    lane.wakeUp?.();
  }

  /** Stops every loop after its current round, then waits for the work in flight to finish. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const lane of this.lanes.values()) lane.wakeUp?.();
    await Promise.all([...this.lanes.values()].map((lane) => lane.loop));
    await Promise.all(
      [...this.lanes.values()].map((lane) =>
        lane.worker
          .drain?.()
          .catch((error: unknown) =>
            this.logger.error({ err: error, worker: lane.worker.name }, 'job worker drain failed'),
          ),
      ),
    );
  }

  private async run(lane: Lane): Promise<void> {
    while (!this.stopping) {
      lane.woken = false;
      let busy = false;
      const started = performance.now();
      try {
        busy = await lane.worker.poll();
        lane.failures = 0;
      } catch (error) {
        lane.failures += 1;
        this.logger.warn(
          { err: error, worker: lane.worker.name, failures: lane.failures },
          'job worker round failed',
        );
      }
      if (jobRoundChannel.hasSubscribers) {
        const result = lane.failures > 0 ? 'failed' : busy ? 'busy' : 'idle';
        jobRoundChannel.publish({
          worker: lane.worker.name,
          result,
          durationMs: performance.now() - started,
        } satisfies JobRoundRecord);
      }
      if (this.stopping) break;
      if ((busy || lane.woken) && lane.failures === 0) {
        // Let I/O in between: a busy worker must not starve the requests of this process.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      const wait =
        lane.failures === 0
          ? lane.worker.idleMs
          : Math.min(MAX_FAILURE_BACKOFF_MS, lane.worker.idleMs * 2 ** lane.failures);
      await this.sleep(lane, wait);
    }
  }

  private sleep(lane: Lane, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(lane.timer);
        lane.timer = undefined;
        lane.wakeUp = undefined;
        resolve();
      };
      lane.wakeUp = done;
      // Unreferenced: a runner never keeps a process alive by itself (the HTTP server does).
      lane.timer = setTimeout(done, ms).unref();
      if (lane.woken || this.stopping) done();
    });
  }
}
