// What tools/scripts/with-service.mjs prepared (a live service on real Postgres, keys, the Pro
// owner's cookie), the official MCP client connected both ways, and raw HTTP helpers that act as
// the humans do: through the service's own endpoints, with the member's cookie.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is not set: run the MCP integration tests through tools/scripts/with-service.mjs`,
    );
  }
  return value;
}

export const live = {
  baseURL: required('INTERLOCK_BASE_URL'),
  apiKey: required('INTERLOCK_API_KEY'),
  expiredApiKey: required('INTERLOCK_EXPIRED_API_KEY'),
  memberCookie: required('INTERLOCK_TEST_MEMBER_COOKIE'),
};

/** The built stdio server, as `npx @interlock/mcp` runs it. */
export const BIN = join(__dirname, '..', '..', 'dist', 'cli.js');

export interface RawResponse {
  status: number;
  body: unknown;
}

export async function raw(
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawResponse> {
  const response = await fetch(`${live.baseURL}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** A member decides one action (a human route: the session cookie, no key). */
export async function decide(
  interruptId: string,
  actionName: string,
  decision: 'approve' | 'edit' | 'reject' | 'respond',
  extra: {
    editedArgs?: Record<string, unknown>;
    editedName?: string;
    message?: string;
    response?: Record<string, unknown>;
  } = {},
): Promise<void> {
  const response = await raw('POST', `/api/interrupts/${interruptId}/decisions`, {
    headers: { cookie: live.memberCookie },
    body: { actionName, decision, ...extra },
  });
  if (response.status !== 201)
    throw new Error(
      `deciding ${actionName} answered ${response.status}: ${JSON.stringify(response.body)}`,
    );
}

/** A new key of the Pro organisation, created by its owner. */
export async function createKey(name: string): Promise<{ id: string; key: string }> {
  const response = await raw('POST', '/api/api-keys', {
    headers: { cookie: live.memberCookie },
    body: { name, expiry: 'never' },
  });
  if (response.status !== 201)
    throw new Error(`creating a key answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as { id: string; key: string };
}

export async function revokeKey(id: string): Promise<void> {
  const response = await raw('DELETE', `/api/api-keys/${id}`, {
    headers: { cookie: live.memberCookie },
  });
  if (response.status !== 204) throw new Error(`revoking a key answered ${response.status}`);
}

/** The interrupt as the API shows it to a key. */
export async function interruptViaApi(
  id: string,
  apiKey = live.apiKey,
): Promise<Record<string, unknown>> {
  const response = await raw('GET', `/api/interrupts/${id}`, { headers: { 'x-api-key': apiKey } });
  if (response.status !== 200) throw new Error(`GET interrupt answered ${response.status}`);
  return response.body as Record<string, unknown>;
}

/** The newest open interrupt titled `title`, once it shows up (the MCP call opened it). */
export async function openedInterrupt(
  title: string,
): Promise<Record<string, unknown> & { id: string }> {
  for (let i = 0; i < 200; i++) {
    const page = await raw('GET', '/api/interrupts?status=open&limit=200', {
      headers: { 'x-api-key': live.apiKey },
    });
    const found = (
      page.body as { interrupts: (Record<string, unknown> & { id: string; title: string })[] }
    ).interrupts.find((it) => it.title === title);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no open interrupt titled ${title} appeared`);
}

/**
 * Watches a session's Live View as a member does (Server-Sent Events, the member's cookie) until
 * every one of `texts` has arrived, or 15 s pass. Resolves once the stream is open; `seen` is
 * what arrived.
 */
export async function watchLiveView(
  sessionId: string,
  texts: string[],
): Promise<{ seen: Promise<string> }> {
  const controller = new AbortController();
  const response = await fetch(`${live.baseURL}/api/sessions/${sessionId}/stream`, {
    headers: { cookie: live.memberCookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200 || response.body === null)
    throw new Error(`the Live View answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => controller.abort(), 15_000);
  const seen = (async () => {
    let text = '';
    try {
      while (!texts.every((t) => text.includes(t))) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    } catch {
      // aborted: return what arrived
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    return text;
  })();
  return { seen };
}

export type Transport = 'stdio' | 'http';

/** The official MCP client, connected to the stdio bin (spawned) or to the API's /mcp. */
export async function connect(
  transport: Transport,
  apiKey = live.apiKey,
  env: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'interlock-mcp-e2e', version: '1.0.0' });
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        env: {
          PATH: process.env.PATH ?? '',
          INTERLOCK_API_KEY: apiKey,
          INTERLOCK_BASE_URL: live.baseURL,
          ...env,
        },
        stderr: 'ignore',
      }),
    );
  } else {
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', live.baseURL), {
        requestInit: { headers: { 'x-api-key': apiKey } },
      }),
    );
  }
  return client;
}

export function textOf(result: CallToolResult, index = 0): string {
  const item = result.content[index];
  if (item?.type !== 'text')
    throw new Error(`content ${index} is not text: ${JSON.stringify(result.content)}`);
  return item.text;
}

export function runTag(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 10)}`;
}
