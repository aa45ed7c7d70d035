import type { ActorType } from './audit';

/**
 * The organisation's event catalogue: every event Interlock emits, what it is about, and what it
 * carries. It is closed — adding a type here fails to compile wherever a mapping below does not
 * decide it — and it is the one definition the live stream (GET /api/events) and webhooks share.
 */
export const EVENT_TYPES = [
  'interrupt.created',
  'interrupt.decided',
  'interrupt.answered',
  'interrupt.assigned',
  'interrupt.unassigned',
  'interrupt.escalated',
  'interrupt.expired',
  'interrupt.withdrawn',
  'interrupt.reminder',
  'interrupt.approval_added',
  'session.started',
  'session.ended',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(x: unknown): x is EventType {
  return typeof x === 'string' && (EVENT_TYPES as readonly string[]).includes(x);
}

/** What each event is about. Webhook deliveries of one subject leave in event order. */
export const EVENT_SUBJECTS = {
  'interrupt.created': 'interrupt',
  'interrupt.decided': 'interrupt',
  'interrupt.answered': 'interrupt',
  'interrupt.assigned': 'interrupt',
  'interrupt.unassigned': 'interrupt',
  'interrupt.escalated': 'interrupt',
  'interrupt.expired': 'interrupt',
  'interrupt.withdrawn': 'interrupt',
  'interrupt.reminder': 'interrupt',
  'interrupt.approval_added': 'interrupt',
  'session.started': 'session',
  'session.ended': 'session',
  'webhook.test': 'webhook',
} as const satisfies Record<EventType, 'interrupt' | 'session' | 'webhook'>;
export type EventSubject = (typeof EVENT_SUBJECTS)[EventType];

/** The live stream's events: the changes people make and agents cause (no webhook pings). */
export type StreamEventType = Exclude<EventType, 'webhook.test'>;
export const STREAM_EVENT_TYPES = EVENT_TYPES.filter(
  (t): t is StreamEventType => t !== 'webhook.test',
);

// ---------------------------------------------------------------------------------------------
// The live stream (GET /api/events): a summary of the change, read from its audit entry.

export interface EventActorRef {
  type: ActorType;
  id: string | null;
  /** As it was at the time. */
  name: string;
}
export interface EventInterruptRef {
  id: string;
  title: string;
}
export interface EventSessionRef {
  id: string;
  name: string;
}
export interface EventAssigneeRef {
  type: 'member' | 'team';
  id: string;
  name: string;
}

/** Each stream event's own fields, beside `seq`, `type`, `createdAt` and `actor`. */
export interface StreamEventFields {
  'interrupt.created': {
    interrupt: EventInterruptRef;
    externalId: string | null;
    actionNames: string[];
  };
  'interrupt.decided': {
    interrupt: EventInterruptRef;
    actionName: string;
    decision: string;
    becameAnswered: boolean;
  };
  'interrupt.answered': { interrupt: EventInterruptRef };
  'interrupt.assigned': { interrupt: EventInterruptRef; assignee: EventAssigneeRef };
  'interrupt.unassigned': { interrupt: EventInterruptRef; previousAssignee: EventAssigneeRef };
  'interrupt.escalated': { interrupt: EventInterruptRef; level: number; reason: string | null };
  'interrupt.expired': { interrupt: EventInterruptRef; outcome: string; actionNames: string[] };
  'interrupt.withdrawn': { interrupt: EventInterruptRef; reason: string | null };
  'interrupt.reminder': {
    interrupt: EventInterruptRef;
    step: number;
    assignee: EventAssigneeRef | null;
  };
  /** A member's approval short of an action's quorum: `approvals` of `requiredApprovals` so far. */
  'interrupt.approval_added': {
    interrupt: EventInterruptRef;
    actionName: string;
    approvals: number;
    requiredApprovals: number;
  };
  'session.started': { session: EventSessionRef; externalId: string | null };
  'session.ended': {
    session: EventSessionRef;
    status: 'ended' | 'disconnected';
    messageCount: number;
  };
}

/** One event of the live stream: a closed union on `type`. */
export type StreamEvent = {
  [T in StreamEventType]: {
    seq: number;
    type: T;
    createdAt: string;
    actor: EventActorRef;
  } & StreamEventFields[T];
}[StreamEventType];

// ---------------------------------------------------------------------------------------------
// Webhooks: `data` is the resource as the API returns it (the interrupt with its decisions, the
// session). The resources' shapes are the API's; this catalogue takes them as parameters.

export interface EventResources {
  interrupt: unknown;
  session: unknown;
}

/** `webhook.test`: a ping a member sent to check an endpoint. */
export interface WebhookTestData {
  webhookId: string;
  message: string;
}

export type WebhookEventData<R extends EventResources> = {
  [T in EventType]: (typeof EVENT_SUBJECTS)[T] extends 'interrupt'
    ? R['interrupt']
    : (typeof EVENT_SUBJECTS)[T] extends 'session'
      ? R['session']
      : WebhookTestData;
};

/** The body of a webhook delivery (SPEC §8a): `{id, type, createdAt, organisationId, data}`. */
export type WebhookEvent<R extends EventResources, T extends EventType = EventType> = {
  [K in T]: {
    id: string;
    type: K;
    createdAt: string;
    organisationId: string;
    data: WebhookEventData<R>[K];
  };
}[T];
