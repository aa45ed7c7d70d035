import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsString, Length, Matches, ValidateBy, ValidateIf } from 'class-validator';
import { DECISIONS } from '../interrupt-decision.entity';
import type { Decision } from '../interrupt-decision.entity';

/** Refuses the property unless `decision` is `only` (editedArgs belongs to `edit` alone). */
function OnlyWithDecision(only: Decision) {
  return ValidateBy({
    name: 'onlyWithDecision',
    validator: {
      validate: (value: unknown, args) => value === undefined || (args?.object as DecideInterruptDto).decision === only,
      defaultMessage: (args) => `${args?.property ?? 'property'} is only allowed with decision ${only}`,
    },
  });
}

export class DecideInterruptDto {
  @ApiProperty({ description: 'The name of one of the interrupt\'s action requests.', example: 'deploy' })
  @IsString()
  @Length(1, 200)
  actionName!: string;

  @ApiProperty({ enum: DECISIONS, enumName: 'DecisionType', description: "One of the action's allowedDecisions." })
  @IsIn(DECISIONS)
  decision!: Decision;

  /** Required with `edit`: the arguments the action should run with instead. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Required with edit, refused otherwise.' })
  @ValidateIf((o: DecideInterruptDto) => o.decision === 'edit' || o.editedArgs !== undefined)
  @OnlyWithDecision('edit')
  @IsObject({ message: 'editedArgs must be an object (required with decision edit)' })
  editedArgs?: Record<string, unknown>;

  /** Required with `respond`; optional with the other decisions. */
  @ApiPropertyOptional({ minLength: 1, maxLength: 10_000, description: 'Required with respond; optional otherwise.' })
  @ValidateIf((o: DecideInterruptDto) => o.decision === 'respond' || o.message !== undefined)
  @IsString({ message: 'message must be a string (required with decision respond)' })
  @Length(1, 10_000)
  @Matches(/\S/, { message: 'message must not be blank' })
  message?: string;
}
