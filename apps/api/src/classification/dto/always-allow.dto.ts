import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsInt, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';
import { ALWAYS_ALLOW_DEFAULT_DAYS, ALWAYS_ALLOW_MAX_DAYS } from '../always-allow.command';
import { RULE_LIMITS } from '../rule-engine';
import { ApiUuid } from '../../openapi/api-field.decorator';

/**
 * "Always allow this" (SPEC §8d): a narrow enforce rule approving this action name from the key
 * that opened this interrupt, with these argument conditions, for a while.
 */
export class AlwaysAllowDto {
  @ApiUuid({ description: 'The interrupt whose action is always allowed.' })
  @IsUUID()
  interruptId!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, description: 'One of its action requests.' })
  @IsString()
  @Length(1, 200)
  actionName!: string;

  @ApiPropertyOptional({
    type: 'array',
    maxItems: RULE_LIMITS.predicates,
    items: { type: 'object' },
    description:
      "Conditions on the arguments (RuleArgPredicate), each of which must hold for this action's own arguments — equal values, or a range the person chooses. Absent: every argument equal to its value here. Empty: any arguments.",
  })
  @OptionalField()
  @IsArray()
  args?: unknown[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: ALWAYS_ALLOW_MAX_DAYS,
    default: ALWAYS_ALLOW_DEFAULT_DAYS,
    description: 'Days until the rule expires.',
  })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(ALWAYS_ALLOW_MAX_DAYS)
  expiresInDays?: number;
}
