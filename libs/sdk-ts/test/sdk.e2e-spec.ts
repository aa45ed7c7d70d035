// The TypeScript SDK against a live service on real Postgres (tools/scripts/with-service.mjs):
// what it sends and parses is checked against the service itself, never against a mock.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import {
  ActionDigestMismatchError,
  actionDigest,
  APIError,
  AuthenticationError,
  BadRequestError,
  Interlock,
  InterlockError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  PlanRequiredError,
  toLangGraphResume,
  WaitTimeoutError,
  type AuditEntry,
} from '../src';
import { createKey, decide, inBatches, live, raw, revokeKey, runTag } from './support/live-service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function failure(call: Promise<unknown>): Promise<APIError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}

describe('interrupts', () => {
  it('creates, gets and lists them, page by page and across pages', async () => {
    const externalId = runTag('run-');
    const created = await client.interrupts.create({
      title: 'Deploy api 1.4.2?',
      actionRequests: [
        {
          name: 'deploy',
          args: { service: 'api', version: '1.4.2' },
          allowedDecisions: ['approve', 'reject'],
        },
      ],
      externalId,
      metadata: { ticket: 7 },
    });
    expect(created.id).toMatch(UUID);
    expect(created).toMatchObject({
      title: 'Deploy api 1.4.2?',
      status: 'open',
      externalId,
      sessionId: null,
      metadata: { ticket: 7 },
      decisions: [],
      assignee: null,
      answeredAt: null,
      actionRequests: [
        {
          name: 'deploy',
          args: { service: 'api', version: '1.4.2' },
          description: null,
          allowedDecisions: ['approve', 'reject'],
        },
      ],
    });
    expect(await client.interrupts.get(created.id)).toEqual(created);

    const second = await client.interrupts.create({
      title: 'And the worker?',
      actionRequests: [{ name: 'deploy' }],
      externalId,
    });
    expect(second.actionRequests[0]).toEqual({
      actionDigest: await actionDigest(second.id, 'deploy', {}),
      name: 'deploy',
      args: {},
      description: null,
      allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
      responseSchema: null,
      requiredApprovals: 1,
      approverTeam: null,
      approvals: [],
    });

    const first = await client.interrupts.list({ externalId, limit: 1 });
    expect(first.data.map((i) => i.id)).toEqual([second.id]);
    expect(first.hasNextPage()).toBe(true);
    const all = await collect(client.interrupts.list({ externalId, limit: 1 }));
    expect(all.map((i) => i.id)).toEqual([second.id, created.id]);
    expect((await collect(client.interrupts.list({ externalId, status: 'answered' }))).length).toBe(
      0,
    );
  });

  it('routes an interrupt as it opens: priority, assignee by email or team name, labels', async () => {
    const email = process.env.INTERLOCK_TEST_MEMBER_EMAIL as string;
    const created = await client.interrupts.create({
      title: 'Refund order 881?',
      actionRequests: [{ name: 'refund' }],
      priority: 'urgent',
      assignTo: { email: email.toUpperCase() },
      labels: ['billing', 'eu', 'billing'],
    });
    expect(created).toMatchObject({
      priority: 'urgent',
      assignee: { type: 'member', id: process.env.INTERLOCK_TEST_MEMBER_ID },
      labels: ['billing', 'eu'],
      classifierLabels: [],
    });
    const toTeam = await client.interrupts.create({
      title: 'Refund order 882?',
      actionRequests: [{ name: 'refund' }],
      assignTo: { teamName: 'Reviewers' },
    });
    expect(toTeam).toMatchObject({
      priority: 'normal',
      assignee: { type: 'team', name: 'Reviewers' },
      labels: [],
    });
    const listed = await client.interrupts.list({
      priority: 'high,urgent',
      label: 'billing',
      limit: 100,
    });
    expect(listed.data.map((i) => i.id)).toContain(created.id);
    expect(listed.data.map((i) => i.id)).not.toContain(toTeam.id);
    const error = await failure(
      client.interrupts.create({
        title: 'Refund order 883?',
        actionRequests: [{ name: 'refund' }],
        assignTo: { teamName: 'No such team here' },
      }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe('assignTo: no such team in this organisation');
  });

  it("lists by every filter keys may use, openedBy: 'me' giving exactly this key's", async () => {
    const externalId = runTag('filters-');
    const other = await createKey(runTag('sdk-other-'));
    try {
      const otherClient = new Interlock({ apiKey: other.key, baseURL: live.baseURL });
      const opened: { id: string; by: 'main' | 'other'; title: string }[] = [];
      for (const [by, title] of [
        ['main', 'Deploy api'],
        ['other', 'Deploy worker'],
        ['main', 'Refund order 12'],
        ['other', 'Déployer la prod'],
      ] as const) {
        const c = by === 'main' ? client : otherClient;
        opened.push({
          id: (await c.interrupts.create({ title, actionRequests: [{ name: 'a' }], externalId }))
            .id,
          by,
          title,
        });
      }
      await decide(opened[2].id, 'a');
      const ids = async (items: AsyncIterable<{ id: string }>) =>
        (await collect(items)).map((i) => i.id);
      const newest = [...opened].reverse();

      expect(
        await ids(otherClient.interrupts.list({ externalId, openedBy: 'me', limit: 1 })),
      ).toEqual(newest.filter((o) => o.by === 'other').map((o) => o.id));
      expect(
        await ids(client.interrupts.list({ externalId, openedBy: 'me', status: 'open' })),
      ).toEqual([opened[0].id]);
      expect(await ids(client.interrupts.list({ externalId, order: 'oldest', limit: 3 }))).toEqual(
        opened.map((o) => o.id),
      );
      // Title words as prefixes, accents and case ignored.
      expect(await ids(client.interrupts.list({ externalId, q: 'DEPLO' }))).toEqual(
        newest.filter((o) => /^d[eé]plo/i.test(o.title)).map((o) => o.id),
      );
      expect(
        await ids(
          client.interrupts.list({
            externalId,
            assignee: 'unassigned',
            escalated: false,
            status: 'answered',
          }),
        ),
      ).toEqual([opened[2].id]);
      // from takes a Date; the whole listing is after the first create.
      const first = await client.interrupts.get(opened[0].id);
      expect(
        await ids(
          client.interrupts.list({
            externalId,
            from: new Date(first.createdAt),
            to: new Date(Date.now() + 60_000),
          }),
        ),
      ).toEqual(newest.map((o) => o.id));
      // The same filters by hand: the SDK sends exactly them.
      const rawPage = await raw('GET', `/api/interrupts?externalId=${externalId}&openedBy=me`, {
        headers: { 'x-api-key': other.key },
      });
      expect(
        (rawPage.body as { interrupts: { id: string }[] }).interrupts.map((i) => i.id),
      ).toEqual(newest.filter((o) => o.by === 'other').map((o) => o.id));
      // me and my_teams name a signed-in member: nothing is assigned to a key.
      const mine = await client.interrupts.list({ assignee: 'me' }).firstPage();
      expect(mine.data).toEqual([]);
      expect(mine.nextCursor).toBeNull();
    } finally {
      await revokeKey(other.id);
    }
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const params = {
      title: 'Refund order 1234?',
      actionRequests: [{ name: 'refund', args: { order: 1234 } }],
    };
    const idempotencyKey = runTag('refund-1234-');
    const once = await client.interrupts.create(params, { idempotencyKey });
    const again = await client.interrupts.create(params, { idempotencyKey });
    expect(again.id).toBe(once.id);
  });

  it('waitForAnswer resolves when a member decides every action', async () => {
    const created = await client.interrupts.create({
      title: 'Ship release 7?',
      actionRequests: [{ name: 'deploy' }, { name: 'notify', args: { channel: '#releases' } }],
    });
    const deciding = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await decide(created.id, 'deploy');
      await decide(created.id, 'notify');
    })();
    const started = Date.now();
    const answered = await client.interrupts.waitForAnswer(created.id, {
      pollInterval: 100,
      timeout: 30_000,
    });
    await deciding;
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(answered.status).toBe('answered');
    expect(answered.answeredAt).not.toBeNull();
    expect(answered.decisions.map((d) => [d.actionName, d.decision])).toEqual([
      ['deploy', 'approve'],
      ['notify', 'approve'],
    ]);
    expect(answered.decisions[0].decidedBy.name).toBe('SDK pro owner');
    // An interrupt opened without the bridge resumes as one HITL request over its actions,
    // checked against the actions asked about (the service's digests).
    const asked = {
      action_requests: [{ name: 'deploy' }, { name: 'notify', args: { channel: '#releases' } }],
    };
    expect(await toLangGraphResume(answered, asked)).toEqual({
      decisions: [{ type: 'approve' }, { type: 'approve' }],
    });
  });
});

