import { DomainError, JsonText } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import {
  AuditFilter,
  AuditPosition,
  AuditCursorCodec,
  AuditQueryError,
  parametersDigest,
  parseAuditQuery,
  MAX_PREFIX_COUNT,
  MAX_PREFIX_EXPANSION,
  WALK_CHUNK,
  walkOn,
  chooseSearchPlan,
} from '@interlock/audit';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import {
  AuditEntryResponse,
  AuditJsonRow,
  AuditFirstPageRow,
  AuditLogPage,
  AuditPageRow,
  cursorInstantOf,
  isoMillis,
  pageRowOf,
} from './audit-entry.response';
import { AuditLogRepository } from './audit-log.repository';

const position = (row: Pick<AuditJsonRow, 'created_at_utc' | 'seq'>): AuditPosition => ({
  createdAt: isoMillis(row.created_at_utc),
  seq: String(row.seq),
});

/**
 * A page's entries as one JSON text (`entries`, the first `limit` rows' stored JSON joined) and
 * the place of the page's last entry when there is a next page (`last`, else null).
 */
interface AuditPageText {
  entries: string;
  last: AuditPosition | null;
}

/**
 * A page's rows (up to `limit + 1`, in the walk's order: one more than `limit` means a next page)
 * as `AuditPageText`; the last entry's instant is its rendering's `createdAt` (`cursorInstantOf`).
 */
function pageTextOf(
  rows: readonly (AuditPageRow | AuditFirstPageRow)[],
  limit: number,
): AuditPageText {
  let entries = '';
  for (let i = 0; i < rows.length && i < limit; i++) entries += (i === 0 ? '' : ',') + rows[i][1];
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    entries,
    last: last === undefined ? null : { createdAt: cursorInstantOf(last[1]), seq: String(last[0]) },
  };
}

/**
 * A walk's parameters as a query string gives them (`AuditLogService.walkOf`): parsed, with
 * their digest; the cursor is each request's own.
 */
interface WalkParameters {
  /** Frozen: one object serves every request of the same query string. */
  readonly filter: AuditFilter;
  readonly limit: number;
  readonly digest: string;
}

/** Query strings whose parsed parameters are kept, at most; past it the memory starts again. */
export const WALKS_KEPT = 256;
/** A query string longer than this (its parameters but the cursor) is parsed every time. */
const WALK_KEY_MAX = 1024;

/** SPEC §10: the CSV export holds at most the 5,000 most recent matching entries. */
export const AUDIT_EXPORT_MAX = 5000;

/**
 * The audit log's reads (SPEC §7, §10): the walk's rules (cursors, snapshots, the search plan);
 * the statements are `AuditLogRepository`'s.
 */
@Injectable()
export class AuditLogService {
  private readonly cursors: AuditCursorCodec;
  /** Each query string's parameters (`walkOf`), by its text without the cursor. */
  private readonly walks = new Map<string, WalkParameters>();

  constructor(
    private readonly entries: AuditLogRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new AuditCursorCodec(config.cursorSecret);
  }

  /**
   * One page of a walk (SPEC §7): newest first, snapshot-bound, with an opaque next cursor. The
   * answer is its JSON text: each entry's JSON as the database renders it (`AuditJsonRow`: the
   * text stored when the entry was appended, while the renderer is the same), joined.
   */
  async list(
    organisationId: string,
    raw: Record<string, unknown>,
  ): Promise<JsonText<AuditLogPage>> {
    const query = this.walkOf(raw);
    const { digest } = query;
    // A string: walkOf refused a cursor given more than once.
    const token = typeof raw.cursor === 'string' ? raw.cursor : undefined;
    let snapshot: string;
    let after: AuditPosition | undefined;
    if (token !== undefined) {
      const cursor = this.cursors.decode(organisationId, token);
      if (cursor === null)
        throw new DomainError('VALIDATION_FAILED', 'cursor: is not a cursor this endpoint issued');
      if (cursor.digest !== digest) {
        throw new DomainError(
          'VALIDATION_FAILED',
          'cursor: belongs to a walk with different parameters; repeat them unchanged',
        );
      }
      snapshot = cursor.snapshot;
      after = { createdAt: cursor.createdAt, seq: cursor.seq };
    } else if (query.filter.words.length === 0) {
      // The agents' common read: the first page and its snapshot in one round trip.
      const rows = await this.entries.firstPage(organisationId, query.filter, query.limit + 1);
      return this.answer(
        organisationId,
        rows[0]?.[2] ?? '0',
        digest,
        pageTextOf(rows, query.limit),
      );
    } else {
      snapshot = await this.entries.snapshot(organisationId);
    }
    const rows = await this.rows(organisationId, query.filter, snapshot, after, query.limit + 1);
    return this.answer(organisationId, snapshot, digest, pageTextOf(rows, query.limit));
  }

  /**
   * The page's JSON text from its entries as one text (`AuditPageText`), with a next cursor
   * starting after the page's last entry when there is a next page.
   */
  private answer(
    organisationId: string,
    snapshot: string,
    digest: string,
    page: AuditPageText,
  ): JsonText<AuditLogPage> {
    const nextCursor =
      page.last === null
        ? null
        : this.cursors.encode(organisationId, { ...page.last, snapshot, digest });
    // A cursor is base64url letters and a `.`, which JSON writes as they are (no JSON.stringify
    // of it, whose scan and copy of the joined text cost ~1 µs a page).
    return new JsonText(
      `{"entries":[${page.entries}],"nextCursor":${nextCursor === null ? 'null' : `"${nextCursor}"`}}`,
    );
  }

