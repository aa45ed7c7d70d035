import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength } from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';
import { ActionRequestResponse } from '../../interrupts/dto/interrupt.response';
import { DECISIONS, type Decision } from '../../interrupts/interrupt-decision.entity';
import { INTERRUPT_STATUSES } from '../../interrupts/interrupt.entity';
import type { InterruptStatus } from '../../interrupts/interrupt.entity';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

const TOKEN = {
  description:
    "The token of an emailed action link (the part after '#' in the link). It is a credential: it names the member who decides.",
  maxLength: 4096,
  example: 'al1.eyJv….mac',
} as const;

/** Reads what an emailed action link would decide; changes nothing. */
export class PreviewActionLinkDto {
  @ApiProperty(TOKEN)
  @IsString()
  @MaxLength(4096)
  token!: string;
}

/** Decides with an emailed action link: once, as the member it was sent to. */
export class DecideWithActionLinkDto {
  @ApiProperty(TOKEN)
  @IsString()
  @MaxLength(4096)
  token!: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 10_000,
    description: 'A message for the agent (a reason for a rejection).',
  })
  @OptionalField()
  @IsString()
  @Length(1, 10_000)
  @Matches(/\S/, { message: 'message must not be blank' })
  message?: string;
}

export class ActionLinkDecided {
  @ApiProperty({ enum: DECISIONS, enumName: 'DecisionType' })
  decision!: Decision;

  @ApiProperty({ description: "The decider's name." })
  decidedBy!: string;

  @ApiDateTime()
  decidedAt!: string;
}

/** What an emailed action link would decide, for whom, and where the action stands now. */
export class ActionLinkPreviewResponse {
  @ApiProperty()
  organisationName!: string;

  @ApiProperty({ description: 'The member the link was sent to: the decision is theirs.' })
  memberName!: string;

  @ApiUuid()
  interruptId!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ enum: INTERRUPT_STATUSES, enumName: 'InterruptStatus' })
  status!: InterruptStatus;

  @ApiProperty({ type: ActionRequestResponse })
  action!: ActionRequestResponse;

  @ApiProperty({ enum: ['approve', 'reject'], enumName: 'ActionLinkDecision' })
  decision!: 'approve' | 'reject';

  @ApiDateTime({
    description: 'The link works until then (24 hours after the email was sent).',
  })
  expiresAt!: string;

  @ApiProperty({ description: 'True once the link has decided.' })
  used!: boolean;

  @ApiProperty({
    type: ActionLinkDecided,
    nullable: true,
    description: 'The action’s decision, when it has one (by anyone).',
  })
  decided!: ActionLinkDecided | null;
}
