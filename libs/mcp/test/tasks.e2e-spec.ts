// MCP tasks (protocol revision 2025-11-25) through the official MCP client's task API, over stdio
// (the built bin) and over Streamable HTTP (the API's /mcp), against a live service on real
// Postgres; people decide through the service's own HTTP API.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  type CallToolResult,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import {
  connect,
  decide,
  interruptViaApi,
  live,
  openedInterrupt,
  runTag,
  textOf,
  Transport,
} from './support/live';

/** tools/call with `task`, as a client that supports tasks sends it: the created task. */
async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Task> {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 3_600_000 } } },
    CreateTaskResultSchema,
  );
  return created.task;
}

/** tasks/get until `done` holds (people decide through HTTP meanwhile), at most 60 s. */
async function taskUntil(
  client: Client,
  taskId: string,
  done: (task: Task) => boolean,
): Promise<Task> {
  const until = Date.now() + 60_000;
  for (;;) {
    const task = (await client.experimental.tasks.getTask(taskId)) as Task;
    if (done(task) || Date.now() > until) return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const outcomeOf = (result: CallToolResult) => {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown> & {
    decisions: Record<string, unknown>[];
  };
};

describe.each<[string, Transport]>([
  ['stdio (the built bin)', 'stdio'],
  ['Streamable HTTP (/mcp)', 'http'],
])('MCP tasks over %s', (_label, transport) => {
  let client: Client;
  const dashboard =
    transport === 'stdio' ? live.baseURL : live.baseURL.replace('//127.0.0.1:', '//localhost:');

  beforeAll(async () => {
    client = await connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('declares tasks, and request_approval and ask_human as tools that may run as one', async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support['request_approval']).toBe('optional');
    expect(support['ask_human']).toBe('optional');
    expect(support['get_decision']).not.toBe('optional');
    expect(support['permission_prompt']).not.toBe('optional');
  });

  it('request_approval answers at once with a task; the client follows it until a person decides', async () => {
    const title = runTag(`Migrate billing (${transport}) `);
    const started = Date.now();
    // The default wait is 45 s: answering well before it shows the call did not wait.
    const task = await callAsTask(client, 'request_approval', {
      title,
      actions: [
        { name: 'migrate', args: { database: 'billing' } },
        { name: 'announce', args: { channel: '#ops' }, allowedDecisions: ['approve', 'edit'] },
      ],
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    const opened = await openedInterrupt(title);
    expect(task).toMatchObject({
      taskId: opened.id,
      status: 'working',
      ttl: null,
      pollInterval: expect.any(Number),
      createdAt: opened['createdAt'],
    });
    expect(task.statusMessage).toBe(
      `Waiting for a human decision (0 of 2 actions decided): ${dashboard}/interrupts/${opened.id}`,
    );
    // tasks/list: the key's open requests, this one among them.
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(opened.id);

    await decide(opened.id, 'migrate', 'approve');
    const partly = await taskUntil(client, task.taskId, (t) =>
      (t.statusMessage ?? '').includes('(1 of 2'),
    );
    expect(partly.status).toBe('working');

    await decide(opened.id, 'announce', 'edit', { editedArgs: { channel: '#releases' } });
    const done = await taskUntil(client, task.taskId, (t) => t.status !== 'working');
    expect(done).toMatchObject({
      status: 'completed',
      statusMessage: `Decided: ${dashboard}/interrupts/${opened.id}`,
    });
    const result = (await client.experimental.tasks.getTaskResult(
      task.taskId,
      CallToolResultSchema,
    )) as CallToolResult;
    const outcome = outcomeOf(result);
    expect(outcome).toMatchObject({
      status: 'answered',
      interruptId: opened.id,
      actionsAwaitingDecision: [],
    });
    expect(outcome.decisions).toEqual([
      expect.objectContaining({ action: 'migrate', decision: 'approve' }),
      expect.objectContaining({
        action: 'announce',
        decision: 'edit',
        editedArgs: { channel: '#releases' },
      }),
    ]);
    // The task's result carries its id, as the protocol asks.
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({
      taskId: opened.id,
    });
  });

  it("callToolStream (the SDK's own task flow) ends with ask_human's answer", async () => {
    const question = runTag(`Which region for the new cluster (${transport})? `);
    const seen: string[] = [];
    let answer: string | undefined;
    const stream = client.experimental.tasks.callToolStream(
      { name: 'ask_human', arguments: { question } },
      CallToolResultSchema,
      { task: { ttl: 3_600_000 }, timeout: 90_000 },
    );
    for await (const message of stream) {
      seen.push(message.type);
      if (message.type === 'taskCreated') {
        // The question is open now: a person answers it while the client polls.
        await decide(message.task.taskId, 'answer', 'respond', { message: 'eu-west-1' });
      }
      if (message.type === 'result')
        answer = (outcomeOf(message.result as CallToolResult) as { answer?: string }).answer;
      if (message.type === 'error') throw message.error;
    }
    expect(seen[0]).toBe('taskCreated');
    expect(seen).toContain('taskStatus');
    expect(seen.at(-1)).toBe('result');
    expect(answer).toBe('eu-west-1');
  });

  it('tasks/cancel withdraws the request; the task ends cancelled and its result says so', async () => {
    const title = runTag(`Delete bucket (${transport}) `);
    const task = await callAsTask(client, 'request_approval', {
      title,
      actions: [{ name: 'delete_bucket', args: { bucket: 'logs' } }],
    });
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({
      taskId: task.taskId,
      status: 'cancelled',
      statusMessage: 'Withdrawn: Cancelled by the MCP client (tasks/cancel).',
    });
    expect(await interruptViaApi(task.taskId)).toMatchObject({
      status: 'withdrawn',
      withdrawnReason: 'Cancelled by the MCP client (tasks/cancel).',
    });
    const result = (await client.experimental.tasks.getTaskResult(
      task.taskId,
      CallToolResultSchema,
    )) as CallToolResult;
    const outcome = outcomeOf(result) as unknown as { status: string; next: string };
    expect(outcome.status).toBe('pending');
    expect(outcome.next).toBe(
      'This request was withdrawn (Cancelled by the MCP client (tasks/cancel).) and is closed. ' +
        'Nobody will decide "delete_bucket": do not carry it out. To ask again, open a new request ' +
        'with a different title or description.',
    );
    // A task that has ended cannot be cancelled again.
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(
      'Cannot cancel task in terminal status: cancelled',
    );
  });

  it("a call the API refuses is a task that has failed, with the API's text", async () => {
    const task = await callAsTask(client, 'request_approval', {
      title: '   ',
      actions: [{ name: 'a', args: {} }],
    });
    expect(task).toMatchObject({ status: 'failed', statusMessage: 'title must not be blank' });
    // Any server answers for it (over HTTP each request meets a new one).
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({
      status: 'failed',
    });
    const result = (await client.experimental.tasks.getTaskResult(
      task.taskId,
      CallToolResultSchema,
    )) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('title must not be blank');
  });

  it('tasks/get of an id this organisation does not have is "Task not found"', async () => {
    await expect(
      client.experimental.tasks.getTask('00000000-0000-4000-8000-000000000000'),
    ).rejects.toThrow('Task not found');
  });

  it('without task, request_approval still waits (bounded) and answers pending', async () => {
    const started = Date.now();
    const result = (await client.callTool(
      {
        name: 'request_approval',
        arguments: {
          title: runTag(`Scale down (${transport}) `),
          actions: [{ name: 'scale', args: { replicas: 0 } }],
          waitSeconds: 2,
        },
      },
      undefined,
      { timeout: 90_000 },
    )) as CallToolResult;
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(outcomeOf(result)).toMatchObject({ status: 'pending' });
  });
});

describe('MCP tasks outlive the stdio server that created them', () => {
  it('a new server process reads the task the old one created', async () => {
    const first = await connect('stdio');
    const title = runTag('Rotate keys (restart) ');
    const task = await callAsTask(first, 'request_approval', {
      title,
      actions: [{ name: 'rotate', args: {} }],
    });
    await first.close();
    await decide(task.taskId, 'rotate', 'reject', { message: 'Not during the freeze.' });

    const second = await connect('stdio');
    try {
      expect(await second.experimental.tasks.getTask(task.taskId)).toMatchObject({
        taskId: task.taskId,
        status: 'completed',
      });
      const result = (await second.experimental.tasks.getTaskResult(
        task.taskId,
        CallToolResultSchema,
      )) as CallToolResult;
      expect(outcomeOf(result).decisions).toEqual([
        expect.objectContaining({
          action: 'rotate',
          decision: 'reject',
          message: 'Not during the freeze.',
        }),
      ]);
    } finally {
      await second.close();
    }
  });
});
