import { Body } from '../http/validated-params';
import type { GranterCall } from '../auth/caller';
import { CurrentMember, GranterCaller } from '../auth/decorators/current-principal.decorator';
import { anyPermissionOf, MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { MembersService } from './members.service';
import { ChangeMemberRoleDto } from './dto/change-member-role.dto';
import { MemberListResponse, MemberResponse } from './dto/member.response';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/members', 'members')
@MemberRoute('member.manage')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  // Whoever may assign interrupts must see whom to assign them to (docs/DECISIONS.md).
  @MemberRoute(anyPermissionOf('member.manage', 'interrupt.assign'))
  @Operation.Get('/', 'listMembers', {
    summary: "List the organisation's members, oldest first",
    ok: MemberListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { members: await this.members.list(member.organisationId) };
  }

  @Operation.Patch(':id', 'changeMemberRole', {
    summary: "Change a member's role (the last Owner cannot be demoted)",
    ok: MemberResponse,
  })
  changeRole(
    @GranterCaller() caller: GranterCall,
    @IdParam() id: string,
    @Body() body: ChangeMemberRoleDto,
  ) {
    return this.members.changeRole(caller, id, body.roleId);
  }

  @Operation.Delete(':id', 'removeMember', {
    summary:
      'Remove a member: their membership of this organisation ends, with its role and teams (the last Owner cannot be removed). ' +
      'Their account and sign-in sessions stay, for their other organisations.',
    noContent: 'Removed (or left, when it is yourself).',
  })
  async remove(@GranterCaller() caller: GranterCall, @IdParam() id: string) {
    await this.members.remove(caller, id);
  }
}
