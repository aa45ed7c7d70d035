import pino from 'pino';
import { ApiKeyBudget } from './api-key-budget';

/** A stand-in for the shared table: organisation → window → requests, as the upsert keeps it. */
function sharedTable() {
  const rows = new Map<string, number>();
  let failing = false;
  const query = async (_sql: string, params: unknown[]) => {
    if (failing) throw new Error('connection refused');
    if (params.length === 0) return [];
    const [ids, windows, counts] = params as [string[], string[], number[]];
    return ids.map((id, i) => {
      const key = `${id}@${windows[i]}`;
      rows.set(key, (rows.get(key) ?? 0) + counts[i]);
      return {
        organisation_id: id,
        window_start: new Date(windows[i]),
        requests: String(rows.get(key)),
      };
    });
  };
  return { query, rows, fail: (on: boolean) => (failing = on) };
}

const logger = pino({ level: 'silent' });
const T0 = 1_800_000_000_000; // a window boundary for 60 s windows

describe('ApiKeyBudget', () => {
  const budgets: ApiKeyBudget[] = [];
  const budget = (limit: number, table: ReturnType<typeof sharedTable>) => {
    const b = new ApiKeyBudget(limit, 60, table.query, logger);
    budgets.push(b);
    return b;
  };
  afterAll(async () => {
    for (const b of budgets) await b.close();
  });

  it('admits up to the limit in a window, then says when it renews', () => {
    const b = budget(3, sharedTable());
    expect([1, 2, 3].map(() => b.admit('o1', T0 + 10_000)?.remaining)).toEqual([2, 1, 0]);
    expect(b.admit('o1', T0 + 10_000)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 50,
      windowSeconds: 60,
    });
    expect(b.admit('o2', T0 + 10_000)?.allowed).toBe(true);
    expect(b.admit('o1', T0 + 60_000)?.allowed).toBe(true); // the next window
  });

  it('peek counts nothing; charge counts a served request even past the limit (SPEC §8e waits)', async () => {
    const table = sharedTable();
    const b = budget(2, table);
    expect(b.peek('o1', T0)).toMatchObject({ allowed: true, remaining: 2 });
    expect(b.peek('o1', T0)).toMatchObject({ allowed: true, remaining: 2 });
    b.charge('o1', T0);
    expect(b.peek('o1', T0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(b.admit('o1', T0)).toMatchObject({ allowed: true, remaining: 0 });
    b.charge('o1', T0); // past the limit: still counted
    expect(b.peek('o1', T0)).toMatchObject({ allowed: false, remaining: 0 });
    expect(b.admit('o1', T0)?.allowed).toBe(false);
    await b.sync();
    expect([...table.rows.values()]).toEqual([3]);
  });

  it('shares the count: an instance learns what the others admitted at its next sync', async () => {
    const table = sharedTable();
    const [a, b] = [budget(10, table), budget(10, table)];
    for (let i = 0; i < 7; i++) expect(a.admit('o1', T0)?.allowed).toBe(true);
    await a.sync();
    expect(b.admit('o1', T0)?.allowed).toBe(true); // b has not synced yet: it knows only its own
    await b.sync();
    expect(b.admit('o1', T0)?.remaining).toBe(1);
    expect(b.admit('o1', T0)?.remaining).toBe(0);
    expect(b.admit('o1', T0)?.allowed).toBe(false);
    await b.sync();
    await a.sync();
    expect(a.admit('o1', T0)?.allowed).toBe(false);
    expect([...table.rows.values()]).toEqual([10]);
  });

  it('keeps admissions made while a sync is in flight', async () => {
    const table = sharedTable();
    const a = budget(100, table);
    for (let i = 0; i < 5; i++) a.admit('o1', T0);
    const syncing = a.sync();
    for (let i = 0; i < 3; i++) a.admit('o1', T0);
    await syncing;
    await a.sync();
    expect([...table.rows.values()]).toEqual([8]);
  });

  it('counts on its own while the shared table cannot be reached, and never refuses more than it would', async () => {
    const table = sharedTable();
    const a = budget(4, table);
    table.fail(true);
    for (let i = 0; i < 4; i++) expect(a.admit('o1', T0)?.allowed).toBe(true);
    await a.sync();
    expect(a.admit('o1', T0)?.allowed).toBe(false);
    table.fail(false);
    await a.sync();
    expect([...table.rows.values()]).toEqual([4]);
  });

  it('is off with a limit of 0', () => {
    expect(budget(0, sharedTable()).admit('o1')).toBeUndefined();
  });
});
