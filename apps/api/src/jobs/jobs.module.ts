import {
  BeforeApplicationShutdown,
  Global,
  Inject,
  Module,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logger.module';
import { JobRunner } from './job-runner';
import { PeriodicJobsWorker } from './periodic-jobs.worker';

/**
 * The job runner every feature registers its background work with (STYLE §17): queue workers
 * with `JobRunner.register`, periodic jobs with `PeriodicJobsWorker.add`. It starts once the app
 * has bootstrapped and, on shutdown, stops taking work and drains what is in flight before the
 * database closes.
 */
@Global()
@Module({
  providers: [
    { provide: JobRunner, inject: [LOGGER], useFactory: (logger: Logger) => new JobRunner(logger) },
    {
      provide: PeriodicJobsWorker,
      inject: [DataSource, LOGGER, JobRunner],
      useFactory: (dataSource: DataSource, logger: Logger, runner: JobRunner) => {
        const worker = new PeriodicJobsWorker(dataSource, logger);
        runner.register(worker);
        return worker;
      },
    },
  ],
  exports: [JobRunner, PeriodicJobsWorker],
})
export class JobsModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(JobRunner) private readonly runner: JobRunner) {}

  onApplicationBootstrap(): void {
    this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}
