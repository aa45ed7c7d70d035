import { types } from 'pg';
import type { SearchCosts } from '@interlock/audit';
import { pageAsOneRow, type KeysetPosition, type PageRowShape } from '@interlock/cursor';
import { INTERRUPT_STATUSES } from './interrupt.entity';
import type { InterruptStatus } from './interrupt.entity';
import { RECORD_RENDER_VERSION } from './interrupt-record';

/** An interrupt's decisions as a JSON array, in the order they were made. */
const DECISIONS_JSON = `COALESCE((
    SELECT json_agg(json_build_object(
             'id', d.id, 'actionName', d.action_name, 'decision', d.decision,
             'editedArgs', d.edited_args, 'editedName', d.edited_name, 'message', d.message, 'response', d.response,
             'decidedByType', d.decided_by_type, 'decidedById', d.decided_by_id, 'decidedByName', d.decided_by_name,
             'decidedByRuleId', d.decided_by_rule_id, 'decidedByReason', d.decided_by_reason, 'decidedAt', d.decided_at)
           ORDER BY d.decided_at, d.id)
      FROM interrupt_decisions d
     WHERE d.organisation_id = i.organisation_id AND d.interrupt_id = i.id
  ), '[]'::json)`;

/**
 * The members' approvals of actions that need several (SPEC §8e), in the order they were given.
 * Only such actions have any: a single approval is the action's decision.
 */
const APPROVALS_JSON = `COALESCE((
    SELECT json_agg(json_build_object(
             'actionName', p.action_name, 'memberId', p.member_id, 'memberName', p.member_name,
             'approvedAt', p.approved_at)
           ORDER BY p.approved_at, p.member_id)
      FROM interrupt_approvals p
     WHERE p.organisation_id = i.organisation_id AND p.interrupt_id = i.id
  ), '[]'::json)`;

/** The columns every read of an interrupt selects, with its decisions as a JSON array. */
export const INTERRUPT_COLUMNS = `
  i.id, i.title, i.description, i.external_id, i.session_id, i.status, i.action_requests,
  i.assignee_type, i.assignee_id, i.assignee_name, i.escalation_level, i.escalation_reason,
  i.escalated_at, i.metadata, i.created_at, i.answered_at, i.expires_at, i.on_timeout, i.closed_at, i.withdrawn_reason,
  i.opened_by_key_id, i.opened_by_key_name, i.risk, i.risk_labels, i.priority, i.agent_labels,
  ${DECISIONS_JSON} AS decisions, ${APPROVALS_JSON} AS approvals`;

/** The row keeps its record as this renderer renders it (interrupt-record.ts). */
const RECORD_KEPT = `(i.record_version = ${RECORD_RENDER_VERSION} AND i.record_json IS NOT NULL)`;

/**
 * The inbox listing's columns (issue 28 item 4, the audit page's treatment): the row's place in
 * the listing (id, createdAt, deadline) and its record as the current renderer kept it
 * (`record_json`, null when not kept). Nothing else is read or decoded for a kept row; the rows
 * whose record is not kept are read whole afterwards (`InterruptsRepository.readMany`) and rendered.
 * The two instants come as Postgres writes them (`::text` is the type's own output, in the
 * session's time zone): only the page's last row is parsed, for the next cursor (`instantOf`) —
 * parsing both on every row was 4.5 % of the page's CPU (issue 28, BENCHMARKS.md).
 */
export const LISTED_INTERRUPT_COLUMNS = `
  i.id, i.created_at::text AS created_at, i.expires_at::text AS expires_at,
  CASE WHEN ${RECORD_KEPT} THEN i.record_json END AS record_json`;

/** A row of the inbox listing's page (LISTED_INTERRUPT_COLUMNS). */
export interface ListedInterruptRow {
  id: string;
  /** Postgres' text of the timestamptz (`instantOf` reads it). */
  created_at: string;
  expires_at: string | null;
  record_json: string | null;
}

const TIMESTAMPTZ_OID = 1184;
const parseTimestamptz = types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date;

