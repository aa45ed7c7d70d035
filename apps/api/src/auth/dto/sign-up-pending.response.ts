import { ApiProperty } from '@nestjs/swagger';

/**
 * Sign-up's answer with `SIGN_UP_CONFIRMATION=link` (SPEC §8f): the same for every address,
 * taken or not; the email sent to it says which.
 */
export class SignUpPendingResponse {
  @ApiProperty({
    format: 'email',
    description:
      'The address (normalised) a link was emailed to: open it to create the account and its organisation.',
  })
  email!: string;
}
