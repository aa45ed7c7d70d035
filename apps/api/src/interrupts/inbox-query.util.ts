import { prefixTsquery } from '@interlock/audit';
import type { KeysetPosition } from '../http/keyset-cursor.util';
import { INTERRUPT_STATUSES } from './interrupt.entity';
import type { InterruptStatus } from './interrupt.entity';
import { INTERRUPT_COLUMNS } from './interrupt-record';

/** What a page of the inbox is filtered by, resolved (the member's teams already looked up). */
export interface InboxFilter {
  /** The statuses listed: one, or both when the listing is not filtered by status. */
  statuses: readonly InterruptStatus[];
  /** Assigned to one of these members or teams (`me`, `my_teams`); undefined: anyone or no one. */
  assignees?: { type: 'member' | 'team'; ids: readonly string[] };
  unassigned?: boolean;
  escalated?: boolean;
  externalId?: string;
  /** Folded title words, each required as a prefix. */
  words: readonly string[];
  /** ISO 8601 instants: createdAt ≥ from, < to. */
  from?: string;
  to?: string;
  order: 'newest' | 'oldest';
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

/** Binds parameters ($1 is the organisation) and builds the conditions every plan shares. */
class Conditions {
  readonly params: unknown[];
  readonly where: string[] = ['i.organisation_id = $1'];

  constructor(organisationId: string) {
    this.params = [organisationId];
  }

  bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Every filter but status, assignee and title words, and the keyset position. */
  common(filter: InboxFilter, after: KeysetPosition | undefined): void {
    if (filter.unassigned) this.where.push('i.assignee_id IS NULL');
    // The same expression as the partial index's predicate, so the planner can use it.
    if (filter.escalated === true) this.where.push('i.escalation_level > 0');
    if (filter.escalated === false) this.where.push('i.escalation_level = 0');
    if (filter.externalId !== undefined) this.where.push(`i.external_id = ${this.bind(filter.externalId)}`);
    if (filter.from !== undefined) this.where.push(`i.created_at >= ${this.bind(filter.from)}::timestamptz`);
    if (filter.to !== undefined) this.where.push(`i.created_at < ${this.bind(filter.to)}::timestamptz`);
    if (after !== undefined) {
      const at = this.bind(after.createdAt);
      this.where.push(`(i.created_at, i.id) ${filter.order === 'newest' ? '<' : '>'} (${at}, ${this.bind(after.id)})`);
    }
  }

