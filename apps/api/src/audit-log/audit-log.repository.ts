import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  type AuditFilter,
  type AuditPosition,
  firstPageQuery,
  pageQuery,
  prefixExpansionQuery,
  searchIndexQuery,
  searchWalkQuery,
} from '@interlock/audit';
import { PreparedReads } from '../database/prepared-reads';
import type { AuditFirstPageRow, AuditJsonRow, AuditPageRow } from './audit-entry.response';

/** An entry of a search walk's chunk: whether it matched, and its place in the chunk (1-based). */
export type AuditWalkRow = AuditJsonRow & { hit: boolean; n: string };

/** A word of the organisation's lexicon starting with a prefix, with the totals over all of them. */
export interface AuditPrefixRow {
  word: string;
  /** How many words start with the prefix. */
  words: string;
  /** How many entries hold one of them (at most: an entry may hold several). */
  entries_total: string;
}

/**
 * The audit log's reads (`audit_log_entries`, `audit_log_heads`, `audit_log_words`; the writer
 * and the statements' text are `@interlock/audit`'s, whose plans the hand-written SQL keeps).
 * Every method reads one organisation, named first. Every entry comes back as its API JSON text
 * and its place in the walk (`auditJsonColumns`; the two page reads of the hot path, a first page
 * and a page of a walk, without the instant as text: `auditPageColumns`); those two run as named
 * prepared statements (`PreparedReads`), each row the array of its columns (`AuditPageRow`).
 */
@Injectable()
export class AuditLogRepository {
  constructor(
    private readonly dataSource: DataSource,
    // DatabaseModule's, on or loudly off: never a silent off one built here (issue 28).
    private readonly reads: PreparedReads,
  ) {}

  /**
   * The first page of a walk without words (up to `take` entries, newest first) and the snapshot
   * it is bound to, in one statement: each row carries the snapshot (none when nothing matches).
   */
  firstPage(
    organisationId: string,
    filter: AuditFilter,
    take: number,
  ): Promise<AuditFirstPageRow[]> {
    const q = firstPageQuery(organisationId, filter, take);
    return this.reads.queryArrays(q.sql, q.params);
  }

  /** Up to `take` entries matching the filters (no words), as JSON text, newest first, at the snapshot, after `after`. */
  jsonPage(
    organisationId: string,
    filter: AuditFilter,
    snapshot: string,
    after: AuditPosition | undefined,
    take: number,
  ): Promise<AuditPageRow[]> {
    const q = pageQuery(organisationId, filter, snapshot, after, take);
    return this.reads.queryArrays(q.sql, q.params);
  }

  /** The organisation's newest sequence number now ('0' before its first entry). */
  async snapshot(organisationId: string): Promise<string> {
    const [head]: { last_seq: string }[] = await this.dataSource.query(
      `SELECT last_seq FROM audit_log_heads WHERE organisation_id = $1`,
      [organisationId],
    );
    return head === undefined ? '0' : String(head.last_seq);
  }

  /** The organisation's words starting with `prefix`, each row with the totals (none: no such word). */
  prefixWords(organisationId: string, prefix: string): Promise<AuditPrefixRow[]> {
    const q = prefixExpansionQuery(organisationId, prefix);
    return this.dataSource.query(q.sql, q.params);
  }

  /**
   * One chunk of a search walk: the next `size` entries in scope after `after`, of which the
   * matches (up to `take`) and the chunk's last entry (when the chunk was full) come back.
   */
  searchWalkChunk(
    organisationId: string,
    filter: AuditFilter,
    snapshot: string,
    after: AuditPosition | undefined,
    take: number,
    size: number,
  ): Promise<AuditWalkRow[]> {
    const q = searchWalkQuery(organisationId, filter, snapshot, after, take, size);
    return this.dataSource.query(q.sql, q.params);
  }

  /** A search through the word index: up to `take` matches, newest first, at the snapshot, after `after`. */
  searchIndex(
    organisationId: string,
    filter: AuditFilter,
    snapshot: string,
    after: AuditPosition | undefined,
    take: number,
  ): Promise<AuditJsonRow[]> {
    const q = searchIndexQuery(organisationId, filter, snapshot, after, take);
    return this.dataSource.query(q.sql, q.params);
  }
}
