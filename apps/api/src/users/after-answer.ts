import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logger.module';

/**
 * Work an account route starts after its answer (the emails of SPEC §8f: their lookups and
 * sending must not show in the answer or its timing). A failure is logged, never thrown;
 * shutdown waits for what is under way.
 */
@Injectable()
export class AfterAnswer implements BeforeApplicationShutdown {
  private readonly pending = new Set<Promise<void>>();

  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  run(what: string, work: () => Promise<void>): void {
    const run = work().catch((error: unknown) =>
      this.logger.error({ err: error }, `${what} failed`),
    );
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /** Resolves once the work started after earlier answers is done; for shutdown and tests. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }
}
