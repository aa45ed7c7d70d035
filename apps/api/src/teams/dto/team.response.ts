import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

export class TeamResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 50, example: 'Platform' })
  name!: string;

  /** In the order they joined the team. */
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'Member ids, in the order they joined the team.',
  })
  memberIds!: string[];

  @ApiDateTime()
  createdAt!: string;
}

export class TeamListResponse {
  @ApiProperty({ type: [TeamResponse] })
  teams!: TeamResponse[];
}
