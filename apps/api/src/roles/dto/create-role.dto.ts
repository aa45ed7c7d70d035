import { ArrayMaxSize, ArrayUnique, IsArray, IsString, Length, Matches } from 'class-validator';
import { Permission, PERMISSIONS } from '@interlock/domain';
import { IsPermission } from './is-permission.decorator';

export class CreateRoleDto {
  @IsString()
  @Length(1, 50)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @IsArray()
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsPermission({ each: true })
  permissions!: Permission[];
}
