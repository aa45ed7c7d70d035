import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';
import { RequireAnyOf } from '../../http/require-any-of.decorator';
import {
  RULE_LIMITS,
  RULE_MODES,
  RULE_ORIGINS,
  type RuleMatch,
  type RuleMode,
  type RuleOrigin,
  type RuleOutcome,
} from '../rule-engine';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const MATCH_DESCRIPTION = 'What the rule matches (every given condition must hold): RuleMatch.';
const OUTCOME_DESCRIPTION =
  'What the rule does: RuleOutcome (approve, reject with a message, route, require_human).';

/**
 * A rule (SPEC §8d). `match` and `outcome` are checked field by field by the rule engine
 * (rule-engine.ts), which names the offending path; the contract states their shapes
 * (openapi/contract-schemas.ts stateClassificationRules).
 */
export class CreateClassificationRuleDto {
  @ApiProperty({
    minLength: 1,
    maxLength: RULE_LIMITS.name,
    example: 'Small refunds from the billing agent',
  })
  @IsString()
  @Length(1, RULE_LIMITS.name)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({
    enum: RULE_MODES,
    enumName: 'ClassificationRuleMode',
    description: 'off: ignored; shadow: recorded, never applied; enforce: applied.',
  })
  @IsIn(RULE_MODES, { message: `mode must be one of ${RULE_MODES.join(', ')}` })
  mode!: RuleMode;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: RULE_LIMITS.priority,
    default: 100,
    description: 'Lower runs first.',
  })
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(RULE_LIMITS.priority)
  priority?: number;

  @ApiProperty({ type: 'object', additionalProperties: true, description: MATCH_DESCRIPTION })
  @IsObject()
  match!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: OUTCOME_DESCRIPTION })
  @IsObject()
  outcome!: Record<string, unknown>;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'After this the rule no longer applies; null or absent: never.',
  })
  @ValidateIf((_o: unknown, v: unknown) => v !== undefined && v !== null)
  @IsString()
  @Matches(ISO_TIMESTAMP, {
    message: 'expiresAt must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z',
  })
  expiresAt?: string | null;
}

/** Every field optional: what is given changes, the rest stays — but something must be given. */
@RequireAnyOf('name', 'mode', 'priority', 'match', 'outcome', 'expiresAt')
export class UpdateClassificationRuleDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: RULE_LIMITS.name })
  @OptionalField()
  @IsString()
  @Length(1, RULE_LIMITS.name)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({ enum: RULE_MODES, enumName: 'ClassificationRuleMode' })
  @OptionalField()
  @IsIn(RULE_MODES, { message: `mode must be one of ${RULE_MODES.join(', ')}` })
  mode?: RuleMode;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: RULE_LIMITS.priority })
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(RULE_LIMITS.priority)
  priority?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: MATCH_DESCRIPTION,
  })
  @OptionalField()
  @IsObject()
  match?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: OUTCOME_DESCRIPTION,
  })
  @OptionalField()
  @IsObject()
  outcome?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null: never expires.',
  })
  @ValidateIf((_o: unknown, v: unknown) => v !== undefined && v !== null)
  @IsString()
  @Matches(ISO_TIMESTAMP, {
    message: 'expiresAt must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z',
  })
  expiresAt?: string | null;
}

/** Why a rule was switched off without its editor (SPEC §8d). */
export class ClassificationRulePause {
  @ApiDateTime()
  at!: string;

  @ApiUuid({ description: 'The interrupt whose action was rejected.' })
  interruptId!: string;

  @ApiProperty()
  actionName!: string;

  @ApiProperty({ description: 'Who rejected it, by name at the time.' })
  byName!: string;
}

export class ClassificationRuleResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: RULE_MODES, enumName: 'ClassificationRuleMode' })
  mode!: RuleMode;

  @ApiProperty({ type: 'integer' })
  priority!: number;

  @ApiProperty({ type: 'object', additionalProperties: true, description: MATCH_DESCRIPTION })
  match!: RuleMatch;

  @ApiProperty({ type: 'object', additionalProperties: true, description: OUTCOME_DESCRIPTION })
  outcome!: RuleOutcome;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiresAt!: string | null;

  @ApiProperty({
    enum: RULE_ORIGINS,
    enumName: 'ClassificationRuleOrigin',
    description:
      'member: written in the editor or the API; always_allow: made by "Always allow this" on an interrupt; suggestion: applied from a suggestion.',
  })
  origin!: RuleOrigin;

  @ApiUuid({
    nullable: true,
    description: 'For always_allow: the interrupt it was made from.',
  })
  originInterruptId!: string | null;

  @ApiProperty({
    type: () => ClassificationRulePause,
    nullable: true,
    description:
      'Set when a person rejected an action this always_allow rule would approve, which switched it off; cleared by the next mode change.',
  })
  paused!: ClassificationRulePause | null;

  @ApiDateTime()
  createdAt!: string;

  @ApiDateTime()
  updatedAt!: string;
}

export class ClassificationShadowStats {
  @ApiProperty({ type: 'integer', description: 'Actions the rule matched in shadow mode.' })
  matched!: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Of those, the actions it would have decided (approve or reject, allowed by the action).',
  })
  wouldDecide!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Of those, the actions a person has since decided.',
  })
  decidedByPeople!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Of those, the actions the person decided as the rule would have.',
  })
  agreed!: number;
}

export class ClassificationEnforceStats {
  @ApiProperty({ type: 'integer', description: 'Actions the rule matched in enforce mode.' })
  matched!: number;

  @ApiProperty({ type: 'integer', description: 'Of those, the actions it decided.' })
  decided!: number;
}

/** What a rule has matched since what it matches or does last changed. */
export class ClassificationRuleStats {
  @ApiProperty({ type: ClassificationShadowStats })
  shadow!: ClassificationShadowStats;

  @ApiProperty({ type: ClassificationEnforceStats })
  enforce!: ClassificationEnforceStats;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastMatchedAt!: string | null;
}

export class ClassificationRuleListItem extends ClassificationRuleResponse {
  @ApiProperty({ type: ClassificationRuleStats })
  stats!: ClassificationRuleStats;
}

export class ClassificationRuleListResponse {
  @ApiProperty({
    type: [ClassificationRuleListItem],
    description: 'In evaluation order: priority, then creation; each with its statistics.',
  })
  rules!: ClassificationRuleListItem[];
}

/** An action a person decided otherwise than a shadow rule would have. */
export class ClassificationDisagreement {
  @ApiUuid()
  interruptId!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  actionName!: string;

  @ApiProperty({ description: 'What the rule would have done: approve or reject.' })
  outcome!: string;

  @ApiProperty({ description: 'What the person decided: approve, edit, reject or respond.' })
  decision!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The person, by name at the time.' })
  decidedByName!: string | null;

  @ApiDateTime()
  decidedAt!: string;
}

export class ClassificationRuleStatsResponse extends ClassificationRuleStats {
  @ApiUuid()
  ruleId!: string;

  @ApiProperty({ type: [ClassificationDisagreement], description: 'The latest 50, newest first.' })
  disagreements!: ClassificationDisagreement[];
}
