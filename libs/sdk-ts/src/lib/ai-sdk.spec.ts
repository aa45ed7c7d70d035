// The AI SDK bridge's shapes, against the real package (`ai`, pinned in the root package.json) and
// its mock language model: what the SDK hands the bridge, and that what the bridge answers is what
// the SDK accepts. The service is faked here (one create, one read); the e2e spec uses the real one.
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import {
  aiSDKApprovalMessage,
  aiSDKInterrupt,
  AI_SDK_METADATA_KEY,
  interlockToolApproval,
  pendingAISDKApprovals,
} from './ai-sdk';
import { Interlock } from './client';
import { InterlockError } from './errors';
import { ActionDigestMismatchError } from './action-digest';
import { answeredAs, decided, forged } from './testing/answered';
import type { Interrupt } from './types';
import { call, mailTools, turn } from './testing/ai-sdk-model';

/** A client whose service answers every create with the interrupt `answer` makes of it. */
function fakeService(answer: (created: Record<string, unknown>) => Partial<Interrupt>) {
  const created: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    created.push(body);
    return new Response(
      JSON.stringify({ id: `i${created.length}`, ...body, decisions: [], ...answer(body) }),
      {
        status: 201,
        headers: { 'content-type': 'application/json' },
      },
    );
  };
  return {
    created,
    client: new Interlock({
      apiKey: 'k',
      baseURL: 'http://interlock.test',
      fetch: fetch as typeof globalThis.fetch,
      maxRetries: 0,
    }),
  };
}

