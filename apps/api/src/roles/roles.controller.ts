import { Body } from '../http/validated-params';
import type { GranterCall } from '../auth/caller';
import { CurrentMember, GranterCaller } from '../auth/decorators/current-principal.decorator';
import { anyPermissionOf, MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { RolesService } from './roles.service';
import { CreateRoleDto } from './dto/create-role.dto';
import { UpdateRoleDto } from './dto/update-role.dto';
import { RoleListResponse, RoleResponse } from './dto/role.response';
import { CostlyWrite } from '../rate-limits/costly-write.decorator';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/roles', 'roles')
@MemberRoute('role.manage')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  /** Whoever invites needs the roles to invite with, so inviting admits too. */
  @MemberRoute(anyPermissionOf('member.invite', 'role.manage'))
  @Operation.Get('/', 'listRoles', {
    summary: "List the organisation's roles, built-in and custom (member.invite or role.manage)",
    ok: RoleListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { roles: await this.roles.list(member.organisationId) };
  }

  @CostlyWrite('role_create')
  @Operation.Post('/', 'createRole', {
    summary: 'Create a custom role with a set of permissions',
    created: RoleResponse,
  })
  create(@GranterCaller() caller: GranterCall, @Body() body: CreateRoleDto) {
    return this.roles.create(caller, body.name, body.permissions);
  }

  @Operation.Patch(':id', 'updateRole', {
    summary: 'Rename a custom role or replace its permissions (built-in roles cannot be changed)',
    ok: RoleResponse,
  })
  update(@GranterCaller() caller: GranterCall, @IdParam() id: string, @Body() body: UpdateRoleDto) {
    return this.roles.update(caller, id, { name: body.name, permissions: body.permissions });
  }

  @Operation.Delete(':id', 'deleteRole', {
    summary:
      'Delete a custom role that no member holds; the invitations naming it are deleted with it, each audited',
    noContent: 'Deleted.',
  })
  async remove(@GranterCaller() caller: GranterCall, @IdParam() id: string) {
    await this.roles.remove(caller, id);
  }
}
