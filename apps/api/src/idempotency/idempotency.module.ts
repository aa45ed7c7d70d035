import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { PeriodicJobsWorker } from '../jobs/periodic-jobs.worker';
import { LOGGER } from '../logging/logger.module';
import { IdempotencySweepJob } from './idempotency-sweep.job';
import { IdempotencyService } from './idempotency.service';

@Module({
  providers: [
    IdempotencyService,
    {
      provide: IdempotencySweepJob,
      inject: [DataSource, LOGGER, PeriodicJobsWorker],
      useFactory: (dataSource: DataSource, logger: Logger, periodic: PeriodicJobsWorker) => {
        const job = new IdempotencySweepJob(dataSource, logger);
        periodic.add(job);
        return job;
      },
    },
  ],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
