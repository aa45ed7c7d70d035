import { Module } from '@nestjs/common';
import { OrganisationModule } from '../organisation/organisation.module';
import { NotifyModule } from '../notify/notify.module';
import { RolesModule } from '../roles/roles.module';
import { AccountEmailModule } from '../users/account-email.module';
import { InvitationsController } from './invitations.controller';
import { InvitationsRepository } from './invitations.repository';
import { InvitationAcceptanceService } from './invitation-acceptance.service';
import { InvitationsService } from './invitations.service';

@Module({
  imports: [RolesModule, OrganisationModule, NotifyModule, AccountEmailModule],
  controllers: [InvitationsController],
  providers: [InvitationsService, InvitationAcceptanceService, InvitationsRepository],
})
export class InvitationsModule {}
