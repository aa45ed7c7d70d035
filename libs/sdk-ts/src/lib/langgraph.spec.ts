import { ActionDigestMismatchError } from './action-digest';
import { Interlock } from './client';
import { InterlockError } from './errors';
import {
  interlockDecisions,
  interlockPayload,
  interruptFromLangGraph,
  interruptsFromLangGraph,
  LANGGRAPH_METADATA_KEY,
  MAX_DESCRIPTION_LENGTH,
  toLangGraphResume,
  type LangGraphHITLRequest,
} from './langgraph';
import { answeredAs, forged } from './testing/answered';
import { jsonResponse, mockFetch } from './testing/mock-fetch';
import type { Decision, DecisionType, Interrupt, InterruptCreateParams } from './types';

const ALL: DecisionType[] = ['approve', 'edit', 'reject', 'respond'];

/** What the service stores and answers for the create parameters (SPEC §5), before any decision. */
function stored(params: InterruptCreateParams, id = 'int_9'): Interrupt {
  return {
    id,
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
      responseSchema: a.responseSchema ?? null,
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
  actionName: string,
  decision: DecisionType,
  extra: Partial<Pick<Decision, 'editedArgs' | 'editedName' | 'message'>> = {},
): Decision {
  return {
    id: `d-${actionName}`,
    actionName,
    decision,
    editedArgs: extra.editedArgs ?? null,
    editedName: extra.editedName ?? null,
    message: extra.message ?? null,
    response: null,
    decidedBy: { type: 'member', id: 'm1', name: 'Ada' },
    decidedAt: '2025-01-01T00:05:00.000Z',
  };
}

function answer(params: InterruptCreateParams, ...decisions: Decision[]): Interrupt {
  return { ...stored(params), status: 'answered', decisions };
}

const python: LangGraphHITLRequest = {
  action_requests: [
    {
      name: 'send_email',
      args: { to: 'ada@example.com', body: 'Hi' },
      description: 'Send the reply',
    },
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

describe('LangGraph bridge: Python HumanInTheLoopMiddleware (batched)', () => {
  it('maps the request to create parameters and records how to map the answers back', () => {
    const params = interruptFromLangGraph(python, {
      externalId: 'thread-42',
      sessionId: 's1',
      metadata: { run: 7 },
    });
    expect(params).toMatchObject({
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
        {
          name: 'delete_file',
          args: { path: '/tmp/x' },
          description: 'Clean up',
          allowedDecisions: ['approve', 'reject'],
        },
        { name: 'book_flight', args: { to: 'LIS' } },
        { name: 'ask_user', args: {}, allowedDecisions: ['respond'] },
      ],
    });
    expect(params.actionRequests[2].allowedDecisions).toBeUndefined();
    expect(params.metadata).toMatchObject({
      run: 7,
      [LANGGRAPH_METADATA_KEY]: {
        v: 1,
        part: 1,
        parts: 1,
        targets: [{ id: null, kind: 'hitl', size: 4 }],
      },
    });
    expect(
      interruptFromLangGraph({ action_requests: [{ name: 'x' }] }, { title: 'Mine' }).title,
    ).toBe('Mine');
    expect(interruptFromLangGraph({ action_requests: [{ name: 'x' }] }).title).toBe('Review x');
  });

  it('resumes with one decision per action, in the original order, an edit renaming the tool', async () => {
    const params = interruptFromLangGraph(python);
    // Decisions arrive in the order members made them, not the order of the actions.
    const resume = await toLangGraphResume(
      answer(
        params,
        decided('ask_user', 'respond', { message: 'Tuesday works' }),
        decided('delete_file', 'reject', { message: 'Keep it' }),
        decided('send_email', 'edit', {
          editedArgs: { to: 'ada@example.com', body: 'Hello' },
          editedName: 'send_draft',
        }),
        decided('book_flight', 'approve'),
      ),
      python,
    );
    expect(resume).toEqual({
      decisions: [
        {
          type: 'edit',
          edited_action: { name: 'send_draft', args: { to: 'ada@example.com', body: 'Hello' } },
        },
        { type: 'reject', message: 'Keep it' },
        { type: 'approve' },
        { type: 'respond', message: 'Tuesday works' },
      ],
    });
  });

  it('makes repeated tool names unique for the service and restores them', async () => {
    const repeated = {
      action_requests: [
        { name: 'send_email', args: { to: 'a' } },
        { name: 'send_email', args: { to: 'b' } },
      ],
      review_configs: [{ action_name: 'send_email', allowed_decisions: ['approve', 'edit'] }],
    };
    const params = interruptFromLangGraph(repeated);
    expect(params.actionRequests.map((a) => a.name)).toEqual(['send_email', 'send_email #2']);
    expect(params.actionRequests[1].allowedDecisions).toEqual(['approve', 'edit']);
    const resume = await toLangGraphResume(
      answer(
        params,
        decided('send_email #2', 'edit', { editedArgs: { to: 'c' } }),
        decided('send_email', 'approve'),
      ),
      repeated,
    );
    expect(resume).toEqual({
      decisions: [
        { type: 'approve' },
        { type: 'edit', edited_action: { name: 'send_email', args: { to: 'c' } } },
      ],
    });
  });

  it('omits an empty reject message, refuses a missing decision and an unknown decision type', async () => {
    const request = { action_requests: [{ name: 'a' }, { name: 'b' }] };
    const params = interruptFromLangGraph(request);
    expect(
      await toLangGraphResume(
        answer(params, decided('b', 'approve'), decided('a', 'reject')),
        request,
      ),
    ).toEqual({
      decisions: [{ type: 'reject' }, { type: 'approve' }],
    });
    await expect(
      toLangGraphResume(answer(params, decided('a', 'approve')), request),
    ).rejects.toThrow(/no decision for action b/);
    // A decision type a newer service adds passes through the client; the bridge cannot map it.
    const newer = { ...decided('a', 'approve'), decision: 'delegate' } as unknown as Decision;
    await expect(
      toLangGraphResume(answer(params, newer, decided('b', 'approve')), request),
    ).rejects.toThrow(/unknown decision type delegate/);
  });

  it('refuses what is not a review request', () => {
    expect(() => interruptsFromLangGraph({ action_requests: [] })).toThrow(InterlockError);
    expect(() => interruptsFromLangGraph({ foo: 1 })).toThrow(/Not a LangGraph review request/);
    expect(() =>
      interruptsFromLangGraph({
        action_requests: [{ name: 'x' }],
        review_configs: [{ action_name: 'x', allowed_decisions: ['ignore'] }],
      }),
    ).toThrow(/ignore/);
  });

  it('reads an interrupt made without the bridge as one HITL request', async () => {
    const plain = answer({ title: 't', actionRequests: [{ name: 'a' }] }, decided('a', 'approve'));
    expect(await toLangGraphResume(plain, { action_requests: [{ name: 'a' }] })).toEqual({
      decisions: [{ type: 'approve' }],
    });
  });
});

describe('LangGraph bridge: langchain JS humanInTheLoopMiddleware (camelCase)', () => {
  const result = {
    messages: [],
    __interrupt__: [
      {
        id: 'a1b2',
        value: {
          actionRequests: [
            {
              name: 'send_email',
              args: { to: 'ada' },
              description: 'Tool execution requires approval',
            },
            { name: 'delete_file', args: { path: '/x' } },
          ],
          reviewConfigs: [
            { actionName: 'send_email', allowedDecisions: ['approve', 'edit', 'reject'] },
            { actionName: 'delete_file', allowedDecisions: ['approve', 'reject'] },
          ],
        },
      },
    ],
  };

  it('reads the run result as it comes, and resumes with editedAction', async () => {
    const params = interruptFromLangGraph(result);
    expect(params.actionRequests).toEqual([
      {
        name: 'send_email',
        args: { to: 'ada' },
        description: 'Tool execution requires approval',
        allowedDecisions: ['approve', 'edit', 'reject'],
      },
      { name: 'delete_file', args: { path: '/x' }, allowedDecisions: ['approve', 'reject'] },
    ]);
    const resume = await toLangGraphResume(
      answer(
        params,
        decided('send_email', 'edit', { editedArgs: { to: 'bob' }, editedName: 'send_draft' }),
        decided('delete_file', 'reject', { message: 'No' }),
      ),
      result,
    );
    expect(resume).toEqual({
      decisions: [
        { type: 'edit', editedAction: { name: 'send_draft', args: { to: 'bob' } } },
        { type: 'reject', message: 'No' },
      ],
    });
  });

  it('allows approve, edit and reject by default and never respond', async () => {
    const request = { actionRequests: [{ name: 'x', args: {} }] };
    const params = interruptFromLangGraph(request);
    expect(params.actionRequests[0].allowedDecisions).toEqual(['approve', 'edit', 'reject']);
    await expect(
      toLangGraphResume(answer(params, decided('x', 'respond', { message: 'hi' })), request),
    ).rejects.toThrow(/no respond decision/);
  });
});

describe('LangGraph bridge: Python HumanInTheLoopMiddleware(interrupt_mode="per_call")', () => {
  const schema = (types: string[]) => ({
    oneOf: types.map((t) => ({ $ref: `#/$defs/${t}` })),
    $defs: Object.fromEntries(
      types.map((t) => [t, { type: 'object', properties: { type: { const: t } } }]),
    ),
  });
  const interrupts = [
    {
      id: 'i-1',
      value: {
        type: 'tool_approval',
        tool_call_id: 'c1',
        name: 'send_email',
        args: { to: 'a' },
        description: 'd1',
      },
      response_schema: schema(['approve', 'edit', 'reject', 'respond']),
    },
    {
      id: 'i-2',
      value: {
        type: 'tool_approval',
        tool_call_id: 'c2',
        name: 'send_email',
        args: { to: 'b' },
        description: '',
      },
      response_schema: schema(['approve', 'reject']),
    },
  ];

  it('combines the calls into one interrupt, takes the allowed decisions from response_schema, resumes by id', async () => {
    const params = interruptFromLangGraph(interrupts);
    expect(params.actionRequests).toEqual([
      {
        name: 'send_email',
        args: { to: 'a' },
        description: 'd1',
        allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
      },
      { name: 'send_email #2', args: { to: 'b' }, allowedDecisions: ['approve', 'reject'] },
    ]);
    const resume = await toLangGraphResume(
      answer(
        params,
        decided('send_email #2', 'reject', { message: 'no' }),
        decided('send_email', 'edit', { editedArgs: { to: 'c' } }),
      ),
      interrupts,
    );
    expect(resume).toEqual({
      'i-1': { type: 'edit', edited_action: { name: 'send_email', args: { to: 'c' } } },
      'i-2': { type: 'reject', message: 'no' },
    });
  });

  it('refuses a rename, which per-call mode cannot run', async () => {
    const params = interruptFromLangGraph(interrupts[0]);
    await expect(
      toLangGraphResume(
        answer(params, decided('send_email', 'edit', { editedArgs: {}, editedName: 'other' })),
        interrupts[0],
      ),
    ).rejects.toThrow(/cannot switch tools/);
    // One interrupt: the bare value.
    expect(
      await toLangGraphResume(
        answer(params, decided('send_email', 'respond', { message: 'done' })),
        interrupts[0],
      ),
    ).toEqual({ type: 'respond', message: 'done' });
  });
});

describe('LangGraph bridge: Agent Inbox HumanInterrupt', () => {
  const request = {
    action_request: { action: 'run_command', args: { command: 'ls' } },
    config: { allow_ignore: true, allow_respond: true, allow_edit: true, allow_accept: false },
    description: 'Please review',
  };

  it('maps config.allow_* to the allowed decisions and answers with HumanResponse', async () => {
    const params = interruptFromLangGraph([request]);
    expect(params.actionRequests).toEqual([
      {
        name: 'run_command',
        args: { command: 'ls' },
        description: 'Please review',
        allowedDecisions: ['edit', 'reject', 'respond'],
      },
    ]);
    // interrupt([request]) is answered with a list…
    expect(
      await toLangGraphResume(
        answer(
          params,
          decided('run_command', 'edit', {
            editedArgs: { command: 'pwd' },
            editedName: 'run_shell',
          }),
        ),
        [request],
      ),
    ).toEqual([{ type: 'edit', args: { action: 'run_shell', args: { command: 'pwd' } } }]);
    expect(
      await toLangGraphResume(answer(params, decided('run_command', 'reject')), [request]),
    ).toEqual([{ type: 'ignore', args: null }]);
    // …interrupt(request) with one response.
    const one = {
      id: 'x',
      value: { ...request, config: { ...request.config, allow_accept: true } },
    };
    const single = interruptFromLangGraph(one);
    expect(await toLangGraphResume(answer(single, decided('run_command', 'approve')), one)).toEqual(
      { type: 'accept', args: null },
    );
    expect(
      await toLangGraphResume(
        answer(single, decided('run_command', 'respond', { message: 'use ls -l' })),
        one,
      ),
    ).toEqual({ type: 'response', args: 'use ls -l' });
    expect(() =>
      interruptFromLangGraph({
        ...request,
        config: {
          allow_ignore: false,
          allow_respond: false,
          allow_edit: false,
          allow_accept: false,
        },
      }),
    ).toThrow(/allows no answer/);
  });
});

describe('LangGraph bridge: a payload of ours', () => {
  it('opens the interrupt as given and resumes with the decisions in action order', async () => {
    const payload = interlockPayload({
      title: 'Refund?',
      actionRequests: [
        { name: 'refund', args: { amount: 40 }, allowedDecisions: ['approve', 'reject'] },
        { name: 'notify' },
      ],
    });
    const source = { id: 'p1', value: payload };
    const params = interruptFromLangGraph(source, { externalId: 'order-1' });
    expect(params.actionRequests).toEqual([
      { name: 'refund', args: { amount: 40 }, allowedDecisions: ['approve', 'reject'] },
      { name: 'notify', args: {} },
    ]);
    const resume = await toLangGraphResume(
      answer(
        params,
        decided('notify', 'approve'),
        decided('refund', 'reject', { message: 'too much' }),
      ),
      source,
    );
    const decisions = interlockDecisions(resume);
    expect(decisions.map((d) => [d.actionName, d.decision, d.message])).toEqual([
      ['refund', 'reject', 'too much'],
      ['notify', 'approve', null],
    ]);
    expect(() => interlockDecisions({ decisions: [{ nope: 1 }] })).toThrow(InterlockError);
  });

  it("keeps the title, description and fields the payload gives, under the caller's options", () => {
    const payload = interlockPayload({
      title: 'Refund order 1234?',
      description: 'The customer says the parcel never came.',
      externalId: 'order-1234',
      metadata: { shop: 'eu' },
      actionRequests: [{ name: 'refund', args: { amount: 40 } }],
    });
    const params = interruptFromLangGraph({ id: 'p1', value: payload });
    expect(params).toMatchObject({
      title: 'Refund order 1234?',
      description: 'The customer says the parcel never came.',
      externalId: 'order-1234',
    });
    expect(params.metadata).toMatchObject({
      shop: 'eu',
      [LANGGRAPH_METADATA_KEY]: expect.any(Object),
    });
    const mine = interruptFromLangGraph([{ id: 'p1', value: payload }], {
      title: 'Mine',
      externalId: undefined,
      metadata: { run: 7 },
    });
    expect(mine).toMatchObject({
      title: 'Mine',
      description: 'The customer says the parcel never came.',
      externalId: 'order-1234',
    });
    expect(mine.metadata).toMatchObject({ shop: 'eu', run: 7 });
    // Two payloads reviewed together: neither title speaks for both.
    const two = interruptFromLangGraph([
      { id: 'a', value: payload },
      {
        id: 'b',
        value: interlockPayload({ title: 'Other', actionRequests: [{ name: 'notify' }] }),
      },
    ]);
    expect(two.title).toBe('Review 2 actions: refund, notify');
    expect(two.description).toBeUndefined();
  });
});

describe('LangGraph bridge: generated titles', () => {
  it('names each tool once, with how often it was called', () => {
    const request = {
      action_requests: [
        { name: 'send_email' },
        { name: 'send_email' },
        { name: 'read_file' },
        { name: 'send_email' },
      ],
    };
    const params = interruptFromLangGraph(request);
    expect(params.title).toBe('Review 4 actions: send_email ×3, read_file');
    expect(params.actionRequests.map((a) => a.name)).toEqual([
      'send_email',
      'send_email #2',
      'read_file',
      'send_email #3',
    ]);
    const parts = interruptsFromLangGraph({
      action_requests: Array.from({ length: 21 }, () => ({ name: 'tool' })),
    });
    expect(parts.map((p) => p.title)).toEqual([
      'Review 21 actions (1/2): tool ×20',
      'Review 21 actions (2/2): tool',
    ]);
  });
});

describe('LangGraph bridge: requests larger than one interrupt', () => {
  it('splits 45 actions into interrupts of at most 20 and merges the decisions back in order', async () => {
    const request = {
      action_requests: Array.from({ length: 45 }, (_, i) => ({ name: 'tool', args: { i } })),
    };
    const source = { id: 'big', value: request };
    const parts = interruptsFromLangGraph(source, { title: 'Batch' });
    expect(parts.map((p) => p.actionRequests.length)).toEqual([20, 20, 5]);
    expect(parts.map((p) => p.title)).toEqual(['Batch (1/3)', 'Batch (2/3)', 'Batch (3/3)']);
    expect(parts[0].actionRequests.slice(0, 3).map((a) => a.name)).toEqual([
      'tool',
      'tool #2',
      'tool #3',
    ]);
    expect(() => interruptFromLangGraph(request)).toThrow(/needs 3 interrupts/);

    // Approve the even calls, reject the odd ones; give the parts back in any order.
    const answered = parts.map((params, p) =>
      answer(
        params,
        ...params.actionRequests.map((a, j) => {
          const i = p * 20 + j;
          return i % 2 === 0
            ? decided(a.name, 'approve')
            : decided(a.name, 'reject', { message: `no ${i}` });
        }),
      ),
    );
    const resume = (await toLangGraphResume([answered[2], answered[0], answered[1]], source)) as {
      decisions: unknown[];
    };
    expect(resume.decisions).toHaveLength(45);
    expect(resume.decisions.slice(0, 4)).toEqual([
      { type: 'approve' },
      { type: 'reject', message: 'no 1' },
      { type: 'approve' },
      { type: 'reject', message: 'no 3' },
    ]);
    expect(resume.decisions[44]).toEqual({ type: 'approve' });
    await expect(toLangGraphResume([answered[0], answered[2]], source)).rejects.toThrow(
      /Part 2 of 3/,
    );
  });

  it('shortens a description over 10,000 characters and keeps the args whole', () => {
    const big = 'x'.repeat(9_990);
    const description = `Tool execution requires approval\n\nTool: write\nArgs: ${JSON.stringify({ content: big })}`;
    const params = interruptFromLangGraph({
      actionRequests: [{ name: 'write', args: { content: big }, description }],
    });
    const shortened = params.actionRequests[0].description as string;
    expect(shortened.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
    expect(shortened.startsWith('Tool execution requires approval')).toBe(true);
    expect(shortened).toMatch(/shortened by Interlock: the full arguments are in args\]$/);
    expect(params.actionRequests[0].args).toEqual({ content: big });
  });
});

describe('LangGraph bridge: reviewLangGraph checks the answer against what it sent', () => {
  it('refuses an answer whose decisions are about other arguments (digest), typed', async () => {
    const request = {
      action_requests: [{ name: 'send_email', args: { to: 'ada@example.com', body: 'Hi' } }],
      review_configs: [{ action_name: 'send_email', allowed_decisions: ['approve', 'reject'] }],
    };
    const [params] = interruptsFromLangGraph(request);
    // The service answers approving send_email to someone else: the digest is of other args.
    const other = {
      ...params,
      actionRequests: [{ name: 'send_email', args: { to: 'mallory@example.com' } }],
    };
    const tampered = await answeredAs(other, 'answered', [decided('send_email', 'approve')]);
    const created = { ...stored(params, tampered.id) };
    const { fetch } = mockFetch(jsonResponse(201, created), jsonResponse(200, tampered));
    const client = new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });
    await expect(client.interrupts.reviewLangGraph(request)).rejects.toBeInstanceOf(
      ActionDigestMismatchError,
    );
    // The same answer about the arguments sent resumes.
    const honest = await answeredAs(params, 'answered', [decided('send_email', 'approve')]);
    const again = mockFetch(jsonResponse(201, created), jsonResponse(200, honest));
    const ok = new Interlock({
      apiKey: 'ilk_test',
      baseURL: 'http://interlock.test',
      fetch: again.fetch,
    });
    await expect(ok.interrupts.reviewLangGraph(request)).resolves.toEqual({
      decisions: [{ type: 'approve' }],
    });
  });
});

