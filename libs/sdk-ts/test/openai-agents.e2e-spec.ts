// The OpenAI Agents SDK bridge against the real package (@openai/agents, pinned in the root
// package.json) and the live service: an agent whose tools need approval pauses, the bridge opens
// the interrupt, a member decides over HTTP (the session cookie), and the run resumes with the
// right tools run. The model is a scripted `Model` that emits the tool calls (no LLM is called).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  Agent,
  type Model,
  type ModelResponse,
  Runner,
  RunState,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { z } from 'zod';
import {
  Interlock,
  OPENAI_AGENTS_METADATA_KEY,
  openOpenAIAgentsReview,
  resumeOpenAIAgents,
  resumeOpenAIAgentsFromWebhook,
  reviewOpenAIAgents,
} from '../src';
import { decide, decideWhenOpen, live, runTag } from './support/live-service';

setTracingDisabled(true);
const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });
const wait = { pollInterval: 100, timeout: 120_000 };

type Output = ModelResponse['output'];
const call = (callId: string, name: string, args: Record<string, unknown>): Output[number] =>
  ({
    type: 'function_call',
    callId,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  }) as Output[number];
const say = (text: string): Output[number] =>
  ({
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
  }) as Output[number];

/** Answers each turn with the next scripted output, and keeps what it was sent. */
function scripted(...turns: Output[]): Model & { inputs: unknown[] } {
  const inputs: unknown[] = [];
  return {
    inputs,
    async getResponse(request) {
      inputs.push(request.input);
      const output = turns.shift();
      if (output === undefined) throw new Error('the script has no more turns');
      return { output, usage: new Usage(), responseId: undefined };
    },
    // eslint-disable-next-line require-yield
    async *getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
}

function mailAgent(model: Model, ran: [string, unknown][]) {
  const sendEmail = tool({
    name: 'send_email',
    description: 'Send an email.',
    parameters: z.object({ to: z.string(), body: z.string() }),
    needsApproval: true,
    execute: async (args) => {
      ran.push(['send_email', args]);
      return `Sent to ${args.to}.`;
    },
  });
  const deleteFile = tool({
    name: 'delete_file',
    description: 'Delete a file.',
    parameters: z.object({ path: z.string() }),
    needsApproval: true,
    execute: async (args) => {
      ran.push(['delete_file', args]);
      return `Deleted ${args.path}.`;
    },
  });
  return new Agent({
    name: 'mailer',
    instructions: 'Do as asked.',
    tools: [sendEmail, deleteFile],
    model,
  });
}

/** The tool outputs the model was sent on its last turn, by call id. */
function outputs(model: { inputs: unknown[] }): Record<string, unknown> {
  const last = model.inputs.at(-1) as {
    type?: string;
    callId?: string;
    output?: { text?: string };
  }[];
  return Object.fromEntries(
    last.filter((i) => i.type === 'function_call_result').map((i) => [i.callId, i.output?.text]),
  );
}

describe('@openai/agents (real package)', () => {
  it('approves one call and rejects another with a message', async () => {
    const ran: [string, unknown][] = [];
    const model = scripted(
      [
        call('c1', 'send_email', { to: 'ada@example.com', body: 'Hi' }),
        call('c2', 'delete_file', { path: '/srv/db' }),
      ],
      [say('Done.')],
    );
    const agent = mailAgent(model, ran);
    const runner = new Runner();
    const result = await runner.run(agent, 'Email Ada and clean up.');
    expect(result.interruptions.map((i) => i.name)).toEqual(['send_email', 'delete_file']);

    const externalId = runTag('oa-js-');
    const [state, [opened]] = await Promise.all([
      reviewOpenAIAgents(client, result, { externalId, wait }),
      decideWhenOpen(externalId, (action) =>
        action.name === 'send_email' ? ['approve'] : ['reject', { message: 'Never the database.' }],
      ),
    ]);
    expect(opened.title).toBe('Approve 2 tool calls: send_email, delete_file?');
    expect(opened.actionRequests.map((a) => [a.name, a.args, a.allowedDecisions])).toEqual([
      ['send_email', { to: 'ada@example.com', body: 'Hi' }, ['approve', 'reject']],
      ['delete_file', { path: '/srv/db' }, ['approve', 'reject']],
    ]);

    const final = await runner.run(agent, state);
    expect(final.finalOutput).toBe('Done.');
    expect(ran).toEqual([['send_email', { to: 'ada@example.com', body: 'Hi' }]]);
    expect(outputs(model)).toEqual({ c1: 'Sent to ada@example.com.', c2: 'Never the database.' });
  });

  it('resumes from the interrupt alone after the opening process exited (durable path)', async () => {
    // The opening process: a node of its own, which opens the review and exits.
    // Inside the repository (tmp/), so that its imports resolve to the root's pinned packages.
    const root = join(__dirname, '..', '..', '..');
    mkdirSync(join(root, 'tmp'), { recursive: true });
    const dir = mkdtempSync(join(root, 'tmp', 'oa-durable-'));
    const externalId = runTag('oa-js-durable-');
    try {
      const script = join(dir, 'open.mts');
      writeFileSync(
        script,
        `import { Agent, Runner, setTracingDisabled, tool, Usage } from '@openai/agents';
import { z } from 'zod';
import { Interlock, openOpenAIAgentsReview } from ${JSON.stringify(join(__dirname, '..', 'src', 'index.ts'))};
setTracingDisabled(true);
const turns = [[{ type: 'function_call', callId: 'c9', name: 'send_email', arguments: JSON.stringify({ to: 'bob@example.com', body: 'Your order shipped.' }), status: 'completed' }]];
const model = { async getResponse() { return { output: turns.shift(), usage: new Usage(), responseId: undefined }; }, async *getStreamedResponse() { throw new Error('no'); } };
const sendEmail = tool({ name: 'send_email', description: 'Send an email.', parameters: z.object({ to: z.string(), body: z.string() }), needsApproval: true, execute: async () => 'never here' });
const result = await new Runner().run(new Agent({ name: 'mailer', instructions: 'x', tools: [sendEmail], model }), 'Tell Bob.');
const opened = await openOpenAIAgentsReview(new Interlock(), result, { externalId: ${JSON.stringify(externalId)}, title: 'Email Bob?' });
console.log(JSON.stringify({ id: opened.id }));
`,
      );
      // jiti runs the TypeScript script and the SDK's sources as they are.
      const jiti = join(root, 'node_modules', '.bin', 'jiti');
      const opener = spawnSync(jiti, [script], {
        cwd: join(__dirname, '..'),
        encoding: 'utf8',
        env: { ...process.env, INTERLOCK_API_KEY: live.apiKey, INTERLOCK_BASE_URL: live.baseURL },
        timeout: 120_000,
      });
      expect({ status: opener.status, stderr: opener.stderr }).toEqual({ status: 0, stderr: '' });
      const { id } = JSON.parse(opener.stdout) as { id: string };

      // The opening process is gone; the member decides afterwards.
      const stored = await client.interrupts.get(id);
      expect(
        typeof (stored.metadata?.[OPENAI_AGENTS_METADATA_KEY] as { state?: unknown }).state,
      ).toBe('string');
      await decide(id, 'send_email', 'approve');

      const ran: [string, unknown][] = [];
      const model = scripted([say('Bob has been told.')]);
      const agent = mailAgent(model, ran);
      const answered = await client.interrupts.waitForAnswer(id, { timeout: 30_000 });
      const state = await resumeOpenAIAgents(answered, (text) => RunState.fromString(agent, text));
      const final = await new Runner().run(agent, state);
      expect(final.finalOutput).toBe('Bob has been told.');
      expect(ran).toEqual([['send_email', { to: 'bob@example.com', body: 'Your order shipped.' }]]);
      expect(outputs(model)).toEqual({ c9: 'Sent to bob@example.com.' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resumes from the resumeUrl POST: the service sends the answered interrupt to the agent', async () => {
    // The agent's own receiver: a real HTTP server on loopback (allowed outside production). It
    // verifies the POST under the key, rebuilds the run from the state stored in the interrupt,
    // runs it to the end, and only then answers 200.
    const ran: [string, unknown][] = [];
    const model = scripted(
      [call('c7', 'send_email', { to: 'cy@example.com', body: 'Refund sent.' })],
      [say('Cy knows.')],
    );
    const agent = mailAgent(model, ran);
    const received: { status: number; finalOutput?: unknown; interruptId?: string }[] = [];
    let finished: (value: unknown) => void = () => undefined;
    const done = new Promise((resolve) => (finished = resolve));
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        void resumeOpenAIAgentsFromWebhook(
          body,
          req.headers,
          (text) => RunState.fromString(agent, text),
          { apiKey: live.apiKey },
        )
          .then(async ({ interrupt, state }) => {
            const final = await new Runner().run(agent, state);
            received.push({
              status: 200,
              finalOutput: final.finalOutput,
              interruptId: interrupt.id,
            });
            res.writeHead(200).end();
          })
          .catch((error: unknown) => {
            received.push({ status: 400 });
            res.writeHead(400).end(String(error));
          })
          .finally(() => finished(undefined));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await new Runner().run(agent, 'Tell Cy.');
      const opened = await openOpenAIAgentsReview(client, result, {
        externalId: runTag('oa-js-resume-'),
        resumeUrl: `http://127.0.0.1:${port}/interlock/resume`,
      });
      expect(opened.status).toBe('open');
      await decide(opened.id, 'send_email', 'approve');
      await done;
      expect(received).toEqual([{ status: 200, finalOutput: 'Cy knows.', interruptId: opened.id }]);
      expect(ran).toEqual([['send_email', { to: 'cy@example.com', body: 'Refund sent.' }]]);
      expect(outputs(model)).toEqual({ c7: 'Sent to cy@example.com.' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a run with nothing to approve', async () => {
    const result = await new Runner().run(
      mailAgent(scripted([say('Nothing to do.')]), []),
      'Hello',
    );
    await expect(openOpenAIAgentsReview(client, result)).rejects.toThrow(
      'This run has no pending tool approvals',
    );
  });
});
