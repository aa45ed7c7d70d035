import type { SessionResponse } from '@interlock/api-client';
import { Badge } from '@mantine/core';

const LOOK: Record<SessionResponse['status'], { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  ended: { color: 'gray', label: 'Ended' },
  disconnected: { color: 'orange', label: 'Disconnected' },
};

export function SessionStatusBadge({ status }: { status: SessionResponse['status'] }) {
  const look = LOOK[status];
  return (
    <Badge color={look.color} variant="light" miw="max-content">
      {look.label}
    </Badge>
  );
}
