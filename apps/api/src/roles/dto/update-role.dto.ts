import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, Length, Matches } from 'class-validator';
import { PERMISSIONS } from '@interlock/domain';
import type { Permission } from '@interlock/domain';
import { RequireAnyOf } from '../../http/require-any-of.decorator';
import { IsPermission } from './is-permission.decorator';
import { OptionalField } from '../../http/optional-field.decorator';

/** A change to a custom role: a new name, a new set of permissions, or both — never neither. */
@RequireAnyOf('name', 'permissions')
export class UpdateRoleDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 50,
    example: 'Reviewer',
    description: 'Omit to keep the name.',
  })
  @OptionalField()
  @IsString()
  @Length(1, 50)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({
    enum: PERMISSIONS,
    enumName: 'Permission',
    isArray: true,
    uniqueItems: true,
    maxItems: PERMISSIONS.length,
    description: 'The whole new set, without repeats; omit to keep the permissions.',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsPermission({ each: true })
  permissions?: Permission[];
}
