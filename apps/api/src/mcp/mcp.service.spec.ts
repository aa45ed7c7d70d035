import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DomainError } from '@interlock/domain';
import type { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import type { AppConfig } from '../config/app-config';
import type { InterruptLifecycleService } from '../interrupts/interrupt-lifecycle.service';
import type { InterruptsService } from '../interrupts/interrupts.service';
import type { SessionsService } from '../sessions/sessions.service';
import { McpService } from './mcp.service';

// The MCP server McpService builds for one caller, driven by a real MCP client over an
// in-memory transport (the HTTP transport is McpController's): the key is verified again at
// every call, the services get the key's organisation and the key as the actor, and a refusal
// is the API's exact text as a tool error.
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const SESSION = '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10';
const key = {
  kind: 'api_key',
  organisationId: ORG,
  plan: 'free',
  apiKeyId: 'k-1',
  apiKeyName: 'nightly agent',
};
const ended = {
  id: SESSION,
  name: 'nightly',
  externalId: null,
  status: 'ended',
  metadata: null,
  messageCount: 2,
  startedAt: '2026-11-22T10:00:00.000Z',
  endedAt: '2026-11-22T10:05:00.000Z',
};

async function connect(verify: jest.Mock) {
  const sessions = { end: jest.fn(async () => ended) } as unknown as SessionsService;
  const verifier = { verify } as unknown as ApiKeyVerifier;
  const service = new McpService(
    {} as InterruptsService,
    {} as InterruptLifecycleService,
    sessions,
    verifier,
    {
      dashboardUrl: 'https://interlock.test',
    } as AppConfig,
  );
  const errors: unknown[] = [];
  const { server } = await service.exchange(
    { rawKey: 'il_live_raw-key', ip: '203.0.113.7', requestId: 'req-1' },
    'key-1',
    (e) => errors.push(e),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, sessions, errors, close: () => Promise.all([client.close(), server.close()]) };
}

describe('McpService', () => {
  it("ends a session for the caller's key: verified again, its organisation, the key as the actor", async () => {
    const verify = jest.fn(async () => key);
    const { client, sessions, close } = await connect(verify);
    const result = await client.callTool({
      name: 'end_session',
      arguments: { sessionId: SESSION },
    });
    expect(result.isError).toBeFalsy();
    expect(verify).toHaveBeenCalledWith('il_live_raw-key');
    expect(sessions.end).toHaveBeenCalledWith(
      {
        organisationId: ORG,
        actor: { type: 'api_key', id: 'k-1', name: 'nightly agent' },
        ip: '203.0.113.7',
      },
      SESSION,
    );
    await close();
  });

  it('answers a key revoked since the request began with the exact 401 text, calling no service', async () => {
    const verify = jest.fn(async () => Promise.reject(DomainError.of('INVALID_API_KEY')));
    const { client, sessions, errors, close } = await connect(verify);
    const result = (await client.callTool({
      name: 'end_session',
      arguments: { sessionId: SESSION },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content.map((c) => c.text).join('\n')).toContain('Invalid API key.');
    expect(sessions.end).not.toHaveBeenCalled();
    // A refusal is the API's answer, not a failure of the tool: nothing for the request's log.
    expect(errors).toEqual([]);
    await close();
  });

  it('loads the protocol again after a failed load, instead of failing every request until restart', async () => {
    let loads = 0;
    jest.doMock('./mcp-protocol', () => {
      loads += 1;
      if (loads === 1) throw new Error('EIO: i/o error, read');
      return jest.requireActual('./mcp-protocol');
    });
    await jest.isolateModulesAsync(async () => {
      const { McpService: Isolated } = await import('./mcp.service');
      const service = new Isolated(
        {} as InterruptsService,
        {} as InterruptLifecycleService,
        {} as SessionsService,
        { verify: jest.fn() } as unknown as ApiKeyVerifier,
        { dashboardUrl: 'https://interlock.test' } as AppConfig,
      );
      const caller = { rawKey: 'il_live_raw-key', ip: '203.0.113.7', requestId: 'req-1' };
      await expect(service.exchange(caller, 'key-1', () => undefined)).rejects.toThrow('EIO');
      const { server } = await service.exchange(caller, 'key-1', () => undefined);
      expect(server).toBeDefined();
      expect(loads).toBe(2);
      await server.close();
    });
    jest.dontMock('./mcp-protocol');
  });
});
