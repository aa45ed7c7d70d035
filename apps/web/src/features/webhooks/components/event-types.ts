import type { WebhookEventType } from '@interlock/api-client';

/** The event types a webhook can subscribe to, as the contract lists them, with what each means. */
export const EVENT_TYPE_OPTIONS = [
  { value: 'interrupt.created', label: 'Interrupt opened' },
  { value: 'interrupt.decided', label: 'Action decided' },
  { value: 'interrupt.answered', label: 'Interrupt answered (every action decided)' },
  { value: 'interrupt.assigned', label: 'Interrupt assigned' },
  { value: 'interrupt.unassigned', label: 'Interrupt unassigned' },
  { value: 'interrupt.escalated', label: 'Interrupt escalated' },
  { value: 'interrupt.expired', label: 'Interrupt expired (its deadline passed)' },
  { value: 'interrupt.withdrawn', label: 'Interrupt withdrawn by its agent' },
  { value: 'interrupt.reminder', label: 'Interrupt reminder (escalation policy)' },
  {
    value: 'interrupt.approval_added',
    label: 'Approval added (an action needing several, short of its quorum)',
  },
  { value: 'session.started', label: 'Session started' },
  { value: 'session.ended', label: 'Session ended or disconnected' },
] as const satisfies readonly { value: WebhookEventType; label: string }[];

// A type the contract adds fails to compile here until it is listed above.
type Unlisted = Exclude<WebhookEventType, (typeof EVENT_TYPE_OPTIONS)[number]['value']>;
export const EVERY_TYPE_LISTED: [Unlisted] extends [never] ? true : never = true;

/** "All events", or the subscribed types joined. */
export function describeEventTypes(types: readonly string[] | null): string {
  return types === null ? 'All events' : types.join(', ');
}
