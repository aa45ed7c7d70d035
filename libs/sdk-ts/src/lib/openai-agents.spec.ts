import { InterlockError } from './errors';
import {
  applyOpenAIAgentsDecisions,
  OPENAI_AGENTS_METADATA_KEY,
  openAIAgentsInterrupt,
  type OpenAIAgentsApprovalItem,
} from './openai-agents';
import type { Decision, Interrupt } from './types';

function fakeState() {
  const items: OpenAIAgentsApprovalItem[] = [
    {
      name: 'send_email',
      arguments: '{"to":"ada@example.com"}',
      rawItem: { callId: 'c1' },
      agent: { name: 'mailer' },
    },
    { name: 'send_email', arguments: '{"to":"bob@example.com"}', rawItem: { callId: 'c2' } },
    { name: 'delete_file', arguments: 'not json', rawItem: { callId: 'c3' } },
  ];
  const calls: [string, string, string | undefined][] = [];
  return {
    calls,
    getInterruptions: () => items,
    approve: (item: OpenAIAgentsApprovalItem) =>
      void calls.push(['approve', String((item.rawItem as { callId: string }).callId), undefined]),
    reject: (item: OpenAIAgentsApprovalItem, options?: { message?: string }) =>
      void calls.push([
        'reject',
        String((item.rawItem as { callId: string }).callId),
        options?.message,
      ]),
    toString: () => '{"state":true}',
  };
}

const decided = (
  actionName: string,
  decision: 'approve' | 'reject',
  message: string | null = null,
): Decision =>
  ({
    id: actionName,
    actionName,
    decision,
    editedArgs: null,
    editedName: null,
    message,
    decidedBy: { type: 'member', id: 'm', name: 'Ada' },
    decidedAt: '',
  }) as Decision;

describe('the OpenAI Agents bridge', () => {
  it('opens one action per call, names unique, only approve or reject', () => {
    const params = openAIAgentsInterrupt({ state: fakeState() }, { externalId: 'run-1' });
    expect(params.title).toBe('Approve 3 tool calls: send_email, delete_file?');
    expect(params.externalId).toBe('run-1');
    expect(params.actionRequests).toEqual([
      {
        name: 'send_email',
        args: { to: 'ada@example.com' },
        allowedDecisions: ['approve', 'reject'],
        description: 'mailer wants to call send_email.',
      },
      {
        name: 'send_email #2',
        args: { to: 'bob@example.com' },
        allowedDecisions: ['approve', 'reject'],
      },
      {
        name: 'delete_file',
        args: { arguments: 'not json' },
        allowedDecisions: ['approve', 'reject'],
      },
    ]);
    expect(params.metadata?.[OPENAI_AGENTS_METADATA_KEY]).toEqual({
      v: 1,
      calls: [
        ['send_email', 'c1'],
        ['send_email #2', 'c2'],
        ['delete_file', 'c3'],
      ],
    });
    expect(
      openAIAgentsInterrupt(fakeState(), {}, true).metadata?.[OPENAI_AGENTS_METADATA_KEY],
    ).toMatchObject({ state: '{"state":true}' });
  });

  it('applies the decisions by call id; a withdrawn request rejects what it left undecided', () => {
    const state = fakeState();
    const metadata = openAIAgentsInterrupt(state).metadata ?? null;
    const answered = {
      metadata,
      status: 'answered',
      decisions: [
        decided('send_email #2', 'reject', 'Not Bob.'),
        decided('send_email', 'approve'),
        decided('delete_file', 'reject'),
      ],
    } as Interrupt;
    applyOpenAIAgentsDecisions(state, answered);
    expect(state.calls).toEqual([
      ['approve', 'c1', undefined],
      ['reject', 'c2', 'Not Bob.'],
      ['reject', 'c3', undefined],
    ]);
    const withdrawn = fakeState();
    applyOpenAIAgentsDecisions(withdrawn, {
      metadata,
      status: 'withdrawn',
      decisions: [],
    } as unknown as Interrupt);
    expect(withdrawn.calls.map(([kind, , message]) => [kind, message])).toEqual(
      Array(3).fill(['reject', 'The request for approval was withdrawn; the tool did not run.']),
    );
  });

  it('refuses an open interrupt, one of another bridge, and a run with nothing to approve', () => {
    const state = fakeState();
    const metadata = openAIAgentsInterrupt(state).metadata ?? null;
    expect(() =>
      applyOpenAIAgentsDecisions(state, {
        metadata,
        status: 'open',
        decisions: [],
      } as unknown as Interrupt),
    ).toThrow('still open');
    expect(() =>
      applyOpenAIAgentsDecisions(state, {
        metadata: null,
        status: 'answered',
        decisions: [],
      } as unknown as Interrupt),
    ).toThrow(InterlockError);
    expect(() => openAIAgentsInterrupt({ ...state, getInterruptions: () => [] })).toThrow(
      'no pending tool approvals',
    );
  });
});
