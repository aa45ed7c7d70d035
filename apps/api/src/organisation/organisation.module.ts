import { Module } from '@nestjs/common';
import { AllowancesModule } from '../allowances/allowances.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { RolesRepository } from '../roles/roles.repository';
import { DeadlineSettingsCache } from './deadline-settings-cache';
import { OrganisationController } from './organisation.controller';
import { InterruptDeadlineSettingsService } from './interrupt-deadline-settings.service';
import { EscalationPolicyService } from './escalation-policy.service';
import { TeamsModule } from '../teams/teams.module';
import { OrganisationService } from './organisation.service';
import { OrganisationsController } from './organisations.controller';
import { OrganisationsRepository } from './organisations.repository';
import { OrganisationSetupService } from './organisation-setup.service';
import { TeamEscalationPolicyController } from './team-escalation-policy.controller';
import { TwoFactorRequirementService } from './two-factor-requirement.service';
import { TwoFactorRepository } from '../users/two-factor.repository';

@Module({
  imports: [AllowancesModule, ApiKeysModule, TeamsModule],
  controllers: [OrganisationController, OrganisationsController, TeamEscalationPolicyController],
  // The built-in roles are written through their owner at set-up.
  providers: [
    OrganisationService,
    InterruptDeadlineSettingsService,
    DeadlineSettingsCache,
    EscalationPolicyService,
    OrganisationSetupService,
    OrganisationsRepository,
    RolesRepository,
    TwoFactorRequirementService,
    // Stateless: whether the Owner turning the requirement on has two-factor sign-in on.
    TwoFactorRepository,
  ],
  exports: [OrganisationSetupService, OrganisationsRepository, DeadlineSettingsCache],
})
export class OrganisationModule {}
