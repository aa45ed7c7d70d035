import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { PeriodicJobsWorker } from '../jobs/periodic-jobs.worker';
import { LOGGER } from '../logging/logger.module';
import { TeamsModule } from '../teams/teams.module';
import { ClassificationController } from './classification.controller';
import { ClassificationSuggestionsController } from './classification-suggestions.controller';
import { ClassificationSuggestionsRepository } from './classification-suggestions.repository';
import { ClassificationSuggestionsService } from './classification-suggestions.service';
import { ClassificationRulesRepository } from './classification-rules.repository';
import { ClassificationRulesService } from './classification-rules.service';
import { RuleCache } from './rule-cache';
import { ArgusPipeline } from './argus-pipeline';
import { ClassificationMatchesRepository } from './classification-matches.repository';
import { ClassificationMatchRetentionJob } from './classification-match-retention.job';

/** Argus, the automatic classifier (SPEC §8d): its rules, their cache, their figures' retention, suggestions. */
@Module({
  imports: [TeamsModule],
  controllers: [ClassificationController, ClassificationSuggestionsController],
  providers: [
    ClassificationRulesService,
    ClassificationRulesRepository,
    ClassificationMatchesRepository,
    ClassificationSuggestionsRepository,
    ClassificationSuggestionsService,
    RuleCache,
    ArgusPipeline,
    {
      provide: ClassificationMatchRetentionJob,
      inject: [DataSource, ClassificationMatchesRepository, APP_CONFIG, LOGGER, PeriodicJobsWorker],
      useFactory: (
        dataSource: DataSource,
        matches: ClassificationMatchesRepository,
        config: AppConfig,
        logger: Logger,
        periodic: PeriodicJobsWorker,
      ) => {
        const job = new ClassificationMatchRetentionJob(
          dataSource,
          matches,
          config.classification.matchRetentionMs,
          logger,
        );
        periodic.add(job);
        return job;
      },
    },
  ],
  exports: [RuleCache, ArgusPipeline, ClassificationRulesService],
})
export class ClassificationModule {}
