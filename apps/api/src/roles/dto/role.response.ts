import { ApiProperty } from '@nestjs/swagger';
import { BUILT_IN_ROLES, PERMISSIONS } from '@interlock/domain';
import type { BuiltInRoleKey, Permission } from '@interlock/domain';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** A role as listed: `builtIn` is `owner`, `developer` or `manager` for the built-in roles, else null. */
export class RoleResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 50, example: 'Reviewer' })
  name!: string;

  @ApiProperty({ enum: PERMISSIONS, enumName: 'Permission', isArray: true, uniqueItems: true })
  permissions!: Permission[];

  @ApiProperty({
    enum: Object.keys(BUILT_IN_ROLES),
    nullable: true,
    type: String,
    description: 'owner, developer or manager for a built-in role; null for a custom role.',
  })
  builtIn!: BuiltInRoleKey | null;

  @ApiDateTime()
  createdAt!: string;
}

export class RoleListResponse {
  @ApiProperty({ type: [RoleResponse] })
  roles!: RoleResponse[];
}
