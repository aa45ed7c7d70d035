import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class SignInDto {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsString()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ maxLength: 200, format: 'password' })
  @IsString()
  @MaxLength(200)
  password!: string;
}
