import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength } from 'class-validator';
import { NewPasswordField, PasswordField } from '../../auth/dto/password-field.decorator';

export class PasswordResetRequestDto {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail()
  @MaxLength(254)
  email!: string;
}

export class PasswordResetConfirmDto {
  @ApiProperty({
    maxLength: 200,
    description: "The token from the reset link (the part after the link's #).",
  })
  @IsString()
  @MaxLength(200)
  token!: string;

  @NewPasswordField()
  password!: string;
}

export class ChangePasswordDto {
  @PasswordField()
  currentPassword!: string;

  @NewPasswordField()
  newPassword!: string;
}
