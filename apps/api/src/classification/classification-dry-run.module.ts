import { Module } from '@nestjs/common';
import { InterruptsModule } from '../interrupts/interrupts.module';
import { ClassificationModule } from './classification.module';
import { ClassificationDryRunController } from './classification-dry-run.controller';
import { ClassificationDryRunService } from './classification-dry-run.service';
import { AlwaysAllowController } from './always-allow.controller';
import { AlwaysAllowService } from './always-allow.service';

/**
 * The dry run and "Always allow this" read interrupts (through their owner), which run argus:
 * their own module, above both.
 */
@Module({
  imports: [ClassificationModule, InterruptsModule],
  controllers: [ClassificationDryRunController, AlwaysAllowController],
  providers: [ClassificationDryRunService, AlwaysAllowService],
})
export class ClassificationDryRunModule {}
