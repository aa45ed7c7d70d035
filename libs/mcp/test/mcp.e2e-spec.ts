// The Interlock MCP server through the official MCP client, over stdio (the built bin, spawned as
// an MCP client spawns it) and over Streamable HTTP (the API's /mcp), against a live service on
// real Postgres. Humans decide through the service's own HTTP API, with a member's cookie.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import {
  connect,
  createKey,
  decide,
  interruptViaApi,
  live,
  openedInterrupt,
  raw,
  revokeKey,
  runTag,
  textOf,
  Transport,
  watchLiveView,
} from './support/live';

const TOOLS = [
  'ask_human',
  'end_session',
  'get_decision',
  'list_pending',
  'log_step',
  'permission_prompt',
  'request_approval',
  'start_session',
];

/** The open interrupt with this externalId (what permission_prompt makes of tool_use_id), once it is there. */
async function openedWithExternalId(
  externalId: string,
): Promise<Record<string, unknown> & { id: string }> {
  for (let i = 0; i < 400; i++) {
    const page = await raw(
      'GET',
      `/api/interrupts?status=open&externalId=${encodeURIComponent(externalId)}`,
      { headers: { 'x-api-key': live.apiKey } },
    );
    const [found] = (page.body as { interrupts: (Record<string, unknown> & { id: string })[] })
      .interrupts;
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no open interrupt with externalId ${externalId} appeared`);
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
) {
  return (await client.callTool({ name, arguments: args }, undefined, {
    onprogress,
    timeout: 90_000,
  })) as CallToolResult;
}

interface Outcome {
  status: 'answered' | 'pending';
  interruptId: string;
  url: string;
  decisions: {
    action: string;
    decision: string;
    editedArgs?: Record<string, unknown>;
    editedName?: string;
    message?: string;
    response?: Record<string, unknown>;
    decidedBy: string;
  }[];
  actionsAwaitingDecision: string[];
  answer?: string;
  resumed?: boolean;
  next: string;
}

const outcome = (result: CallToolResult): Outcome => {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as unknown as Outcome;
};

describe.each<[string, Transport]>([
  ['stdio (the built bin)', 'stdio'],
  ['Streamable HTTP (/mcp)', 'http'],
])('over %s', (_label, transport) => {
  let client: Client;
  // Dashboard links: the stdio server's default is INTERLOCK_BASE_URL; the service's is its
  // PUBLIC_ORIGIN, which with-service leaves at its default, http://localhost:<port>.
  const dashboard =
    transport === 'stdio' ? live.baseURL : live.baseURL.replace('//127.0.0.1:', '//localhost:');

  beforeAll(async () => {
    client = await connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the tools, each with a description and a JSON Schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      // permission_prompt answers in text only, as Claude Code reads it.
      if (tool.name !== 'permission_prompt') expect(tool.outputSchema?.type).toBe('object');
    }
    const prompt = tools.find((t) => t.name === 'permission_prompt');
    expect(prompt?.inputSchema.required).toEqual(['tool_name', 'input']);
    expect(Object.keys(prompt?.inputSchema.properties ?? {})).toEqual([
      'tool_name',
      'input',
      'tool_use_id',
    ]);
    const approval = tools.find((t) => t.name === 'request_approval');
    expect(approval?.inputSchema.required).toEqual(['title', 'actions']);
    expect(Object.keys(approval?.inputSchema.properties ?? {})).toEqual([
      'title',
      'description',
      'actions',
      'timeoutSeconds',
      'priority',
      'labels',
      'assignTo',
      'waitSeconds',
      'sessionId',
    ]);
    expect(JSON.stringify(approval?.inputSchema.properties?.['waitSeconds'])).toContain(
      '"maximum":50',
    );
    // Routing at creation, documented for the model as the API bounds it (SPEC §8e).
    expect(approval?.inputSchema.properties?.['priority']).toMatchObject({
      type: 'string',
      enum: ['low', 'normal', 'high', 'urgent'],
    });
    expect(approval?.inputSchema.properties?.['labels']).toMatchObject({
      type: 'array',
      maxItems: 10,
      items: { type: 'string', pattern: '^[A-Za-z0-9_.:/+-]{1,50}$' },
    });
    expect(
      Object.keys(
        (approval?.inputSchema.properties?.['assignTo'] as { properties: object }).properties,
      ),
    ).toEqual(['memberId', 'email', 'teamId', 'teamName']);
  });

  it('request_approval returns the decisions a human makes while it waits', async () => {
    const title = runTag(`Deploy api 1.4.2 (${transport}) `);
    const started = Date.now();
    const pending = call(client, 'request_approval', {
      title,
      description: 'All checks green.',
      actions: [
        { name: 'deploy', args: { service: 'api', version: '1.4.2' } },
        { name: 'notify', args: { channel: '#ops' }, allowedDecisions: ['approve', 'edit'] },
      ],
      waitSeconds: 30,
    });
    const opened = await openedInterrupt(title);
    // Nothing of the server's own in the agent's metadata: list_pending asks the API by key.
    expect(opened['metadata']).toBeNull();
    await decide(opened.id, 'deploy', 'approve');
    await decide(opened.id, 'notify', 'edit', {
      editedArgs: { channel: '#releases' },
      editedName: 'notify_releases',
    });
    const result = outcome(await pending);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result).toMatchObject({
      status: 'answered',
      interruptId: opened.id,
      url: `${dashboard}/interrupts/${opened.id}`,
      actionsAwaitingDecision: [],
    });
    expect(result.decisions).toEqual([
      {
        action: 'deploy',
        decision: 'approve',
        decidedBy: 'SDK pro owner',
        decidedAt: expect.any(String),
      },
      {
        action: 'notify',
        decision: 'edit',
        editedArgs: { channel: '#releases' },
        editedName: 'notify_releases',
        decidedBy: 'SDK pro owner',
        decidedAt: expect.any(String),
      },
    ]);
    expect(result.resumed).toBeUndefined();
    // The text mirrors the structured result for clients that only show text.
    expect(JSON.parse(textOf(await pending))).toEqual(result);
  });

  it('request_approval returns at once what argus decided as the interrupt opened, with no person deciding', async () => {
    // A rule for one fresh key only, so no other test's interrupts are decided by it.
    const key = await createKey(runTag(`mcp-argus-${transport}-`));
    const created = await raw('POST', '/api/classification/rules', {
      headers: { cookie: live.memberCookie },
      body: {
        name: runTag('mcp '),
        mode: 'enforce',
        match: { actions: ['deploy'], keyIds: [key.id] },
        outcome: { type: 'approve' },
      },
    });
    expect(created.status).toBe(201);
    const ruleId = (created.body as { id: string }).id;
    const agent = await connect(transport, key.key);
    try {
      // Nobody decides: were it left for a person, the call would answer pending after 30 s.
      const result = outcome(
        await call(agent, 'request_approval', {
          title: runTag(`Deploy api 1.4.3 (${transport}) `),
          actions: [{ name: 'deploy', args: { service: 'api' } }],
          waitSeconds: 30,
        }),
      );
      expect(result).toMatchObject({ status: 'answered', actionsAwaitingDecision: [] });
      expect(result.decisions).toEqual([
        {
          action: 'deploy',
          decision: 'approve',
          decidedBy: 'argus',
          decidedAt: expect.any(String),
        },
      ]);
      expect(await interruptViaApi(result.interruptId, key.key)).toMatchObject({
        status: 'answered',
        decisions: [{ decidedBy: { type: 'argus', ruleId, name: 'argus' } }],
      });
    } finally {
      await agent.close();
      await raw('DELETE', `/api/classification/rules/${ruleId}`, {
        headers: { cookie: live.memberCookie },
      });
      await revokeKey(key.id);
    }
  });

  it("permission_prompt answers in Claude Code's shape: allow as asked, allow as edited, deny with the member's message", async () => {
    const input = { command: 'ls /srv', description: 'List the deploy directory' };
    const cases: ['approve' | 'edit' | 'reject', Record<string, unknown>, unknown][] = [
      ['approve', {}, { behavior: 'allow', updatedInput: input }],
      [
        'edit',
        { editedArgs: { command: 'ls -la /srv' } },
        { behavior: 'allow', updatedInput: { command: 'ls -la /srv' } },
      ],
      [
        'reject',
        { message: 'Not on the production host.' },
        { behavior: 'deny', message: 'Not on the production host.' },
      ],
    ];
    await Promise.all(
      cases.map(async ([decision, extras, expected]) => {
        const toolUseId = runTag(`toolu_${transport}_${decision}_`);
        const answer = call(client, 'permission_prompt', {
          tool_name: 'Bash',
          input,
          tool_use_id: toolUseId,
        });
        const opened = await openedWithExternalId(toolUseId);
        expect([opened['title'], opened['actionRequests']]).toEqual([
          'Allow Bash?',
          [
            expect.objectContaining({
              name: 'Bash',
              args: input,
              allowedDecisions: ['approve', 'edit', 'reject'],
            }),
          ],
        ]);
        await decide(opened.id, 'Bash', decision, extras);
        const result = await answer;
        expect(result.isError).toBeFalsy();
        expect(JSON.parse(textOf(result))).toEqual(expected);
      }),
    );
  });

  it('answers pending when nobody decides in time (never approved), then get_decision picks it up', async () => {
    const title = runTag(`Drop table users (${transport}) `);
    const started = Date.now();
    const first = outcome(
      await call(client, 'request_approval', {
        title,
        actions: [{ name: 'drop_table', args: { table: 'users' } }],
        waitSeconds: 2,
      }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(first).toMatchObject({
      status: 'pending',
      url: `${dashboard}/interrupts/${first.interruptId}`,
      decisions: [],
      actionsAwaitingDecision: ['drop_table'],
    });
    expect(first.next).toContain('NOT an approval');
    expect(first.next).toContain(first.interruptId);
    expect((await interruptViaApi(first.interruptId))['status']).toBe('open');

    // Still nothing: a check without waiting says so again.
    expect(
      outcome(
        await call(client, 'get_decision', { interruptId: first.interruptId, waitSeconds: 0 }),
      ).status,
    ).toBe('pending');

    // A human decides while get_decision waits.
    const picking = call(client, 'get_decision', {
      interruptId: first.interruptId,
      waitSeconds: 30,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await decide(first.interruptId, 'drop_table', 'reject', { message: 'Not on a Friday.' });
    const picked = outcome(await picking);
    expect(picked).toMatchObject({ status: 'answered', interruptId: first.interruptId });
    expect(picked.decisions).toEqual([
      expect.objectContaining({
        action: 'drop_table',
        decision: 'reject',
        message: 'Not on a Friday.',
      }),
    ]);
  });

  it('request_approval with timeoutSeconds sets the deadline (onTimeout reject); at it the service rejects what nobody decided', async () => {
    // A deadline an hour away: expiresAt is the opening plus timeoutSeconds, onTimeout the default.
    const before = Date.now();
    const later = outcome(
      await call(client, 'request_approval', {
        title: runTag(`Rotate the signing key (${transport}) `),
        actions: [{ name: 'rotate_key', args: { key: 'signing' } }],
        timeoutSeconds: 3_600,
        waitSeconds: 1,
      }),
    );
    const after = Date.now();
    expect(later.status).toBe('pending');
    const opened = await interruptViaApi(later.interruptId);
    expect(opened).toMatchObject({ status: 'open', onTimeout: 'reject' });
    const expiresAt = Date.parse(String(opened['expiresAt']));
    expect(expiresAt - Date.parse(String(opened['createdAt']))).toBe(3_600_000);
    // The service's clock is this machine's: the deadline is an hour after the call, not before it.
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 3_600_000 + 1_000);

    // A deadline of one second: the expiry job decides the action as system, and the agent's
    // get_decision reads that as the answer (a rejection, never an approval).
    const soon = outcome(
      await call(client, 'request_approval', {
        title: runTag(`Purge the cache (${transport}) `),
        actions: [{ name: 'purge_cache', args: { region: 'eu' } }],
        timeoutSeconds: 1,
        waitSeconds: 1,
      }),
    );
    let decided = soon;
    // The job runs every 5 s (SPEC §8e: within 30 s of the deadline); each call holds up to 50 s.
    for (let i = 0; i < 3 && decided.status === 'pending'; i++)
      decided = outcome(
        await call(client, 'get_decision', { interruptId: soon.interruptId, waitSeconds: 50 }),
      );
    expect(decided).toMatchObject({
      status: 'answered',
      interruptId: soon.interruptId,
      actionsAwaitingDecision: [],
    });
    expect(decided.decisions).toEqual([
      expect.objectContaining({
        action: 'purge_cache',
        decision: 'reject',
        message: 'No decision before the deadline.',
        decidedBy: 'system',
      }),
    ]);
    expect(await interruptViaApi(soon.interruptId)).toMatchObject({
      status: 'expired',
      onTimeout: 'reject',
    });
  });

  it('request_approval routes at creation: priority, labels and an assignee by email or team name', async () => {
    const me = await raw('GET', '/api/me', { headers: { cookie: live.memberCookie } });
    const { user } = me.body as { user: { id: string; email: string; name: string } };
    const byEmail = outcome(
      await call(client, 'request_approval', {
        title: runTag(`Refund order 1182 (${transport}) `),
        actions: [{ name: 'refund', args: { order: 1182 } }],
        priority: 'urgent',
        labels: ['billing', 'eu', 'billing', 'team:payments'],
        // Compared as stored: lower-case.
        assignTo: { email: user.email.toUpperCase() },
        waitSeconds: 0,
      }),
    );
    expect(byEmail.status).toBe('pending');
    expect(await interruptViaApi(byEmail.interruptId)).toMatchObject({
      priority: 'urgent',
      labels: ['billing', 'eu', 'team:payments'],
      assignee: { type: 'member', id: user.id },
    });
    const history = await raw('GET', `/api/interrupts/${byEmail.interruptId}?include=history`, {
      headers: { cookie: live.memberCookie },
    });
    const entries = (history.body as { history: { action: string; metadata: object }[] }).history;
    expect(entries.map((e) => e.action)).toEqual(['interrupt.created', 'interrupt.assigned']);
    expect(entries[0].metadata).toMatchObject({
      priority: 'urgent',
      labels: ['billing', 'eu', 'team:payments'],
    });

    const teamName = runTag(`Payments ${transport} `);
    const team = await raw('POST', '/api/teams', {
      headers: { cookie: live.memberCookie },
      body: { name: teamName },
    });
    expect(team.status).toBe(201);
    const byTeam = outcome(
      await call(client, 'request_approval', {
        title: runTag(`Raise the card limit (${transport}) `),
        actions: [{ name: 'raise_limit', args: { to: 5_000 } }],
        assignTo: { teamName },
        waitSeconds: 0,
      }),
    );
    expect(await interruptViaApi(byTeam.interruptId)).toMatchObject({
      priority: 'normal',
      labels: [],
      assignee: { type: 'team', id: (team.body as { id: string }).id, name: teamName },
    });
  });

  it("request_approval refuses a bad priority, labels or assignee with the API's texts, opening nothing", async () => {
    const title = runTag('Routed badly ');
    const refusedWith = async (routing: Record<string, unknown>) => {
      const result = await call(client, 'request_approval', {
        title,
        actions: [{ name: 'a', args: {} }],
        ...routing,
        waitSeconds: 0,
      });
      expect(result.isError).toBe(true);
      return textOf(result);
    };
    expect(await refusedWith({ priority: 'asap' })).toBe(
      'priority must be one of low, normal, high, urgent',
    );
    expect(await refusedWith({ labels: ['has space'] })).toBe(
      'labels: each must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
    );
    expect(await refusedWith({ labels: Array.from({ length: 11 }, (_, i) => `l${i}`) })).toBe(
      'labels must have at most 10 entries',
    );
    expect(await refusedWith({ assignTo: { email: 'a@b.example', teamName: 'x' } })).toBe(
      'assignTo must have exactly one of memberId, email, teamId, teamName',
    );
    expect(await refusedWith({ assignTo: { email: 'nobody@elsewhere.example' } })).toBe(
      'assignTo: no such member in this organisation',
    );
    expect(await refusedWith({ assignTo: { teamName: runTag('No such team ') } })).toBe(
      'assignTo: no such team in this organisation',
    );
    const open = await raw('GET', '/api/interrupts?status=open&limit=200', {
      headers: { 'x-api-key': live.apiKey },
    });
    expect(
      (open.body as { interrupts: { title: string }[] }).interrupts.filter(
        (it) => it.title === title,
      ),
    ).toEqual([]);
  });

  it('request_approval with a responseSchema: the human answers in its form, the decision carries the typed response', async () => {
    const title = runTag(`Plan the rollout (${transport}) `);
    const responseSchema = {
      type: 'object',
      properties: {
        region: { type: 'string', enum: ['eu-west-1', 'us-east-1'], title: 'Region' },
        replicas: { type: 'integer', minimum: 1, maximum: 20 },
      },
      required: ['region'],
    };
    const pending = call(client, 'request_approval', {
      title,
      actions: [
        {
          name: 'plan',
          args: { service: 'api' },
          allowedDecisions: ['respond', 'reject'],
          responseSchema,
        },
      ],
      waitSeconds: 30,
    });
    const opened = await openedInterrupt(title);
    const [action] = opened['actionRequests'] as { responseSchema: unknown }[];
    expect(action.responseSchema).toEqual(responseSchema);
    // The service holds the answer to the schema: a value outside it is refused, not passed on.
    const refused = await raw('POST', `/api/interrupts/${opened.id}/decisions`, {
      headers: { cookie: live.memberCookie },
      body: { actionName: 'plan', decision: 'respond', response: { region: 'mars' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: 'response.region must be one of "eu-west-1", "us-east-1"',
    });
    await decide(opened.id, 'plan', 'respond', { response: { region: 'us-east-1', replicas: 3 } });
    const result = outcome(await pending);
    expect(result.status).toBe('answered');
    expect(result.decisions).toEqual([
      {
        action: 'plan',
        decision: 'respond',
        response: { region: 'us-east-1', replicas: 3 },
        decidedBy: 'SDK pro owner',
        decidedAt: expect.any(String),
      },
    ]);
    expect(result.next).toContain('response, the typed answer');
  });

  it("request_approval refuses a responseSchema outside the subset with the API's text", async () => {
    const refused = await call(client, 'request_approval', {
      title: runTag('Bad schema '),
      actions: [
        {
          name: 'plan',
          args: {},
          allowedDecisions: ['respond'],
          responseSchema: {
            type: 'object',
            properties: { a: { type: 'string', pattern: '^x' } },
          },
        },
      ],
      waitSeconds: 0,
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'actionRequests.0.responseSchema is not valid: properties.a.pattern is not supported',
    );
  });

  it('sends progress notifications while it waits, when the client asks for them', async () => {
    const progress: Progress[] = [];
    const title = runTag(`Rotate secrets (${transport}) `);
    const result = outcome(
      await call(
        client,
        'request_approval',
        { title, actions: [{ name: 'rotate', args: {} }], waitSeconds: 3 },
        (p) => progress.push(p),
      ),
    );
    expect(result.status).toBe('pending');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);
    expect(progress[0]).toMatchObject({ total: 3 });
    expect(progress[0].message).toContain(result.url);
  });

  it('a retried request_approval finds the interrupt the first call opened, and its decision', async () => {
    const args = {
      title: runTag(`Refund order (${transport}) `),
      actions: [{ name: 'refund', args: { amount: 40 } }],
      waitSeconds: 0,
    };
    const first = outcome(await call(client, 'request_approval', args));
    const again = outcome(await call(client, 'request_approval', { ...args, waitSeconds: 1 }));
    expect(again).toMatchObject({
      status: 'pending',
      interruptId: first.interruptId,
      resumed: true,
    });
    await decide(first.interruptId, 'refund', 'approve');
    const third = outcome(await call(client, 'request_approval', args));
    expect(third).toMatchObject({
      status: 'answered',
      interruptId: first.interruptId,
      resumed: true,
    });
    const listed = await raw('GET', '/api/interrupts?limit=200', {
      headers: { 'x-api-key': live.apiKey },
    });
    const sameTitle = (listed.body as { interrupts: { title: string }[] }).interrupts.filter(
      (i) => i.title === args.title,
    );
    expect(sameTitle).toHaveLength(1);
  });

  it('ask_human returns the answer text; get_decision returns it too', async () => {
    const question = runTag(`Which region should the new database go in? (${transport}) `);
    const asking = call(client, 'ask_human', {
      question,
      context: 'Most users are in Europe.',
      waitSeconds: 30,
    });
    const opened = await openedInterrupt(question);
    expect(opened['actionRequests']).toEqual([
      expect.objectContaining({ name: 'answer', allowedDecisions: ['respond'] }),
    ]);
    await decide(opened.id, 'answer', 'respond', { message: 'eu-west-1, please.' });
    const answered = outcome(await asking);
    expect(answered).toMatchObject({
      status: 'answered',
      answer: 'eu-west-1, please.',
      interruptId: opened.id,
    });
    expect(
      outcome(await call(client, 'get_decision', { interruptId: opened.id, waitSeconds: 0 }))
        .answer,
    ).toBe('eu-west-1, please.');
  });

  it("list_pending lists this key's open requests, through MCP or the API, and nothing of other keys", async () => {
    const tag = runTag(`pending-${transport}-`);
    const mine = outcome(
      await call(client, 'request_approval', {
        title: `${tag} mine`,
        actions: [{ name: 'a', args: {} }],
        waitSeconds: 0,
      }),
    );
    const question = outcome(
      await call(client, 'ask_human', { question: `${tag} which region?`, waitSeconds: 0 }),
    );
    const other = await createKey(runTag('other-'));
    const otherClient = await connect(transport, other.key);
    try {
      await call(otherClient, 'request_approval', {
        title: `${tag} other key`,
        actions: [{ name: 'a', args: {} }],
        waitSeconds: 0,
      });
    } finally {
      await otherClient.close();
    }
    await raw('POST', '/api/interrupts', {
      headers: { 'x-api-key': other.key },
      body: { title: `${tag} other key via the API`, actionRequests: [{ name: 'a' }] },
    });
    const viaApi = await raw('POST', '/api/interrupts', {
      headers: { 'x-api-key': live.apiKey },
      body: { title: `${tag} via the API`, actionRequests: [{ name: 'a' }, { name: 'b' }] },
    });
    const viaApiId = (viaApi.body as { id: string }).id;
    // Answered ones are no longer pending; partly decided ones are, with what awaits a decision.
    const done = outcome(
      await call(client, 'request_approval', {
        title: `${tag} done`,
        actions: [{ name: 'a', args: {} }],
        waitSeconds: 0,
      }),
    );
    await decide(done.interruptId, 'a', 'approve');
    await decide(viaApiId, 'a', 'approve');

    const result = await call(client, 'list_pending', {});
    const structured = result.structuredContent as {
      interrupts: {
        interruptId: string;
        title: string;
        url: string;
        kind: string;
        actionsAwaitingDecision: string[];
      }[];
      complete: boolean;
      note: string;
    };
    expect(structured.complete).toBe(true);
    expect(structured.note).toMatch(/^All of the open requests this API key opened\./);
    expect(structured.interrupts.filter((i) => i.title.startsWith(tag))).toEqual([
      expect.objectContaining({
        interruptId: viaApiId,
        title: `${tag} via the API`,
        kind: 'approval',
        actionsAwaitingDecision: ['b'],
      }),
      expect.objectContaining({
        interruptId: question.interruptId,
        kind: 'question',
        actionsAwaitingDecision: ['answer'],
        url: question.url,
      }),
      expect.objectContaining({
        interruptId: mine.interruptId,
        title: `${tag} mine`,
        kind: 'approval',
        url: mine.url,
      }),
    ]);
  });

  it('start_session, log_step and end_session stream steps into the Live View', async () => {
    const started = await call(client, 'start_session', {
      name: runTag(`Nightly upgrade (${transport}) `),
    });
    const { sessionId } = started.structuredContent as { sessionId: string };
    const watching = await watchLiveView(sessionId, [
      'Upgraded 3 packages; tests green.',
      'npm test: 412 passed',
    ]);
    const logged = await call(client, 'log_step', {
      sessionId,
      content: 'Upgraded 3 packages; tests green.',
    });
    expect(logged.structuredContent).toEqual({ sessionId, appended: 1 });
    await call(client, 'log_step', { sessionId, content: 'npm test: 412 passed', role: 'tool' });
    // A request opened from the session shows beside it.
    const linked = outcome(
      await call(client, 'request_approval', {
        title: runTag('From the session '),
        actions: [{ name: 'a', args: {} }],
        waitSeconds: 0,
        sessionId,
      }),
    );
    expect((await interruptViaApi(linked.interruptId))['sessionId']).toBe(sessionId);
    // A member watching the Live View sees both steps.
    const seen = await watching.seen;
    expect(seen).toContain('Upgraded 3 packages; tests green.');
    expect(seen).toContain('npm test: 412 passed');
    const ended = await call(client, 'end_session', { sessionId });
    expect(ended.structuredContent).toMatchObject({
      sessionId,
      status: 'ended',
      messageCount: 2,
      endedAt: expect.any(String),
    });
    // The API's own refusal of a step after the end, as a tool error.
    const again = await call(client, 'log_step', { sessionId, content: 'too late' });
    expect(again.isError).toBe(true);
    expect(textOf(again, 1)).toContain('CONFLICT');
  });

  it("surfaces the API's validation and not-found texts as tool errors", async () => {
    const blank = await call(client, 'request_approval', {
      title: '   ',
      actions: [{ name: 'a', args: {} }],
      waitSeconds: 0,
    });
    expect(blank.isError).toBe(true);
    expect(textOf(blank)).toBe('title must not be blank');
    const unknown = await call(client, 'get_decision', {
      interruptId: '00000000-0000-4000-8000-000000000000',
      waitSeconds: 0,
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('Not found.');
    // The schema's own bounds: at most 50 s.
    const tooLong = await call(client, 'get_decision', {
      interruptId: '00000000-0000-4000-8000-000000000000',
      waitSeconds: 120,
    });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toContain('waitSeconds');
  });

  it('a key revoked while request_approval waits ends the wait with the exact "Invalid API key." text', async () => {
    const doomed = await createKey(runTag('doomed-'));
    const doomedClient = await connect(transport, doomed.key);
    try {
      const title = runTag(`Wire transfer (${transport}) `);
      const waiting = call(doomedClient, 'request_approval', {
        title,
        actions: [{ name: 'wire', args: { amount: 1e6 } }],
        waitSeconds: 40,
      });
      const opened = await openedInterrupt(title);
      await revokeKey(doomed.id);
      const started = Date.now();
      const result = await waiting;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Invalid API key.');
      expect(textOf(result, 1)).toContain(opened.id);
      // Never an approval: the interrupt is still open, undecided.
      expect((await interruptViaApi(opened.id))['status']).toBe('open');

      if (transport === 'stdio') {
        // The stdio server keeps running: every later call answers the same text.
        const later = await call(doomedClient, 'list_pending', {});
        expect(later.isError).toBe(true);
        expect(textOf(later)).toBe('Invalid API key.');
      } else {
        // Over HTTP every request is authenticated first: the API's exact 401.
        const later = await doomedClient.callTool({ name: 'list_pending', arguments: {} }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(later).toBeInstanceOf(StreamableHTTPError);
        expect((later as StreamableHTTPError).code).toBe(401);
        expect((later as Error).message).toContain('"message":"Invalid API key."');
      }
    } finally {
      await doomedClient.close();
    }
  });
});

describe('permission_prompt over stdio, with INTERLOCK_PERMISSION_WAIT_SECONDS', () => {
  it('denies when nobody decides in time, saying where to decide; the request stays open', async () => {
    const client = await connect('stdio', live.apiKey, { INTERLOCK_PERMISSION_WAIT_SECONDS: '1' });
    try {
      const toolUseId = runTag('toolu_timeout_');
      const result = await call(client, 'permission_prompt', {
        tool_name: 'Write',
        input: { file_path: '/etc/hosts', content: '' },
        tool_use_id: toolUseId,
      });
      const answer = JSON.parse(textOf(result)) as { behavior: string; message: string };
      const opened = await openedWithExternalId(toolUseId);
      expect(answer).toEqual({
        behavior: 'deny',
        message: `Nobody in your organisation has decided yet whether to allow Write; it was not run. The request stays open at ${live.baseURL}/interrupts/${opened.id}: ask again once someone decided there.`,
      });
    } finally {
      await client.close();
    }
  });
});

describe('keys the API refuses', () => {
  it('stdio: an expired key answers every tool with the exact "API Key has expired"', async () => {
    const client = await connect('stdio', live.expiredApiKey);
    try {
      const result = await call(client, 'request_approval', {
        title: 'x',
        actions: [{ name: 'a', args: {} }],
        waitSeconds: 0,
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('API Key has expired');
      expect(textOf(result, 1)).toContain('API_KEY_EXPIRED');
    } finally {
      await client.close();
    }
  });

  it.each([
    ['missing', undefined, 'Missing x-api-key header.'],
    ['invalid', `ilk_${'A'.repeat(64)}`, 'Invalid API key.'],
    ['expired', 'EXPIRED', 'API Key has expired'],
  ])(
    '/mcp: a %s key gets the exact 401 of every machine endpoint',
    async (_label, key, message) => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      if (key !== undefined) headers['x-api-key'] = key === 'EXPIRED' ? live.expiredApiKey : key;
      const response = await fetch(`${live.baseURL}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        statusCode: 401,
        error: 'Unauthorized',
        message,
      });
    },
  );
});
