import { Module } from '@nestjs/common';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { RolesController } from './roles.controller';
import { RolesRepository } from './roles.repository';
import { RolesService } from './roles.service';

@Module({
  controllers: [RolesController],
  // Deleting a role deletes the invitations naming it, through their owner.
  providers: [RolesService, RolesRepository, InvitationsRepository],
  exports: [RolesService, RolesRepository],
})
export class RolesModule {}
