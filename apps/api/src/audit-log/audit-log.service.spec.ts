import type { DataSource } from 'typeorm';
import { WALK_CHUNK } from '@interlock/audit';
import type { AppConfig } from '../config/app-config';
import { PreparedReads } from '../database/prepared-reads';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogService } from './audit-log.service';

const ORG = '6aba50bc-8b1f-4c19-8090-f9042950ef24';

/** The instant of entry `seq` (a millisecond each). */
const iso = (seq: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq)).toISOString();

/** An entry as every read returns it: its JSON text as the database renders it, and its place in the walk. */
function jsonRow(seq: number) {
  return {
    created_at_utc: iso(seq).replace('T', ' ').replace('Z', ''),
    seq: String(seq),
    entry_json: JSON.stringify({ id: `e${seq}`, createdAt: iso(seq), metadata: { seq } }),
  };
}

/** A page read's row, as the repository answers it: `seq` and the entry's JSON, by place. */
const pageRow = (seq: number) => [String(seq), jsonRow(seq).entry_json] as const;

/** A first page as the repository answers it: entries `seqs` (up to `take`), each with the snapshot. */
function firstPageRows(seqs: number[], take: number, snapshot: string) {
  return seqs.slice(0, take).map((seq) => [...pageRow(seq), snapshot] as const);
}

/** An entry as the walk query returns it: `n` is its place in the chunk. */
function row(seq: number, n: number, hit: boolean) {
  return { ...jsonRow(seq), hit, n: String(n) };
}

/** The hot reads off: the scripted data source answers every statement itself. */
const scriptedReads = (dataSource: DataSource) =>
  new PreparedReads(dataSource, false, 'a scripted data source answers every statement');

const ids = (rows: readonly (readonly [string, string])[]) =>
  rows.map((r) => (JSON.parse(r[1]) as { id: string }).id);

describe('AuditLogService search walk', () => {
  /** A service whose data source answers the queries in order with `answers`, recording them. */
  function scripted(answers: unknown[][]) {
    const calls: { sql: string; params: unknown[] }[] = [];
    const dataSource = {
      query: async (sql: string, params: unknown[]) => {
        calls.push({ sql, params });
        return answers.shift() ?? [];
      },
    } as unknown as DataSource;
    const service = new AuditLogService(
      new AuditLogRepository(dataSource, scriptedReads(dataSource)),
      {
        cursorSecret: 'p'.repeat(32),
      } as AppConfig,
    );
    // rows() is the search itself (list() adds the snapshot lookup and the cursor).
    const search = service as unknown as {
      rows: (...args: unknown[]) => Promise<(readonly [string, string])[]>;
    };
    return {
      calls,
      rows: (words: string[]) => search.rows(ORG, { words }, '1000000', undefined, 51),
    };
  }

  it('reads a long window in chunks, each after the last entry of the one before', async () => {
    const { calls, rows: search } = scripted([
      // The prefix expansion: one word in 40 % of 1,000,000 entries (a window of 2,000,000).
      [{ word: 'deploy', words: '1', entries_total: '400000' }],
      // First chunk: full (its last entry, n = WALK_CHUNK, comes back), no match.
      [row(990_000, WALK_CHUNK, false)],
      // Second chunk: two matches, then the scope runs out (no sentinel).
      [row(979_000, 12, true), row(978_000, 900, true)],
    ]);
    const rows = await search(['deploy']);
    expect(ids(rows)).toEqual(['e979000', 'e978000']);
    expect(calls).toHaveLength(3);
    const [, first, second] = calls;
    // No position on the first chunk; the second starts after the first chunk's last entry.
    expect(first.sql).not.toContain('(created_at, seq) <');
    expect(second.sql).toContain('(created_at, seq) < ($3::timestamptz, $4::bigint)');
    expect(second.params.slice(2, 4)).toEqual([iso(990_000), '990000']);
    // Each chunk asks for the matches still missing.
    expect(first.params.at(-1)).toBe(51);
    expect(second.params.at(-2)).toBe(WALK_CHUNK);
  });

  it('walks on past a short window when the words turn out to go together, else asks the index', async () => {
    // Two words in 4 % of entries each: 1,600 together if independent, so a 2,000-entry walk.
    const counts = (word: string) => [{ word, words: '1', entries_total: '40000' }];
    const together = scripted([
      counts('ada'),
      counts('lovelace'),
      [row(900, 1, true), row(899, 2000, true)],
      [],
    ]);
    // 2 in 2,000 read: 49 more need about 49,000 entries, the index about 1,000 matches: index.
    expect(await together.rows(['ada', 'lovelace'])).toEqual([]);
    expect(together.calls[3].sql).toContain('audit_log_search_keys(organisation_id, search) @@');
    const hits = Array.from({ length: 40 }, (_, i) => row(2000 - i, i + 1, true)).concat(
      row(1, 2000, false),
    );
    const often = scripted([counts('ada'), counts('lovelace'), hits, [row(2, 7, true)]]);
    // 40 in 2,000: 11 more need about 550 entries: walk on.
    expect(await often.rows(['ada', 'lovelace'])).toHaveLength(41);
    expect(often.calls[3].sql).toContain('row_number()');
  });
});

