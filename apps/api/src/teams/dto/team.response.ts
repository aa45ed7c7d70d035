import { ApiProperty } from '@nestjs/swagger';

export class TeamResponse {
  @ApiProperty({ format: 'uuid' })
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

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class TeamListResponse {
  @ApiProperty({ type: [TeamResponse] })
  teams!: TeamResponse[];
}
