import { eventStreamUrl, type SessionResponse } from '@interlock/api-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useActiveOrganisation } from '@/shared/sign-in/active-organisation';

export interface LiveMessage {
  seq: number;
  role: 'agent' | 'user' | 'tool' | 'system';
  content: string;
  createdAt: string;
}

export interface LiveViewData {
  session: SessionResponse | null;
  messages: LiveMessage[];
}

export type LiveViewConnection = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'closed';

export const liveViewKey = (sessionId: string) => ['live-view', sessionId] as const;

const EMPTY: LiveViewData = { session: null, messages: [] };

/** Appends messages in order, once each (a reconnect resumes after the last one it saw). */
export function mergeMessages(current: LiveMessage[], incoming: LiveMessage[]): LiveMessage[] {
  const last = current.length === 0 ? 0 : current[current.length - 1].seq;
  const fresh = incoming.filter((m) => m.seq > last).sort((a, b) => a.seq - b.seq);
  return fresh.length === 0 ? current : [...current, ...fresh];
}

/**
 * How many messages the session has, as far as this page knows: the session record's count is
 * taken when the stream opens and is not re-sent per message, so the messages received since
 * (each numbered by `seq`, 1, 2, 3…) count too.
 */
export function messageTotal(data: LiveViewData): number {
  const lastSeq = data.messages.length === 0 ? 0 : data.messages[data.messages.length - 1].seq;
  return Math.max(data.session?.messageCount ?? 0, lastSeq, data.messages.length);
}

/**
 * The Live View: the session's messages as they arrive over Server-Sent Events
 * (`GET /api/sessions/{id}/stream`, the member's cookie). The stream feeds the query cache, so
 * leaving and coming back shows what was already received. When the connection drops the
 * browser reconnects by itself with `Last-Event-ID` and the service resumes after the last
 * message; a finished session's stream ends with its final record.
 */
export function useLiveView(sessionId: string): {
  data: LiveViewData;
  connection: LiveViewConnection;
  reconnect: () => void;
} {
  const queryClient = useQueryClient();
  const key = liveViewKey(sessionId);
  const { data = EMPTY } = useQuery({
    queryKey: key,
    queryFn: () => EMPTY,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
    enabled: false,
  });
  const [connection, setConnection] = useState<LiveViewConnection>('connecting');
  const [attempt, setAttempt] = useState(0);
  const organisationId = useActiveOrganisation();

  useEffect(() => {
    const queryKey = liveViewKey(sessionId);
    const update = (fn: (d: LiveViewData) => LiveViewData) =>
      queryClient.setQueryData<LiveViewData>(queryKey, (d) => fn(d ?? EMPTY));
    const source = new EventSource(
      eventStreamUrl(`/api/sessions/${encodeURIComponent(sessionId)}/stream`, organisationId),
    );
    let ended = false;
    // Messages arrive in bursts: apply each burst in one cache update.
    let pending: LiveMessage[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      update((d) => ({ ...d, messages: mergeMessages(d.messages, batch) }));
    };
    setConnection('connecting');
    source.addEventListener('open', () => setConnection('live'));
    source.addEventListener('session', (event) => {
      const session = JSON.parse((event as MessageEvent<string>).data) as SessionResponse;
      ended = session.status !== 'active';
      update((d) => ({ ...d, session }));
      if (ended) {
        if (frame !== 0) window.cancelAnimationFrame(frame);
        flush();
        source.close();
        setConnection('ended');
      }
    });
    source.addEventListener('message', (event) => {
      pending.push(JSON.parse((event as MessageEvent<string>).data) as LiveMessage);
      if (frame === 0) frame = window.requestAnimationFrame(flush);
    });
    source.addEventListener('error', () => {
      if (ended) return;
      // CONNECTING: the browser is retrying (with Last-Event-ID). CLOSED: it gave up (the
      // session is gone, the sign-in ended, or the stream answered 204 after the end).
      setConnection(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    });
    return () => {
      if (frame !== 0) window.cancelAnimationFrame(frame);
      source.close();
    };
  }, [sessionId, queryClient, attempt, organisationId]);

  return { data, connection, reconnect: () => setAttempt((n) => n + 1) };
}
