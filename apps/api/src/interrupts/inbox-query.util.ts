import { prefixTsquery } from '@interlock/audit';
import type { KeysetPosition } from '../http/keyset-cursor.util';
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

/**
 * One page of the inbox, in keyset order (createdAt, id). Each filter is an index range:
 * status and assignee are equalities that lead the indexes (migration 1795351200000), so a
 * listing over several statuses or assignees is the merge of one short ordered index walk per
 * (status, assignee) pair — each stops at `take` rows — rather than a sort of everything that
 * matches. Unassigned and escalated have partial indexes; a title search may use the word index.
 */
export function inboxPageQuery(organisationId: string, filter: InboxFilter, after: KeysetPosition | undefined, take: number): SqlQuery {
  const params: unknown[] = [organisationId];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const desc = filter.order === 'newest';
  const direction = desc ? 'DESC' : 'ASC';

  // The partitions: (status) or (status, assignee) pairs; a single one needs no merge.
  const assigneeIds = filter.assignees?.ids ?? [];
  const partitioned = filter.statuses.length > 1 || assigneeIds.length > 1;
  const partitions: string[] = [];
  let status: string;
  let assignee: string | undefined;
  if (partitioned) {
    partitions.push(`unnest(${bind(filter.statuses)}::text[]) AS s(status)`);
    status = 's.status';
    if (filter.assignees !== undefined) {
      partitions.push(`unnest(${bind(assigneeIds)}::uuid[]) AS a(id)`);
      assignee = 'a.id';
    }
  } else {
    status = bind(filter.statuses[0]);
    if (filter.assignees !== undefined) assignee = bind(assigneeIds[0]);
  }

  const where = ['i.organisation_id = $1', `i.status = ${status}`];
  if (filter.assignees !== undefined && assignee !== undefined) {
    where.push(`i.assignee_type = ${bind(filter.assignees.type)}`, `i.assignee_id = ${assignee}`);
  }
  if (filter.unassigned) where.push('i.assignee_id IS NULL');
  // The same expression as the partial index's predicate, so the planner can use it.
  if (filter.escalated === true) where.push('i.escalation_level > 0');
  if (filter.escalated === false) where.push('i.escalation_level = 0');
  if (filter.externalId !== undefined) where.push(`i.external_id = ${bind(filter.externalId)}`);
  if (filter.words.length > 0) where.push(`i.title_search @@ ${bind(prefixTsquery(filter.words))}::tsquery`);
  if (filter.from !== undefined) where.push(`i.created_at >= ${bind(filter.from)}::timestamptz`);
  if (filter.to !== undefined) where.push(`i.created_at < ${bind(filter.to)}::timestamptz`);
  if (after !== undefined) {
    const at = bind(after.createdAt);
    where.push(`(i.created_at, i.id) ${desc ? '<' : '>'} (${at}, ${bind(after.id)})`);
  }
  const limit = bind(take);
  const order = `i.created_at ${direction}, i.id ${direction}`;

  if (!partitioned) {
    return { sql: `SELECT ${INTERRUPT_COLUMNS} FROM interrupts i WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}`, params };
  }
  return {
    sql: `SELECT ${INTERRUPT_COLUMNS}
            FROM (SELECT p.id, p.created_at
                    FROM ${partitions.join(' CROSS JOIN ')}
                   CROSS JOIN LATERAL (
                     SELECT i.id, i.created_at FROM interrupts i
                      WHERE ${where.join(' AND ')}
                      ORDER BY ${order} LIMIT ${limit}) p
                   ORDER BY p.created_at ${direction}, p.id ${direction} LIMIT ${limit}) page
            JOIN interrupts i ON i.organisation_id = $1 AND i.id = page.id
           ORDER BY ${order}`,
    params,
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
