import type { SessionStatus } from './session.entity';
import type { SessionResponse } from './dto/session.response';

export interface SessionRow {
  id: string;
  name: string;
  external_id: string | null;
  status: SessionStatus;
  metadata: Record<string, unknown> | null;
  message_count: number;
  started_at: Date;
  ended_at: Date | null;
}

export function toSessionResponse(row: SessionRow): SessionResponse {
  return {
    id: row.id,
    name: row.name,
    externalId: row.external_id,
    status: row.status,
    metadata: row.metadata,
    messageCount: row.message_count,
    startedAt: row.started_at.toISOString(),
    endedAt: row.ended_at?.toISOString() ?? null,
  };
}

/** 409 for a change to a session that is no longer active. */
export function notActiveMessage(
  status: Exclude<SessionStatus, 'active'>,
  doing: 'append' | 'end' | 'disconnect',
): string {
  const state =
    status === 'ended' ? 'This session has already ended' : 'This session was disconnected';
  return doing === 'append' ? `${state}: messages can no longer be appended.` : `${state}.`;
}