  /**
   * Status and assignee as lists (`= ANY`): for the title-search plans, which do not merge. Every
   * status is no condition at all (the column holds nothing else), so the walk can read the
   * listing index alone.
   */
  statusAndAssignee(filter: InboxFilter): void {
    if (filter.statuses.length === 1) this.where.push(`i.status = ${this.bind(filter.statuses[0])}`);
    else if (filter.statuses.length < INTERRUPT_STATUSES.length) this.where.push(`i.status = ANY(${this.bind(filter.statuses)}::text[])`);
    if (filter.assignees !== undefined) {
      this.where.push(`i.assignee_type = ${this.bind(filter.assignees.type)}`, `i.assignee_id = ANY(${this.bind(filter.assignees.ids)}::uuid[])`);
    }
  }
}

const orderOf = (filter: InboxFilter, alias = 'i') => {
  const direction = filter.order === 'newest' ? 'DESC' : 'ASC';
  return `${alias}.created_at ${direction}, ${alias}.id ${direction}`;
};

/**
 * One page of the inbox without a title search, in keyset order (createdAt, id). Each filter is
 * an index range: status and assignee are equalities that lead the indexes (migration
 * 1795351200000), so a listing over several statuses or assignees is the merge of one short
 * ordered index walk per (status, assignee) pair — each stops at `take` rows — rather than a sort
 * of everything that matches. Unassigned and escalated have partial indexes.
 */
export function inboxPageQuery(organisationId: string, filter: InboxFilter, after: KeysetPosition | undefined, take: number): SqlQuery {
  const c = new Conditions(organisationId);
  const assigneeIds = filter.assignees?.ids ?? [];
  const partitioned = filter.statuses.length > 1 || assigneeIds.length > 1;
  const partitions: string[] = [];
  if (partitioned) {
    partitions.push(`unnest(${c.bind(filter.statuses)}::text[]) AS s(status)`);
    c.where.push('i.status = s.status');
    if (filter.assignees !== undefined) {
      partitions.push(`unnest(${c.bind(assigneeIds)}::uuid[]) AS a(id)`);
      c.where.push(`i.assignee_type = ${c.bind(filter.assignees.type)}`, 'i.assignee_id = a.id');
    }
  } else {
    c.statusAndAssignee(filter);
  }
  c.common(filter, after);
  const limit = c.bind(take);
  const order = orderOf(filter);
  if (!partitioned) {
    return {
      sql: `SELECT ${INTERRUPT_COLUMNS} FROM interrupts i WHERE ${c.where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}`,
      params: c.params,
    };
  }
  return {
    sql: `SELECT ${INTERRUPT_COLUMNS}
            FROM (SELECT p.id, p.created_at
                    FROM ${partitions.join(' CROSS JOIN ')}
                   CROSS JOIN LATERAL (
                     SELECT i.id, i.created_at FROM interrupts i
                      WHERE ${c.where.join(' AND ')}
                      ORDER BY ${order} LIMIT ${limit}) p
                   ORDER BY ${orderOf(filter, 'p')} LIMIT ${limit}) page
            JOIN interrupts i ON i.organisation_id = $1 AND i.id = page.id
           ORDER BY ${order}`,
    params: c.params,
  };
}

/** A title search first walks this many interrupts of the listing in order... */
export const TITLE_SEARCH_WINDOW = 2000;
/**
 * ...and goes on (in one window sized by the density found) while the matches found promise a
 * full page within this many walked interrupts; otherwise, matches being scarce, it hands over
 * to the word index. The walk reads the listing index alone (it carries the title words), about
 * a tenth of a microsecond an interrupt, while the index pays a row visit and a sort per match:
 * the budget puts the switch near where the two cost the same (BENCHMARKS.md, "The inbox").
 */
export const TITLE_SEARCH_WALK_BUDGET = 20_000;

/**
 * A title search, first plan: walk the next `window` interrupts of the listing in keyset order
 * (the ordered indexes) and keep those whose title matches. Right whenever matches are common,
 * which is when the word index is slowest (it must fetch and sort every match). Postgres cannot
 * tell the two apart for a prefix (it estimates prefix selectivity poorly), so the service
 * decides: the matches come back with `hit` true, and the window's last row with `hit` false
 * when the window was full, so the walk can go on after it or hand over to
 * `titleSearchIndexQuery` from there.
 */
export function titleSearchWalkQuery(
  organisationId: string,
  filter: InboxFilter,
  after: KeysetPosition | undefined,
  take: number,
  window = TITLE_SEARCH_WINDOW,
): SqlQuery {
  const c = new Conditions(organisationId);
  c.statusAndAssignee(filter);
  c.common(filter, after);
  const tsquery = c.bind(prefixTsquery(filter.words));
  const size = c.bind(window);
  const limit = c.bind(take);
  const order = orderOf(filter);
  const where = c.where.join(' AND ');
  // The window's last row is found by a second ordered walk (OFFSET) rather than a window
  // function over the first: both read the index alone, and the window function cost more.
  return {
    sql: `SELECT ${INTERRUPT_COLUMNS}, page.hit
            FROM ((SELECT w.id, true AS hit
                     FROM (SELECT i.id, i.created_at, i.title_search FROM interrupts i WHERE ${where}
                            ORDER BY ${order} LIMIT ${size}) w
                    WHERE w.title_search @@ ${tsquery}::tsquery
                    ORDER BY ${orderOf(filter, 'w')} LIMIT ${limit})
                  UNION ALL
                  (SELECT i.id, false AS hit FROM interrupts i WHERE ${where}
                    ORDER BY ${order} OFFSET ${size}::int - 1 LIMIT 1)) page
            JOIN interrupts i ON i.organisation_id = $1 AND i.id = page.id
           ORDER BY ${order}`,
    params: c.params,
  };
}

/**
 * A title search, second plan: every match through the word index (`<organisation id>:<word>`
 * keys, migration 1795351300000), then the page in keyset order. Materialised, so Postgres
 * collects the matches by the index rather than walking the ordered ones: right when matches
 * are rare.
 */
export function titleSearchIndexQuery(organisationId: string, filter: InboxFilter, after: KeysetPosition | undefined, take: number): SqlQuery {
  const c = new Conditions(organisationId);
  const keyed = prefixTsquery(filter.words.map((word) => `${organisationId}:${word}`));
  c.where.push(`audit_log_search_keys(i.organisation_id, i.title_search) @@ ${c.bind(keyed)}::tsquery`);
  c.statusAndAssignee(filter);
  c.common(filter, after);
  const limit = c.bind(take);
  return {
    sql: `WITH matches AS MATERIALIZED (SELECT i.id, i.created_at FROM interrupts i WHERE ${c.where.join(' AND ')})
          SELECT ${INTERRUPT_COLUMNS}
            FROM (SELECT m.id FROM matches m ORDER BY ${orderOf(filter, 'm')} LIMIT ${limit}) page
            JOIN interrupts i ON i.organisation_id = $1 AND i.id = page.id
           ORDER BY ${orderOf(filter)}`,
    params: c.params,
  };
}

/** Counts stop here: "more than CAP" is all a tab needs, and it keeps each count a short index walk. */
export const COUNT_CAP = 1000;

/**
 * The inbox tabs' counts, each capped at COUNT_CAP + 1 rows (so "more than the cap" can be
 * told from "exactly the cap"): open, open and assigned to the member, open and escalated,
 * answered. Each is an index-only walk of at most COUNT_CAP + 1 entries.
 */
export function inboxCountsQuery(organisationId: string, memberId: string): SqlQuery {
  const capped = (where: string) =>
    `(SELECT count(*)::int FROM (SELECT 1 FROM interrupts i WHERE i.organisation_id = $1 AND ${where} LIMIT $3) c)`;
  return {
    sql: `SELECT ${capped(`i.status = 'open'`)} AS open,
                 ${capped(`i.assignee_type = 'member' AND i.assignee_id = $2 AND i.status = 'open'`)} AS assigned_to_me,
                 ${capped(`i.status = 'open' AND i.escalation_level > 0`)} AS escalated,
                 ${capped(`i.status = 'answered'`)} AS answered`,
    params: [organisationId, memberId, COUNT_CAP + 1],
  };
}
