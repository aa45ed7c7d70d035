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

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description:
      "Name search: every word must be a prefix of a word of the session's name; case and accents are ignored. At most 8 words. " +
      'The beginning of a session id (8 characters or more, as the id is written) finds that session too.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  q?: string;
}

export class ListSessionsQuery extends CursorPage(ListSessionsFilters) {}
