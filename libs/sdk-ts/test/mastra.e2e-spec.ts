// The Mastra bridge against the real package (@mastra/core 0.24.9, pinned in the root package.json:
// the last line whose engines accept Node 20) and the live service: an agent whose tool needs
// approval suspends, the bridge opens the interrupt, a member decides over HTTP (the session
// cookie), and the run resumes through Mastra's own approveToolCall / declineToolCall. The model is
// a scripted AI SDK v2 language model (Mastra's model interface) that emits the tool call; no LLM
// is called. Mastra keeps the suspended run in the Mastra instance's storage (its InMemoryStore).
// A resumed run's stream is read as soon as the bridge returns it: Mastra 0.24 drops the text
// chunks of a stream nobody reads yet (its `text` is then ""), and the test's own decision (its
// POST's answer) may reach this process after the bridge's wait saw it: the two are awaited
// together, not the decision first (that order failed once on a loaded CI machine, run Z).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { PostgresStore } from '@mastra/pg';
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
import { mailAgent, type scriptedModel, suspended } from './support/mastra-agent';

const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });
const wait = { pollInterval: 100, timeout: 120_000 };
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
    const [text, [opened]] = await Promise.all([next.text, decided]); // the stream read at once
    expect(opened?.title).toBe('Approve sendEmail?');
    expect(opened?.actionRequests.map((a) => [a.name, a.args, a.allowedDecisions])).toEqual([
      ['sendEmail', { to: 'ada@example.com', body: 'The report is ready.' }, ['approve', 'reject']],
    ]);
    expect(text).toBe('Done.');
    expect(sent).toEqual([{ to: 'ada@example.com', body: 'The report is ready.' }]);
    expect(toolResult(model)).toEqual({ type: 'json', value: { sent: true } });
  });

  it('reject: the tool does not run and the model is told so (Mastra words it; the message stays in the record)', async () => {
    const { agent, model, sent } = mailAgent();
    const approval = await suspended(agent);
    const externalId = runTag('mastra-reject-');
    const decided = decideWhenOpen(externalId, () => ['reject', { message: 'Not to Ada.' }]);
    const next = await reviewMastraToolCall(client, agent, approval, { externalId, wait });
    const [text, [opened]] = await Promise.all([next.text, decided]); // the stream read at once
    expect(text).toBe('Done.');
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

  it('durable path: a run suspended in a process that has exited resumes in another, from Mastra’s Postgres storage', async () => {
    // Mastra's own tables in a schema of their own, in the service's test database (dropped after).
    const schemaName = runTag('mastra_')
      .replace(/[^a-z0-9_]/gi, '_')
      .toLowerCase();
    const externalId = runTag('mastra-durable-');
    const child = spawnSync(
      process.execPath,
      [
        join(dirname(require.resolve('jiti/package.json')), 'lib', 'jiti-cli.mjs'),
        join(__dirname, 'support', 'mastra-suspend.ts'),
        schemaName,
        externalId,
      ],
      { encoding: 'utf8', env: process.env, timeout: 150_000 },
    );
    expect({ status: child.status, stderr: child.stderr }).toEqual({
      status: 0,
      stderr: expect.any(String),
    });
    const { approval, interruptId } = JSON.parse(child.stdout) as {
      approval: MastraToolCallApproval;
      interruptId: string;
    };
    await decide(interruptId, 'sendEmail', 'approve');
    // This process never saw the run: a new Mastra on the same storage, a new model.
    const storage = new PostgresStore({
      connectionString: process.env['INTERLOCK_TEST_DATABASE_URL'] ?? '',
      schemaName,
    });
    try {
      const { agent, sent } = mailAgent(storage);
      const next = await resumeMastra(agent, await client.interrupts.get(interruptId), approval);
      expect(await next.text).toBe('Done.');
      expect(sent).toEqual([{ to: 'ada@example.com', body: 'The report is ready.' }]);
    } finally {
      await storage.close();
    }
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
