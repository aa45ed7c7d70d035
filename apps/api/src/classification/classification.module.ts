import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { ClassificationController } from './classification.controller';
import { ClassificationRulesRepository } from './classification-rules.repository';
import { ClassificationRulesService } from './classification-rules.service';
import { RuleCache } from './rule-cache';
import { ArgusPipeline } from './argus-pipeline';
import { ClassificationMatchesRepository } from './classification-matches.repository';

/** Argus, the automatic classifier (SPEC §8d): its rules, their cache. */
@Module({
  imports: [TeamsModule],
  controllers: [ClassificationController],
  providers: [
    ClassificationRulesService,
    ClassificationRulesRepository,
    ClassificationMatchesRepository,
    RuleCache,
    ArgusPipeline,
  ],
  exports: [RuleCache, ArgusPipeline, ClassificationRulesService],
})
export class ClassificationModule {}
