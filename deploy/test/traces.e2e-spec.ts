import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  createDatabase,
  eventually,
  serviceMain,
  startProcess,
  type Started,
} from './support/processes';

/** A span as OTLP/HTTP's JSON encoding carries it (ids in hex). */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number };
  service: string;
}

const SERVER = 2;
const CLIENT = 3;

/**
 * Traces as a collector receives them (SPEC §8g): the built service with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver in this test, which decodes
 * every export request; the assertions are on the spans' names, kinds, attributes and parentage.
 */
describe('traces, received over OTLP/HTTP', () => {
  let database: { url: string; drop(): Promise<void> };
  let service: Started;
  let collector: Server;
  let hooks: Server;
  const spans: ReceivedSpan[] = [];
  const exports: string[] = [];
  const hookHeaders: IncomingMessage['headers'][] = [];
  let api = '';
  const mailDir = mkdtempSync(join(tmpdir(), 'interlock-traces-mail-'));

  beforeAll(async () => {
    database = await createDatabase();
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        exports.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const message = JSON.parse(body.toString('utf8')) as {
          resourceSpans: {
            resource: { attributes: OtlpAttribute[] };
            scopeSpans: {
              spans: (Omit<ReceivedSpan, 'attributes' | 'service'> & {
                attributes?: OtlpAttribute[];
              })[];
            }[];
          }[];
        };
        for (const resource of message.resourceSpans) {
          const service = String(attributesOf(resource.resource.attributes)['service.name']);
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              spans.push({ ...span, attributes: attributesOf(span.attributes ?? []), service });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => collector.listen(0, '127.0.0.1', done));
    hooks = createServer((req, res) => {
      hookHeaders.push(req.headers);
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((done) => hooks.listen(0, '127.0.0.1', done));
    const started = await startProcess(
      process.execPath,
      [serviceMain()],
      {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        WEBHOOK_POLL_INTERVAL: '200ms',
        MAIL_DIR: mailDir,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        OTEL_SERVICE_NAME: 'interlock-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      /"port":(\d+)[^\n]*listening/,
    );
    service = started;
    api = `http://127.0.0.1:${started.match[1]}`;
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await new Promise((done) => collector?.close(done));
    await new Promise((done) => hooks?.close(done));
    await database?.drop();
    rmSync(mailDir, { recursive: true, force: true });
  }, 60_000);

  const inTrace = (traceId: string) => spans.filter((s) => s.traceId === traceId);
  /** Whether `span` descends from `ancestor` within its trace. */
  const descends = (span: ReceivedSpan, ancestor: ReceivedSpan): boolean => {
    const byId = new Map(inTrace(span.traceId).map((s) => [s.spanId, s]));
    for (let at = span.parentSpanId; at; at = byId.get(at)?.parentSpanId)
      if (at === ancestor.spanId) return true;
    return false;
  };

  let member: Record<string, string> = {};
  let key = '';

  it('names each request span by its route template, continues the caller’s traceparent, and nests its SQL statements under it', async () => {
    const signUp = await fetch(`${api}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `traces-${Date.now()}@example.test`,
        password: 'correct horse battery staple',
        name: 'Tracy',
        organisationName: 'Traces',
      }),
    });
    expect(signUp.status).toBe(201);
    const cookie = (
      signUp.headers.getSetCookie().find((c) => c.startsWith('session=')) as string
    ).split(';')[0];
    const organisationId = ((await signUp.json()) as { organisation: { id: string } }).organisation
      .id;
    member = { cookie, 'x-organisation-id': organisationId, 'content-type': 'application/json' };
    const keyRes = await fetch(`${api}/api/api-keys`, {
      method: 'POST',
      headers: member,
      body: JSON.stringify({ name: 'traces', expiry: 'never' }),
    });
    key = ((await keyRes.json()) as { key: string }).key;
    const opened = await fetch(`${api}/api/interrupts`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Traced', actionRequests: [{ name: 'deploy' }] }),
    });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    // A request with a body (read by the front door's JSON step, then dispatched): its insert is its child.
    const create = await eventually('the create span', async () =>
      spans.find((s) => s.kind === SERVER && s.name === 'POST /api/interrupts'),
    );
    const insert = await eventually('the insert under it', async () =>
      inTrace(create.traceId).find((s) =>
        /^insert into "?interrupts"?/i.test(
          String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '').trim(),
        ),
      ),
    );
    expect(descends(insert, create)).toBe(true);

    // The caller's trace: its id and its span become the request span's trace and parent.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const read = await fetch(`${api}/api/interrupts/${id}`, {
      headers: { 'x-api-key': key, traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(read.status).toBe(200);

    const server = await eventually('the request span', async () =>
      inTrace(traceId).find((s) => s.kind === SERVER),
    );
    expect(server.name).toBe('GET /api/interrupts/:id');
    expect(server.parentSpanId).toBe(callerSpan);
    expect(server.service).toBe('interlock-under-test');
    expect(server.attributes['http.route']).toBe('/api/interrupts/:id');
    // The path is the raw one in attributes, never in the name; no raw id in the name.
    expect(server.name).not.toContain(id);
    const statements = await eventually('the SQL spans of the request', async () => {
      const found = inTrace(traceId).filter(
        (s) =>
          s.attributes['db.system'] === 'postgresql' ||
          s.attributes['db.system.name'] === 'postgresql',
      );
      return found.some((s) =>
        /select/i.test(String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '')),
      )
        ? found
        : undefined;
    });
    for (const statement of statements)
      expect({ name: statement.name, underRequest: descends(statement, server) }).toEqual({
        name: statement.name,
        underRequest: true,
      });
    // Exported as OTLP/HTTP JSON to the standard path.
    expect(exports[0]).toBe('POST /v1/traces application/json');
  });

  it('starts a trace of its own for a request without traceparent; unmatched paths and guard refusals get spans too', async () => {
    const before = new Set(spans.map((s) => s.traceId));
    expect((await fetch(`${api}/api/interrupts/0d8e8f4e-1b1c-4a0e-9a8e-3f2d1c0b9a87`)).status).toBe(
      401,
    );
    expect((await fetch(`${api}/no/such/path`)).status).toBe(404);
    const refused = await eventually('the refused request span', async () =>
      spans.find(
        (s) =>
          s.kind === SERVER &&
          s.name === 'GET /api/interrupts/:id' &&
          s.attributes['http.response.status_code'] === 401 &&
          !before.has(s.traceId),
      ),
    );
    expect(refused.parentSpanId ?? '').toBe('');
    const unmatched = await eventually('the 404 span', async () =>
      spans.find(
        (s) =>
          s.kind === SERVER &&
          s.attributes['http.response.status_code'] === 404 &&
          s.attributes['url.path'] === '/no/such/path',
      ),
    );
    expect(unmatched.name).toBe('GET');
  });

  it('keeps secrets out of span attributes: invitation tokens and credentials in the query are redacted', async () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde'; // 43 base64url characters
    await fetch(`${api}/api/invitations/${token}/preview?api_token=s3cret-value`);
    const span = await eventually('the invitation request span', async () =>
      spans.find((s) => s.kind === SERVER && s.name.includes('/api/invitations/')),
    );
    const text = JSON.stringify(span);
    expect(text).not.toContain(token);
    expect(text).not.toContain('s3cret-value');
    expect(span.name).toMatch(/^GET \/api\/invitations\/:\w+\/preview$/);
  });

  it('traces webhook deliveries in the trace of the request that wrote the event and sends traceparent with them; every log line of a trace carries its trace id', async () => {
    const { port } = hooks.address() as AddressInfo;
    const hook = await fetch(`${api}/api/webhooks`, {
      method: 'POST',
      headers: member,
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook?token=receiver-secret` }),
    });
    expect(hook.status).toBe(201);
    // The agent's trace: the interrupt it opens is delivered within it.
    const agentTrace = '0af7651916cd43dd8448eb211c80319c';
    const opened = await fetch(`${api}/api/interrupts`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        traceparent: `00-${agentTrace}-b7ad6b7169203331-01`,
      },
      body: JSON.stringify({ title: 'Hooked', actionRequests: [{ name: 'deploy' }] }),
    });
    expect(opened.status).toBe(201);
    const headers = await eventually('the delivery', async () =>
      hookHeaders.find((h) => h['webhook-id'] !== undefined || h.traceparent !== undefined),
    );
    const traceparent = String(headers.traceparent);
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const [, traceId, parentId] = traceparent.split('-');
    expect(traceId).toBe(agentTrace);
    const client = await eventually('the delivery’s client span', async () =>
      spans.find((s) => s.spanId === parentId),
    );
    expect(client.kind).toBe(CLIENT);
    expect(client.traceId).toBe(traceId);
    expect(JSON.stringify(client)).not.toContain('receiver-secret');
    const delivery = await eventually('the delivery span', async () =>
      inTrace(traceId).find((s) => s.name === 'webhook delivery'),
    );
    expect(descends(client, delivery)).toBe(true);
    // The delivery continues the request that wrote the event (after its commit, in the background).
    const create = await eventually('the create request span', async () =>
      inTrace(agentTrace).find((s) => s.kind === SERVER && s.name === 'POST /api/interrupts'),
    );
    expect(delivery.parentSpanId).toBe(create.spanId);
    expect(delivery.attributes['interlock.outcome']).toBe('succeeded');
    expect(delivery.attributes['interlock.webhook.event_type']).toBe('interrupt.created');
    // Its statements (recording the attempt) are its children too.
    await eventually('the delivery’s statements', async () =>
      inTrace(traceId).some((s) => s.name.startsWith('pg.query') && descends(s, delivery))
        ? true
        : undefined,
    );

    // The attempt's log line, and each request's, name the trace they were written in.
    const lines = service
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const attemptLine = lines.find((l) => l.msg === 'webhook delivery attempt');
    expect(attemptLine?.traceId).toBe(traceId);
    const requestLines = lines.filter(
      (l) =>
        l.requestId !== undefined &&
        (l.res as { statusCode?: number } | undefined)?.statusCode !== undefined,
    );
    expect(requestLines.length).toBeGreaterThan(3);
    for (const line of requestLines)
      expect(
        typeof line.traceId === 'string' &&
          spans.some((s) => s.traceId === line.traceId && s.kind === SERVER),
      ).toBe(true);
  });

  it('traces periodic job runs and notification deliveries as root spans with their statements', async () => {
    const job = await eventually('a periodic job run span', async () =>
      spans.find((s) => s.name === 'job interrupt-expiry'),
    );
    expect(job.parentSpanId ?? '').toBe('');
    await eventually('the job run’s statements', async () =>
      inTrace(job.traceId).some((s) => s.name.startsWith('pg.query') && descends(s, job))
        ? true
        : undefined,
    );
    // The owner was told about the opened interrupts (email off: written to MAIL_DIR).
    const notification = await eventually('a notification delivery span', async () =>
      spans.find((s) => s.name === 'notification delivery'),
    );
    expect(notification.attributes['interlock.outcome']).toBe('logged');
  });
});

type OtlpAttribute = { key: string; value: Record<string, unknown> };

function attributesOf(list: OtlpAttribute[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list) {
    const v =
      value.stringValue ??
      value.intValue ??
      value.doubleValue ??
      value.boolValue ??
      value.arrayValue;
    out[key] = typeof v === 'string' && 'intValue' in value ? Number(v) : v;
  }
  return out;
}