/**
 * An instant of a listed row: the `Date` a whole row holds, or Postgres' text of a timestamptz
 * (`ListedInterruptRow`) read by the driver's own parser, so both give the same `Date`.
 */
export function instantOf(value: Date | string): Date {
  return typeof value === 'string' ? parseTimestamptz(value) : value;
}

/** What a page of the inbox is filtered by, resolved (the member's teams already looked up). */
export interface InboxFilter {
  /** The statuses listed: one, or both when the listing is not filtered by status. */
  statuses: readonly InterruptStatus[];
  /** Assigned to one of these members or teams (`me`, `my_teams`); undefined: anyone or no one. */
  assignees?: { type: 'member' | 'team'; ids: readonly string[] };
  unassigned?: boolean;
  escalated?: boolean;
  externalId?: string;
  /** Opened by this API key (`openedBy=me`). */
  openedByKeyId?: string;
  /** Only these priorities (SPEC §8e). */
  priorities?: readonly string[];
  /** Only interrupts with this label, the agent's or the classifier's. */
  label?: string;
  /** Folded title words, each required as a prefix (searched by the title-search plans). */
  words: readonly string[];
  /** ISO 8601 instants: createdAt ≥ from, < to. */
  from?: string;
  to?: string;
  order: 'newest' | 'oldest' | 'deadline';
}

/**
 * Where an interrupt without a deadline sorts in `deadline` order: after every deadline (the
 * cursor's position, and the listing index's expression, migration 1795730000000).
 */
export const NO_DEADLINE = new Date('9999-12-31T00:00:00.000Z');
const NO_DEADLINE_SQL = `'9999-12-31 00:00:00+00'::timestamptz`;

/** What a listing is ordered by (then by id): createdAt, or the deadline (none last). */
export function sortKeyOf(filter: Pick<InboxFilter, 'order'>, alias = 'i'): string {
  return filter.order === 'deadline'
    ? `COALESCE(${alias}.expires_at, ${NO_DEADLINE_SQL})`
    : `${alias}.created_at`;
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
    if (filter.externalId !== undefined)
      this.where.push(`i.external_id = ${this.bind(filter.externalId)}`);
    if (filter.openedByKeyId !== undefined)
      this.where.push(`i.opened_by_key_id = ${this.bind(filter.openedByKeyId)}::uuid`);
    if (filter.priorities !== undefined)
      this.where.push(`i.priority = ANY(${this.bind(filter.priorities)}::text[])`);
    if (filter.label !== undefined) {
      const label = this.bind([filter.label]);
      this.where.push(`(i.agent_labels @> ${label}::text[] OR i.risk_labels @> ${label}::text[])`);
    }
    if (filter.from !== undefined)
      this.where.push(`i.created_at >= ${this.bind(filter.from)}::timestamptz`);
    if (filter.to !== undefined)
      this.where.push(`i.created_at < ${this.bind(filter.to)}::timestamptz`);
    if (after !== undefined) {
      const at = this.bind(after.createdAt);
      this.where.push(
        `(${sortKeyOf(filter)}, i.id) ${filter.order === 'newest' ? '<' : '>'} (${at}::timestamptz, ${this.bind(after.id)}::uuid)`,
      );
    }
  }

  /**
   * Status and assignee as lists (`= ANY`): for the title-search plans, which do not merge. Every
   * status is no condition at all (the column holds nothing else), so the walk can read the
   * listing index alone.
   */
  statusAndAssignee(filter: InboxFilter): void {
    if (filter.statuses.length === 1)
      this.where.push(`i.status = ${this.bind(filter.statuses[0])}`);
    else if (filter.statuses.length < INTERRUPT_STATUSES.length)
      this.where.push(`i.status = ANY(${this.bind(filter.statuses)}::text[])`);
    if (filter.assignees !== undefined) {
      this.where.push(
        `i.assignee_type = ${this.bind(filter.assignees.type)}`,
        `i.assignee_id = ANY(${this.bind(filter.assignees.ids)}::uuid[])`,
      );
    }
  }
}

