import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsUUID, MaxLength } from 'class-validator';

export class CreateInvitationDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'grace@example.com' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ format: 'uuid', description: 'The role the invitee joins with.' })
  @IsUUID('loose')
  roleId!: string;
}
