import { Module } from '@nestjs/common';
import { OrganisationController } from './organisation.controller';
import { OrganisationService } from './organisation.service';
import { OrganisationSetupService } from './organisation-setup.service';

@Module({
  controllers: [OrganisationController],
  providers: [OrganisationService, OrganisationSetupService],
  exports: [OrganisationSetupService],
})
export class OrganisationModule {}
