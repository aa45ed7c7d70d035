import { Module } from '@nestjs/common';
import { AllowancesModule } from '../allowances/allowances.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { OrganisationController } from './organisation.controller';
import { OrganisationService } from './organisation.service';
import { OrganisationsController } from './organisations.controller';
import { OrganisationSetupService } from './organisation-setup.service';

@Module({
  imports: [AllowancesModule, ApiKeysModule],
  controllers: [OrganisationController, OrganisationsController],
  providers: [OrganisationService, OrganisationSetupService],
  exports: [OrganisationSetupService],
})
export class OrganisationModule {}