describe('the AI SDK bridge (ai, real package)', () => {
  it('toolApproval: one interrupt per call; approved runs, denied sends the message to the model', async () => {
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        turn(
          call('c1', 'send_email', { to: 'ada@example.com', body: 'Hi' }),
          call('c2', 'delete_file', { path: '/srv/db' }),
        ),
        turn({ type: 'text', text: 'Done.' }),
      ],
    });
    // Decided as opened (as argus answers): no wait, so the fake needs no read.
    const { created, client } = fakeService((body) => {
      const [action] = body.actionRequests as { name: string }[];
      return {
        status: 'answered',
        decisions: [
          action.name === 'send_email'
            ? decided('send_email', 'approve')
            : decided('delete_file', 'reject', 'Never the database.'),
        ],
      };
    });
    const result = await generateText({
      model,
      tools: mailTools(ran, false),
      prompt: 'Email Ada and clean up.',
      stopWhen: stepCountIs(3),
      toolApproval: interlockToolApproval(client, { externalId: 'chat-1' }),
    });
    expect(result.text).toBe('Done.');
    expect(ran).toEqual([['send_email', { to: 'ada@example.com', body: 'Hi' }]]);
    expect(created.map((c) => [c.title, c.externalId, c.actionRequests, c.metadata])).toEqual([
      [
        'Approve send_email?',
        'chat-1',
        [
          {
            name: 'send_email',
            args: { to: 'ada@example.com', body: 'Hi' },
            allowedDecisions: ['approve', 'reject'],
            description: 'Send an email.',
          },
        ],
        { [AI_SDK_METADATA_KEY]: { v: 1, toolCallId: 'c1' } },
      ],
      [
        'Approve delete_file?',
        'chat-1',
        [
          {
            name: 'delete_file',
            args: { path: '/srv/db' },
            allowedDecisions: ['approve', 'reject'],
            description: 'Delete a file.',
          },
        ],
        { [AI_SDK_METADATA_KEY]: { v: 1, toolCallId: 'c2' } },
      ],
    ]);
    const toolMessage = model.doGenerateCalls[1].prompt.at(-1);
    expect(toolMessage).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'c1', output: { type: 'text', value: 'Sent to ada@example.com.' } },
        { toolCallId: 'c2', output: { type: 'execution-denied', reason: 'Never the database.' } },
      ],
    });
  });

  it('toolApproval: an answer about another call than the model made is refused, nothing runs', async () => {
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        turn(call('c1', 'send_email', { to: 'ada@example.com', body: 'Hi' })),
        turn({ type: 'text', text: 'Done.' }),
      ],
    });
    // The service's answer approves send_email to someone else (its digest is of other args).
    const { client } = fakeService(() => ({
      status: 'answered',
      actionRequests: [],
      decisions: [{ ...decided('send_email', 'approve'), actionDigest: 'f'.repeat(64) }],
    }));
    await expect(
      generateText({
        model,
        tools: mailTools(ran, false),
        prompt: 'Email Ada.',
        stopWhen: stepCountIs(3),
        toolApproval: interlockToolApproval(client),
      }),
    ).rejects.toThrow('is not about the action this agent asked about');
    expect(ran).toEqual([]);
  });

  it('toolApproval with tools: only those ask; the others run without an interrupt', async () => {
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        turn(
          call('c1', 'send_email', { to: 'a@b.c', body: 'x' }),
          call('c2', 'delete_file', { path: '/tmp/x' }),
        ),
        turn({ type: 'text', text: 'ok' }),
      ],
    });
    const { created, client } = fakeService(() => ({
      status: 'answered',
      decisions: [decided('delete_file', 'approve')],
    }));
    await generateText({
      model,
      tools: mailTools(ran, false),
      prompt: 'go',
      stopWhen: stepCountIs(3),
      toolApproval: interlockToolApproval(client, { tools: ['delete_file'] }),
    });
    expect(created.map((c) => (c.actionRequests as { name: string }[])[0].name)).toEqual([
      'delete_file',
    ]);
    expect(ran.map((r) => (r as string[])[0]).sort()).toEqual(['delete_file', 'send_email']);
  });

  it('messages: the pending approvals of a result and of stored messages, and the tool message the SDK resumes from', async () => {
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        turn(
          call('c1', 'send_email', { to: 'ada@example.com', body: 'Hi' }),
          call('c2', 'send_email', { to: 'bob@example.com', body: 'Hi' }),
          call('c3', 'delete_file', { path: '/srv/db' }),
        ),
        turn({ type: 'text', text: 'Done.' }),
      ],
    });
    const tools = mailTools(ran, true);
    const messages: Parameters<typeof generateText>[0]['messages'] & object = [
      { role: 'user', content: 'Email both and clean up.' },
    ];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(first.finishReason).toBe('tool-calls');
    messages.push(...first.response.messages);

    const fromResult = pendingAISDKApprovals(first);
    expect(pendingAISDKApprovals(messages)).toEqual(fromResult);
    expect(fromResult.map((p) => p.toolCall.toolCallId)).toEqual(['c1', 'c2', 'c3']);

    const params = aiSDKInterrupt(messages, { tools, externalId: 'chat-2' });
    expect(params.title).toBe('Approve 3 tool calls: send_email, delete_file?');
    expect(params.actionRequests.map((a) => [a.name, a.args, a.description])).toEqual([
      ['send_email', { to: 'ada@example.com', body: 'Hi' }, 'Send an email.'],
      ['send_email #2', { to: 'bob@example.com', body: 'Hi' }, 'Send an email.'],
      ['delete_file', { path: '/srv/db' }, 'Delete a file.'],
    ]);
    const answered = await answeredAs(params, 'answered', [
      decided('send_email', 'approve'),
      decided('send_email #2', 'reject', 'Not Bob.'),
      decided('delete_file', 'reject'),
    ]);
    // A decision about other arguments than the conversation holds is refused: nothing answered.
    const tampered = structuredClone(messages);
    const part = (tampered.at(-1)?.content as { type: string; input?: unknown }[]).find(
      (p) => p.type === 'tool-call',
    );
    if (part === undefined) throw new Error('the stored messages hold no tool call');
    part.input = { to: 'mallory@example.com', body: 'Hi' };
    await expect(aiSDKApprovalMessage(answered, tampered)).rejects.toBeInstanceOf(
      ActionDigestMismatchError,
    );
    await expect(
      aiSDKApprovalMessage(forged(answered, 'delete_file'), messages),
    ).rejects.toBeInstanceOf(ActionDigestMismatchError);
    messages.push(await aiSDKApprovalMessage(answered, messages));
    expect(pendingAISDKApprovals(messages)).toEqual([]);

    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(second.text).toBe('Done.');
    expect(ran).toEqual([['send_email', { to: 'ada@example.com', body: 'Hi' }]]);
    expect(model.doGenerateCalls[1].prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'c1', output: { type: 'text', value: 'Sent to ada@example.com.' } },
        { toolCallId: 'c2', output: { type: 'execution-denied', reason: 'Not Bob.' } },
        { toolCallId: 'c3', output: { type: 'execution-denied' } },
      ],
    });
  });

  it("a withdrawn request denies what it left undecided; refuses an open one, another bridge's, and nothing pending", async () => {
    const source = {
      content: [
        {
          type: 'tool-approval-request',
          approvalId: 'a1',
          toolCall: { toolCallId: 'c1', toolName: 'send_email', input: { to: 'x' } },
        },
      ],
    };
    const params = aiSDKInterrupt(source);
    expect(await aiSDKApprovalMessage(await answeredAs(params, 'withdrawn'), source)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId: 'a1',
          approved: false,
          reason: 'The request for approval was withdrawn; the tool did not run.',
        },
      ],
    });
    const open = await answeredAs(params, 'open');
    await expect(aiSDKApprovalMessage(open, source)).rejects.toThrow('still open');
    await expect(
      aiSDKApprovalMessage({ ...open, status: 'answered', metadata: null }, source),
    ).rejects.toThrow(InterlockError);
    await expect(
      aiSDKApprovalMessage(await answeredAs(params, 'withdrawn'), { content: [] }),
    ).rejects.toThrow('The approval request a1 is not pending in these messages');
    expect(() => aiSDKInterrupt({ content: [] })).toThrow('no pending tool approvals');
  });
});
