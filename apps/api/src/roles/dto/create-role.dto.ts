import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, Length, Matches } from 'class-validator';
import { PERMISSIONS } from '@interlock/domain';
import type { Permission } from '@interlock/domain';
import { IsPermission } from './is-permission.decorator';

export class CreateRoleDto {
  @ApiProperty({ minLength: 1, maxLength: 50, example: 'Reviewer' })
  @IsString()
  @Length(1, 50)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({
    enum: PERMISSIONS,
    enumName: 'Permission',
    isArray: true,
    uniqueItems: true,
    maxItems: PERMISSIONS.length,
    description: 'Without repeats; may be empty.',
  })
  @IsArray()
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsPermission({ each: true })
  permissions!: Permission[];
}
