import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

export class AcceptInvitationDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    example: 'Grace Hopper',
    description: "The new member's name.",
  })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({ format: 'password', minLength: 8, maxLength: 200 })
  @IsString()
  @Length(8, 200)
  password!: string;

  @ApiPropertyOptional({
    maxLength: 100,
    description:
      "The part after the # of the invitation email's link: it proves the address (only that mailbox has it), so the new account's address counts as verified.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  emailProof?: string;
}
