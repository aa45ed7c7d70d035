import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { INTERRUPT_STATUSES, PRIORITIES, type Priority } from '../interrupt.entity';
import { LABEL_PATTERN } from './create-interrupt.dto';
import type { InterruptStatus } from '../interrupt.entity';
import { CursorPage } from '../../http/cursor-page.query';

import {
  ASSIGNEE_FILTERS,
  type AssigneeFilter,
  LIST_ORDERS,
  type ListOrder,
  OPENED_BY_FILTERS,
  type OpenedByFilter,
} from '../list-interrupts.command';

export { ASSIGNEE_FILTERS, LIST_ORDERS, OPENED_BY_FILTERS };
export type { AssigneeFilter, ListOrder, OpenedByFilter };

/** `true`/`false` in a query string; anything else is left for IsBoolean to refuse. */
const queryBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** `high,urgent` in a query string: the list (repeated ones once); anything else for IsIn to refuse. */
const queryList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? [...new Set(value.split(','))] : value;

class ListInterruptsFilters {
  @ApiPropertyOptional({ enum: INTERRUPT_STATUSES, enumName: 'InterruptStatus' })
  @IsOptional()
  @IsIn(INTERRUPT_STATUSES)
  status?: InterruptStatus;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  externalId?: string;

  @ApiPropertyOptional({
    enum: ASSIGNEE_FILTERS,
    enumName: 'AssigneeFilter',
    description:
      'me: assigned to the signed-in member; my_teams: to a team the member belongs to; unassigned: to no one. ' +
      'A key is no member and in no team: with a key, me and my_teams match nothing.',
  })
  @IsOptional()
  @IsIn(ASSIGNEE_FILTERS)
  assignee?: AssigneeFilter;

  @ApiPropertyOptional({
    enum: OPENED_BY_FILTERS,
    enumName: 'OpenedByFilter',
    description:
      'me: opened by the API key making the request (a signed-in member opened none: the page is empty).',
  })
  @IsOptional()
  @IsIn(OPENED_BY_FILTERS)
  openedBy?: OpenedByFilter;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'true: escalated at least once; false: never escalated.',
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean({ message: 'escalated must be true or false' })
  escalated?: boolean;

  @ApiPropertyOptional({
    type: 'string',
    pattern: `^(${PRIORITIES.join('|')})(,(${PRIORITIES.join('|')}))*$`,
    example: 'high,urgent',
    description:
      'Only these priorities, comma-separated: low, normal, high, urgent (e.g. high,urgent).',
  })
  @IsOptional()
  @Transform(queryList)
  @IsIn(PRIORITIES, {
    each: true,
    message: `priority must be a comma-separated list of ${PRIORITIES.join(', ')}`,
  })
  priority?: Priority[];

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 50,
    pattern: LABEL_PATTERN.source,
    description:
      "Only interrupts with this label (exactly), the agent's or the external classifier's.",
  })
  @IsOptional()
  @Matches(LABEL_PATTERN, {
    message: 'label must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
  })
  label?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description:
      'Title search: every word must be a prefix of a word of the title; case and accents are ignored. At most 8 words.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  q?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'createdAt from this instant, inclusive (ISO 8601).',
  })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'createdAt before this instant, exclusive (ISO 8601).',
  })
  @IsOptional()
  @IsString()
  to?: string;

  @ApiPropertyOptional({
    enum: LIST_ORDERS,
    enumName: 'ListOrder',
    default: 'newest',
    description:
      'newest/oldest: by createdAt; deadline: the soonest expiresAt first, interrupts without a deadline last. Ties by id.',
  })
  @IsOptional()
  @IsIn(LIST_ORDERS)
  order?: ListOrder;
}

export class ListInterruptsQuery extends CursorPage(ListInterruptsFilters) {}
