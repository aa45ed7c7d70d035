import type { SessionStatus } from './session.entity';

/** The bus channel on which a session's changes are announced to every instance. */
export const LIVE_VIEW_CHANNEL = 'interlock_live_view';

/**
 * "This session now has `messageCount` messages and this status." Small on purpose (NOTIFY
 * payloads are limited): viewers read the messages themselves from the database.
 */
export interface SessionChange {
  organisationId: string;
  sessionId: string;
  messageCount: number;
  status: SessionStatus;
}

export function encodeSessionChange(change: SessionChange): string {
  return `${change.organisationId} ${change.sessionId} ${change.messageCount} ${change.status}`;
}

export function decodeSessionChange(payload: string): SessionChange | undefined {
  const [organisationId, sessionId, count, status] = payload.split(' ');
  const messageCount = Number(count);
  if (organisationId === undefined || sessionId === undefined || !Number.isInteger(messageCount))
    return undefined;
  if (status !== 'active' && status !== 'ended' && status !== 'disconnected') return undefined;
  return { organisationId, sessionId, messageCount, status };
}
