// The tools that wait refuse an answer that is not about the actions they sent (SPEC §8e's
// actionDigest): the official MCP client against the server, over a backend whose answer comes
// back decided — once about the actions as sent, once about other arguments.
import { actionDigest, type Interrupt, type InterruptCreateParams } from '@interlock/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { InterlockBackend } from './backend';
import { createInterlockMcpServer } from './server';

const ID = '0b5e9f1c-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

/** A backend that answers every create decided (approve) — about `tamper(args)` of what was sent. */
function decidedBackend(tamper: (args: Record<string, unknown>) => Record<string, unknown>) {
  const answer = async (params: InterruptCreateParams): Promise<Interrupt> => {
    const actionRequests = await Promise.all(
      params.actionRequests.map(async (a) => ({
        ...a,
        args: a.args ?? {},
        actionDigest: await actionDigest(ID, a.name, tamper(a.args ?? {})),
      })),
    );
    return {
      id: ID,
      title: params.title,
      status: 'answered',
      createdAt: '2026-11-27T06:00:00.000Z',
      answeredAt: '2026-11-27T06:00:01.000Z',
      actionRequests,
      decisions: actionRequests.map((a, i) => ({
        id: `d${i}`,
        actionName: a.name,
        decision: 'approve',
        editedArgs: null,
        editedName: null,
        message: null,
        actionDigest: a.actionDigest,
        decidedBy: { type: 'member', id: 'm1', name: 'Ada' },
        decidedAt: '2026-11-27T06:00:01.000Z',
      })),
    } as unknown as Interrupt;
  };
  const backend: Partial<InterlockBackend> = {
    identity: async () => ({ apiKeyId: 'k1', organisationId: 'o1' }),
    createInterrupt: async (params) => ({ value: await answer(params), replayed: false }),
  };
  return backend as InterlockBackend;
}

/**
 * A backend whose create answers open — with digests or, as an older service, without — and whose
 * next read answers approved with no digest at all (as a proxy that strips them would pass it on).
 */
function strippedBackend(createDigests: boolean) {
  let sent: InterruptCreateParams | undefined;
  const record = async (status: string, digests: boolean) => {
    const params = sent as InterruptCreateParams;
    const actionRequests = await Promise.all(
      params.actionRequests.map(async (a) => ({
        ...a,
        args: a.args ?? {},
        ...(digests ? { actionDigest: await actionDigest(ID, a.name, a.args ?? {}) } : {}),
      })),
    );
    return {
      id: ID,
      title: params.title,
      status,
      createdAt: '2026-11-27T06:00:00.000Z',
      answeredAt: status === 'open' ? null : '2026-11-27T06:00:01.000Z',
      actionRequests,
      decisions:
        status === 'open'
          ? []
          : actionRequests.map((a, i) => ({
              id: `d${i}`,
              actionName: a.name,
              decision: 'approve',
              editedArgs: null,
              editedName: null,
              message: null,
              decidedBy: { type: 'member', id: 'm1', name: 'Ada' },
              decidedAt: '2026-11-27T06:00:01.000Z',
            })),
    } as unknown as Interrupt;
  };
  const backend: Partial<InterlockBackend> = {
    identity: async () => ({ apiKeyId: 'k1', organisationId: 'o1' }),
    createInterrupt: async (params) => {
      sent = params;
      return { value: await record('open', createDigests), replayed: false };
    },
    getInterrupt: async () => record('answered', false),
  };
  return backend as InterlockBackend;
}

async function connected(backend: InterlockBackend): Promise<Client> {
  const server = createInterlockMcpServer({
    backend,
    dashboardUrl: 'https://interlock.test',
    pollIntervalMs: 10,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'digest-check', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('the waiting tools check the answer against what they sent', () => {
  const approval = {
    title: 'Refund order 1234?',
    actions: [{ name: 'refund', args: { order: '1234', amount: 40 } }],
    waitSeconds: 0,
  };
  const prompt = { tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'tu_1' };

  it('request_approval and permission_prompt pass an answer about the actions as sent', async () => {
    const client = await connected(decidedBackend((args) => args));
    const approved = await client.callTool({ name: 'request_approval', arguments: approval });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toMatchObject({
      status: 'answered',
      decisions: [{ decision: 'approve' }],
    });
    const allowed = await client.callTool({ name: 'permission_prompt', arguments: prompt });
    expect(JSON.parse(textOf(allowed))).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'ls' },
    });
    await client.close();
  });

  it('request_approval answers a tool error and permission_prompt denies when the answer is about other arguments', async () => {
    const client = await connected(
      decidedBackend((args) => ({ ...args, amount: 4000, command: 'rm -rf /' })),
    );
    const refused = await client.callTool({ name: 'request_approval', arguments: approval });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      `The decision on action refund of interrupt ${ID} is not about the action this agent asked about`,
    );
    expect(textOf(refused)).toContain('Do not act on this answer');
    const denied = await client.callTool({ name: 'permission_prompt', arguments: prompt });
    const answer = JSON.parse(textOf(denied)) as { behavior: string; message: string };
    expect(answer.behavior).toBe('deny');
    expect(answer.message).toContain('The decision on action Bash of interrupt');
    await client.close();
  });

  it('refuses an answer stripped of the digests the service sent at create; an older service stays unchecked', async () => {
    const waiting = { ...approval, waitSeconds: 5 };
    const client = await connected(strippedBackend(true));
    const refused = await client.callTool({ name: 'request_approval', arguments: waiting });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('(its actionDigest is missing');
    const denied = await client.callTool({ name: 'permission_prompt', arguments: prompt });
    expect(JSON.parse(textOf(denied))).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('(its actionDigest is missing'),
    });
    await client.close();
    const older = await connected(strippedBackend(false));
    const approved = await older.callTool({ name: 'request_approval', arguments: waiting });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toMatchObject({ status: 'answered' });
    await older.close();
  });
});
