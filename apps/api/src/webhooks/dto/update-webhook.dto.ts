import { OptionalField } from '../../http/optional-field.decorator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { RequireAnyOf } from '../../http/require-any-of.decorator';
import { MAX_URL_LENGTH, URL_PATTERN } from '../webhook-url.util';
import { EventTypesField, MAX_DESCRIPTION_LENGTH } from './create-webhook.dto';

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

  @EventTypesField('null: every type.')
  eventTypes?: string[] | null;

  @ApiPropertyOptional({
    description:
      'false stops deliveries (pending ones wait); true resumes them and clears the failure streak.',
  })
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;
}
