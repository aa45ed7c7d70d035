import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Length, Matches, MaxLength } from 'class-validator';
import { NewPasswordField } from './password-field.decorator';

export class SignUpDto {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @NewPasswordField()
  password!: string;

  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Your name, as colleagues see it.' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'organisationName must not be blank' })
  organisationName!: string;
}

export class CompleteSignUpDto {
  @ApiProperty({
    maxLength: 4000,
    description: "The token from the sign-up link (the part after the link's #).",
  })
  @IsString()
  @MaxLength(4000)
  token!: string;
}
