import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { CursorPage } from '../../http/cursor-page.query';

import { SESSION_LIST_STATUSES, type SessionListStatus } from '../list-sessions.command';

export { SESSION_LIST_STATUSES, type SessionListStatus };

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
