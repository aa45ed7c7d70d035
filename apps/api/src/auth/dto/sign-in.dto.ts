import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PasswordField } from './password-field.decorator';

export class SignInDto {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsString()
  @MaxLength(254)
  email!: string;

  @PasswordField()
  password!: string;

  @ApiProperty({
    required: false,
    maxLength: 64,
    description:
      'Where two-factor sign-in is on: the 6-digit code from the authenticator app, or an unused recovery code. Without it such an account answers 401 TWO_FACTOR_REQUIRED (the password was right).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  code?: string;
}
