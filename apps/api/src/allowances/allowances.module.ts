import { Module } from '@nestjs/common';
import { AllowancesRepository } from './allowances.repository';
import { AllowancesService } from './allowances.service';

@Module({
  providers: [AllowancesService, AllowancesRepository],
  exports: [AllowancesService],
})
export class AllowancesModule {}
