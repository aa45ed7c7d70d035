import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eventually } from '../src/testing/eventually';
import { createApiKey, openInterrupt, setPlan, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** tools/bench: the floor's script and the requests it is held to. */
const BENCH = join(__dirname, '..', '..', '..', 'tools', 'bench');

/**
 * The floor of issue 28 (tools/bench/perf-baseline/fastify/duties.mjs, the benches' baseline kind
 * `fastify-duties`): bare Fastify doing the contract's per-request duties on the routes the pair
 * goals measure. Its figures say which part of a gap to bare Fastify is the contract's only while
 * it answers as the service does — the same status, body and headers, and the same request line —
 * so this holds it to the service itself, on the service's database, on the requests the benches
 * check it on before measuring (tools/bench/floor-cases.json, bench-support's checkFloor).
 */
const FLOOR = join(BENCH, 'perf-baseline', 'fastify', 'duties.mjs');
const BUDGET = '1000';

/** A request of tools/bench/floor-cases.json (its `about` says what the fields mean). */
interface FloorCase {
  name: string;
  path: string;
  status: number;
  key?: 'valid' | 'checksum-failing';
  cursorOf?: string;
  alter?: boolean;
}
// Read, not imported: the benches' folder is another Nx project, which depends on this one.
const FLOOR_CASES = (
  JSON.parse(readFileSync(join(BENCH, 'floor-cases.json'), 'utf8')) as { cases: FloorCase[] }
).cases;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

describe('the bench floor (fastify-duties) answers as the service does', () => {
  let t: TestApp;
  let service: string;
  let floor: ChildProcess;
  let floorBase: string;
  const floorLines: Record<string, unknown>[] = [];
  let key: string;
  let interruptId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_API_KEY_REQUESTS: BUDGET } });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    service = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const owner = await signUpOwner(server);
    await setPlan(server, owner.cookie, 'pro');
    key = (await createApiKey(server, owner.cookie, { name: 'floor' })).key;
    interruptId = (await openInterrupt(server, key, { actions: ['deploy', 'notify'] })).id;
    // Pages of 2 with a next page: three interrupts, and more than three audit entries.
    for (let i = 0; i < 2; i++) await openInterrupt(server, key, { actions: ['deploy'] });

    floor = spawn(process.execPath, [FLOOR], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: t.database.url,
        API_KEY_PEPPER: t.config.apiKeyPepper,
        RATE_LIMIT_API_KEY_REQUESTS: BUDGET,
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let held = '';
    floor.stdout?.on('data', (chunk: Buffer) => {
      held += chunk.toString('utf8');
      const lines = held.split('\n');
      held = lines.pop() ?? '';
      for (const line of lines) floorLines.push(JSON.parse(line) as Record<string, unknown>);
    });
    floorBase = await new Promise<string>((resolve, reject) => {
      let said = '';
      floor.stderr?.on('data', (chunk: Buffer) => {
        said += chunk.toString('utf8');
        const port = /listening on (\d+)/.exec(said)?.[1];
        if (port !== undefined) resolve(`http://127.0.0.1:${port}`);
      });
      floor.on('exit', (code) => reject(new Error(`the floor exited (${code}): ${said}`)));
    });
  });

  afterAll(async () => {
    if (floor !== undefined && floor.exitCode === null) {
      const exited = new Promise((resolve) => floor.on('exit', resolve));
      floor.kill('SIGTERM');
      await exited;
    }
    await t?.close();
  });

  /**
   * An answer with the headers that may differ by their form only: the budget's two counts; and
   * without `keep-alive`, which the production server's drain sets (the benches compare it, against
   * the built service) and this test's app, made without the drain, leaves to Fastify's default.
   */
  async function answerOf(base: string, path: string, headers: Record<string, string>) {
    const res = await fetch(base + path, { headers });
    const kept: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (name === 'date' || name === 'keep-alive') return;
      kept[name] = /^ratelimit-(remaining|reset)$/.test(name) ? value.replace(/^\d+$/, 'n') : value;
    });
    return { status: res.status, headers: kept, body: await res.text() } satisfies Answer;
  }

  /** A case's request: the key it names, and the cursor the service issued in its path. */
  async function requestOf(floorCase: FloorCase) {
    const headers: Record<string, string> = {};
    if (floorCase.key === 'valid') headers['x-api-key'] = key;
    // One body letter changed: the Luhn letter no longer fits (bench-support's checksumFailing).
    if (floorCase.key === 'checksum-failing')
      headers['x-api-key'] = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    let path = floorCase.path.replace('{interruptId}', interruptId);
    if (floorCase.cursorOf !== undefined) {
      const first = (await (await fetch(service + floorCase.cursorOf, { headers })).json()) as {
        nextCursor: string;
      };
      expect(typeof first.nextCursor).toBe('string');
      const cursor =
        floorCase.alter === true
          ? first.nextCursor.slice(0, -1) + (first.nextCursor.endsWith('A') ? 'B' : 'A')
          : first.nextCursor;
      path = path.replace('{cursor}', encodeURIComponent(cursor));
    }
    return { path, headers };
  }

  it.each(FLOOR_CASES.map((floorCase) => [floorCase.name, floorCase] as const))(
    '%s: the same status, body and headers',
    async (_name, floorCase) => {
      const { path, headers } = await requestOf(floorCase);
      const sent = { ...headers, 'x-request-id': 'floor-spec-1' };
      const ours = await answerOf(service, path, sent);
      expect(ours.status).toBe(floorCase.status);
      expect(await answerOf(floorBase, path, sent)).toEqual(ours);
    },
  );

  it('writes the request line the service writes: its fields in order, the key censored, secrets in the URL replaced', async () => {
    const secret = `${key.slice(0, 10)}`;
    const cases = [
      ['/api/whoami', { 'x-api-key': key, 'x-request-id': 'floor-line-1' }],
      [
        `/api/nothing?token=abc&q=${key}`,
        { referer: `http://x/invitations/${'t'.repeat(43)}`, 'x-request-id': 'floor-line-2' },
      ],
    ] as const;
    for (const [path, headers] of cases) {
      await fetch(service + path, { headers });
      await fetch(floorBase + path, { headers });
      const id = headers['x-request-id'];
      const byId = (line: Record<string, unknown>) => line.requestId === id;
      await eventually(() => t.logs.some(byId) && floorLines.some(byId));
      const ours = comparable(t.logs.find(byId) as Record<string, unknown>);
      const floors = comparable(floorLines.find(byId) as Record<string, unknown>);
      expect(floors).toEqual(ours);
      expect(JSON.stringify(floors)).not.toContain(secret);
    }
  });
});

/**
 * A request line with what differs between two processes left out: the time and duration, the
 * host's port, the budget's counts, and the `keep-alive` response header (Node's own on the
 * floor, set by the service), and with its field names in order.
 */
function comparable(line: Record<string, unknown>) {
  const req = line.req as { headers: Record<string, unknown> };
  const res = line.res as { headers: Record<string, unknown> };
  const { host: _host, ...requestHeaders } = req.headers;
  const responseHeaders: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (name === 'keep-alive') continue;
    responseHeaders[name] = /^ratelimit-(remaining|reset)$/.test(name) ? 'n' : value;
  }
  return {
    fields: Object.keys(line),
    level: line.level,
    service: line.service,
    req: { ...req, headers: requestHeaders },
    requestId: line.requestId,
    route: line.route,
    res: { ...res, headers: responseHeaders },
    msg: line.msg,
  };
}
