import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { TeamsService } from './teams.service';
import { AddTeamMemberDto } from './dto/add-team-member.dto';
import { CreateTeamDto } from './dto/create-team.dto';
import { RenameTeamDto } from './dto/rename-team.dto';
import type { TeamResponse } from './dto/team.response';

@Controller('api/teams')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Get()
  @MemberRoute('team.manage')
  async list(@CurrentMember() member: MemberPrincipal): Promise<{ teams: TeamResponse[] }> {
    return { teams: await this.teams.list(member) };
  }

  @Post()
  @MemberRoute('team.manage')
  create(
    @CurrentMember() member: MemberPrincipal,
    @Body() body: CreateTeamDto,
    @ClientIp() ip: string | null,
  ): Promise<TeamResponse> {
    return this.teams.create(member, body.name, ip);
  }

  @Patch(':id')
  @MemberRoute('team.manage')
  rename(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Body() body: RenameTeamDto,
    @ClientIp() ip: string | null,
  ): Promise<TeamResponse> {
    return this.teams.rename(member, id, body.name, ip);
  }

  @Delete(':id')
  @HttpCode(204)
  @MemberRoute('team.manage')
  async remove(@CurrentMember() member: MemberPrincipal, @IdParam() id: string, @ClientIp() ip: string | null): Promise<void> {
    await this.teams.remove(member, id, ip);
  }

  @Post(':id/members')
  @HttpCode(204)
  @MemberRoute('team.manage')
  async addMember(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Body() body: AddTeamMemberDto,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.teams.addMember(member, id, body.memberId, ip);
  }

  @Delete(':id/members/:memberId')
  @HttpCode(204)
  @MemberRoute('team.manage')
  async removeMember(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @IdParam('memberId') memberId: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.teams.removeMember(member, id, memberId, ip);
  }
}
