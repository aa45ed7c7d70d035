import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';

const REQUIREMENT =
  'true: a member signed in with a password acts for the organisation only once two-factor sign-in is on for their account (until then every request for it answers 403 TWO_FACTOR_ENROLMENT_REQUIRED, and only their own account settings work); single sign-on sessions follow the provider’s policy. API keys are not affected.';

/** `PUT /api/organisation/two-factor-requirement` (SPEC §8f). */
export class PutTwoFactorRequirementDto {
  @ApiProperty({ description: REQUIREMENT })
  @IsBoolean()
  requireTwoFactor!: boolean;
}

export class TwoFactorRequirementResponse {
  @ApiProperty({ description: REQUIREMENT })
  requireTwoFactor!: boolean;
}
