import { Module } from '@nestjs/common';
import { AllowancesService } from './allowances.service';

@Module({
  providers: [AllowancesService],
  exports: [AllowancesService],
})
export class AllowancesModule {}
