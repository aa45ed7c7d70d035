import { Body, Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { anyPermissionOf, MemberRoute } from '../auth/decorators/route-access.decorator';
import { granterOf, type MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { RolesService } from './roles.service';
import { CreateRoleDto } from './dto/create-role.dto';
import { UpdateRoleDto } from './dto/update-role.dto';
import { RoleListResponse, RoleResponse } from './dto/role.response';
import { CostlyWrite } from '../rate-limits/costly-write.decorator';
import { NoContent } from '../openapi/no-content.decorator';
import { Operation } from '../openapi/operation.decorator';

@Controller('api/roles')
@ApiTags('roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  /** Whoever invites needs the roles to invite with, so inviting admits too. */
  @Get()
  @MemberRoute(anyPermissionOf('member.invite', 'role.manage'))
  @Operation({
    operationId: 'listRoles',
    summary: "List the organisation's roles, built-in and custom (member.invite or role.manage)",
    ok: RoleListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal): Promise<RoleListResponse> {
    return { roles: await this.roles.list(member.organisationId) };
  }

  @Post()
  @MemberRoute('role.manage')
  @CostlyWrite('role_create')
  @Operation({
    operationId: 'createRole',
    summary: 'Create a custom role with a set of permissions',
    created: RoleResponse,
  })
  create(
    @CurrentMember() member: MemberPrincipal,
    @Body() body: CreateRoleDto,
    @ClientIp() ip: string | null,
  ): Promise<RoleResponse> {
    return this.roles.create(
      member.organisationId,
      granterOf(member),
      body.name,
      body.permissions,
      ip,
    );
  }

  @Patch(':id')
  @MemberRoute('role.manage')
  @Operation({
    operationId: 'updateRole',
    summary: 'Rename a custom role or replace its permissions (built-in roles cannot be changed)',
    ok: RoleResponse,
  })
  update(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Body() body: UpdateRoleDto,
    @ClientIp() ip: string | null,
  ): Promise<RoleResponse> {
    return this.roles.update(
      member.organisationId,
      granterOf(member),
      id,
      { name: body.name, permissions: body.permissions },
      ip,
    );
  }

  @Delete(':id')
  @MemberRoute('role.manage')
  @Operation({
    operationId: 'deleteRole',
    summary:
      'Delete a custom role that no member holds; the invitations naming it are deleted with it, each audited',
  })
  @NoContent('Deleted.')
  async remove(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.roles.remove(member.organisationId, granterOf(member), id, ip);
  }
}
