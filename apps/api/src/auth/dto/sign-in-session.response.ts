import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS, PLANS } from '@interlock/domain';
import type { Permission, Plan } from '@interlock/domain';
import type { SignInMethod } from '../principal';
import { ApiUuid } from '../../openapi/api-field.decorator';

const SIGN_IN_METHODS: readonly SignInMethod[] = ['password', 'single_sign_on'];

export class SignedInMember {
  @ApiUuid({ description: "The member's id: their user id." })
  id!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty()
  name!: string;

  @ApiUuid()
  roleId!: string;

  @ApiProperty({
    example: 'Owner',
    description: "The name of the member's role in this organisation.",
  })
  roleName!: string;
}

export class SignedInOrganisation {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  plan!: Plan;
}

/**
 * The signed-in person as a member of the organisation this request acts for (not an agent's
 * Live View session): who, which organisation, the role and its permissions.
 */
export class SignInSessionResponse {
  @ApiProperty({ type: SignedInMember })
  member!: SignedInMember;

  @ApiProperty({ type: SignedInOrganisation })
  organisation!: SignedInOrganisation;

  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions!: Permission[];

  @ApiProperty({
    enum: SIGN_IN_METHODS,
    enumName: 'SignInMethod',
    description:
      "How this sign-in was made. `single_sign_on`: by this organisation's single sign-on, which acts for it only — creating an organisation or accepting an invitation into another answers 403, so a dashboard does not offer them (SPEC §8f).",
  })
  signedInWith!: SignInMethod;
}
