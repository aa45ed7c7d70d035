import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsString, Length, Matches, ValidateBy, ValidateIf } from 'class-validator';
import { DECISIONS } from '../interrupt-decision.entity';
import type { Decision } from '../interrupt-decision.entity';

/** Refuses the property unless `decision` is `only` (editedArgs and editedName belong to `edit` alone). */
function OnlyWithDecision(only: Decision) {
  return ValidateBy({
    name: 'onlyWithDecision',
    validator: {
      validate: (value: unknown, args) =>
        value === undefined || (args?.object as DecideInterruptDto).decision === only,
      defaultMessage: (args) =>
        `${args?.property ?? 'property'} is only allowed with decision ${only}`,
    },
  });
}

export class DecideInterruptDto {
  @ApiProperty({
    description: "The name of one of the interrupt's action requests.",
    example: 'deploy',
  })
  @IsString()
  @Length(1, 200)
  actionName!: string;

  @ApiProperty({
    enum: DECISIONS,
    enumName: 'DecisionType',
    description: "One of the action's allowedDecisions.",
  })
  @IsIn(DECISIONS)
  decision!: Decision;

  /** Required with `edit`: the arguments the action should run with instead. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Required with edit, refused otherwise.',
  })
  @ValidateIf((o: DecideInterruptDto) => o.decision === 'edit' || o.editedArgs !== undefined)
  @OnlyWithDecision('edit')
  @IsObject({ message: 'editedArgs must be an object (required with decision edit)' })
  editedArgs?: Record<string, unknown>;

  /** Optional with `edit`: the tool to run instead of the one the agent asked for (a rename). */
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: 'Optional with edit, refused otherwise: the name of the action to run instead.',
    example: 'send_draft',
  })
  @ValidateIf((o: DecideInterruptDto) => o.editedName !== undefined)
  @OnlyWithDecision('edit')
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'editedName must not be blank' })
  editedName?: string;

  /** Required with `respond` (unless it carries a `response`); optional with the other decisions. */
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 10_000,
    description: 'Required with respond unless it carries a response; optional otherwise.',
  })
  @ValidateIf(
    (o: DecideInterruptDto) =>
      (o.decision === 'respond' && o.response === undefined) || o.message !== undefined,
  )
  @IsString({ message: 'message must be a string (required with decision respond)' })
  @Length(1, 10_000)
  @Matches(/\S/, { message: 'message must not be blank' })
  message?: string;

  /**
   * Typed input: with `respond`, on an action that has a `responseSchema` (and required there),
   * the answer as an object valid against that schema.
   */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "With respond on an action that has a responseSchema (required there; refused on other actions): the typed answer, valid against the action's responseSchema.",
    // Valid against the example responseSchema of an action request (create-interrupt.dto.ts).
    example: { region: 'eu-west-1', replicas: 3 },
  })
  @ValidateIf((o: DecideInterruptDto) => o.response !== undefined)
  @OnlyWithDecision('respond')
  @IsObject({ message: 'response must be an object' })
  response?: Record<string, unknown>;
}
