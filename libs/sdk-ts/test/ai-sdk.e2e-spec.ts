// The AI SDK bridge against the real package (`ai`, pinned in the root package.json) and the live
// service: tool calls of a generation go to the inbox, a member decides over HTTP (the session
// cookie), and the generation goes on with the right tools run and the member's message read by the
// model. The model is the SDK's own mock language model (no LLM is called).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import {
  aiSDKApprovalMessage,
  AI_SDK_METADATA_KEY,
  Interlock,
  interlockToolApproval,
  pendingAISDKApprovals,
} from '../src';
import { call, mailTools, say, turn } from '../src/lib/testing/ai-sdk-model';
import { createKey, decide, live, raw, revokeKey, runTag } from './support/live-service';

const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });
const wait = { pollInterval: 100, timeout: 120_000 };

interface Listed {
  id: string;
  status: string;
  title: string;
  actionRequests: {
    name: string;
    args: Record<string, unknown>;
    description: string | null;
    allowedDecisions: string[];
  }[];
  decisions: { actionName: string; decision: string; decidedBy: { type: string } }[];
}

async function byExternalId(externalId: string, status?: string): Promise<Listed[]> {
  const page = await raw(
    'GET',
    `/api/interrupts?externalId=${encodeURIComponent(externalId)}${status ? `&status=${status}` : ''}`,
    {
      headers: { 'x-api-key': live.apiKey },
    },
  );
  return (page.body as { interrupts: Listed[] }).interrupts;
}

