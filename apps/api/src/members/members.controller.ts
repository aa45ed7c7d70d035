import { Body, Controller, Delete, Get, HttpCode, Patch, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { SessionService } from '../auth/session.service';
import { IdParam } from '../http/id-param.pipe';
import { MembersService } from './members.service';
import { ChangeMemberRoleDto } from './dto/change-member-role.dto';
import { MemberListResponse, MemberResponse } from './dto/member.response';

@Controller('api/members')
@ApiTags('members')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  @MemberRoute('member.manage')
  @ApiOperation({ operationId: 'listMembers', summary: "List the organisation's members, oldest first" })
  @ApiOkResponse({ type: MemberListResponse })
  async list(@CurrentMember() member: MemberPrincipal): Promise<MemberListResponse> {
    return { members: await this.members.list(member) };
  }

  @Patch(':id')
  @MemberRoute('member.manage')
  @ApiOperation({ operationId: 'changeMemberRole', summary: "Change a member's role (the last Owner cannot be demoted)" })
  @ApiOkResponse({ type: MemberResponse })
  changeRole(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Body() body: ChangeMemberRoleDto,
    @ClientIp() ip: string | null,
  ): Promise<MemberResponse> {
    return this.members.changeRole(member, id, body.roleId, ip);
  }

  @Delete(':id')
  @HttpCode(204)
  @MemberRoute('member.manage')
  @ApiOperation({
    operationId: 'removeMember',
    summary: 'Remove a member with their sessions and team memberships (the last Owner cannot be removed)',
  })
  @ApiNoContentResponse({ description: 'Removed. Removing yourself also clears your session cookie.' })
  async remove(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.members.remove(member, id, ip);
    // Their sessions are gone with them; a member who left also loses the cookie.
    if (id === member.memberId) this.sessions.clearCookie(res);
  }
}
