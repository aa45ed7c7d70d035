import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

/** `ended` is every session no longer active: ended by its agent, or disconnected by a member. */
export const SESSION_LIST_STATUSES = ['active', 'ended'] as const;
export type SessionListStatus = (typeof SESSION_LIST_STATUSES)[number];

export class ListSessionsQuery {
  @ApiPropertyOptional({
    enum: SESSION_LIST_STATUSES,
    enumName: 'SessionListStatus',
    description: 'active, or ended: no longer active (the record says ended or disconnected).',
  })
  @IsOptional()
  @IsIn(SESSION_LIST_STATUSES)
  status?: SessionListStatus;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  externalId?: string;

  /** Opaque: the `nextCursor` of the previous page, with the same filters. */
  @ApiPropertyOptional({ description: 'The previous nextCursor; repeat the other parameters unchanged.' })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}
