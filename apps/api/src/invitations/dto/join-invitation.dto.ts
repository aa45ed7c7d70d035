import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';

/** Joining with the account one is signed in to (no body, `{}`, or the email's proof). */
export class JoinInvitationDto {
  @ApiPropertyOptional({
    maxLength: 100,
    description:
      "The part after the # of the invitation email's link: it proves the address (only that mailbox has it), so the account's address counts as verified.",
  })
  @OptionalField()
  @IsString()
  @MaxLength(100)
  emailProof?: string;
}