describe('decisions bound to the action (SPEC §8e) through an intermediary', () => {
  /** A client whose answers to reads of one interrupt pass through `change` (a proxy between agent and service). */
  const through = (change: (body: Record<string, unknown>) => Promise<unknown>) =>
    new Interlock({
      apiKey: live.apiKey,
      baseURL: live.baseURL,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if ((init.method ?? 'GET') !== 'GET' || !/\/api\/interrupts\/[^/?]+(\?|$)/.test(url))
          return response;
        const body = (await response.json()) as Record<string, unknown>;
        return new Response(JSON.stringify(await change(body)), {
          status: response.status,
          headers: response.headers,
        });
      },
    });
  type Digested = { actionDigest?: string; editedActionDigest?: string | null };
  const stripped = async (body: Record<string, unknown>) => ({
    ...body,
    actionRequests: (body.actionRequests as Digested[]).map(({ actionDigest: _, ...a }) => a),
    decisions: (body.decisions as Digested[]).map(
      ({ actionDigest: _, editedActionDigest: __, ...d }) => d,
    ),
  });
  const action = { name: 'refund', args: { order: '1234', amount: 40 } };
  const opened = async (agent: Interlock) => {
    const created = await agent.interrupts.create({
      title: 'Refund order 1234?',
      actionRequests: [action],
      externalId: runTag('digest-'),
    });
    expect(created.actionRequests[0].actionDigest).toBe(
      await actionDigest(created.id, 'refund', action.args),
    );
    await decide(created.id, 'refund', 'approve');
    return created;
  };
  const wait = { pollInterval: 100, timeout: 30_000 };

  it('waitForAnswer(id) on an interrupt this client opened refuses an answer stripped of its digests', async () => {
    const agent = through(stripped);
    const created = await opened(agent);
    const refused = agent.interrupts.waitForAnswer(created.id, wait);
    await expect(refused).rejects.toBeInstanceOf(ActionDigestMismatchError);
    await expect(refused).rejects.toMatchObject({ actionName: 'refund', received: undefined });
    // The same answer, unchanged, is returned.
    expect(
      (await client.interrupts.waitForAnswer(created.id, { ...wait, actionRequests: [action] }))
        .status,
    ).toBe('answered');
  });

  it('refuses an answer about other arguments with no extra argument, and returns its own', async () => {
    // The intermediary makes the record say the refund is 4000 — digests recomputed to match.
    const agent = through(async (body) => {
      const id = body.id as string;
      const args = { order: '1234', amount: 4000 };
      const digest = await actionDigest(id, 'refund', args);
      return {
        ...body,
        actionRequests: (body.actionRequests as object[]).map((a) => ({
          ...a,
          args,
          actionDigest: digest,
        })),
        decisions: (body.decisions as object[]).map((d) => ({ ...d, actionDigest: digest })),
      };
    });
    const created = await opened(agent);
    await expect(agent.interrupts.waitForAnswer(created.id, wait)).rejects.toMatchObject({
      name: 'ActionDigestMismatchError',
      expected: await actionDigest(created.id, 'refund', action.args),
    });
    const own = through(async (body) => body);
    const mine = await opened(own);
    expect(
      (await own.interrupts.waitForAnswer(mine.id, wait)).decisions.map((d) => d.decision),
    ).toEqual(['approve']);
  });
});