describe('LangGraph bridge: the durable path checks the answer against the graph', () => {
  // Another process resumes: it has the answered interrupt (fetched, or from a webhook) and the
  // review request the graph is still waiting on (read back from its checkpointer).
  const pending = [
    {
      id: 'lg-7',
      value: {
        actionRequests: [
          { name: 'send_email', args: { to: 'ada@example.com', body: 'Hi' } },
          { name: 'delete_file', args: { path: '/tmp/x' } },
        ],
      },
    },
  ];

  it('resumes on an answer about exactly the graph’s actions', async () => {
    const [params] = interruptsFromLangGraph(pending);
    const answered = await answeredAs(params, 'answered', [
      decided('send_email', 'approve'),
      decided('delete_file', 'reject'),
    ]);
    await expect(toLangGraphResume(answered, pending)).resolves.toEqual({
      decisions: [{ type: 'approve' }, { type: 'reject' }],
    });
  });

  it('refuses a tampered decision, and an answer about other arguments', async () => {
    const [params] = interruptsFromLangGraph(pending);
    const answered = await answeredAs(params, 'answered', [
      decided('send_email', 'approve'),
      decided('delete_file', 'approve'),
    ]);
    // A decision whose digest is not of the action asked about.
    const forgedDecision = forged(answered, 'delete_file');
    await expect(toLangGraphResume(forgedDecision, pending)).rejects.toBeInstanceOf(
      ActionDigestMismatchError,
    );
    // The whole interrupt digested over other arguments (as if changed in the service).
    const other = {
      ...params,
      actionRequests: [
        { name: 'send_email', args: { to: 'mallory@example.com', body: 'Hi' } },
        { name: 'delete_file', args: { path: '/' } },
      ],
    };
    const rewritten = await answeredAs(other, 'answered', [
      decided('send_email', 'approve'),
      decided('delete_file', 'approve'),
    ]);
    await expect(toLangGraphResume(rewritten, pending)).rejects.toBeInstanceOf(
      ActionDigestMismatchError,
    );
  });

  it('refuses an answer to another review than the one the graph waits on', async () => {
    const [params] = interruptsFromLangGraph(pending);
    const answered = await answeredAs(params, 'answered', [
      decided('send_email', 'approve'),
      decided('delete_file', 'approve'),
    ]);
    const elsewhere = [{ ...pending[0], id: 'lg-8' }];
    await expect(toLangGraphResume(answered, elsewhere)).rejects.toThrow(
      'These interrupts do not answer the review request the graph is waiting on (source).',
    );
    const fewer = [{ id: 'lg-7', value: { actionRequests: [pending[0].value.actionRequests[0]] } }];
    await expect(toLangGraphResume(answered, fewer)).rejects.toThrow(
      /does not ask about the actions the graph is waiting on/,
    );
  });
});
