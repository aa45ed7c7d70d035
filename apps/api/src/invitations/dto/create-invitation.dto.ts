import { IsEmail, IsUUID, MaxLength } from 'class-validator';

export class CreateInvitationDto {
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsUUID()
  roleId!: string;
}
