import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsUUID, MaxLength } from 'class-validator';
import { ApiUuid } from '../../openapi/api-field.decorator';

export class CreateInvitationDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'grace@example.com' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiUuid({ description: 'The role the invitee joins with.' })
  @IsUUID('loose')
  roleId!: string;
}