const directionOf = (filter: InboxFilter) => (filter.order === 'newest' ? 'DESC' : 'ASC');

const orderOf = (filter: InboxFilter, alias = 'i') =>
  `${sortKeyOf(filter, alias)} ${directionOf(filter)}, ${alias}.id ${directionOf(filter)}`;

/**
 * Whether a page walks the listing's statuses one at a time (merged): when it lists some statuses
 * but not all, or when the index that serves its filter leads with the status (the assignee,
 * unassigned, escalated, opened-by and deadline-order indexes). Every status with none of those
 * is one ordered walk of (organisation, createdAt, id): walked a status at a time instead, the
 * planner may read that same index once per status with the status as a filter (it does when
 * the table's statistics know one status), reading every interrupt of the organisation for each
 * status it has none of — the inbox page's cost grew with the organisation's interrupts (issue
 * 28, BENCHMARKS.md).
 */
function walkedByStatus(filter: InboxFilter): boolean {
  if (filter.statuses.length === 1) return false;
  if (filter.statuses.length < INTERRUPT_STATUSES.length) return true;
  return (
    filter.order === 'deadline' ||
    filter.assignees !== undefined ||
    filter.unassigned === true ||
    filter.escalated === true ||
    filter.openedByKeyId !== undefined
  );
}

/**
 * One page of the inbox without a title search, in keyset order ((createdAt or the deadline), id). Each filter is
 * an index range: status and assignee are equalities that lead the indexes (migration
 * 1795351200000), so a listing over several statuses or assignees is the merge of one short
 * ordered index walk per (status, assignee) pair — each stops at `take` rows — rather than a sort
 * of everything that matches. Unassigned and escalated have partial indexes; opened by a key,
 * (opened_by_key_id, status, created_at, id) after the organisation (migration 1795372000000).
 * Every status with no filter whose index leads with the status is one walk (`walkedByStatus`).
 */
export function inboxPageQuery(
  organisationId: string,
  filter: InboxFilter,
  after: KeysetPosition | undefined,
  take: number,
  columns: string = INTERRUPT_COLUMNS,
): SqlQuery {
  const c = new Conditions(organisationId);
  const assigneeIds = filter.assignees?.ids ?? [];
  const partitioned = walkedByStatus(filter) || assigneeIds.length > 1;
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
      sql: `SELECT ${columns} FROM interrupts i WHERE ${c.where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}`,
      params: c.params,
    };
  }
  return {
    sql: `SELECT ${columns}
            FROM (SELECT p.id, p.created_at, p.expires_at
                    FROM ${partitions.join(' CROSS JOIN ')}
                   CROSS JOIN LATERAL (
                     SELECT i.id, i.created_at, i.expires_at FROM interrupts i
                      WHERE ${c.where.join(' AND ')}
                      ORDER BY ${order} LIMIT ${limit}) p
                   ORDER BY ${orderOf(filter, 'p')} LIMIT ${limit}) page
            JOIN interrupts i ON i.organisation_id = $1 AND i.id = page.id
           ORDER BY ${order}`,
    params: c.params,
  };
}

/**
 * A page of the plain listing (`inboxPageQuery` of LISTED_INTERRUPT_COLUMNS) as one row (issue
 * 28 §4, as the audit page): the kept records of the page's rows joined by Postgres with commas
 * in the listing's order (`records`, null for none), how many rows of the `take` asked for there
 * were (`taken`: `take` means a next page), how many of the page's rows have no kept record
 * (`unkept`: then `records` leaves them out, and the page is read row by row) and the place of
 * the page's last row, the `take - 1`th (null when there is none) — one string for the driver to
 * decode and nothing for the service to join, where the rows were `take` rows of four columns.
 */
export interface InboxPageText {
  records: string | null;
  taken: number;
  unkept: number;
  last_id: string | null;
  /** Postgres' text of the timestamptz, as ListedInterruptRow's. */
  last_created_at: string | null;
  last_expires_at: string | null;
}

