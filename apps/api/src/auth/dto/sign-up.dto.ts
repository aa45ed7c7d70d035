import { IsEmail, IsString, Length, Matches, MaxLength } from 'class-validator';

export class SignUpDto {
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsString()
  @Length(8, 200)
  password!: string;

  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'organisationName must not be blank' })
  organisationName!: string;
}
