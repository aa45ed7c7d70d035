import { Module } from '@nestjs/common';
import { RolesModule } from '../roles/roles.module';
import { TeamsModule } from '../teams/teams.module';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';

@Module({
  imports: [RolesModule, TeamsModule],
  controllers: [MembersController],
  providers: [MembersService],
})
export class MembersModule {}