describe('connections', () => {
  it('one client keeps one connection from the create to its wait and from a full hold to the next ask', async () => {
    // A TCP relay in front of the service: every connection the client opens passes through it.
    let connections = 0;
    const sockets: Socket[] = [];
    const service = new URL(live.baseURL);
    const relay = createServer((socket) => {
      connections++;
      sockets.push(socket);
      const upstream = connect(Number(service.port), service.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => socket.destroy());
      upstream.on('error', () => upstream.destroy());
      socket.on('close', () => upstream.destroy());
      upstream.on('close', () => socket.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const relayed = new Interlock({
        apiKey: live.apiKey,
        baseURL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
      });
      const created = await relayed.interrupts.create({
        title: 'Held, then asked again',
        actionRequests: [{ name: 'deploy' }],
      });
      // A 2 s hold the service runs in full (still open), then asks without waiting until the time is up.
      const error = await relayed.interrupts
        .waitForAnswer(created.id, { timeout: 2_500, pollInterval: 100 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WaitTimeoutError);
      expect(connections).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});

describe('sessions', () => {
  it('starts, appends to and ends a session', async () => {
    const externalId = runTag('build-');
    const session = await client.sessions.start({
      name: 'nightly-build',
      externalId,
      metadata: { branch: 'main' },
    });
    expect(session.id).toMatch(UUID);
    expect(session).toMatchObject({
      name: 'nightly-build',
      externalId,
      status: 'active',
      messageCount: 0,
      endedAt: null,
      metadata: { branch: 'main' },
    });
    const appended = await client.sessions.append(session.id, [
      { role: 'agent', content: 'Building…' },
      { role: 'tool', content: 'exit 0' },
    ]);
    expect(appended).toEqual({ appended: 2 });
    const ended = await client.sessions.end(session.id);
    expect(ended).toMatchObject({ id: session.id, status: 'ended', messageCount: 2 });
    expect(ended.endedAt).not.toBeNull();
  });

  it('lists them newest first, page by page and by status, and retrieves one', async () => {
    const externalId = runTag('list-');
    const started = [];
    for (const name of ['first', 'second', 'third'])
      started.push(await client.sessions.start({ name, externalId }));
    const ended = await client.sessions.end(started[1].id);

    const all = await collect(client.sessions.list({ externalId, limit: 1 }));
    expect(all.map((s) => s.name)).toEqual(['third', 'second', 'first']);
    expect(all[1]).toEqual(ended);
    expect(
      (await collect(client.sessions.list({ externalId, status: 'ended' }))).map((s) => s.id),
    ).toEqual([ended.id]);
    expect(
      (await collect(client.sessions.list({ externalId, status: 'active' }))).map((s) => s.name),
    ).toEqual(['third', 'first']);
    const page = await client.sessions.list({ externalId, limit: 2 });
    expect([page.data.length, page.hasNextPage()]).toEqual([2, true]);

    const one = await client.sessions.retrieve(ended.id);
    expect(one).toEqual(ended);
    expect(one._request_id).toMatch(UUID);
    expect(
      await raw('GET', `/api/sessions/${ended.id}`, { headers: { 'x-api-key': live.apiKey } }).then(
        (r) => r.body,
      ),
    ).toEqual(one);
    const missing = await failure(client.sessions.retrieve('00000000-0000-4000-8000-000000000000'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe('Not found.');
  });
});

describe('audit log', () => {
  it('walks 500 entries with auto-pagination exactly as a raw cursor walk does', async () => {
    const tag = runTag('walk');
    await inBatches([...Array(500).keys()], 10, (n) =>
      client.interrupts.create({ title: `${tag} ${n}`, actionRequests: [{ name: 'noop' }] }),
    );

    const viaSdk: AuditEntry[] = await collect(client.auditLog.list({ q: tag, limit: 50 }));

    const viaRaw: AuditEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = new URLSearchParams({
        q: tag,
        limit: '50',
        ...(cursor === null ? {} : { cursor }),
      });
      const page = await raw('GET', `/api/audit-log?${query}`, {
        headers: { 'x-api-key': live.apiKey },
      });
      expect(page.status).toBe(200);
      const body = page.body as { entries: AuditEntry[]; nextCursor: string | null };
      viaRaw.push(...body.entries);
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null);

    expect(pages).toBe(10);
    expect(viaSdk).toHaveLength(500);
    expect(viaSdk).toEqual(viaRaw);
    expect(new Set(viaSdk.map((e) => e.id)).size).toBe(500);
    expect(
      viaSdk.every((e) => e.action === 'interrupt.created' && e.targetName?.startsWith(tag)),
    ).toBe(true);
    // Newest first: the last interrupt created is the first entry.
    const sorted = [...viaSdk].sort((a, b) =>
      a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0,
    );
    expect(viaSdk.map((e) => e.createdAt)).toEqual(sorted.map((e) => e.createdAt));
  });
});

describe('typed errors carry the service’s exact message, code and request id', () => {
  /** The service's own error body for the same request, without the SDK. */
  async function rawError(
    path: string,
    apiKey?: string,
    init: { method?: string; body?: unknown } = {},
  ) {
    const response = await raw(init.method ?? 'GET', path, {
      headers: apiKey === undefined ? {} : { 'x-api-key': apiKey },
      body: init.body,
    });
    return response.body as {
      statusCode: number;
      code: string;
      message: string;
      requestId: string;
    };
  }

  function expectError(error: APIError, status: number, code: string, message: string): void {
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status,
      code,
      message,
    });
    expect(error.requestId).toMatch(UUID);
    expect(error.requestId).toBe(error.headers?.get('x-request-id'));
  }

  it('401 MISSING_API_KEY', async () => {
    // A client never sends an empty key: it refuses to start without one.
    expect(() => new Interlock({ apiKey: '', baseURL: live.baseURL })).toThrow(InterlockError);
    // Removing the header for one call is the only way to send none.
    const error = await failure(client.whoami({ headers: { 'x-api-key': null } }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expectError(error, 401, 'MISSING_API_KEY', 'Missing x-api-key header.');
    expect((await rawError('/api/whoami')).message).toBe(error.message);
  });

  it('401 INVALID_API_KEY', async () => {
    const bogus = `ilk_${'Q'.repeat(64)}`;
    const error = await failure(new Interlock({ apiKey: bogus, baseURL: live.baseURL }).whoami());
    expect(error).toBeInstanceOf(AuthenticationError);
    expectError(error, 401, 'INVALID_API_KEY', 'Invalid API key.');
    expect((await rawError('/api/whoami', bogus)).message).toBe(error.message);
  });

  it('401 API_KEY_EXPIRED', async () => {
    const error = await failure(
      new Interlock({ apiKey: live.expiredApiKey, baseURL: live.baseURL }).whoami(),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expectError(error, 401, 'API_KEY_EXPIRED', 'API Key has expired');
  });

  it('402 PLAN_REQUIRED on a Free organisation’s audit log', async () => {
    const free = new Interlock({ apiKey: live.freeApiKey, baseURL: live.baseURL });
    expect((await free.whoami()).plan).toBe('free');
    const error = await failure(free.auditLog.list().firstPage());
    expect(error).toBeInstanceOf(PlanRequiredError);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expectError(error, 402, 'PLAN_REQUIRED', 'The audit log API requires the Pro plan.');
    // for await surfaces the same error.
    await expect(collect(free.auditLog.list())).rejects.toBeInstanceOf(PlanRequiredError);
  });

  it('403 HUMANS_ONLY on a human route', async () => {
    const error = await failure(
      client.post('/api/api-keys', { body: { name: 'from-a-key', expiry: 'never' } }),
    );
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expectError(error, 403, 'HUMANS_ONLY', 'This endpoint is reserved for humans.');
  });

  it('400 VALIDATION_FAILED names the parameter', async () => {
    const error = await failure(client.interrupts.list({ limit: 500 }).firstPage());
    expect(error).toBeInstanceOf(BadRequestError);
    const served = await rawError('/api/interrupts?limit=500', live.apiKey);
    expectError(error, 400, 'VALIDATION_FAILED', served.message);
    expect(error.message).toMatch(/limit/);

    const unknownField = await failure(
      client.interrupts.create({
        title: 't',
        actionRequests: [{ name: 'a' }],
        colour: 'red',
      } as never),
    );
    expect(unknownField).toBeInstanceOf(BadRequestError);
    expect(unknownField.code).toBe('VALIDATION_FAILED');
    expect(unknownField.message).toMatch(/colour/);
  });

  it('404 NOT_FOUND for an unknown interrupt', async () => {
    const error = await failure(client.interrupts.get('00000000-0000-4000-8000-000000000000'));
    expect(error).toBeInstanceOf(NotFoundError);
    expectError(error, 404, 'NOT_FOUND', 'Not found.');
  });
});