/** How a page of the listing in `direction` is one `InboxPageText` row (`pageAsOneRow`). */
function inboxPageText(direction: 'ASC' | 'DESC'): PageRowShape {
  return {
    joined: { column: 'record_json', as: 'records' },
    order: `q.sort_at ${direction}, q.id ${direction}`,
    last: {
      last_id: 'p.id::text',
      last_created_at: 'p.created_at',
      last_expires_at: 'p.expires_at',
    },
    more: (onPage) => [
      `(count(*) FILTER (WHERE ${onPage} AND p.record_json IS NULL))::int AS unkept`,
    ],
    memo: new Map(),
  };
}
const INBOX_PAGE_TEXT = { ASC: inboxPageText('ASC'), DESC: inboxPageText('DESC') };

/**
 * `inboxPageQuery` of the listed columns as one row (`InboxPageText`, libs/cursor's
 * `pageAsOneRow`), its rows numbered by the listing's order (`sort_at`, the listing's sort key).
 */
export function inboxPageTextQuery(
  organisationId: string,
  filter: InboxFilter,
  after: KeysetPosition | undefined,
  take: number,
): SqlQuery {
  const columns = `${LISTED_INTERRUPT_COLUMNS}, ${sortKeyOf(filter)} AS sort_at`;
  return pageAsOneRow(
    inboxPageQuery(organisationId, filter, after, take, columns),
    INBOX_PAGE_TEXT[directionOf(filter)],
  );
}

/**
 * How the two title-search plans compare on interrupts (libs/audit's chooseSearchPlan and
 * walkOn decide with these): the walk reads a listing index that carries the title words, about
 * a fifteenth of what the word index pays per match (a row visit, then a sort), so the index
 * alone suits at most a few hundred matches (BENCHMARKS.md, "The inbox").
 */
export const TITLE_SEARCH_COSTS: SearchCosts = {
  indexMatches: 300,
  walkEntriesPerIndexMatch: 15,
  windowMin: 2000,
  windowMax: 20000,
};
/** A walk reads at most this many interrupts per query. */
export const TITLE_SEARCH_WALK_CHUNK = 10_000;
/** A prefix that starts more of the organisation's words than this is searched as a prefix. */
export const MAX_TITLE_PREFIX_EXPANSION = 64;

/**
 * For each word of a search (`n` from 1), the organisation's title words it is a prefix of (the
 * first MAX_TITLE_PREFIX_EXPANSION + 1) and how many interrupts hold each; and (`n` 0) how many
 * interrupts the organisation has. From the lexicon (migration 1795351400000), whose words are
 * in C collation: a prefix's words are one range of its primary key.
 */
export function titleWordsQuery(organisationId: string, words: readonly string[]): SqlQuery {
  return {
    sql: `SELECT q.n::int AS n, t.word, t.interrupts::float8 AS interrupts
            FROM unnest($2::text[]) WITH ORDINALITY AS q(prefix, n)
           CROSS JOIN LATERAL (
             SELECT word, interrupts FROM interrupt_title_words
              WHERE organisation_id = $1 AND word >= q.prefix AND word < q.prefix || chr(1114111)
              ORDER BY word LIMIT ${MAX_TITLE_PREFIX_EXPANSION + 1}) t
          UNION ALL
          SELECT 0, '', interrupts::float8 FROM interrupt_title_words WHERE organisation_id = $1 AND word = ''`,
    params: [organisationId, words],
  };
}

/**
 * A title search, first plan: walk the next `window` interrupts of the listing in keyset order
 * (the ordered indexes) and keep those whose title matches. Right whenever matches are common,
 * which is when the word index is slowest (it must fetch and sort every match). Postgres cannot
 * tell the two apart for a prefix (it estimates prefix selectivity poorly), so the service
 * decides: a window that does not yield a page is followed by `titleSearchWindowEndQuery`, and
 * the walk goes on after its end, or hands over to `titleSearchIndexQuery` from there.
 */
