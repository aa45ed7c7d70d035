import { Body } from '../http/validated-params';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { anyPermissionOf, MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { TeamsService } from './teams.service';
import { AddTeamMemberDto } from './dto/add-team-member.dto';
import { CreateTeamDto } from './dto/create-team.dto';
import { RenameTeamDto } from './dto/rename-team.dto';
import { TeamListResponse, TeamResponse } from './dto/team.response';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/teams', 'teams')
@MemberRoute('team.manage')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  // Whoever may assign interrupts must see the teams to assign them to (docs/DECISIONS.md).
  @MemberRoute(anyPermissionOf('team.manage', 'interrupt.assign'))
  @Operation.Get('/', 'listTeams', {
    summary: "List the organisation's teams with their members",
    ok: TeamListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { teams: await this.teams.list(member.organisationId) };
  }

  @Operation.Post('/', 'createTeam', { summary: 'Create an empty team', created: TeamResponse })
  create(@MemberCaller() caller: MemberCall, @Body() body: CreateTeamDto) {
    return this.teams.create(caller, body.name);
  }

  @Operation.Patch(':id', 'renameTeam', { summary: 'Rename a team', ok: TeamResponse })
  rename(@MemberCaller() caller: MemberCall, @IdParam() id: string, @Body() body: RenameTeamDto) {
    return this.teams.rename(caller, id, body.name);
  }

  @Operation.Delete(':id', 'deleteTeam', {
    summary: 'Delete a team (its members stay in the organisation)',
    noContent: 'Deleted.',
  })
  async remove(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    await this.teams.remove(caller, id);
  }

  @Operation.Post(':id/members', 'addTeamMember', {
    summary: 'Add a member to a team; adding one already in it changes nothing',
    noContent: 'Added (or already in the team).',
  })
  async addMember(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: AddTeamMemberDto,
  ) {
    await this.teams.addMember(caller, id, body.memberId);
  }

  @Operation.Delete(':id/members/:memberId', 'removeTeamMember', {
    summary: 'Remove a member from a team; removing one not in it changes nothing',
    noContent: 'Removed (or was not in the team).',
  })
  async removeMember(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @IdParam('memberId') memberId: string,
  ) {
    await this.teams.removeMember(caller, id, memberId);
  }
}
