import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTOR_TYPES, STREAM_EVENT_TYPES } from '@interlock/domain';
import type { ActorType, StreamEventType } from '@interlock/domain';
import { SESSION_STATUSES } from '../sessions/session.entity';
import type { SessionStatus } from '../sessions/session.entity';
import { ApiDateTime, ApiUuid } from '../openapi/api-field.decorator';

/** The events of GET /api/events (the SSE `event:` names): the catalogue's, but webhook.test. */
export const ORGANISATION_EVENT_TYPES = STREAM_EVENT_TYPES;
export type OrganisationEventType = StreamEventType;

export class EventActor {
  @ApiProperty({ enum: ACTOR_TYPES, enumName: 'ActorType' })
  type!: ActorType;

  @ApiProperty({ type: String, nullable: true })
  id!: string | null;

  @ApiProperty({ description: 'As it was at the time.' })
  name!: string;
}

export class EventInterrupt {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  title!: string;
}

export class EventSession {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;
}

export class EventAssignee {
  @ApiProperty({ enum: ['member', 'team'] })
  type!: 'member' | 'team';

  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;
}

/**
 * The `data` of each event of GET /api/events (one line of JSON): libs/domain's StreamEvent, as
 * one flat schema for the contract. `seq` is also the SSE id: the
 * organisation's audit-log sequence number of the change.
 */
export class OrganisationEvent {
  @ApiProperty({ type: 'integer', minimum: 1 })
  seq!: number;

  @ApiProperty({ enum: ORGANISATION_EVENT_TYPES, enumName: 'OrganisationEventType' })
  type!: OrganisationEventType;

  @ApiDateTime()
  createdAt!: string;

  @ApiProperty({ type: EventActor })
  actor!: EventActor;

  @ApiPropertyOptional({ type: EventInterrupt, description: 'interrupt.* events.' })
  interrupt?: EventInterrupt;

  @ApiPropertyOptional({ type: EventSession, description: 'session.* events.' })
  session?: EventSession;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'interrupt.created, session.started.',
  })
  externalId?: string | null;

  @ApiPropertyOptional({
    type: [String],
    description:
      'interrupt.created: the action names; interrupt.expired: the actions its deadline decided.',
  })
  actionNames?: string[];

  @ApiPropertyOptional({ description: 'interrupt.decided, interrupt.approval_added.' })
  actionName?: string;

  @ApiPropertyOptional({
    enum: ['approve', 'edit', 'reject', 'respond'],
    description: 'interrupt.decided.',
  })
  decision?: string;

  @ApiPropertyOptional({
    description:
      'interrupt.decided: this decision answered the interrupt (an interrupt.answered follows).',
  })
  becameAnswered?: boolean;

  @ApiPropertyOptional({
    type: EventAssignee,
    nullable: true,
    description:
      'interrupt.assigned; interrupt.reminder: who was reminded (null: nobody assigned).',
  })
  assignee?: EventAssignee | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: "interrupt.reminder: the escalation policy's step (1 is the first).",
  })
  step?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      "interrupt.approval_added: the action's distinct approvals so far (short of the quorum).",
  })
  approvals?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 2,
    maximum: 5,
    description: 'interrupt.approval_added: how many approvals the action needs.',
  })
  requiredApprovals?: number;

  @ApiPropertyOptional({
    type: EventAssignee,
    description: 'interrupt.unassigned: who it was assigned to.',
  })
  previousAssignee?: EventAssignee;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'interrupt.escalated: the new level.',
  })
  level?: number;

  @ApiPropertyOptional({
    enum: ['approve', 'reject'],
    description: 'interrupt.expired: what the deadline decided.',
  })
  outcome?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'interrupt.escalated, interrupt.withdrawn.',
  })
  reason?: string | null;

  @ApiPropertyOptional({
    enum: SESSION_STATUSES,
    enumName: 'SessionStatus',
    description: 'session.ended: ended or disconnected.',
  })
  status?: SessionStatus;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'session.ended.' })
  messageCount?: number;
}

/** The first event of every stream: where it starts (`ready`), or that a replay was too long (`reset`). */
export class EventStreamPosition {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The stream continues after this audit-log sequence number.',
  })
  seq!: number;
}
