import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { McpService } from '../src/mcp/mcp.service';
import { createApiKey, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// /mcp in the service itself (SPEC §8c): the official MCP client over Streamable HTTP against the
// real app on real Postgres. The tools' behaviour over both transports is tested in
// libs/mcp/test; here, what only the service decides: the organisation, audit, allowances, the
// dashboard link it is configured with, and draining on shutdown.
describe('/mcp (SPEC §8c)', () => {
  let t: TestApp;
  let base: string;
  const clients: Client[] = [];

  async function connect(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'api-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', base), {
        requestInit: { headers: { 'x-api-key': apiKey } },
      }),
    );
    clients.push(client);
    return client;
  }

  async function call(
    client: Client,
    name: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  const text = (result: CallToolResult, i = 0) => (result.content[i] as { text: string }).text;

  async function newOrganisation(label: string) {
    const owner = await signUpOwner(t.app.getHttpServer(), { organisationName: `MCP ${label}` });
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: `mcp-${label}` });
    return { owner, key };
  }

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        PLAN_FREE_MESSAGES: '2',
        PLAN_FREE_AGENT_HOURS: '0',
        DASHBOARD_URL: 'https://dash.example.com/app/',
      },
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it("opens interrupts in the key's organisation, as the key, and links the configured dashboard", async () => {
    const { owner, key } = await newOrganisation('a');
    const client = await connect(key.key);
    const result = await call(client, 'request_approval', {
      title: 'Ship it?',
      actions: [{ name: 'ship', args: {} }],
      waitSeconds: 0,
    });
    const outcome = result.structuredContent as {
      status: string;
      interruptId: string;
      url: string;
    };
    expect(outcome).toMatchObject({
      status: 'pending',
      url: `https://dash.example.com/app/interrupts/${outcome.interruptId}`,
    });

    const ds = t.app.get(DataSource);
    const [row] = await ds.query(
      `SELECT organisation_id, opened_by_key_id, metadata FROM interrupts WHERE id = $1`,
      [outcome.interruptId],
    );
    expect(row).toEqual({
      organisation_id: owner.organisationId,
      opened_by_key_id: key.id,
      metadata: null,
    });
    const entries = await ds.query(
      `SELECT action, actor_type, actor_id, ip_address FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2`,
      [owner.organisationId, outcome.interruptId],
    );
    expect(entries).toEqual([
      {
        action: 'interrupt.created',
        actor_type: 'api_key',
        actor_id: key.id,
        ip_address: '127.0.0.1',
      },
    ]);

    // Another organisation's key sees nothing of it.
    const other = await newOrganisation('b');
    const otherClient = await connect(other.key.key);
    const peek = await call(otherClient, 'get_decision', {
      interruptId: outcome.interruptId,
      waitSeconds: 0,
    });
    expect(peek.isError).toBe(true);
    expect(text(peek)).toBe('Not found.');
    const listed = await call(otherClient, 'list_pending', {});
    expect((listed.structuredContent as { interrupts: unknown[] }).interrupts).toEqual([]);
    // The opening key lists it, through the API's openedBy filter.
    const own = await call(client, 'list_pending', {});
    expect(
      (own.structuredContent as { interrupts: { interruptId: string }[] }).interrupts.map(
        (i) => i.interruptId,
      ),
    ).toEqual([outcome.interruptId]);
  });

  it("answers a spent allowance with the API's exact 402 texts, as tool errors", async () => {
    const { key } = await newOrganisation('allowance');
    const client = await connect(key.key);
    for (const title of ['one', 'two']) {
      const ok = await call(client, 'request_approval', {
        title,
        actions: [{ name: 'a', args: {} }],
        waitSeconds: 0,
      });
      expect(ok.isError).toBeFalsy();
    }
    const third = await call(client, 'request_approval', {
      title: 'three',
      actions: [{ name: 'a', args: {} }],
      waitSeconds: 0,
    });
    expect(third.isError).toBe(true);
    expect(text(third)).toMatch(
      /^This organisation has used its included messages for the month \(2 on the Free plan\)\. The allowance renews on \d{4}-\d\d-01 \(UTC\); the Pro plan includes 50,000 messages a month\.$/,
    );
    expect(text(third, 1)).toContain('MESSAGES_ALLOWANCE_EXHAUSTED, HTTP 402');
    // The same text the REST endpoint answers.
    const rest = await request(t.app.getHttpServer())
      .post('/api/interrupts')
      .set('x-api-key', key.key)
      .send({ title: 'four', actionRequests: [{ name: 'a' }] });
    expect(rest.status).toBe(402);
    expect(text(third)).toBe(rest.body.message);

    const session = await call(client, 'start_session', { name: 'no hours left' });
    expect(session.isError).toBe(true);
    expect(text(session)).toMatch(
      /^This organisation has used its included agent hours for the month/,
    );
  });

  it('refuses GET and DELETE with 405 once the key is checked, and a key stays refused on human routes', async () => {
    const { key } = await newOrganisation('methods');
    const http = request(t.app.getHttpServer());
    expect((await http.get('/mcp')).status).toBe(401);
    for (const method of ['get', 'delete'] as const) {
      const res = await request(t.app.getHttpServer())
        [method]('/mcp')
        .set('x-api-key', key.key)
        .set('accept', 'text/event-stream');
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe('POST');
    }
    const human = await request(t.app.getHttpServer())
      .post('/api/interrupts/00000000-0000-4000-8000-000000000000/decisions')
      .set('x-api-key', key.key)
      .send({ actionName: 'a', decision: 'approve' });
    expect(human.status).toBe(403);
    expect(human.body.message).toBe('This endpoint is reserved for humans.');
  });

  // Last: stopping the waits is for good (the process is about to exit).
  it('on shutdown, a tool waiting for a human answers pending at once', async () => {
    const { key } = await newOrganisation('shutdown');
    const client = await connect(key.key);
    const waiting = call(client, 'request_approval', {
      title: 'Long wait',
      actions: [{ name: 'a', args: {} }],
      waitSeconds: 45,
    });
    const ds = t.app.get(DataSource);
    for (let i = 0; i < 100; i++) {
      const [row] = await ds.query(`SELECT 1 FROM interrupts WHERE opened_by_key_id = $1`, [
        key.id,
      ]);
      if (row) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const stoppedAt = Date.now();
    t.app.get(McpService).stopWaiting();
    const result = await waiting;
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    expect(result.structuredContent).toMatchObject({ status: 'pending' });
    expect((result.structuredContent as { next: string }).next).toContain('restarting');
  });
});
