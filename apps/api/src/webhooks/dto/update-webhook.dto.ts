import { OptionalField } from '../../http/optional-field.decorator';
import { ApiPropertyOptional } from '@nestjs/swagger';
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
import { RequireAnyOf } from '../../http/require-any-of.decorator';
import { MAX_URL_LENGTH, URL_PATTERN } from '../webhook-url.util';
import { MAX_DESCRIPTION_LENGTH, SUBSCRIBABLE_EVENT_TYPES } from './create-webhook.dto';

/** Every field optional: what is given changes, the rest stays — but something must be given. */
@RequireAnyOf('url', 'description', 'eventTypes', 'enabled')
export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: MAX_URL_LENGTH, pattern: URL_PATTERN })
  @OptionalField()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({ maxLength: MAX_DESCRIPTION_LENGTH })
  @OptionalField()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: SUBSCRIBABLE_EVENT_TYPES,
    enumName: 'WebhookEventType',
    nullable: true,
    description: 'null: every type.',
  })
  @ValidateIf((o: UpdateWebhookDto) => o.eventTypes !== null && o.eventTypes !== undefined)
  @IsArray()
  @ArrayMinSize(1, {
    message: 'eventTypes must list at least one event type (or be null for every type)',
  })
  @ArrayMaxSize(SUBSCRIBABLE_EVENT_TYPES.length)
  @ArrayUnique({ message: 'eventTypes must not repeat a type' })
  @IsIn(SUBSCRIBABLE_EVENT_TYPES, {
    each: true,
    message: `eventTypes must list only ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
  })
  eventTypes?: string[] | null;

  @ApiPropertyOptional({
    description:
      'false stops deliveries (pending ones wait); true resumes them and clears the failure streak.',
  })
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;
}