  /** The most recent entries matching the filters (for the CSV export), newest first. */
  async recent(
    organisationId: string,
    raw: Record<string, unknown>,
  ): Promise<AuditEntryResponse[]> {
    const { cursor, limit, ...rest } = raw;
    if (cursor !== undefined)
      throw new DomainError('VALIDATION_FAILED', 'cursor: is not a parameter of the export');
    if (limit !== undefined)
      throw new DomainError('VALIDATION_FAILED', 'limit: is not a parameter of the export');
    const query = this.parse(rest);
    const rows = await this.rows(
      organisationId,
      query.filter,
      await this.entries.snapshot(organisationId),
      undefined,
      AUDIT_EXPORT_MAX,
    );
    return rows.map((row) => JSON.parse(row[1]) as AuditEntryResponse);
  }

  /**
   * The walk's parameters in `raw` (SPEC §7; a 400 VALIDATION_FAILED naming a wrong one) and
   * their digest, which a cursor carries. A query whose every parameter is given once is parsed
   * once and kept under its text, its parameters in their order but the cursor: agents poll the
   * same page (`?limit=50`) and walk on with the same parameters, and the parse and the digest
   * were ~7 µs of a page (issue 28, session 23). Only a query that parses is kept: a refused one
   * is parsed again, and refused alike, every time.
   */
  private walkOf(raw: Record<string, unknown>): WalkParameters {
    let key: string | undefined = '';
    for (const name in raw) {
      const text = raw[name];
      if (typeof text !== 'string') {
        key = undefined;
        break;
      }
      if (name !== 'cursor') key += `${name.length}:${name}${text.length}:${text}`;
    }
    if (key !== undefined && key.length > WALK_KEY_MAX) key = undefined;
    const kept = key === undefined ? undefined : this.walks.get(key);
    if (kept !== undefined) return kept;
    const query = this.parse(raw);
    Object.freeze(query.filter.words);
    const walk: WalkParameters = {
      filter: Object.freeze(query.filter),
      limit: query.limit,
      digest: parametersDigest(query.parameters),
    };
    if (key !== undefined) {
      if (this.walks.size >= WALKS_KEPT) this.walks.clear();
      this.walks.set(key, walk);
    }
    return walk;
  }

  private parse(raw: Record<string, unknown>) {
    try {
      return parseAuditQuery(raw);
    } catch (error) {
      if (error instanceof AuditQueryError)
        throw new DomainError('VALIDATION_FAILED', error.message);
      throw error;
    }
  }

  private async rows(
    organisationId: string,
    filter: AuditFilter,
    snapshot: string,
    after: AuditPosition | undefined,
    take: number,
  ): Promise<AuditPageRow[]> {
    if (filter.words.length === 0) {
      return this.entries.jsonPage(organisationId, filter, snapshot, after, take);
    }
    // Each prefix becomes the exact words it matches, when they are few enough to list; a prefix
    // no word has means nothing can match. Their entry counts choose the plan (search-plan.ts).
    const words = await Promise.all(filter.words.map((word) => this.expand(organisationId, word)));
    if (words.some((w) => w.words !== null && w.words.length === 0)) return [];
    filter = { ...filter, expanded: words.map((w) => w.words) };
    const counts = words.map((w) => w.entries);
    const plan = chooseSearchPlan(counts, Number(snapshot), take);
    if (plan.kind === 'walk') {
      const hits = await this.walk(organisationId, filter, snapshot, after, take, plan.window);
      if (hits !== null) return hits.map(pageRowOf);
    }
    return (await this.entries.searchIndex(organisationId, filter, snapshot, after, take)).map(
      pageRowOf,
    );
  }

  /**
   * Walks `window` entries in chunks of WALK_CHUNK, each chunk starting after the last entry of
   * the one before, so every query stays a short ordered index walk the planner will not trade
   * for a sort; past the window, walks on while the matches found promise a page sooner than the
   * index (walkOn). The matches, or null when the index should finish the search.
   */
  private async walk(
    organisationId: string,
    filter: AuditFilter,
    snapshot: string,
    after: AuditPosition | undefined,
    take: number,
    window: number,
  ): Promise<AuditJsonRow[] | null> {
    const hits: AuditJsonRow[] = [];
    for (let read = 0; ;) {
      const size = read < window ? Math.min(WALK_CHUNK, window - read) : WALK_CHUNK;
      const rows = await this.entries.searchWalkChunk(
        organisationId,
        filter,
        snapshot,
        after,
        take - hits.length,
        size,
      );
      rows.sort((a, b) => Number(a.n) - Number(b.n));
      for (const { hit, n: _n, ...row } of rows) if (hit) hits.push(row);
      // The chunk's last entry comes back when the chunk was full: without it, the scope ran out.
      const last = rows.find((r) => Number(r.n) === size);
      if (hits.length >= take || last === undefined) return hits;
      after = position(last);
      read += size;
      if (read >= window && !walkOn(hits.length, read, take, Number(snapshot))) return null;
    }
  }

  /**
   * The organisation's words starting with `prefix` (null when too many to list) and how many
   * entries hold them (at most; null when the prefix has too many words to count).
   */
  private async expand(
    organisationId: string,
    prefix: string,
  ): Promise<{ words: string[] | null; entries: number | null }> {
    const rows = await this.entries.prefixWords(organisationId, prefix);
    if (rows.length === 0) return { words: [], entries: 0 };
    const { words, entries_total } = rows[0];
    return {
      words: rows.length > MAX_PREFIX_EXPANSION ? null : rows.map((r) => r.word),
      entries: Number(words) > MAX_PREFIX_COUNT ? null : Number(entries_total),
    };
  }
}
