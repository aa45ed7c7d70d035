import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '@interlock/domain';
import type { Plan } from '@interlock/domain';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** A person who signs in. Their id is their member id in every organisation they belong to. */
export class AccountUser {
  @ApiUuid()
  id!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({
    description:
      'Whether the person proved this address by a link emailed to it (SPEC §8f). Accepting invitations and receiving notifications wait for it where the server requires verification.',
  })
  emailVerified!: boolean;
}

/** An organisation the person is a current member of, with their role in it. */
export class AccountOrganisation {
  @ApiUuid({
    description: 'The organisation id: send it as x-organisation-id to act for it.',
  })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  plan!: Plan;

  @ApiUuid()
  roleId!: string;

  @ApiProperty({
    example: 'Owner',
    description: "The name of the person's role in this organisation.",
  })
  roleName!: string;

  @ApiDateTime()
  joinedAt!: string;
}

/** The signed-in person and the organisations they may act for (GET /api/me, sign-in). */
export class AccountResponse {
  @ApiProperty({ type: AccountUser })
  user!: AccountUser;

  @ApiProperty({
    type: [AccountOrganisation],
    description: 'Current memberships, in the order they were joined.',
  })
  organisations!: AccountOrganisation[];
}

/** After creating or joining an organisation: the account, and the organisation concerned. */
export class OrganisationJoinedResponse extends AccountResponse {
  @ApiProperty({
    type: AccountOrganisation,
    description: 'The organisation just created or joined (also in organisations).',
  })
  organisation!: AccountOrganisation;
}
