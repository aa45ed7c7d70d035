import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class ChangeMemberRoleDto {
  @ApiProperty({ format: 'uuid', description: 'The role to give the member.' })
  @IsUUID('loose')
  roleId!: string;
}