describe('AuditLogService first page', () => {
  it('reads the first page and its snapshot in one statement, and puts the snapshot in the cursor', async () => {
    const calls: { sql: string; params: unknown[] }[] = [];
    const dataSource = {
      query: async (sql: string, params: unknown[]) => {
        calls.push({ sql, params });
        // The statement's columns in its order, as TypeORM answers them (the reads unnamed).
        return calls.length === 1
          ? [3, 2, 1].map((seq) => ({
              seq: String(seq),
              entry_json: pageRow(seq)[1],
              snapshot: '7',
            }))
          : [];
      },
    } as unknown as DataSource;
    const service = new AuditLogService(
      new AuditLogRepository(dataSource, scriptedReads(dataSource)),
      {
        apiKeyPepper: 'p'.repeat(32),
        cursorSecret: 'c'.repeat(32),
      } as AppConfig,
    );
    const answer = await service.list(ORG, { limit: '2' });
    expect(calls).toHaveLength(1);
    expect(calls[0].sql).toContain('audit_log_heads');
    expect(calls[0].sql).toContain('LIMIT $2');
    expect(calls[0].params).toEqual([ORG, 3]);
    const page = answer.parse();
    expect(page.entries.map((e) => [e.id, e.metadata])).toEqual([
      ['e3', { seq: 3 }],
      ['e2', { seq: 2 }],
    ]);
    expect(page.entries[0]).not.toHaveProperty('snapshot');
    // The next page is read at the snapshot the first one saw, after its last entry.
    await service.list(ORG, { limit: '2', cursor: page.nextCursor });
    expect(calls).toHaveLength(2);
    expect(calls[1].params).toEqual([ORG, '7', iso(2), '2', 3]);
  });
});

