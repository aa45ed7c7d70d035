// The LangGraph bridge against the real packages (langchain, @langchain/langgraph, @langchain/core:
// pinned in the root package.json) and the live service: a real graph with a checkpointer pauses
// on a tool call, the bridge opens the interrupt(s), a member decides over HTTP with the session
// cookie, and the graph resumes and runs the right tools with the right args. The chat model is
// @langchain/core's own fake (the model is not what is tested).
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Annotation, Command, interrupt, MemorySaver, StateGraph } from '@langchain/langgraph';
import { createAgent, humanInTheLoopMiddleware, tool } from 'langchain';
import {
  Interlock,
  interlockDecisions,
  interlockPayload,
  interruptFromLangGraph,
  MAX_DESCRIPTION_LENGTH,
  toLangGraphResume,
} from '../src';
import { createKey, decideWhenOpen, live, raw, revokeKey, runTag } from './support/live-service';

const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });
const wait = { pollInterval: 100, timeout: 120_000 };
const argsSchema = {
  type: 'object',
  properties: {
    to: { type: 'string' },
    body: { type: 'string' },
    path: { type: 'string' },
    i: { type: 'number' },
  },
} as const;

/** Tools that record each run: [tool, args]. */
function recordingTools(ran: [string, Record<string, unknown>][]) {
  const make = (name: string) =>
    tool(
      async (args: Record<string, unknown>) => {
        ran.push([name, args]);
        return `${name} done`;
      },
      { name, description: `the ${name} tool`, schema: argsSchema },
    );
  return [make('send_email'), make('send_draft'), make('delete_file')];
}

describe('langchain JS humanInTheLoopMiddleware (real package)', () => {
  it('approve, edit with a rename, then reject with a message: the right tools run with the right args', async () => {
    const ran: [string, Record<string, unknown>][] = [];
    const model = fakeModel()
      .respondWithTools([
        { name: 'send_email', args: { to: 'ada@example.com', body: 'Hi' } },
        { name: 'send_email', args: { to: 'bob@example.com', body: 'Hi' } },
      ])
      .respondWithTools([{ name: 'delete_file', args: { path: '/srv/report.pdf' } }])
      .respond(new AIMessage('All done.'));
    const agent = createAgent({
      model,
      tools: recordingTools(ran),
      middleware: [
        humanInTheLoopMiddleware({
          interruptOn: {
            send_email: true,
            delete_file: { allowedDecisions: ['approve', 'reject'] },
          },
        }),
      ],
      checkpointer: new MemorySaver(),
    });
    const thread = runTag('js-hitl-');
    const config = { configurable: { thread_id: thread } };

    const first = await agent.invoke(
      { messages: [{ role: 'user', content: 'Email Ada and Bob, then delete the report.' }] },
      config,
    );
    const [resume] = await Promise.all([
      client.interrupts.reviewLangGraph(first, { externalId: thread, wait }),
      decideWhenOpen(thread, (action) =>
        action.name === 'send_email'
          ? ['approve']
          : [
              'edit',
              {
                editedName: 'send_draft',
                editedArgs: { to: 'bob@example.com', body: 'Hello Bob' },
              },
            ],
      ),
    ]);
    expect(resume).toEqual({
      decisions: [
        { type: 'approve' },
        {
          type: 'edit',
          editedAction: { name: 'send_draft', args: { to: 'bob@example.com', body: 'Hello Bob' } },
        },
      ],
    });
    const second = await agent.invoke(new Command({ resume }), config);
    expect(ran).toEqual([
      ['send_email', { to: 'ada@example.com', body: 'Hi' }],
      ['send_draft', { to: 'bob@example.com', body: 'Hello Bob' }],
    ]);

    // The next turn asks to delete a file; the member rejects it with a reason.
    const thread2 = `${thread}-2`;
    const [rejection] = await Promise.all([
      client.interrupts.reviewLangGraph(second, { externalId: thread2, wait }),
      decideWhenOpen(thread2, (action) => {
        expect(action.allowedDecisions).toEqual(['approve', 'reject']);
        return ['reject', { message: 'Keep the report.' }];
      }),
    ]);
    const third = await agent.invoke(new Command({ resume: rejection }), config);
    expect(ran.map(([name]) => name)).toEqual(['send_email', 'send_draft']);
    const rejected = third.messages.find(
      (m) => ToolMessage.isInstance(m) && m.name === 'delete_file',
    );
    expect(rejected?.content).toBe('Keep the report.');
    expect(third.messages.at(-1)?.content).toBe('All done.');
  });

  it('21 calls, one with a 9,990-character argument: two interrupts, decisions merged back in order', async () => {
    const ran: [string, Record<string, unknown>][] = [];
    const long = 'x'.repeat(9_990);
    const calls = Array.from({ length: 21 }, (_, i) => ({
      name: 'send_email',
      args: { to: `user${i}@example.com`, body: i === 7 ? long : `n${i}`, i },
    }));
    const model = fakeModel().respondWithTools(calls).respond(new AIMessage('Sent.'));
    const agent = createAgent({
      model,
      tools: recordingTools(ran),
      middleware: [humanInTheLoopMiddleware({ interruptOn: { send_email: true } })],
      checkpointer: new MemorySaver(),
    });
    const thread = runTag('js-split-');
    const config = { configurable: { thread_id: thread } };
    const first = await agent.invoke(
      { messages: [{ role: 'user', content: 'Email everyone.' }] },
      config,
    );

    const [resume, opened] = await Promise.all([
      client.interrupts.reviewLangGraph(first, { externalId: thread, wait }),
      // Every third call is sent to someone else instead.
      decideWhenOpen(
        thread,
        (action) => {
          const i = action.args['i'] as number;
          expect(
            action.description === null || action.description.length <= MAX_DESCRIPTION_LENGTH,
          ).toBe(true);
          return i % 3 === 0
            ? ['edit', { editedArgs: { ...action.args, to: `other${i}@example.com` } }]
            : ['approve'];
        },
        2,
      ),
    ]);
    expect(opened.map((i) => i.actionRequests.length).sort()).toEqual([1, 20]);
    const long7 = opened.flatMap((i) => i.actionRequests).find((a) => a.args['i'] === 7);
    expect(long7?.args['body']).toBe(long);
    await agent.invoke(new Command({ resume }), config);
    expect(ran).toEqual(
      calls.map(({ args }, i) => [
        'send_email',
        i % 3 === 0 ? { ...args, to: `other${i}@example.com` } : args,
      ]),
    );
  });
});

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

