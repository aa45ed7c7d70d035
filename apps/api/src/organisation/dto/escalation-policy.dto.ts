import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsUUID,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_ESCALATION_AFTER_MINUTES, MAX_ESCALATION_STEPS } from '@interlock/domain';
import { OptionalField } from '../../http/optional-field.decorator';

export const ESCALATION_ACTIONS = ['remind', 'escalate'] as const;
export const ESCALATION_WHEN = ['undecided', 'unassigned'] as const;

/** Whom an `escalate` step assigns the interrupt to: a member (`memberId`) or a team (`teamId`), exactly one. */
export class EscalationAssigneeDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'A member of the organisation (or teamId).' })
  @ValidateIf((o: EscalationAssigneeDto) => o.teamId === undefined || o.memberId !== undefined)
  @IsUUID('loose', { message: 'memberId must be a UUID (or give teamId instead)' })
  memberId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A team of the organisation (or memberId).' })
  @ValidateIf((o: EscalationAssigneeDto) => o.teamId !== undefined)
  @ValidateBy({
    name: 'notBoth',
    validator: {
      validate: (_: unknown, args) =>
        (args?.object as EscalationAssigneeDto).memberId === undefined,
      defaultMessage: () => 'teamId cannot be given together with memberId',
    },
  })
  @IsUUID('loose', { message: 'teamId must be a UUID' })
  teamId?: string;
}

export class EscalationStepDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_ESCALATION_AFTER_MINUTES,
    description: 'Minutes after the interrupt opened; each step later than the one before.',
  })
  @IsInt()
  @Min(1)
  @Max(MAX_ESCALATION_AFTER_MINUTES)
  afterMinutes!: number;

  @ApiProperty({
    enum: ESCALATION_ACTIONS,
    description:
      'remind: the assignee (or, unassigned, the readers) hears the interrupt still waits; escalate: its escalation level rises (and assignTo, when given, takes it).',
  })
  @IsIn(ESCALATION_ACTIONS, { message: `action must be one of ${ESCALATION_ACTIONS.join(', ')}` })
  action!: 'remind' | 'escalate';

  @ApiPropertyOptional({
    enum: ESCALATION_WHEN,
    default: 'undecided',
    description:
      'undecided (the default): while the interrupt is open; unassigned: only while nobody is assigned either.',
  })
  @OptionalField()
  @IsIn(ESCALATION_WHEN, { message: `when must be one of ${ESCALATION_WHEN.join(', ')}` })
  when?: 'undecided' | 'unassigned';

  @ApiPropertyOptional({
    type: EscalationAssigneeDto,
    nullable: true,
    description: 'escalate only: the member or team the interrupt is assigned to.',
  })
  @ValidateIf((o: EscalationStepDto) => o.assignTo !== undefined && o.assignTo !== null)
  @IsObject({ message: 'assignTo must be an object: {memberId} or {teamId}' })
  @ValidateNested()
  @Type(() => EscalationAssigneeDto)
  assignTo?: EscalationAssigneeDto | null;
}

/** Settings → Escalation: the organisation's escalation policy (SPEC §8e), replaced whole. */
export class EscalationPolicyDto {
  @ApiProperty({
    type: [EscalationStepDto],
    maxItems: MAX_ESCALATION_STEPS,
    description: 'Soonest first; [] removes the policy.',
  })
  @IsArray()
  @ArrayMaxSize(MAX_ESCALATION_STEPS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => EscalationStepDto)
  steps!: EscalationStepDto[];
}

export class EscalationAssigneeResponse {
  @ApiPropertyOptional({ format: 'uuid' })
  memberId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  teamId?: string;
}

export class EscalationStepResponse {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_ESCALATION_AFTER_MINUTES })
  afterMinutes!: number;

  @ApiProperty({ enum: ESCALATION_ACTIONS })
  action!: 'remind' | 'escalate';

  @ApiProperty({ enum: ESCALATION_WHEN })
  when!: 'undecided' | 'unassigned';

  @ApiProperty({ type: EscalationAssigneeResponse, nullable: true })
  assignTo!: EscalationAssigneeResponse | null;
}

export class EscalationPolicyResponse {
  @ApiProperty({ type: [EscalationStepResponse], description: 'Soonest first; [] when none.' })
  steps!: EscalationStepResponse[];
}
