import { eventFrames, EventSourceRow } from './organisation-event.util';

const row = (
  action: string,
  metadata: Record<string, unknown> | null,
  overrides: Partial<EventSourceRow> = {},
): EventSourceRow => ({
  seq: '42',
  action,
  created_at: new Date('2026-11-21T10:00:00.123Z'),
  actor_type: 'member',
  actor_id: 'm1',
  actor_name: 'Ada',
  target_id: 't1',
  target_name: 'Deploy',
  metadata,
  ...overrides,
});

/** The frames as {id, event, data}. */
function parse(frames: string) {
  return frames
    .split('\n\n')
    .filter((f) => f !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = JSON.parse(lines.find((l) => l.startsWith('data: '))?.slice(6) ?? 'null');
      return { id, event, data };
    });
}

describe('eventFrames', () => {
  const base = {
    seq: 42,
    createdAt: '2026-11-21T10:00:00.123Z',
    actor: { type: 'member', id: 'm1', name: 'Ada' },
  };

  it('makes interrupt.created from the audit entry', () => {
    const frames = parse(
      eventFrames(
        row(
          'interrupt.created',
          { externalId: 'x', actionRequests: ['deploy', 'notify'] },
          { actor_type: 'api_key', actor_id: 'k1', actor_name: 'ci' },
        ),
      ),
    );
    expect(frames).toEqual([
      {
        id: '42',
        event: 'interrupt.created',
        data: {
          ...base,
          actor: { type: 'api_key', id: 'k1', name: 'ci' },
          type: 'interrupt.created',
          interrupt: { id: 't1', title: 'Deploy' },
          externalId: 'x',
          actionNames: ['deploy', 'notify'],
        },
      },
    ]);
  });

  it('makes interrupt.approval_added: which action, and how many of how many approvals', () => {
    const frames = parse(
      eventFrames(
        row('interrupt.approval_added', { actionName: 'pay', approvals: 1, requiredApprovals: 2 }),
      ),
    );
    expect(frames).toEqual([
      {
        id: '42',
        event: 'interrupt.approval_added',
        data: {
          ...base,
          type: 'interrupt.approval_added',
          interrupt: { id: 't1', title: 'Deploy' },
          actionName: 'pay',
          approvals: 1,
          requiredApprovals: 2,
        },
      },
    ]);
  });

  it('makes interrupt.unassigned, naming the previous assignee', () => {
    const frames = parse(
      eventFrames(
        row('interrupt.unassigned', {
          previousAssigneeType: 'team',
          previousAssigneeId: 'team-1',
          previousAssigneeName: 'Ops',
        }),
      ),
    );
    expect(frames).toEqual([
      {
        id: '42',
        event: 'interrupt.unassigned',
        data: {
          ...base,
          type: 'interrupt.unassigned',
          interrupt: { id: 't1', title: 'Deploy' },
          previousAssignee: { type: 'team', id: 'team-1', name: 'Ops' },
        },
      },
    ]);
  });

  it('follows a decision that answered the interrupt with interrupt.answered; only the last frame has the id', () => {
    const frames = parse(
      eventFrames(
        row('interrupt.decided', { actionName: 'deploy', decision: 'edit', becameAnswered: true }),
      ),
    );
    expect(frames.map((f) => [f.id, f.event])).toEqual([
      [undefined, 'interrupt.decided'],
      ['42', 'interrupt.answered'],
    ]);
    expect(frames[0].data).toMatchObject({
      actionName: 'deploy',
      decision: 'edit',
      becameAnswered: true,
    });
    expect(frames[1].data).toEqual({
      ...base,
      type: 'interrupt.answered',
      interrupt: { id: 't1', title: 'Deploy' },
    });
    const notYet = parse(
      eventFrames(
        row('interrupt.decided', {
          actionName: 'deploy',
          decision: 'approve',
          becameAnswered: false,
        }),
      ),
    );
    expect(notYet.map((f) => [f.id, f.event])).toEqual([['42', 'interrupt.decided']]);
  });

  it('makes assigned, escalated, session started and ended (disconnected is an end)', () => {
    expect(
      parse(
        eventFrames(
          row('interrupt.assigned', {
            assigneeType: 'team',
            assigneeId: 'tm',
            assigneeName: 'Payments',
          }),
        ),
      )[0].data,
    ).toMatchObject({
      type: 'interrupt.assigned',
      assignee: { type: 'team', id: 'tm', name: 'Payments' },
    });
    expect(
      parse(eventFrames(row('interrupt.escalated', { level: 2, reason: null })))[0].data,
    ).toMatchObject({
      type: 'interrupt.escalated',
      level: 2,
      reason: null,
    });
    expect(parse(eventFrames(row('session.started', { externalId: null })))[0].data).toMatchObject({
      type: 'session.started',
      session: { id: 't1', name: 'Deploy' },
      externalId: null,
    });
    for (const [action, status] of [
      ['session.ended', 'ended'],
      ['session.disconnected', 'disconnected'],
    ]) {
      const [frame] = parse(eventFrames(row(action, { messageCount: 3, durationSeconds: 9 })));
      expect(frame).toMatchObject({
        id: '42',
        event: 'session.ended',
        data: { type: 'session.ended', status, messageCount: 3 },
      });
    }
  });

  it('makes nothing of other actions', () => {
    expect(eventFrames(row('member.invited', null))).toBe('');
  });
});
