// The agent the Mastra bridge tests run (mastra.e2e-spec.ts, and mastra-suspend.ts in a process of
// its own): a tool that needs approval, a scripted model, and the run streamed to its suspension.
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore, type MastraStorage } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import type { MastraToolCallApproval } from '../../src';

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

/**
 * A language model (AI SDK v2, what Mastra 0.24 runs) that asks to send one email, then — once the
 * prompt holds the tool's result — says it is done; keeps the prompts. It answers from the prompt,
 * so a run resumed in another process (with a new model) goes on as it would have.
 */
export function scriptedModel() {
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
      const answered = options.prompt.some(
        (message) => (message as { role?: string } | null)?.role === 'tool',
      );
      const parts = !answered
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

/** An agent whose sendEmail tool needs approval, in a Mastra with `storage` (default in memory). */
export function mailAgent(storage: MastraStorage = new InMemoryStore()) {
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
    storage,
    logger: false,
  });
  return { agent: mastra.getAgent('mailer'), model, sent };
}

/** Streams the run to its suspension and returns the tool-call-approval chunk. */
export async function suspended(
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
