import { ApiProperty } from '@nestjs/swagger';
import { SESSION_STATUSES } from '../session.entity';
import type { SessionStatus } from '../session.entity';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** A Live View session. `messageCount` is also the id of its last message event. */
export class SessionResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'nightly-build' })
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  externalId!: string | null;

  @ApiProperty({ enum: SESSION_STATUSES, enumName: 'SessionStatus' })
  status!: SessionStatus;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  metadata!: Record<string, unknown> | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Messages appended so far; the last one is numbered this.',
  })
  messageCount!: number;

  @ApiDateTime()
  startedAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt!: string | null;
}

export class AppendMessagesResponse {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 })
  appended!: number;
}

export class SessionListResponse {
  @ApiProperty({ type: [SessionResponse], description: 'Newest first.' })
  sessions!: SessionResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null on the last page.' })
  nextCursor!: string | null;
}
