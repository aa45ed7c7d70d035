import { Module } from '@nestjs/common';
import { InterruptsModule } from '../interrupts/interrupts.module';
import { ClassificationModule } from './classification.module';
import { ClassificationDryRunController } from './classification-dry-run.controller';
import { ClassificationDryRunService } from './classification-dry-run.service';

/** The dry run reads interrupts (through their owner), which run argus: its own module, above both. */
@Module({
  imports: [ClassificationModule, InterruptsModule],
  controllers: [ClassificationDryRunController],
  providers: [ClassificationDryRunService],
})
export class ClassificationDryRunModule {}
