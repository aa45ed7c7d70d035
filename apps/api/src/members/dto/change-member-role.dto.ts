import { IsUUID } from 'class-validator';
import { ApiUuid } from '../../openapi/api-field.decorator';

export class ChangeMemberRoleDto {
  @ApiUuid({ description: 'The role to give the member.' })
  @IsUUID('loose')
  roleId!: string;
}
