import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS, PLANS } from '@interlock/domain';
import type { Permission, Plan } from '@interlock/domain';

export class SignedInMember {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'uuid' })
  roleId!: string;
}

export class SignedInOrganisation {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  plan!: Plan;
}

/** Who is signed in; the session itself travels in the HttpOnly `session` cookie. */
export class SignedInResponse {
  @ApiProperty({ type: SignedInMember })
  member!: SignedInMember;

  @ApiProperty({ type: SignedInOrganisation })
  organisation!: SignedInOrganisation;
}

/** The signed-in member's session (not an agent's Live View session). */
export class CurrentSessionResponse extends SignedInResponse {
  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions!: Permission[];
}
