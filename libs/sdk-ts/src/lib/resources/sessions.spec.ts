import { Interlock } from '../client';
import { NotFoundError } from '../errors';
import { errorResponse, jsonResponse, mockFetch, type RecordedCall } from '../testing/mock-fetch';
import type { Session } from '../types';

const session = (n: number): Session => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `run ${n}`,
  externalId: null,
  status: n % 2 === 0 ? 'active' : 'ended',
  metadata: null,
  messageCount: n,
  startedAt: new Date(Date.UTC(2026, 0, 1) - n * 1000).toISOString(),
  endedAt: null,
});

const client = (fetch: ReturnType<typeof mockFetch>['fetch']) =>
  new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });

/** `total` sessions served `limit` at a time with opaque cursors, as GET /api/sessions does. */
function sessionsServer(total: number) {
  const all = Array.from({ length: total }, (_, i) => session(i));
  return mockFetch((call: RecordedCall) => {
    const limit = Number(call.url.searchParams.get('limit') ?? '50');
    const cursor = call.url.searchParams.get('cursor');
    const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
    const next =
      start + limit < total ? Buffer.from(String(start + limit)).toString('base64url') : null;
    return jsonResponse(200, { sessions: all.slice(start, start + limit), nextCursor: next });
  });
}

describe('sessions', () => {
  it('list walks every page with for await, repeating the filters', async () => {
    const { fetch, calls } = sessionsServer(7);
    const names: string[] = [];
    for await (const s of client(fetch).sessions.list({
      status: 'ended',
      externalId: 'nightly',
      q: 'Déploi run',
      limit: 3,
    }))
      names.push(s.name);
    expect(names).toEqual(Array.from({ length: 7 }, (_, i) => `run ${i}`));
    expect(
      calls.map((c) => [
        c.method,
        c.url.pathname,
        c.url.searchParams.get('status'),
        c.url.searchParams.get('externalId'),
        c.url.searchParams.get('q'),
        c.url.searchParams.get('limit'),
      ]),
    ).toEqual(Array(3).fill(['GET', '/api/sessions', 'ended', 'nightly', 'Déploi run', '3']));
    expect(calls.map((c) => c.url.searchParams.has('cursor'))).toEqual([false, true, true]);
  });

  it('list gives page access when awaited', async () => {
    const { fetch } = sessionsServer(5);
    const first = await client(fetch).sessions.list({ limit: 2 });
    expect(first.data.map((s) => s.messageCount)).toEqual([0, 1]);
    expect(first.hasNextPage()).toBe(true);
    expect((await first.getNextPage()).data.map((s) => s.messageCount)).toEqual([2, 3]);
  });

  it('retrieve reads one session, its id escaped into the path', async () => {
    const { fetch, calls } = mockFetch(
      jsonResponse(200, session(4)),
      errorResponse(404, 'NOT_FOUND', 'Not found.'),
    );
    const c = client(fetch);
    expect((await c.sessions.retrieve(session(4).id)).messageCount).toBe(4);
    expect(calls[0].url.pathname).toBe(`/api/sessions/${session(4).id}`);
    await expect(c.sessions.retrieve('a/b')).rejects.toBeInstanceOf(NotFoundError);
    expect(calls[1].url.pathname).toBe('/api/sessions/a%2Fb');
  });
});