describe('plain interrupt() graphs (real package): Agent Inbox HumanInterrupt and a payload of ours', () => {
  function inboxGraph(checkpointer = new MemorySaver()) {
    return new StateGraph(State)
      .addNode('ask', async () => {
        const [response] = interrupt([
          {
            action_request: { action: 'run_command', args: { command: 'ls -l' } },
            config: {
              allow_accept: true,
              allow_edit: true,
              allow_respond: true,
              allow_ignore: true,
            },
            description: 'Run this command?',
          },
        ]) as { type: string; args: unknown }[];
        return { log: [JSON.stringify(response)] };
      })
      .addEdge('__start__', 'ask')
      .compile({ checkpointer });
  }

  it.each([
    ['approve', {}, { type: 'accept', args: null }],
    [
      'edit',
      { editedName: 'run_shell', editedArgs: { command: 'pwd' } },
      { type: 'edit', args: { action: 'run_shell', args: { command: 'pwd' } } },
    ],
    ['respond', { message: 'Use ls -la' }, { type: 'response', args: 'Use ls -la' }],
    ['reject', {}, { type: 'ignore', args: null }],
  ])(
    'Agent Inbox: %s reaches the node as its HumanResponse',
    async (decision, extras, expected) => {
      const graph = inboxGraph();
      const thread = runTag('inbox-');
      const config = { configurable: { thread_id: thread } };
      const first = await graph.invoke({ log: [] }, config);
      const [resume] = await Promise.all([
        client.interrupts.reviewLangGraph(first, { externalId: thread, wait }),
        decideWhenOpen(thread, () => [decision, extras]),
      ]);
      const done = await graph.invoke(new Command({ resume }), config);
      expect(done.log.map((line) => JSON.parse(line))).toEqual([expected]);
    },
  );

  it('durable path: a later process resumes from the checkpointer and the fetched answer, checked against the graph', async () => {
    const checkpointer = new MemorySaver();
    const thread = runTag('inbox-durable-');
    const config = { configurable: { thread_id: thread } };
    // The process that opens the interrupt, then exits.
    const first = await inboxGraph(checkpointer).invoke({ log: [] }, config);
    const opened = await client.interrupts.create(
      interruptFromLangGraph(first, { externalId: thread }),
    );
    await decideWhenOpen(thread, () => ['edit', { editedArgs: { command: 'ls -la' } }]);
    // A later one: the graph's pending review from the checkpointer, the answer from the service.
    const later = inboxGraph(checkpointer);
    const pending = (await later.getState(config)).tasks.flatMap((task) => task.interrupts);
    const answered = await client.interrupts.waitForAnswer(opened.id, wait);
    const resume = await toLangGraphResume(answered, pending);
    const done = await later.invoke(new Command({ resume }), config);
    expect(done.log.map((line) => JSON.parse(line))).toEqual([
      { type: 'edit', args: { action: 'run_command', args: { command: 'ls -la' } } },
    ]);
    // Checked against what the graph asked: another graph's pending review is refused.
    await expect(
      toLangGraphResume(answered, [{ ...pending[0], id: 'another-interrupt' }]),
    ).rejects.toThrow('These interrupts do not answer the review request the graph is waiting on');
  });

  it('a payload of ours: the node gets the decisions, in action order', async () => {
    const graph = new StateGraph(State)
      .addNode('refund', async () => {
        const answer = interrupt(
          interlockPayload({
            title: 'Refund order 1234?',
            actionRequests: [
              {
                name: 'refund',
                args: { amount: 40 },
                allowedDecisions: ['approve', 'edit', 'reject'],
              },
              { name: 'notify', args: { channel: '#billing' } },
            ],
          }),
        );
        return {
          log: interlockDecisions(answer).map(
            (d) => `${d.actionName}:${d.decision}:${JSON.stringify(d.editedArgs)}:${d.message}`,
          ),
        };
      })
      .addEdge('__start__', 'refund')
      .compile({ checkpointer: new MemorySaver() });
    const thread = runTag('payload-');
    const config = { configurable: { thread_id: thread } };
    const first = await graph.invoke({ log: [] }, config);
    const [resume] = await Promise.all([
      client.interrupts.reviewLangGraph(first, { externalId: thread, wait }),
      decideWhenOpen(thread, (action) =>
        action.name === 'refund'
          ? ['edit', { editedArgs: { amount: 30 } }]
          : ['respond', { message: 'Posted.' }],
      ),
    ]);
    const done = await graph.invoke(new Command({ resume }), config);
    expect(done.log).toEqual(['refund:edit:{"amount":30}:null', 'notify:respond:null:Posted.']);
  });

  it('a payload of ours that argus approves as it opens: the graph resumes with no person deciding', async () => {
    // A rule for one fresh key only, so no other test's interrupts are decided by it.
    const key = await createKey(runTag('langgraph-argus-'));
    const created = await raw('POST', '/api/classification/rules', {
      headers: { cookie: live.memberCookie },
      body: {
        name: runTag('langgraph '),
        mode: 'enforce',
        match: { actions: ['refund'], keyIds: [key.id] },
        outcome: { type: 'approve' },
      },
    });
    expect(created.status).toBe(201);
    try {
      const graph = new StateGraph(State)
        .addNode('refund', async () => {
          const answer = interrupt(
            interlockPayload({
              title: 'Refund order 5678?',
              actionRequests: [{ name: 'refund', args: { amount: 10 } }],
            }),
          );
          return {
            log: interlockDecisions(answer).map(
              (d) => `${d.actionName}:${d.decision}:${d.decidedBy.type}`,
            ),
          };
        })
        .addEdge('__start__', 'refund')
        .compile({ checkpointer: new MemorySaver() });
      const thread = runTag('payload-argus-');
      const config = { configurable: { thread_id: thread } };
      const first = await graph.invoke({ log: [] }, config);
      // No human plays here: a wait would time out.
      const resume = await new Interlock({
        apiKey: key.key,
        baseURL: live.baseURL,
      }).interrupts.reviewLangGraph(first, { externalId: thread, wait: { timeout: 5_000 } });
      const done = await graph.invoke(new Command({ resume }), config);
      expect(done.log).toEqual(['refund:approve:argus']);
    } finally {
      await raw('DELETE', `/api/classification/rules/${(created.body as { id: string }).id}`, {
        headers: { cookie: live.memberCookie },
      });
      await revokeKey(key.id);
    }
  });
});
