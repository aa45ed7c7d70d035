import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class VerifyEmailDto {
  @ApiProperty({
    maxLength: 200,
    description: "The token from the verification link (the part after the link's #).",
  })
  @IsString()
  @MaxLength(200)
  token!: string;
}
