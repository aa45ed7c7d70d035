import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';
import { MAX_URL_LENGTH, URL_PATTERN } from '../../webhooks/webhook-url.util';
import { CLASSIFIER_LIMITS } from '../external-classifier';
import { RISKS } from '../rule-engine';
import { ApiDateTime } from '../../openapi/api-field.decorator';

const T = CLASSIFIER_LIMITS.timeoutMs;

/** `PUT /api/classification/classifier`: creates or changes the organisation's external classifier. */
export class PutClassifierDto {
  @ApiProperty({
    maxLength: MAX_URL_LENGTH,
    pattern: URL_PATTERN,
    example: 'https://risk.example.com/interlock/classify',
    description:
      'https (http only to loopback, outside production). No credentials; in production no private, loopback, link-local or metadata address. Redirects are never followed.',
  })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @ApiPropertyOptional({
    minimum: T.min,
    maximum: T.max,
    default: T.default,
    description:
      'How long argus waits for an answer (the lookup included); past it the action goes to a person.',
  })
  @OptionalField()
  @IsInt()
  @Min(T.min)
  @Max(T.max)
  timeoutMs?: number;

  @ApiPropertyOptional({
    default: true,
    description: 'Off: argus asks nothing (the setup is kept).',
  })
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;
}

/** The organisation's external classifier (never its secret, but on creation and rotation). */
export class ClassifierResponse {
  @ApiProperty()
  url!: string;

  @ApiProperty({ minimum: T.min, maximum: T.max })
  timeoutMs!: number;

  @ApiProperty()
  enabled!: boolean;

  @ApiDateTime({
    nullable: true,
    description: 'After a rotation: until when the previous secret signs beside the new one.',
  })
  previousSecretExpiresAt!: string | null;

  @ApiDateTime()
  createdAt!: string;

  @ApiDateTime()
  updatedAt!: string;
}

export class ClassifierSettingsResponse {
  @ApiProperty({ type: ClassifierResponse, nullable: true, description: 'null: none is set up.' })
  classifier!: ClassifierResponse | null;
}

export class SavedClassifierResponse {
  @ApiProperty({ type: ClassifierResponse })
  classifier!: ClassifierResponse;

  @ApiPropertyOptional({
    description:
      'The signing secret (`whsec_` + base64), only in the answer that created the classifier: it is never shown again.',
  })
  secret?: string;
}

export class ClassifierSecretResponse {
  @ApiProperty({ type: ClassifierResponse })
  classifier!: ClassifierResponse;

  @ApiProperty({ description: 'The new signing secret: shown this once.' })
  secret!: string;
}

/** `POST /api/classification/classifier/test`: one action to ask the classifier about. */
export class TestClassifierDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, default: 'interlock.test' })
  @OptionalField()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  actionName?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {} })
  @OptionalField()
  @IsObject()
  args?: Record<string, unknown>;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200, default: 'A test from Interlock' })
  @OptionalField()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title?: string;
}

export class ClassifierTestResponse {
  @ApiProperty({ description: 'Whether the classifier answered well, in time.' })
  ok!: boolean;

  @ApiProperty({ description: 'How long it took, the lookup included.' })
  classifierMs!: number;

  @ApiProperty({ enum: RISKS, enumName: 'Risk', nullable: true })
  risk!: (typeof RISKS)[number] | null;

  @ApiProperty({ type: [String] })
  labels!: string[];

  @ApiProperty({ type: [String] })
  reasons!: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why there is no answer (the words a receipt would carry); null when ok.',
  })
  error!: string | null;
}
