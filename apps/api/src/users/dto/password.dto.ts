import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';

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

  @ApiProperty({ minLength: 8, maxLength: 200, format: 'password' })
  @IsString()
  @Length(8, 200)
  password!: string;
}

export class ChangePasswordDto {
  @ApiProperty({ maxLength: 200, format: 'password' })
  @IsString()
  @MaxLength(200)
  currentPassword!: string;

  @ApiProperty({ minLength: 8, maxLength: 200, format: 'password' })
  @IsString()
  @Length(8, 200)
  newPassword!: string;
}
