import { Interlock } from '../client';
import { APIUserAbortError, NotFoundError, WaitTimeoutError } from '../errors';
import { errorResponse, jsonResponse, mockFetch } from '../testing/mock-fetch';
import { heldInFull } from './interrupts';

const open = {
  id: 'int_1',
  title: 't',
  status: 'open',
  actionRequests: [{ name: 'a' }],
  decisions: [],
};
const answered = {
  ...open,
  status: 'answered',
  decisions: [
    {
      id: 'd1',
      actionName: 'a',
      decision: 'approve',
      editedArgs: null,
      message: null,
      decidedAt: '2025-01-01T00:00:00.000Z',
    },
  ],
};

const client = (fetch: ReturnType<typeof mockFetch>['fetch']) =>
  new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });

describe('interrupts', () => {
  it('lists with every filter of the contract, typed, a Date taken for from and to', async () => {
    const { fetch, calls } = mockFetch(
      jsonResponse(200, { interrupts: [open], nextCursor: 'c2' }),
      jsonResponse(200, { interrupts: [], nextCursor: null }),
    );
    const listed: string[] = [];
    const params = {
      status: 'open',
      externalId: 'run-1',
      openedBy: 'me',
      assignee: 'unassigned',
      escalated: false,
      q: 'deploy prod',
      from: new Date('2026-01-01T00:00:00Z'),
      to: '2026-02-01',
      order: 'oldest',
      limit: 10,
    } as const;
    for await (const interrupt of client(fetch).interrupts.list(params)) listed.push(interrupt.id);
    expect(listed).toEqual(['int_1']);
    const sent = calls.map((c) => Object.fromEntries(c.url.searchParams));
    const query = {
      status: 'open',
      externalId: 'run-1',
      openedBy: 'me',
      assignee: 'unassigned',
      escalated: 'false',
      q: 'deploy prod',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-02-01',
      order: 'oldest',
      limit: '10',
    };
    // The second page repeats every filter, with the cursor.
    expect(sent).toEqual([query, { ...query, cursor: 'c2' }]);
  });

  it('creates with the body as given and reads one back', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(201, open), jsonResponse(200, open));
    const c = client(fetch);
    const created = await c.interrupts.create({
      title: 't',
      actionRequests: [{ name: 'a', args: { x: 1 }, allowedDecisions: ['approve', 'reject'] }],
      externalId: 'run-1',
    });
    expect(created.id).toBe('int_1');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].url.pathname).toBe('/api/interrupts');
    expect(calls[0].body).toEqual({
      title: 't',
      actionRequests: [{ name: 'a', args: { x: 1 }, allowedDecisions: ['approve', 'reject'] }],
      externalId: 'run-1',
    });
    await c.interrupts.get('int_1');
    expect(calls[1].url.pathname).toBe('/api/interrupts/int_1');
  });

  it('waitForAnswer polls until the interrupt is answered', async () => {
    const { fetch, calls } = mockFetch(
      jsonResponse(200, open),
      jsonResponse(200, open),
      jsonResponse(200, answered),
    );
    const result = await client(fetch).interrupts.waitForAnswer('int_1', { pollInterval: 10 });
    expect(result.status).toBe('answered');
    expect(result.decisions[0].decision).toBe('approve');
    expect(calls).toHaveLength(3);
    expect(
      calls.every((c) => c.method === 'GET' && c.url.pathname === '/api/interrupts/int_1'),
    ).toBe(true);
  });

  it('waitForAnswer asks the service to hold each read (waitSeconds, at most 60, within its timeout) and ends on any final status', async () => {
    const expired = { ...open, status: 'expired' };
    const { fetch, calls } = mockFetch(jsonResponse(200, open), jsonResponse(200, expired));
    const result = await client(fetch).interrupts.waitForAnswer('int_1', { pollInterval: 10 });
    expect(result.status).toBe('expired');
    expect(calls.map((c) => c.url.searchParams.get('waitSeconds'))).toEqual(['60', '60']);

    const short = mockFetch(jsonResponse(200, answered));
    await client(short.fetch).interrupts.waitForAnswer('int_1', { timeout: 5_500 });
    expect(short.calls[0].url.searchParams.get('waitSeconds')).toBe('5');
  });

  it('waitForAnswer asks again at once after a hold the service ended early to spread a herd (SPEC §8e: no sooner than half of it), and pauses after one it cut short', async () => {
    // Each read takes `heldMs` on a fake clock; a pause of pollInterval (an hour) would time out.
    let clock = 1_000_000;
    const now = jest.spyOn(Date, 'now').mockImplementation(() => clock);
    try {
      const held = (heldMs: number, body: object) => async () => {
        clock += heldMs;
        return jsonResponse(200, body);
      };
      const reads = [held(30_000, open), held(57_100, open), held(1_000, answered)];
      const fetch = (() => (reads.shift() as () => Promise<Response>)()) as typeof globalThis.fetch;
      const result = await client(fetch).interrupts.waitForAnswer('int_1', {
        pollInterval: 3_600_000,
        timeout: 3_600_000,
      });
      expect(result.status).toBe('answered');
      expect(reads).toHaveLength(0);
    } finally {
      now.mockRestore();
    }
    // Held under 30 s of 60 (less than half): a service restarting — the next read waits its turn.
    expect([heldInFull(60, 30_000), heldInFull(60, 29_999), heldInFull(10, 9_999)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([heldInFull(20, 10_000), heldInFull(20, 9_999), heldInFull(5, 5_000)]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('waitForAnswer polls an older service that refuses waitSeconds, without asking it again', async () => {
    const { fetch, calls } = mockFetch(
      errorResponse(400, 'VALIDATION_FAILED', 'property waitSeconds should not exist'),
      jsonResponse(200, open),
      jsonResponse(200, answered),
      jsonResponse(200, answered),
    );
    const interlock = client(fetch);
    expect((await interlock.interrupts.waitForAnswer('int_1', { pollInterval: 10 })).status).toBe(
      'answered',
    );
    expect(calls.map((c) => c.url.searchParams.get('waitSeconds'))).toEqual(['60', null, null]);
    await interlock.interrupts.waitForAnswer('int_1', { pollInterval: 10 });
    expect(calls[3].url.searchParams.get('waitSeconds')).toBeNull();
  });

  it('waitForAnswer passes other 400s through', async () => {
    const { fetch } = mockFetch(errorResponse(400, 'VALIDATION_FAILED', 'id: must be a UUID'));
    await expect(client(fetch).interrupts.waitForAnswer('int_1')).rejects.toThrow(
      'id: must be a UUID',
    );
  });

  it('waitForAnswer gives up with WaitTimeoutError', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(200, open));
    const error = await client(fetch)
      .interrupts.waitForAnswer('int_1', { timeout: 60, pollInterval: 20 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).interruptId).toBe('int_1');
    expect(calls.length).toBeGreaterThanOrEqual(2);
  });

  it('waitForAnswer passes API errors through and stops on abort', async () => {
    const notFound = mockFetch(errorResponse(404, 'NOT_FOUND', 'Not found.'));
    await expect(client(notFound.fetch).interrupts.waitForAnswer('nope')).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const { fetch } = mockFetch(jsonResponse(200, open));
    const controller = new AbortController();
    const pending = client(fetch).interrupts.waitForAnswer('int_1', {
      pollInterval: 10_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
