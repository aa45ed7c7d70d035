import { eventStreamUrl, type OrganisationEventType } from '@interlock/api-client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  applyInterruptEvents,
  refreshInterrupts,
  type InterruptEvent,
} from '@/features/interrupts/api/interrupt-events';
import {
  applySessionEvents,
  refreshSessions,
  type SessionEvent,
} from '@/features/sessions/api/session-events';
import { refreshWebhookDeliveries } from '@/features/webhooks/api/webhook-events';
import { useActiveOrganisation } from '@/shared/sign-in/active-organisation';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';

/**
 * What each event of the stream is about, for every name of the contract's
 * `OrganisationEventType` union (the generated client's): a new event type fails to compile here
 * until it is given a place, instead of passing unheard.
 */
const EVENT_SUBJECTS: Record<OrganisationEventType, 'interrupt' | 'session'> = {
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
};
const eventsAbout = (subject: 'interrupt' | 'session') =>
  (Object.keys(EVENT_SUBJECTS) as OrganisationEventType[]).filter(
    (type) => EVENT_SUBJECTS[type] === subject,
  );
const INTERRUPT_EVENTS = eventsAbout('interrupt');
const SESSION_EVENTS = eventsAbout('session');
/** Events arrive in bursts (an agent opening many interrupts): refresh once per burst. */
const BURST_MS = 150;

/**
 * The organisation's live events (`GET /api/events`, Server-Sent Events) keep every open page
 * current without a reload: each event invalidates what it changes in the query cache, and
 * TanStack Query refetches what is on screen. The browser reconnects by itself with
 * `Last-Event-ID`, and the service replays what was missed.
 */
export function LiveEvents() {
  const queryClient = useQueryClient();
  const enabled = useCan('interrupt.read');
  const organisationId = useActiveOrganisation();

  useEffect(() => {
    if (!enabled) return;
    // The tab's organisation, by query: EventSource cannot send x-organisation-id.
    const source = new EventSource(eventStreamUrl('/api/events', organisationId));
    let interrupts: InterruptEvent[] = [];
    let sessions: SessionEvent[] = [];
    let timer: number | undefined;
    const flush = () => {
      timer = undefined;
      if (interrupts.length > 0) void applyInterruptEvents(queryClient, interrupts);
      if (sessions.length > 0) void applySessionEvents(queryClient, sessions);
      if (interrupts.length > 0 || sessions.length > 0) void refreshWebhookDeliveries(queryClient);
      interrupts = [];
      sessions = [];
    };
    const schedule = () => {
      timer ??= window.setTimeout(flush, BURST_MS);
    };
    const refreshAll = () => {
      void refreshInterrupts(queryClient);
      void refreshSessions(queryClient);
      void refreshWebhookDeliveries(queryClient);
    };
    for (const type of INTERRUPT_EVENTS) {
      source.addEventListener(type, (event) => {
        interrupts.push(JSON.parse((event as MessageEvent<string>).data) as InterruptEvent);
        schedule();
      });
    }
    for (const type of SESSION_EVENTS) {
      source.addEventListener(type, (event) => {
        sessions.push(JSON.parse((event as MessageEvent<string>).data) as SessionEvent);
        schedule();
      });
    }
    // A fresh connection (or one too far behind to replay) starts from now: refetch what is shown.
    let first = true;
    source.addEventListener('ready', () => {
      if (!first) refreshAll();
      first = false;
    });
    source.addEventListener('reset', refreshAll);
    return () => {
      if (timer !== undefined) window.clearTimeout(timer);
      source.close();
    };
  }, [enabled, organisationId, queryClient]);

  return null;
}