export function titleSearchWalkQuery(
  organisationId: string,
  filter: InboxFilter,
  after: KeysetPosition | undefined,
  take: number,
  window: number,
  words: string,
): SqlQuery {
  const c = new Conditions(organisationId);
  c.statusAndAssignee(filter);
  c.common(filter, after);
  const tsquery = c.bind(words);
  const size = c.bind(window);
  const limit = c.bind(take);
  const order = orderOf(filter);
  return {
    sql: `SELECT ${INTERRUPT_COLUMNS}
            FROM (SELECT w.id
                    FROM (SELECT i.id, i.created_at, i.expires_at, i.title_search FROM interrupts i WHERE ${c.where.join(' AND ')}
                           ORDER BY ${order} LIMIT ${size}) w
                   WHERE w.title_search @@ ${tsquery}::tsquery
                   ORDER BY ${orderOf(filter, 'w')} LIMIT ${limit}) page
            JOIN interrupts i ON i.organisation_id = $1 AND i.id = page.id
           ORDER BY ${order}`,
    params: c.params,
  };
}

/**
 * The last interrupt of a walk's window (none when the listing ended within it): where a walk
 * that did not fill its page goes on, or the word index takes over. Asked only then, since it
 * reads the whole window (the index alone) even when the page filled early.
 */
export function titleSearchWindowEndQuery(
  organisationId: string,
  filter: InboxFilter,
  after: KeysetPosition | undefined,
  window: number,
): SqlQuery {
  const c = new Conditions(organisationId);
  c.statusAndAssignee(filter);
  c.common(filter, after);
  return {
    sql: `SELECT i.id, ${sortKeyOf(filter)} AS position_at FROM interrupts i WHERE ${c.where.join(' AND ')} ORDER BY ${orderOf(filter)} OFFSET ${c.bind(window)}::int - 1 LIMIT 1`,
    params: c.params,
  };
}

/**
 * A title search, second plan: every match through the word index (`<organisation id>:<word>`
 * keys, migration 1795351300000), then the page in keyset order. Materialised, so Postgres
 * collects the matches by the index rather than walking the ordered ones: right when matches
 * are rare.
 */
export function titleSearchIndexQuery(
  organisationId: string,
  filter: InboxFilter,
  after: KeysetPosition | undefined,
  take: number,
  keyedWords: string,
): SqlQuery {
  const c = new Conditions(organisationId);
  c.where.push(
    `audit_log_search_keys(i.organisation_id, i.title_search) @@ ${c.bind(keyedWords)}::tsquery`,
  );
  c.statusAndAssignee(filter);
  c.common(filter, after);
  const limit = c.bind(take);
  return {
    sql: `WITH matches AS MATERIALIZED (SELECT i.id, i.created_at, i.expires_at FROM interrupts i WHERE ${c.where.join(' AND ')})
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
 * told from "exactly the cap"): open, open and assigned to the member, open and assigned to
 * the member or a team of theirs (what waits for them: the dashboard's tab title and browser
 * notifications), open and escalated, answered. Each is an index walk of at most COUNT_CAP + 1
 * entries per assignee.
 */
export function inboxCountsQuery(organisationId: string, memberId: string): SqlQuery {
  const capped = (where: string) =>
    `(SELECT count(*)::int FROM (SELECT 1 FROM interrupts i WHERE i.organisation_id = $1 AND ${where} LIMIT $3) c)`;
  return {
    sql: `SELECT ${capped(`i.status = 'open'`)} AS open,
                 ${capped(`i.assignee_type = 'member' AND i.assignee_id = $2 AND i.status = 'open'`)} AS assigned_to_me,
                 ${capped(
                   `i.status = 'open' AND ((i.assignee_type = 'member' AND i.assignee_id = $2) OR (i.assignee_type = 'team' AND i.assignee_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organisation_id = $1 AND tm.member_id = $2)))`,
                 )} AS waiting_for_me,
                 ${capped(`i.status = 'open' AND i.escalation_level > 0`)} AS escalated,
                 ${capped(`i.status = 'answered'`)} AS answered`,
    params: [organisationId, memberId, COUNT_CAP + 1],
  };
}
