import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { ClassificationController } from './classification.controller';
import { ClassificationRulesRepository } from './classification-rules.repository';
import { ClassificationRulesService } from './classification-rules.service';
import { RuleCache } from './rule-cache';

/** Argus, the automatic classifier (SPEC §8d): its rules, their cache. */
@Module({
  imports: [TeamsModule],
  controllers: [ClassificationController],
  providers: [ClassificationRulesService, ClassificationRulesRepository, RuleCache],
  exports: [RuleCache],
})
export class ClassificationModule {}
