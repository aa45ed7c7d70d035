import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { CursorPage } from '../../http/cursor-page.query';

/** `ended` is every session no longer active: ended by its agent, or disconnected by a member. */
export const SESSION_LIST_STATUSES = ['active', 'ended'] as const;
export type SessionListStatus = (typeof SESSION_LIST_STATUSES)[number];

class ListSessionsFilters {
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
}

export class ListSessionsQuery extends CursorPage(ListSessionsFilters) {}
