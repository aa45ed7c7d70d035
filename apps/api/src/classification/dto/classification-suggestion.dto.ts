import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import type { RuleMatch } from '../rule-engine';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

const APPLY_MODES = ['shadow', 'enforce'] as const;

/** The rule a suggestion would make: approve this key's action within these conditions. */
export class SuggestedRule {
  @ApiProperty({ example: 'Approve refund from billing-agent' })
  name!: string;

  @ApiProperty({
    type: 'integer',
    description: "1000: after the organisation's own rules at the default 100.",
  })
  priority!: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'RuleMatch: this action name, this key, and argument conditions read from the approvals.',
  })
  match!: RuleMatch;

  @ApiProperty({ type: 'object', additionalProperties: true, description: '{"type": "approve"}' })
  outcome!: { type: 'approve' };
}

/** People approved this key's action of this argument shape often, and never rejected it lately. */
export class ClassificationSuggestionResponse {
  @ApiUuid({
    description: 'Stable while the evidence holds (derived from key, action name and shape).',
  })
  id!: string;

  @ApiUuid()
  keyId!: string;

  @ApiProperty({ description: 'The key, by its current name.' })
  keyName!: string;

  @ApiProperty()
  actionName!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Each top-level argument and its JSON type (string, number, boolean, object, array, null).',
    example: { amount: 'number', currency: 'string' },
  })
  shape!: Record<string, string>;

  @ApiProperty({
    type: 'integer',
    minimum: 5,
    description: 'Approvals by people in the last 30 days (and no rejection).',
  })
  approvals!: number;

  @ApiDateTime()
  lastApprovedAt!: string;

  @ApiUuid({ description: 'The latest interrupt approved.' })
  latestInterruptId!: string;

  @ApiProperty({ type: SuggestedRule })
  rule!: SuggestedRule;
}

export class ClassificationSuggestionListResponse {
  @ApiProperty({
    type: [ClassificationSuggestionResponse],
    description: 'At most 50, the most approved first.',
  })
  suggestions!: ClassificationSuggestionResponse[];
}

export class ApplySuggestionDto {
  @ApiProperty({
    enum: APPLY_MODES,
    description: 'shadow: record what the rule would do first; enforce: approve from now on.',
  })
  @IsIn(APPLY_MODES, { message: `mode must be one of ${APPLY_MODES.join(', ')}` })
  mode!: (typeof APPLY_MODES)[number];
}
