// Test support for the AI SDK bridge's specs (unit and e2e): the turns the AI SDK's mock language
// model (`MockLanguageModelV4` from `ai/test`) answers, and two tools that record what ran.
import { tool } from 'ai';
import { z } from 'zod';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

export type Content =
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }
  | { type: 'text'; text: string };

/** One answer of the mock model: its content, finishing with tool calls when it holds any. */
export const turn = (...content: Content[]) => ({
  content,
  finishReason: {
    unified: content.some((c) => c.type === 'tool-call')
      ? ('tool-calls' as const)
      : ('stop' as const),
    raw: undefined,
  },
  usage,
  warnings: [],
});

/** A tool call in a turn. */
export const call = (
  toolCallId: string,
  toolName: string,
  input: Record<string, unknown>,
): Content => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

/** Text in a turn. */
export const say = (text: string): Content => ({ type: 'text', text });

/** `send_email` and `delete_file`, each pushing `[name, input]` onto `ran` when it runs. */
export function mailTools(ran: unknown[], needsApproval = false) {
  return {
    send_email: tool({
      description: 'Send an email.',
      inputSchema: z.object({ to: z.string(), body: z.string() }),
      needsApproval,
      execute: async (input) => (ran.push(['send_email', input]), `Sent to ${input.to}.`),
    }),
    delete_file: tool({
      description: 'Delete a file.',
      inputSchema: z.object({ path: z.string() }),
      needsApproval,
      execute: async (input) => (ran.push(['delete_file', input]), `Deleted ${input.path}.`),
    }),
  };
}
