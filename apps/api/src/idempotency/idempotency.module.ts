import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { PeriodicJobsWorker } from '../jobs/periodic-jobs.worker';
import { LOGGER } from '../logging/logger.module';
import { IdempotencySweepJob } from './idempotency-sweep.job';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

@Module({
  providers: [
    IdempotencyService,
    IdempotencyRepository,
    {
      provide: IdempotencySweepJob,
      inject: [DataSource, IdempotencyRepository, LOGGER, PeriodicJobsWorker],
      useFactory: (
        dataSource: DataSource,
        keys: IdempotencyRepository,
        logger: Logger,
        periodic: PeriodicJobsWorker,
      ) => {
        const job = new IdempotencySweepJob(dataSource, keys, logger);
        periodic.add(job);
        return job;
      },
    },
  ],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
