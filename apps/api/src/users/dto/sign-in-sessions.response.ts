import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** One of the signed-in person's sign-in sessions (a browser or device where they are signed in). */
export class AccountSignInSession {
  @ApiUuid()
  id!: string;

  @ApiDateTime({ description: 'When this sign-in happened.' })
  createdAt!: string;

  @ApiDateTime({ description: 'Its latest use (to within a minute).' })
  lastUsedAt!: string;

  @ApiDateTime({
    description:
      'When it ends unless used again: the idle timeout after lastUsedAt, or its absolute end (30 days after sign-in), whichever is sooner.',
  })
  endsAt!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The client address of its latest use.',
  })
  ipAddress!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The User-Agent of its latest use (up to 512 characters).',
  })
  userAgent!: string | null;

  @ApiProperty({ description: 'Whether this is the session making the request.' })
  current!: boolean;
}

export class AccountSignInSessionsResponse {
  @ApiProperty({ type: [AccountSignInSession], description: 'The most recently used first.' })
  sessions!: AccountSignInSession[];
}
