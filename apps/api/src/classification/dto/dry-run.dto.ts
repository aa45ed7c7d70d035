import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUUID,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { DECISIONS, type Decision } from '@interlock/domain';
import { OptionalField } from '../../http/optional-field.decorator';
import { RequireAnyOf } from '../../http/require-any-of.decorator';
import { RISKS, type Risk } from '../rule-engine';
import { CreateClassificationRuleDto } from './classification-rule.dto';
import { ApiUuid } from '../../openapi/api-field.decorator';

export const DRY_RUN_MAX_INTERRUPTS = 200;
export const DRY_RUN_CLASSIFIER_STATES = ['none', 'not_asked', 'answered', 'failed'] as const;
export type DryRunClassifierState = (typeof DRY_RUN_CLASSIFIER_STATES)[number];

export class DryRunActionDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalField()
  @IsObject()
  args?: Record<string, unknown>;

  @ApiPropertyOptional({ enum: DECISIONS, enumName: 'DecisionType', isArray: true })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(DECISIONS, { each: true })
  allowedDecisions?: Decision[];
}

/** One action (or several) to classify, as an interrupt would bring it. */
export class DryRunSampleDto {
  @ApiPropertyOptional({ maxLength: 200, default: '' })
  @OptionalField()
  @IsString()
  @Length(0, 200)
  title?: string;

  @ApiProperty({ type: [DryRunActionDto], minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => DryRunActionDto)
  actionRequests!: DryRunActionDto[];

  @ApiPropertyOptional({ format: 'uuid', description: 'The API key that would open it.' })
  @OptionalField()
  @IsUUID()
  keyId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalField()
  @IsUUID()
  sessionId?: string;
}

/**
 * `sample`: classify these actions; `lastInterrupts`: classify the organisation's latest N
 * interrupts. `rules`: run these draft rules (as written, enforce or shadow) instead of the
 * saved ones — the rule editor's preview. Nothing is written.
 */
@RequireAnyOf('sample', 'lastInterrupts')
export class DryRunDto {
  @ApiPropertyOptional({ type: DryRunSampleDto })
  @OptionalField()
  @ValidateNested()
  @Type(() => DryRunSampleDto)
  sample?: DryRunSampleDto;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: DRY_RUN_MAX_INTERRUPTS })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(DRY_RUN_MAX_INTERRUPTS)
  lastInterrupts?: number;

  @ApiPropertyOptional({
    type: [CreateClassificationRuleDto],
    maxItems: 20,
    description: 'Draft rules to run instead of the saved ones.',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => CreateClassificationRuleDto)
  rules?: CreateClassificationRuleDto[];

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      "Ask the organisation's external classifier about each action, as POST /api/interrupts does (signed, fail closed), so rules on risk and labels preview truthfully; at most 20 lastInterrupts with it. Absent or false: it is not asked (each action says classifier not_asked) and rules naming risk or labels match nothing.",
  })
  @OptionalField()
  @IsBoolean()
  askClassifier?: boolean;
}

export class DryRunActionResult {
  @ApiProperty()
  actionName!: string;

  @ApiProperty({
    enum: ['approve', 'reject', 'route', 'require_human', 'person'],
    description: 'What argus would do; person: no rule decides.',
  })
  result!: 'approve' | 'reject' | 'route' | 'require_human' | 'person';

  @ApiUuid({
    nullable: true,
    description: 'The enforce rule that decides, if one does.',
  })
  ruleId!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'With reject: the message the agent would receive.',
  })
  message!: string | null;

  @ApiProperty({
    type: [String],
    description: 'Shadow rules that would match (recorded, not applied).',
  })
  shadowRuleIds!: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why an enforce rule would not apply (decision_not_allowed).',
  })
  skipped!: string | null;

  @ApiProperty({
    enum: DRY_RUN_CLASSIFIER_STATES,
    enumName: 'DryRunClassifierState',
    description:
      'The external classifier for this action: none (the organisation has none enabled), not_asked (askClassifier was not set), answered, failed (argus would fail closed: a person decides).',
  })
  classifier!: DryRunClassifierState;

  @ApiProperty({
    enum: RISKS,
    enumName: 'Risk',
    nullable: true,
    description: "The classifier's risk for the action (answered only).",
  })
  risk!: Risk | null;

  @ApiProperty({ type: [String], description: "The classifier's labels (answered only)." })
  labels!: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'failed: why the classifier gave no answer.',
  })
  classifierError!: string | null;
}

export class DryRunInterruptResult {
  @ApiUuid({
    nullable: true,
    description: 'The interrupt classified (null for a sample).',
  })
  interruptId!: string | null;

  @ApiProperty()
  title!: string;

  @ApiProperty({ type: [DryRunActionResult] })
  actions!: DryRunActionResult[];
}

export class DryRunResponse {
  @ApiProperty({ type: [DryRunInterruptResult] })
  results!: DryRunInterruptResult[];
}
