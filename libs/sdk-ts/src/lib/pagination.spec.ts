import { Interlock } from './client';
import { InterlockError } from './errors';
import { CursorPage } from './pagination';
import { jsonResponse, mockFetch, type RecordedCall } from './testing/mock-fetch';
import type { AuditLogEntry } from './types';

function entry(n: number): AuditLogEntry {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    createdAt: new Date(Date.UTC(2025, 0, 1) - n * 1000).toISOString(),
    action: 'interrupt.created',
    category: 'interrupt',
    actorType: 'api_key',
    actorId: 'key_1',
    actorName: 'ci',
    targetType: 'interrupt',
    targetId: `int_${n}`,
    targetName: `Interrupt ${n}`,
    summary: `Interrupt ${n} created by ci`,
    metadata: null,
  };
}

/** A fake audit log of `total` entries served `limit` at a time with opaque cursors. */
function auditServer(total: number) {
  const all = Array.from({ length: total }, (_, i) => entry(i));
  return mockFetch((call: RecordedCall) => {
    const limit = Number(call.url.searchParams.get('limit') ?? '50');
    const cursor = call.url.searchParams.get('cursor');
    const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
    const entries = all.slice(start, start + limit);
    const next =
      start + limit < total ? Buffer.from(String(start + limit)).toString('base64url') : null;
    return jsonResponse(200, { entries, nextCursor: next });
  });
}

const client = (fetch: ReturnType<typeof mockFetch>['fetch']) =>
  new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });

describe('auto-pagination', () => {
  it('walks every page with for await, repeating the other parameters each time', async () => {
    const { fetch, calls } = auditServer(23);
    const seen: string[] = [];
    for await (const e of client(fetch).auditLog.list({ category: 'interrupt', limit: 10 }))
      seen.push(e.targetId ?? '');
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => `int_${i}`));
    expect(calls).toHaveLength(3);
    expect(calls[0].url.searchParams.get('cursor')).toBeNull();
    for (const call of calls) {
      expect(call.url.searchParams.get('category')).toBe('interrupt');
      expect(call.url.searchParams.get('limit')).toBe('10');
    }
    expect(calls[1].url.searchParams.get('cursor')).not.toBeNull();
  });

  it('gives page access: await the list, hasNextPage, getNextPage', async () => {
    const { fetch, calls } = auditServer(5);
    const first = await client(fetch).auditLog.list({ limit: 2 });
    expect(first).toBeInstanceOf(CursorPage);
    expect(first.data.map((e) => e.targetId)).toEqual(['int_0', 'int_1']);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.data.map((e) => e.targetId)).toEqual(['int_2', 'int_3']);
    const third = await second.getNextPage();
    expect(third.data).toHaveLength(1);
    expect(third.hasNextPage()).toBe(false);
    expect(third.nextCursor).toBeNull();
    await expect(third.getNextPage()).rejects.toBeInstanceOf(InterlockError);
    expect(calls).toHaveLength(3);
  });

  it('firstPage() makes one request however often it is used, and iterPages walks pages', async () => {
    const { fetch, calls } = auditServer(4);
    const list = client(fetch).auditLog.list({ limit: 3 });
    const a = await list.firstPage();
    const b = await list;
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
    const sizes: number[] = [];
    for await (const page of a.iterPages()) sizes.push(page.data.length);
    expect(sizes).toEqual([3, 1]);
  });

  it('iterating from a page continues with the later pages', async () => {
    const { fetch } = auditServer(7);
    const first = await client(fetch).auditLog.list({ limit: 3 });
    let count = 0;
    for await (const _e of first) count++;
    expect(count).toBe(7);
  });

  it('ends on an empty log', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(200, { entries: [], nextCursor: null }));
    const seen: unknown[] = [];
    for await (const e of client(fetch).auditLog.list()) seen.push(e);
    expect(seen).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('pages interrupts the same way', async () => {
    const { fetch, calls } = mockFetch(
      jsonResponse(200, { interrupts: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c1' }),
      jsonResponse(200, { interrupts: [{ id: 'c' }], nextCursor: null }),
    );
    const ids: string[] = [];
    for await (const i of client(fetch).interrupts.list({ status: 'open', limit: 2 }))
      ids.push(i.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(calls[1].url.search).toBe('?status=open&limit=2&cursor=c1');
  });

  it('does not send a request until the list is awaited or iterated', async () => {
    const { fetch, calls } = auditServer(1);
    const list = client(fetch).auditLog.list();
    await new Promise((r) => setTimeout(r, 5));
    expect(calls).toHaveLength(0);
    await list;
    expect(calls).toHaveLength(1);
  });
});
