import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
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
import { ClassificationClassifierController } from './classification-classifier.controller';
import {
  CLASSIFIER_RESOLVER,
  ClassificationClassifierService,
} from './classification-classifier.service';
import { ClassificationClassifiersRepository } from './classification-classifiers.repository';
import {
  CLASSIFIER_SECRET_BOX,
  CLASSIFIER_SECRET_PURPOSE,
  ClassifierSource,
} from './classifier-source';
import { CLASSIFIER_LIMITS, ExternalClassifier } from './external-classifier';
import { WebhookResolver } from '../webhooks/webhook-resolver';
import { WebhookSecretBox } from '../webhooks/webhook-secret.util';
import { WebhookSender } from '../webhooks/webhook-sender';
import type { AddressResolver } from '../webhooks/webhook-url.util';
import { periodicJobProvider } from '../jobs/periodic-job.provider';

/** Connections kept alive per classifier host (the answers come back while a POST waits). */
const CLASSIFIER_SOCKETS_PER_HOST = 32;

/**
 * Argus, the automatic classifier (SPEC §8d): its rules, their cache, their figures' retention,
 * suggestions, and the organisation's external classifier.
 */
@Module({
  imports: [TeamsModule],
  controllers: [
    ClassificationController,
    ClassificationSuggestionsController,
    ClassificationClassifierController,
  ],
  providers: [
    ClassificationRulesService,
    ClassificationRulesRepository,
    ClassificationMatchesRepository,
    ClassificationSuggestionsRepository,
    ClassificationSuggestionsService,
    RuleCache,
    ArgusPipeline,
    ClassificationClassifiersRepository,
    ClassificationClassifierService,
    ClassifierSource,
    {
      provide: CLASSIFIER_SECRET_BOX,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new WebhookSecretBox(config.apiKeyPepper, CLASSIFIER_SECRET_PURPOSE),
    },
    {
      provide: CLASSIFIER_RESOLVER,
      useFactory: (): AddressResolver => {
        const resolver = new WebhookResolver();
        return (host) => resolver.lookup(host);
      },
    },
    {
      provide: ExternalClassifier,
      inject: [APP_CONFIG, CLASSIFIER_RESOLVER],
      useFactory: (config: AppConfig, resolve: AddressResolver) =>
        new ExternalClassifier(
          new WebhookSender(CLASSIFIER_LIMITS.timeoutMs.max, CLASSIFIER_SOCKETS_PER_HOST),
          resolve,
          config.nodeEnv === 'production',
        ),
    },
    periodicJobProvider(
      ClassificationMatchRetentionJob,
      [DataSource, ClassificationMatchesRepository, APP_CONFIG, LOGGER],
      (
        dataSource: DataSource,
        matches: ClassificationMatchesRepository,
        config: AppConfig,
        logger: Logger,
      ) =>
        new ClassificationMatchRetentionJob(
          dataSource,
          matches,
          config.classification.matchRetentionMs,
          logger,
        ),
    ),
  ],
  exports: [RuleCache, ArgusPipeline, ClassificationRulesService, ExternalClassifier],
})
export class ClassificationModule {}
