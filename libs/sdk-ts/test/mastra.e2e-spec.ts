// The Mastra bridge against the real package (@mastra/core 0.24.9, pinned in the root package.json:
// the last line whose engines accept Node 20) and the live service: an agent whose tool needs
// approval suspends, the bridge opens the interrupt, a member decides over HTTP (the session
// cookie), and the run resumes through Mastra's own approveToolCall / declineToolCall. The model is
// a scripted AI SDK v2 language model (Mastra's model interface) that emits the tool call; no LLM
// is called. Mastra keeps the suspended run in the Mastra instance's storage (its InMemoryStore).
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import {
  ActionDigestMismatchError,
  Interlock,
  MASTRA_METADATA_KEY,
  type MastraToolCallApproval,
  openMastraReview,
  resumeMastra,
  reviewMastraToolCall,
} from '../src';
import { decide, decideWhenOpen, live, runTag } from './support/live-service';

const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });
const wait = { pollInterval: 100, timeout: 120_000 };
const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
/** Mastra's model type (its AI SDK v2 parts are typed by a package it nests, not importable here). */
type AgentModel = ConstructorParameters<typeof Agent>[0]['model'];

function streamOf(parts: unknown[]): ReadableStream<unknown> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** A language model (AI SDK v2, what Mastra 0.24 runs) that asks to send one email, then says it is done; keeps the prompts. */
function scriptedModel() {
  const prompts: unknown[][] = [];
  return {
    prompts,
    specificationVersion: 'v2' as const,
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate(): Promise<never> {
      throw new Error('the agent streams');
    },
    async doStream(options: { prompt: unknown[] }) {
      prompts.push(options.prompt);
      const parts =
        prompts.length === 1
          ? [
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: 'sendEmail',
                input: JSON.stringify({ to: 'ada@example.com', body: 'The report is ready.' }),
              },
              { type: 'finish', finishReason: 'tool-calls', usage },
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'Done.' },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: 'stop', usage },
            ];
      return { stream: streamOf([{ type: 'stream-start', warnings: [] }, ...parts]) };
    },
  };
}

function mailAgent() {
  const model = scriptedModel();
  const sent: unknown[] = [];
  const sendEmail = createTool({
    id: 'sendEmail',
    description: 'Send an email.',
    inputSchema: z.object({ to: z.string(), body: z.string() }),
    requireApproval: true,
    execute: async ({ context }) => {
      sent.push(context);
      return { sent: true };
    },
  });
  const mastra = new Mastra({
    agents: {
      mailer: new Agent({
        name: 'mailer',
        instructions: 'Help.',
        model: model as unknown as AgentModel,
        tools: { sendEmail },
      }),
    },
    storage: new InMemoryStore(),
    logger: false,
  });
  return { agent: mastra.getAgent('mailer'), model, sent };
}

/** Streams the run to its suspension and returns the tool-call-approval chunk. */
async function suspended(
  agent: ReturnType<typeof mailAgent>['agent'],
): Promise<MastraToolCallApproval> {
  const stream = await agent.stream('Tell Ada the report is ready.');
  const chunks: { type: string }[] = [];
  for await (const chunk of stream.fullStream) chunks.push(chunk);
  const approval = chunks.find((c) => c.type === 'tool-call-approval');
  if (approval === undefined)
    throw new Error(`the run did not suspend: ${JSON.stringify(chunks).slice(0, 2000)}`);
  return approval as unknown as MastraToolCallApproval;
}

/** What the model was told the tool returned, on its last turn. */
function toolResult(model: ReturnType<typeof scriptedModel>): unknown {
  const last = model.prompts.at(-1)?.at(-1) as { role: string; content: { output: unknown }[] };
  expect(last.role).toBe('tool');
  return last.content[0]?.output;
}

describe('the Mastra bridge with @mastra/core', () => {
  it('approve: the suspended tool call runs and the run goes on', async () => {
    const { agent, model, sent } = mailAgent();
    const approval = await suspended(agent);
    const externalId = runTag('mastra-');
    const decided = decideWhenOpen(externalId, () => ['approve']);
    const next = await reviewMastraToolCall(client, agent, approval, { externalId, wait });
    const [opened] = await decided;
    expect(opened?.title).toBe('Approve sendEmail?');
    expect(opened?.actionRequests.map((a) => [a.name, a.args, a.allowedDecisions])).toEqual([
      ['sendEmail', { to: 'ada@example.com', body: 'The report is ready.' }, ['approve', 'reject']],
    ]);
    expect(await next.text).toBe('Done.');
    expect(sent).toEqual([{ to: 'ada@example.com', body: 'The report is ready.' }]);
    expect(toolResult(model)).toEqual({ type: 'json', value: { sent: true } });
  });

  it('reject: the tool does not run and the model is told so (Mastra words it; the message stays in the record)', async () => {
    const { agent, model, sent } = mailAgent();
    const approval = await suspended(agent);
    const externalId = runTag('mastra-reject-');
    const decided = decideWhenOpen(externalId, () => ['reject', { message: 'Not to Ada.' }]);
    const next = await reviewMastraToolCall(client, agent, approval, { externalId, wait });
    const [opened] = await decided;
    expect(await next.text).toBe('Done.');
    expect(sent).toEqual([]);
    expect(toolResult(model)).toEqual({
      type: 'text',
      value: 'Tool call was not approved by the user',
    });
    const answered = await client.interrupts.get(opened?.id ?? 'missing');
    expect(answered.decisions.map((d) => [d.decision, d.message])).toEqual([
      ['reject', 'Not to Ada.'],
    ]);
  });

  it('opens the interrupt and returns at once; the answered interrupt resumes the run later', async () => {
    const { agent, sent } = mailAgent();
    const approval = await suspended(agent);
    const opened = await openMastraReview(client, approval, { title: 'Email Ada?' });
    expect([opened.status, opened.title]).toEqual(['open', 'Email Ada?']);
    expect(opened.metadata?.[MASTRA_METADATA_KEY]).toEqual({
      v: 1,
      runId: approval.runId,
      toolCallId: 'call-1',
      toolName: 'sendEmail',
    });
    await expect(resumeMastra(agent, opened, approval)).rejects.toThrow(
      'The interrupt is still open',
    );
    await decide(opened.id, 'sendEmail', 'approve');
    const answered = await client.interrupts.get(opened.id);
    // The approval was for these arguments: a chunk that says otherwise is refused (its digest),
    // and the run stays suspended.
    const other = {
      ...approval,
      payload: { ...approval.payload, args: { to: 'mallory@example.com', body: 'Hi' } },
    };
    await expect(resumeMastra(agent, answered, other)).rejects.toBeInstanceOf(
      ActionDigestMismatchError,
    );
    expect(sent).toEqual([]);
    const next = await resumeMastra(agent, answered, approval);
    expect(await next.text).toBe('Done.');
    expect(sent).toHaveLength(1);
  });

  it('a withdrawn request declines the call', async () => {
    const { agent, sent } = mailAgent();
    const approval = await suspended(agent);
    const opened = await openMastraReview(client, approval);
    await client.interrupts.cancel(opened.id, { reason: 'No longer needed.' });
    const next = await resumeMastra(agent, await client.interrupts.get(opened.id), approval);
    expect(await next.text).toBe('Done.');
    expect(sent).toEqual([]);
  });
});
