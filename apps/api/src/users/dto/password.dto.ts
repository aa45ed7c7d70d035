import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';
import { NewPasswordField, PasswordField } from '../../auth/dto/password-field.decorator';
import { LinkTokenField } from './link-token-field.decorator';

export class PasswordResetRequestDto {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail()
  @MaxLength(254)
  email!: string;
}

export class PasswordResetConfirmDto {
  @LinkTokenField('the reset link')
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
