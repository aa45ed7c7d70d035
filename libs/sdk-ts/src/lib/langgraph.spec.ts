import { InterlockError } from './errors';
import { interruptFromLangGraph, toLangGraphResume, type LangGraphHITLRequest } from './langgraph';
import type { Decision, DecisionType, Interrupt, InterruptCreateParams } from './types';

const hitl: LangGraphHITLRequest = {
  action_requests: [
    { name: 'send_email', args: { to: 'ada@example.com', body: 'Hi' }, description: 'Send the reply' },
    { name: 'delete_file', args: { path: '/tmp/x' }, description: 'Clean up' },
    { name: 'book_flight', args: { to: 'LIS' } },
    { name: 'ask_user', args: {} },
  ],
  review_configs: [
    { action_name: 'send_email', allowed_decisions: ['approve', 'edit', 'reject'] },
    { action_name: 'delete_file', allowed_decisions: ['approve', 'reject'] },
    { action_name: 'ask_user', allowed_decisions: ['respond'] },
  ],
};

const ALL: DecisionType[] = ['approve', 'edit', 'reject', 'respond'];

/** What the service stores and answers for the create parameters (SPEC §5), before any decision. */
function stored(params: InterruptCreateParams): Interrupt {
  return {
    id: 'int_9',
    title: params.title,
    description: params.description ?? null,
    externalId: params.externalId ?? null,
    sessionId: params.sessionId ?? null,
    status: 'open',
    actionRequests: params.actionRequests.map((a) => ({
      name: a.name,
      args: a.args ?? {},
      description: a.description ?? null,
      allowedDecisions: a.allowedDecisions ?? ALL,
    })),
    decisions: [],
    assignee: null,
    escalationLevel: 0,
    escalationReason: null,
    escalatedAt: null,
    metadata: params.metadata ?? null,
    createdAt: '2025-01-01T00:00:00.000Z',
    answeredAt: null,
  };
}

function decided(
  id: string,
  actionName: string,
  decision: DecisionType,
  extra: Partial<Pick<Decision, 'editedArgs' | 'message'>> = {},
): Decision {
  return {
    id,
    actionName,
    decision,
    editedArgs: extra.editedArgs ?? null,
    editedName: null,
    message: extra.message ?? null,
    decidedBy: { id: 'm1', name: 'Ada' },
    decidedAt: '2025-01-01T00:05:00.000Z',
  };
}

describe('LangGraph bridge', () => {
  it('maps a HITL request to create-interrupt parameters', () => {
    const params = interruptFromLangGraph(hitl, { externalId: 'thread-42', sessionId: 's1' });
    expect(params).toEqual({
      title: 'Review 4 actions: send_email, delete_file, book_flight, ask_user',
      externalId: 'thread-42',
      sessionId: 's1',
      actionRequests: [
        {
          name: 'send_email',
          args: { to: 'ada@example.com', body: 'Hi' },
          description: 'Send the reply',
          allowedDecisions: ['approve', 'edit', 'reject'],
        },
        { name: 'delete_file', args: { path: '/tmp/x' }, description: 'Clean up', allowedDecisions: ['approve', 'reject'] },
        { name: 'book_flight', args: { to: 'LIS' } },
        { name: 'ask_user', args: {}, allowedDecisions: ['respond'] },
      ],
    });
    expect(interruptFromLangGraph({ action_requests: [{ name: 'x' }] }, { title: 'Mine' }).title).toBe('Mine');
    expect(interruptFromLangGraph({ action_requests: [{ name: 'x' }] }).title).toBe('Review x');
  });

  it('keeps titles within 200 characters and refuses empty or unknown input', () => {
    const many = { action_requests: Array.from({ length: 20 }, (_, i) => ({ name: `a_very_long_tool_name_${i}` })) };
    expect(interruptFromLangGraph(many).title.length).toBe(200);
    expect(() => interruptFromLangGraph({ action_requests: [] })).toThrow(InterlockError);
    expect(() =>
      interruptFromLangGraph({
        action_requests: [{ name: 'x' }],
        review_configs: [{ action_name: 'x', allowed_decisions: ['ignore'] }],
      }),
    ).toThrow(/ignore/);
  });

  it('round-trips: decisions come back as the resume value, in the original action order', () => {
    const interrupt = stored(interruptFromLangGraph(hitl));
    // Decisions arrive in the order members made them, not the order of the actions.
    const answered: Interrupt = {
      ...interrupt,
      status: 'answered',
      decisions: [
        decided('d4', 'ask_user', 'respond', { message: 'Tuesday works' }),
        decided('d2', 'delete_file', 'reject', { message: 'Keep it' }),
        decided('d1', 'send_email', 'edit', { editedArgs: { to: 'ada@example.com', body: 'Hello' } }),
        decided('d3', 'book_flight', 'approve'),
      ],
    };
    expect(toLangGraphResume(answered)).toEqual({
      decisions: [
        { type: 'edit', edited_action: { name: 'send_email', args: { to: 'ada@example.com', body: 'Hello' } } },
        { type: 'reject', message: 'Keep it' },
        { type: 'approve' },
        { type: 'respond', message: 'Tuesday works' },
      ],
    });
  });

  it('makes repeated tool names unique for the service and restores them in the resume value', () => {
    const params = interruptFromLangGraph(
      {
        action_requests: [
          { name: 'send_email', args: { to: 'a' } },
          { name: 'send_email', args: { to: 'b' } },
        ],
        review_configs: [{ action_name: 'send_email', allowed_decisions: ['approve', 'edit'] }],
      },
      { metadata: { run: 7 } },
    );
    expect(params.actionRequests.map((a) => a.name)).toEqual(['send_email', 'send_email #2']);
    expect(params.actionRequests[1].allowedDecisions).toEqual(['approve', 'edit']);
    expect(params.metadata).toEqual({ run: 7, langgraph: { actionNames: ['send_email', 'send_email'] } });
    expect(params.title).toBe('Review 2 actions: send_email, send_email');

    const answered: Interrupt = {
      ...stored(params),
      status: 'answered',
      decisions: [
        decided('d2', 'send_email #2', 'edit', { editedArgs: { to: 'c' } }),
        decided('d1', 'send_email', 'approve'),
      ],
    };
    expect(toLangGraphResume(answered)).toEqual({
      decisions: [{ type: 'approve' }, { type: 'edit', edited_action: { name: 'send_email', args: { to: 'c' } } }],
    });
    // Unique names leave the metadata alone.
    expect(interruptFromLangGraph(hitl, { metadata: { run: 7 } }).metadata).toEqual({ run: 7 });
  });

  it('omits an empty reject message and refuses a missing decision', () => {
    const interrupt = stored(interruptFromLangGraph({ action_requests: [{ name: 'a' }, { name: 'b' }] }));
    expect(toLangGraphResume({ ...interrupt, decisions: [decided('1', 'b', 'approve'), decided('2', 'a', 'reject')] })).toEqual({
      decisions: [{ type: 'reject' }, { type: 'approve' }],
    });
    expect(() => toLangGraphResume({ ...interrupt, decisions: [decided('1', 'a', 'approve')] })).toThrow(
      /no decision for action b/,
    );
  });
});
