import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS, PLANS } from '@interlock/domain';
import type { Permission, Plan } from '@interlock/domain';

export class SignedInMember {
  @ApiProperty({ format: 'uuid', description: "The member's id: their user id." })
  id!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'uuid' })
  roleId!: string;

  @ApiProperty({
    example: 'Owner',
    description: "The name of the member's role in this organisation.",
  })
  roleName!: string;
}

export class SignedInOrganisation {
  @ApiProperty({ format: 'uuid' })
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
}
