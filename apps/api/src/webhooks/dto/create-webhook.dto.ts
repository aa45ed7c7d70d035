import { applyDecorators } from '@nestjs/common';
import { OptionalField } from '../../http/optional-field.decorator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { STREAM_EVENT_TYPES } from '@interlock/domain';
import { MAX_URL_LENGTH, URL_PATTERN } from '../webhook-url.util';

/** The event types a webhook can subscribe to: every type but `webhook.test`, sent on request. */
export const SUBSCRIBABLE_EVENT_TYPES = STREAM_EVENT_TYPES;
export const MAX_DESCRIPTION_LENGTH = 500;

/**
 * A webhook's `eventTypes`, on create and update alike: null or absent means every type
 * (including ones added later); a list names one or more distinct subscribable types.
 */
export const EventTypesField = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: [String],
      enum: SUBSCRIBABLE_EVENT_TYPES,
      enumName: 'WebhookEventType',
      nullable: true,
      description,
    }),
    ValidateIf((_object: unknown, value: unknown) => value !== null && value !== undefined),
    IsArray(),
    ArrayMinSize(1, {
      message: 'eventTypes must list at least one event type (or be null for every type)',
    }),
    ArrayMaxSize(SUBSCRIBABLE_EVENT_TYPES.length),
    ArrayUnique({ message: 'eventTypes must not repeat a type' }),
    IsIn(SUBSCRIBABLE_EVENT_TYPES, {
      each: true,
      message: `eventTypes must list only ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
    }),
  );

export class CreateWebhookDto {
  @ApiProperty({
    maxLength: MAX_URL_LENGTH,
    pattern: URL_PATTERN,
    example: 'https://agents.example.com/interlock/webhooks',
    description:
      'https (http only to loopback, outside production). No credentials; in production no private, loopback, link-local or metadata address.',
  })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @ApiPropertyOptional({ maxLength: MAX_DESCRIPTION_LENGTH, default: '' })
  @OptionalField()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string;

  @EventTypesField(
    'The event types to send; null or absent: every type, including ones added later.',
  )
  eventTypes?: string[] | null;

  @ApiPropertyOptional({ default: true })
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;
}
