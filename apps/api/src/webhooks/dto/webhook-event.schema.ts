import { ApiProperty } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { EVENT_TYPES, type EventType } from '@interlock/domain';
import { InterruptResponse } from '../../interrupts/dto/interrupt.response';
import { SessionResponse } from '../../sessions/dto/session.response';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/**
 * The bodies webhooks receive (SPEC §8a), for the contract: one schema per event type of the
 * catalogue (libs/domain events.ts) and their union `WebhookEvent`, discriminated by `type`. The
 * SDKs' `webhooks.unwrap` returns them.
 */
abstract class WebhookEventBase {
  @ApiUuid({
    description:
      'The event id: also the webhook-id header. The same on every attempt; deduplicate on it.',
  })
  id!: string;

  @ApiDateTime({ description: 'When the change happened.' })
  createdAt!: string;

  @ApiUuid()
  organisationId!: string;
}

export class WebhookTestData {
  @ApiUuid()
  webhookId!: string;

  @ApiProperty({ example: 'A test event sent from Interlock.' })
  message!: string;
}

const typeOf = (type: EventType, description: string) => ApiProperty({ enum: [type], description });
const interruptData = ApiProperty({
  type: InterruptResponse,
  description: 'The interrupt with its decisions, as GET /api/interrupts/{id} returns it.',
});
const sessionData = ApiProperty({
  type: SessionResponse,
  description: 'The session, as GET /api/sessions/{id} returns it.',
});

export class InterruptCreatedEvent extends WebhookEventBase {
  @typeOf('interrupt.created', 'An agent opened an interrupt.')
  type!: 'interrupt.created';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptDecidedEvent extends WebhookEventBase {
  @typeOf(
    'interrupt.decided',
    'A member decided one action (the interrupt as it is after the decision).',
  )
  type!: 'interrupt.decided';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptAnsweredEvent extends WebhookEventBase {
  @typeOf(
    'interrupt.answered',
    'Every action is decided: follows the interrupt.decided of the last one.',
  )
  type!: 'interrupt.answered';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptAssignedEvent extends WebhookEventBase {
  @typeOf('interrupt.assigned', 'A member assigned the interrupt to a member or team.')
  type!: 'interrupt.assigned';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptUnassignedEvent extends WebhookEventBase {
  @typeOf('interrupt.unassigned', 'A member removed the assignee.')
  type!: 'interrupt.unassigned';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptEscalatedEvent extends WebhookEventBase {
  @typeOf(
    'interrupt.escalated',
    'A member escalated the interrupt (or, with onTimeout escalate, its deadline did).',
  )
  type!: 'interrupt.escalated';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptExpiredEvent extends WebhookEventBase {
  @typeOf(
    'interrupt.expired',
    'The deadline passed: the service decided every undecided action (onTimeout) as actor system.',
  )
  type!: 'interrupt.expired';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptWithdrawnEvent extends WebhookEventBase {
  @typeOf(
    'interrupt.withdrawn',
    'Its agent withdrew the interrupt: its undecided actions can no longer be decided.',
  )
  type!: 'interrupt.withdrawn';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptReminderEvent extends WebhookEventBase {
  @typeOf(
    'interrupt.reminder',
    "A step of the organisation's escalation policy reminded the assignee (or, unassigned, its readers) that the interrupt waits.",
  )
  type!: 'interrupt.reminder';
  @interruptData
  data!: InterruptResponse;
}

export class InterruptApprovalAddedEvent extends WebhookEventBase {
  @typeOf(
    'interrupt.approval_added',
    'A member approved an action that needs several approvals, short of its quorum: the action stays undecided, and its approvals in `data` show who approved so far.',
  )
  type!: 'interrupt.approval_added';
  @interruptData
  data!: InterruptResponse;
}

export class SessionStartedEvent extends WebhookEventBase {
  @typeOf('session.started', 'An agent started a Live View session.')
  type!: 'session.started';
  @sessionData
  data!: SessionResponse;
}

export class SessionEndedEvent extends WebhookEventBase {
  @typeOf(
    'session.ended',
    'The agent ended the session, or a member disconnected it (data.status says which).',
  )
  type!: 'session.ended';
  @sessionData
  data!: SessionResponse;
}

export class WebhookTestEvent extends WebhookEventBase {
  @typeOf('webhook.test', 'A test a member sent (POST /api/webhooks/{id}/test).')
  type!: 'webhook.test';
  @ApiProperty({ type: WebhookTestData })
  data!: WebhookTestData;
}

/** One schema per type, in the catalogue's order; a type missing here fails to compile. */
export const WEBHOOK_EVENT_SCHEMAS: Record<EventType, new () => WebhookEventBase> = {
  'interrupt.created': InterruptCreatedEvent,
  'interrupt.decided': InterruptDecidedEvent,
  'interrupt.answered': InterruptAnsweredEvent,
  'interrupt.assigned': InterruptAssignedEvent,
  'interrupt.unassigned': InterruptUnassignedEvent,
  'interrupt.escalated': InterruptEscalatedEvent,
  'interrupt.expired': InterruptExpiredEvent,
  'interrupt.withdrawn': InterruptWithdrawnEvent,
  'interrupt.reminder': InterruptReminderEvent,
  'interrupt.approval_added': InterruptApprovalAddedEvent,
  'session.started': SessionStartedEvent,
  'session.ended': SessionEndedEvent,
  'webhook.test': WebhookTestEvent,
};

/**
 * `WebhookEvent`: the union of the event schemas, told apart by `type` (each schema fixes it).
 * No OpenAPI `discriminator`: the Python SDK's generated enums are open (a newer service's value
 * still parses), which pydantic's discriminated unions refuse; `webhooks.unwrap` picks the model
 * by `type` itself.
 */
export function webhookEventUnionSchema(): SchemaObject {
  const ref = (type: EventType) => `#/components/schemas/${WEBHOOK_EVENT_SCHEMAS[type].name}`;
  return {
    description:
      'The JSON body of a webhook delivery: {id, type, createdAt, organisationId, data}. Signed the Standard Webhooks way ' +
      "(webhook-id, webhook-timestamp, webhook-signature headers); verify it with the SDKs' webhooks.unwrap.",
    oneOf: EVENT_TYPES.map((type) => ({ $ref: ref(type) })),
  };
}