/** Plays the human: decides each interrupt with this externalId as it opens, until `count` were decided. */
async function decideEach(
  externalId: string,
  count: number,
  choose: (action: Listed['actionRequests'][number]) => [string, { message?: string }?],
) {
  const seen: Listed[] = [];
  for (let i = 0; i < 1200 && seen.length < count; i++) {
    for (const interrupt of await byExternalId(externalId, 'open')) {
      if (seen.some((s) => s.id === interrupt.id)) continue;
      for (const action of interrupt.actionRequests) {
        const [decision, extras] = choose(action);
        await decide(interrupt.id, action.name, decision, extras);
      }
      seen.push(interrupt);
    }
    if (seen.length < count) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (seen.length < count)
    throw new Error(
      `only ${seen.length} of ${count} interrupts with externalId ${externalId} opened`,
    );
  return seen;
}

describe('ai (AI SDK, real package)', () => {
  it('toolApproval: each call asks; approved runs, rejected sends the member message to the model', async () => {
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        turn(
          call('c1', 'send_email', { to: 'ada@example.com', body: 'Hi' }),
          call('c2', 'delete_file', { path: '/srv/db' }),
        ),
        turn(say('Done.')),
      ],
    });
    const externalId = runTag('ai-inline-');
    const [result, opened] = await Promise.all([
      generateText({
        model,
        tools: mailTools(ran),
        prompt: 'Email Ada and clean up.',
        stopWhen: stepCountIs(3),
        toolApproval: interlockToolApproval(client, { externalId, wait }),
      }),
      decideEach(externalId, 2, (action) =>
        action.name === 'send_email' ? ['approve'] : ['reject', { message: 'Never the database.' }],
      ),
    ]);
    expect(opened.map((o) => [o.title, o.actionRequests]).sort()).toEqual([
      [
        'Approve delete_file?',
        [
          expect.objectContaining({
            name: 'delete_file',
            args: { path: '/srv/db' },
            description: 'Delete a file.',
            allowedDecisions: ['approve', 'reject'],
          }),
        ],
      ],
      [
        'Approve send_email?',
        [
          expect.objectContaining({
            name: 'send_email',
            args: { to: 'ada@example.com', body: 'Hi' },
            description: 'Send an email.',
            allowedDecisions: ['approve', 'reject'],
          }),
        ],
      ],
    ]);
    expect(result.text).toBe('Done.');
    expect(ran).toEqual([['send_email', { to: 'ada@example.com', body: 'Hi' }]]);
    expect(model.doGenerateCalls[1].prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'c1', output: { type: 'text', value: 'Sent to ada@example.com.' } },
        { toolCallId: 'c2', output: { type: 'execution-denied', reason: 'Never the database.' } },
      ],
    });
  });

  it('toolApproval: a call argus decides as it opens is answered at once, nothing left pending', async () => {
    // A rule for one fresh key only, so no other test's interrupts are decided by it.
    const key = await createKey(runTag('ai-argus-'));
    const created = await raw('POST', '/api/classification/rules', {
      headers: { cookie: live.memberCookie },
      body: {
        name: runTag('ai-sdk '),
        mode: 'enforce',
        match: { actions: ['lookup_order'], keyIds: [key.id] },
        outcome: { type: 'reject', message: 'Orders are looked up by the billing agent.' },
      },
    });
    expect(created.status).toBe(201);
    try {
      const ran: unknown[] = [];
      const lookupOrder = tool({
        description: 'Look an order up.',
        inputSchema: z.object({ orderId: z.string() }),
        execute: async (input) => (ran.push(input), 'found'),
      });
      const model = new MockLanguageModelV4({
        doGenerate: [turn(call('c1', 'lookup_order', { orderId: 'A-1' })), turn(say('I may not.'))],
      });
      const externalId = runTag('ai-argus-');
      const result = await generateText({
        model,
        tools: { lookup_order: lookupOrder },
        prompt: 'Find order A-1.',
        stopWhen: stepCountIs(3),
        // No human plays here: a wait would time out.
        toolApproval: interlockToolApproval(
          new Interlock({ apiKey: key.key, baseURL: live.baseURL }),
          { externalId, wait: { timeout: 5_000 } },
        ),
      });
      expect(result.text).toBe('I may not.');
      expect(ran).toEqual([]);
      expect(model.doGenerateCalls[1].prompt.at(-1)).toMatchObject({
        role: 'tool',
        content: [
          {
            toolCallId: 'c1',
            output: {
              type: 'execution-denied',
              reason: 'Orders are looked up by the billing agent.',
            },
          },
        ],
      });
      const [interrupt] = await byExternalId(externalId);
      expect([
        interrupt.status,
        interrupt.decisions.map((d) => [d.decision, d.decidedBy.type]),
      ]).toEqual(['answered', [['reject', 'argus']]]);
    } finally {
      await raw('DELETE', `/api/classification/rules/${(created.body as { id: string }).id}`, {
        headers: { cookie: live.memberCookie },
      });
      await revokeKey(key.id);
    }
  });

  it('messages: resumes from the stored conversation after the opening process exited (durable path)', async () => {
    // The opening process: a node of its own, which runs the generation up to the approvals, keeps
    // the conversation (here a file; your app's database), opens the review and exits.
    // Inside the repository (tmp/), so that its imports resolve to the root's pinned packages.
    const root = join(__dirname, '..', '..', '..');
    mkdirSync(join(root, 'tmp'), { recursive: true });
    const dir = mkdtempSync(join(root, 'tmp', 'ai-durable-'));
    const externalId = runTag('ai-durable-');
    try {
      const script = join(dir, 'open.mts');
      const stored = join(dir, 'messages.json');
      writeFileSync(
        script,
        `import { writeFileSync } from 'node:fs';
import { generateText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { Interlock, openAISDKReview } from ${JSON.stringify(join(__dirname, '..', 'src', 'index.ts'))};
import { call, turn } from ${JSON.stringify(join(__dirname, '..', 'src', 'lib', 'testing', 'ai-sdk-model.ts'))};
const model = new MockLanguageModelV4({ doGenerate: [turn(
  call('c8', 'send_email', { to: 'bob@example.com', body: 'Your order shipped.' }),
  call('c9', 'delete_file', { path: '/srv/orders' }),
)] });
const never = async () => { throw new Error('no tool runs before the review'); };
const tools = {
  send_email: tool({ description: 'Send an email.', inputSchema: z.object({ to: z.string(), body: z.string() }), needsApproval: true, execute: never }),
  delete_file: tool({ description: 'Delete a file.', inputSchema: z.object({ path: z.string() }), needsApproval: true, execute: never }),
};
const messages = [{ role: 'user', content: 'Tell Bob, then tidy up.' }];
const result = await generateText({ model, tools, messages });
messages.push(...result.response.messages);
writeFileSync(${JSON.stringify(stored)}, JSON.stringify(messages));
const opened = await openAISDKReview(new Interlock(), result, { tools, externalId: ${JSON.stringify(externalId)} });
console.log(JSON.stringify({ id: opened.id }));
`,
      );
      // jiti runs the TypeScript script and the SDK's sources as they are.
      const opener = spawnSync(join(root, 'node_modules', '.bin', 'jiti'), [script], {
        cwd: join(__dirname, '..'),
        encoding: 'utf8',
        env: { ...process.env, INTERLOCK_API_KEY: live.apiKey, INTERLOCK_BASE_URL: live.baseURL },
        timeout: 120_000,
      });
      expect({ status: opener.status, stderr: opener.stderr }).toEqual({ status: 0, stderr: '' });
      const { id } = JSON.parse(opener.stdout) as { id: string };

      // The opening process is gone; the member decides afterwards.
      const opened = await client.interrupts.get(id);
      expect([
        opened.title,
        opened.actionRequests.map((a) => [a.name, a.args, a.description, a.allowedDecisions]),
      ]).toEqual([
        'Approve 2 tool calls: send_email, delete_file?',
        [
          [
            'send_email',
            { to: 'bob@example.com', body: 'Your order shipped.' },
            'Send an email.',
            ['approve', 'reject'],
          ],
          ['delete_file', { path: '/srv/orders' }, 'Delete a file.', ['approve', 'reject']],
        ],
      ]);
      expect(
        (opened.metadata?.[AI_SDK_METADATA_KEY] as { approvals: unknown[] }).approvals,
      ).toHaveLength(2);
      await decide(id, 'send_email', 'approve');
      await decide(id, 'delete_file', 'reject', { message: 'Keep the orders.' });

      // Any later process: the stored conversation, plus the answer as a tool message.
      const messages = JSON.parse(readFileSync(stored, 'utf8')) as ModelMessage[];
      expect(pendingAISDKApprovals(messages).map((p) => p.toolCall.toolName)).toEqual([
        'send_email',
        'delete_file',
      ]);
      const answered = await client.interrupts.waitForAnswer(id, wait);
      messages.push(await aiSDKApprovalMessage(answered, messages));
      const ran: unknown[] = [];
      const model = new MockLanguageModelV4({
        doGenerate: [turn(say('Bob has been told; the orders stay.'))],
      });
      const result = await generateText({ model, tools: mailTools(ran, true), messages });
      expect(result.text).toBe('Bob has been told; the orders stay.');
      expect(ran).toEqual([['send_email', { to: 'bob@example.com', body: 'Your order shipped.' }]]);
      expect(model.doGenerateCalls[0].prompt.at(-1)).toMatchObject({
        role: 'tool',
        content: [
          { toolCallId: 'c8', output: { type: 'text', value: 'Sent to bob@example.com.' } },
          { toolCallId: 'c9', output: { type: 'execution-denied', reason: 'Keep the orders.' } },
        ],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
