import { ApiProperty, OmitType } from '@nestjs/swagger';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** An invitation as listed: never its token. */
export class InvitationResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty({ format: 'email', maxLength: 254, example: 'grace@example.com' })
  email!: string;

  @ApiUuid()
  roleId!: string;

  @ApiDateTime()
  createdAt!: string;

  @ApiDateTime({ description: 'Seven days after creation.' })
  expiresAt!: string;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'null: not accepted yet.',
  })
  acceptedAt!: string | null;
}

/** The creation response: the only time the token is shown. */
export class CreatedInvitationResponse extends OmitType(InvitationResponse, [
  'acceptedAt',
] as const) {
  @ApiProperty({
    description: 'The one-time token for the accept link. Shown once; send it to the invitee now.',
  })
  token!: string;
}

export class InvitationListResponse {
  @ApiProperty({ type: [InvitationResponse] })
  invitations!: InvitationResponse[];
}

/** What an invitation offers, shown to whoever holds its token (the accept page). */
export class InvitationPreviewResponse {
  @ApiProperty({
    format: 'email',
    description: 'The address it was sent to: the account that may accept it.',
  })
  email!: string;

  @ApiProperty({ example: 'Acme' })
  organisationName!: string;

  @ApiProperty({ example: 'Developer' })
  roleName!: string;

  @ApiDateTime()
  expiresAt!: string;
}