describe('AuditLogService rules, over a fake repository', () => {
  const config = { cursorSecret: 'c'.repeat(32) } as AppConfig;

  function setUp(overrides: Partial<Record<keyof AuditLogRepository, jest.Mock>> = {}) {
    const repository = {
      firstPage: jest.fn(async (_org: string, _filter: unknown, take: number) =>
        firstPageRows([3, 2, 1], take, '3'),
      ),
      jsonPage: jest.fn(async () => [pageRow(1)]),
      snapshot: jest.fn(async () => '3'),
      prefixWords: jest.fn(async () => []),
      searchWalkChunk: jest.fn(async () => []),
      searchIndex: jest.fn(async () => []),
      ...overrides,
    };
    return {
      service: new AuditLogService(repository as unknown as AuditLogRepository, config),
      repository,
    };
  }

  it('ends the walk (nextCursor null) when the page is the last', async () => {
    const { service } = setUp();
    const page = (await service.list(ORG, { limit: '5' })).parse();
    expect(page.entries.map((e) => e.id)).toEqual(['e3', 'e2', 'e1']);
    expect(page.nextCursor).toBeNull();
  });

  it("refuses another organisation's cursor, and a cursor with other parameters, before reading a page", async () => {
    const { service, repository } = setUp();
    const { nextCursor } = (await service.list(ORG, { limit: '2', category: 'interrupt' })).parse();
    expect(nextCursor).not.toBeNull();
    const other = '0f8fad5b-d9cb-469f-a165-70867728950e';
    await expect(
      service.list(other, { limit: '2', category: 'interrupt', cursor: nextCursor }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'cursor: is not a cursor this endpoint issued',
    });
    await expect(
      service.list(ORG, { limit: '2', category: 'session', cursor: nextCursor }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'cursor: belongs to a walk with different parameters; repeat them unchanged',
    });
    expect(repository.jsonPage).not.toHaveBeenCalled();
    await service.list(ORG, { limit: '2', category: 'interrupt', cursor: nextCursor });
    expect(repository.jsonPage).toHaveBeenCalledWith(
      ORG,
      expect.anything(),
      '3',
      { createdAt: iso(2), seq: '2' },
      3,
    );
  });

  it('answers nothing, without a search, when a word prefix matches no word of the organisation', async () => {
    const { service, repository } = setUp();
    expect((await service.list(ORG, { q: 'zzz' })).text).toBe('{"entries":[],"nextCursor":null}');
    expect(repository.prefixWords).toHaveBeenCalledWith(ORG, 'zzz');
    expect(repository.searchWalkChunk).not.toHaveBeenCalled();
    expect(repository.searchIndex).not.toHaveBeenCalled();
  });

  it("answers a search's entries as the database rendered them, without their walk position", async () => {
    const { service } = setUp({
      prefixWords: jest.fn(async () => [{ word: 'ci', words: '1', entries_total: '1' }]),
      searchIndex: jest.fn(async () => [jsonRow(5)]),
      searchWalkChunk: jest.fn(async () => [row(5, 1, true)]),
    });
    expect((await service.list(ORG, { q: 'ci' })).text).toBe(
      `{"entries":[${jsonRow(5).entry_json}],"nextCursor":null}`,
    );
  });

  it('exports at most 5,000 entries at a fresh snapshot, and refuses the walk parameters', async () => {
    const { service, repository } = setUp();
    expect(await service.recent(ORG, { category: 'interrupt' })).toEqual([
      JSON.parse(jsonRow(1).entry_json),
    ]);
    expect(repository.jsonPage).toHaveBeenCalledWith(ORG, expect.anything(), '3', undefined, 5000);
    await expect(service.recent(ORG, { cursor: 'x' })).rejects.toMatchObject({
      message: 'cursor: is not a parameter of the export',
    });
    await expect(service.recent(ORG, { limit: '5' })).rejects.toMatchObject({
      message: 'limit: is not a parameter of the export',
    });
    expect(repository.jsonPage).toHaveBeenCalledTimes(1);
  });

  it("keeps a query string's parameters, not its cursor, nor a query that is refused", async () => {
    const { service, repository } = setUp();
    const first = (await service.list(ORG, { limit: '2' })).parse();
    // The same parameters with a cursor: the cursor is this request's, read after its entry.
    await service.list(ORG, { limit: '2', cursor: first.nextCursor });
    expect(repository.jsonPage).toHaveBeenLastCalledWith(
      ORG,
      { words: [] },
      '3',
      { createdAt: iso(2), seq: '2' },
      3,
    );
    // Without it again: a first page, not the kept request's cursor.
    const again = (await service.list(ORG, { limit: '2' })).parse();
    expect(again).toEqual(first);
    expect(repository.firstPage).toHaveBeenCalledTimes(2);
    expect(repository.jsonPage).toHaveBeenCalledTimes(1);
    // Another parameter beside the kept ones is its own query, refused every time alike.
    for (let i = 0; i < 2; i++) {
      await expect(service.list(ORG, { limit: '2', bogus: 'x' })).rejects.toMatchObject({
        message: 'bogus: is not a parameter of this endpoint',
      });
      await expect(service.list(ORG, { limit: ['2', '2'] })).rejects.toMatchObject({
        message: 'limit: must be given once, as a string',
      });
      await expect(
        service.list(ORG, { limit: '2', cursor: [first.nextCursor, first.nextCursor] }),
      ).rejects.toMatchObject({ message: 'cursor: must be given once, as a string' });
    }
    // The kept filter is not the next query's: another limit or filter is parsed anew.
    const five = (await service.list(ORG, { limit: '5', category: 'interrupt' })).parse();
    expect(five.entries).toHaveLength(3);
    expect(repository.firstPage).toHaveBeenLastCalledWith(
      ORG,
      expect.objectContaining({ words: [], category: 'interrupt' }),
      6,
    );
  });

  it('turns a malformed query into a validation error', async () => {
    const { service, repository } = setUp();
    await expect(service.list(ORG, { limit: '0' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect(repository.firstPage).not.toHaveBeenCalled();
  });
});
