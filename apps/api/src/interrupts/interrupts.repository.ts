import { Injectable } from '@nestjs/common';
import { DomainError, type EscalationPosition } from '@interlock/domain';
import type { KeysetPosition } from '@interlock/cursor';
// The detail read shows what two other owners hold — the linked session and the audit history —
// in its one statement (a hot read: one named prepared statement, no extra round trip), so it
// composes the fragments those owners lend rather than calling them.
import { targetHistoryJson } from '@interlock/audit';
import { linkedSessionJson } from '../sessions/sessions.repository';
import type { Statement } from '../database/combined-statement';
import { hasRow, type Queryable, queryRows } from '../database/query-rows.util';
import {
  INTERRUPT_COLUMNS,
  InboxFilter,
  inboxCountsQuery,
  inboxPageQuery,
  type InboxPageText,
  inboxPageTextQuery,
  titleSearchIndexQuery,
  titleSearchWalkQuery,
  titleSearchWindowEndQuery,
  titleWordsQuery,
} from './inbox-query.util';
import {
  INTERRUPT_HISTORY_MAX,
  INTERRUPT_INCLUDES,
  InterruptDetailRow,
  InterruptInclude,
  InterruptRow,
  RECORD_RENDER_VERSION,
  StoredActionRequest,
  toInterruptResponse,
} from './interrupt-record';
import type { InterruptResponse } from './dto/interrupt.response';
import type { InterruptStatus, OnTimeout, Priority } from './interrupt.entity';
import type { Risk } from '../classification/rule-engine';

/** The detail read's extra columns, on request: the linked session (id, name, status) and the interrupt's audit entries. */
const INCLUDE_COLUMNS: Record<InterruptInclude, string> = {
  session: `
  ${linkedSessionJson('i.organisation_id', 'i.session_id')} AS session`,
  history: `
  ${targetHistoryJson('i.organisation_id', 'interrupt', 'i.id::text', INTERRUPT_HISTORY_MAX)} AS history`,
  argus: `
  ${targetHistoryJson('i.organisation_id', 'interrupt', 'i.id::text', INTERRUPT_HISTORY_MAX, { actorType: 'argus' })} AS argus`,
  // Never the URL or its secret (SPEC §8e); a TLS failure's text may name the host: not that either.
  resume: `
  (SELECT json_build_object(
            'status', CASE r.status WHEN 'succeeded' THEN 'delivered'
                                    WHEN 'pending' THEN CASE WHEN r.attempt_count = 0 THEN 'pending' ELSE 'retrying' END
                                    ELSE r.status END,
            'attempts', r.attempt_count, 'maxAttempts', r.max_attempts,
            'lastAttemptAt', r.last_attempt_at, 'lastResponseStatus', r.last_response_status,
            'lastError', CASE WHEN r.last_error LIKE 'TLS failed:%' THEN 'TLS failed.' ELSE r.last_error END,
            'nextAttemptAt', CASE WHEN r.status = 'pending' THEN r.due_at END,
            'finishedAt', r.finished_at)
     FROM interrupt_resumes r WHERE r.organisation_id = i.organisation_id AND r.interrupt_id = i.id) AS resume`,
  // The service's own entries, the policies that may govern it and its place in them (SPEC §8e):
  // escalationView (interrupt-record.ts) reckons the next step from these as the job does.
  escalation: `
  json_build_object(
    'entries', ${targetHistoryJson('i.organisation_id', 'interrupt', 'i.id::text', INTERRUPT_HISTORY_MAX, { actorType: 'system' })},
    'organisationPolicy', (SELECT o.interrupt_escalation_policy FROM organisations o WHERE o.id = i.organisation_id),
    'team', (SELECT json_build_object('id', t.id, 'name', t.name, 'policy', t.escalation_policy)
               FROM teams t
              WHERE i.assignee_type = 'team' AND t.organisation_id = i.organisation_id
                AND t.id = i.assignee_id AND t.escalation_policy IS NOT NULL),
    'step', i.escalation_step, 'policyTeamId', i.escalation_policy_team_id,
    'clockAt', i.escalation_clock_at, 'assigneeChangedAt', i.assignee_changed_at) AS escalation`,
};

/** The columns of a detail read: the record's, and those of what was asked to be included. */
function detailColumns(include: ReadonlySet<InterruptInclude>): string {
  return [
    INTERRUPT_COLUMNS,
    ...INTERRUPT_INCLUDES.filter((x) => include.has(x)).map((x) => INCLUDE_COLUMNS[x]),
  ].join(',');
}

/**
 * The detail read's statement for each set of includes, built once: a prepared read is looked up
 * by its text, and a text built per request is hashed again on every lookup.
 */
const DETAIL_STATEMENTS = new Map<string, string>();

function detailStatement(include: ReadonlySet<InterruptInclude>): string {
  const key = include.size === 0 ? '' : INTERRUPT_INCLUDES.filter((x) => include.has(x)).join();
  let sql = DETAIL_STATEMENTS.get(key);
  if (sql === undefined) {
    sql = `SELECT ${detailColumns(include)} FROM interrupts i WHERE i.organisation_id = $1 AND i.id = $2`;
    DETAIL_STATEMENTS.set(key, sql);
  }
  return sql;
}

export interface NewInterrupt {
  id: string;
  title: string;
  description: string | null;
  externalId: string | null;
  sessionId: string | null;
  actionRequests: StoredActionRequest[];
  metadata: Record<string, unknown> | null;
  openedByKeyId: string;
  /** The key's name now (kept: the record names the key as it was). */
  openedByKeyName: string;
  /** What the external classifier said (SPEC §8d): the highest risk, the labels; null when nothing. */
  risk: Risk | null;
  riskLabels: string[] | null;
  /** How urgent it is (SPEC §8e). */
  priority: Priority;
  /** The agent's labels, each once; null for none. */
  agentLabels: string[] | null;
  /** Assigned as it opens (its agent's `assignTo`), named as now; null for nobody. */
  assignee: { type: 'member' | 'team'; id: string; name: string } | null;
  /** The title's folded words, for the title search. */
  titleWords: string[];
  /** The deadline, in seconds from now (the database's now), and what it does; null for none. */
  deadline: { seconds: number; onTimeout: OnTimeout } | null;
}

/** An open interrupt whose deadline has passed, across organisations (the expiry job). */
export interface DueInterrupt {
  organisation_id: string;
  id: string;
}

/** An interrupt whose 'deadline coming' warning was just claimed (SPEC §8h). */
export interface DeadlineWarning {
  organisation_id: string;
  id: string;
  expires_at: Date;
  on_timeout: OnTimeout | null;
  timeout_escalated: boolean;
  approve_allowed: boolean;
}

/** An interrupt as a review reads it under its row lock. */
export type LockedInterrupt = Pick<
  InterruptRow,
  | 'title'
  | 'status'
  | 'priority'
  | 'action_requests'
  | 'assignee_type'
  | 'assignee_id'
  | 'assignee_name'
  | 'escalation_level'
  | 'expires_at'
  | 'on_timeout'
> & {
  created_at: Date;
  timeout_escalated: boolean;
  opened_by_key_id: string | null;
  session_id: string | null;
  escalation_step: number;
  escalation_policy_team_id: string | null;
  escalation_clock_at: Date | null;
  assignee_changed_at: Date | null;
};

/** Who had a locked interrupt, as the audit entry of a change of its assignee names them. */
export function previousAssigneeOf(
  interrupt: Pick<LockedInterrupt, 'assignee_type' | 'assignee_id' | 'assignee_name'>,
) {
  return {
    previousAssigneeType: interrupt.assignee_type,
    previousAssigneeId: interrupt.assignee_id,
    previousAssigneeName: interrupt.assignee_name,
  };
}

/** A decision to record: the record's decision fields (its time is the database's) and the interrupt. */
export type NewDecision = Omit<InterruptRow['decisions'][number], 'decidedAt'> & {
  interruptId: string;
};

/** The columns of a `LockedInterrupt`. */
const LOCKED_COLUMNS = `title, status, priority, action_requests, assignee_type, assignee_id, assignee_name, escalation_level,
  expires_at, on_timeout, created_at, timeout_escalated, opened_by_key_id, session_id,
  escalation_step, escalation_policy_team_id, escalation_clock_at, assignee_changed_at`;

export interface InboxCountsRow {
  open: number;
  assigned_to_me: number;
  waiting_for_me: number;
  escalated: number;
  answered: number;
}

/**
 * The `interrupts`, `interrupt_decisions` and `interrupt_title_words` tables' one owner (the
 * title words are kept by triggers; the inbox's statements are built in inbox-query.util.ts).
 * Every method takes the handle to run on — the caller's transaction, the data source, or the
 * prepared reads (`PreparedReads` and its `within(tx)` are Queryables) — and the organisation first.
 */
@Injectable()
export class InterruptsRepository {
  async insert(
    db: Queryable,
    organisationId: string,
    interrupt: NewInterrupt,
  ): Promise<InterruptRow> {
    const [row] = await queryRows<InterruptRow>(
      db,
      `INSERT INTO interrupts AS i
         (organisation_id, id, title, description, external_id, session_id, action_requests, metadata, opened_by_key_id,
          title_search, expires_at, on_timeout, opened_by_key_name, risk, risk_labels, priority, agent_labels,
          assignee_type, assignee_id, assignee_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, array_to_tsvector($10::text[]),
               now() + $11::integer * interval '1 second', $12, $13, $14, $15, $16, $17, $18, $19, $20)
       RETURNING ${INTERRUPT_COLUMNS}`,
      [
        organisationId,
        interrupt.id,
        interrupt.title,
        interrupt.description,
        interrupt.externalId,
        interrupt.sessionId,
        JSON.stringify(interrupt.actionRequests),
        interrupt.metadata === null ? null : JSON.stringify(interrupt.metadata),
        interrupt.openedByKeyId,
        interrupt.titleWords,
        interrupt.deadline?.seconds ?? null,
        interrupt.deadline?.onTimeout ?? null,
        interrupt.openedByKeyName,
        interrupt.risk,
        interrupt.riskLabels,
        interrupt.priority,
        interrupt.agentLabels,
        interrupt.assignee?.type ?? null,
        interrupt.assignee?.id ?? null,
        interrupt.assignee?.name ?? null,
      ],
    );
    return row;
  }

  /** One interrupt with its decisions and, when asked, its linked session and history — one statement. */
  async readDetail(
    db: Queryable,
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude>,
  ): Promise<InterruptDetailRow | undefined> {
    const [row] = await queryRows<InterruptDetailRow>(db, detailStatement(include), [
      organisationId,
      id,
    ]);
    return row;
  }

  /** The member (current) or team an escalation step names, with its name now; undefined when gone. */
  async escalationAssignee(
    db: Queryable,
    organisationId: string,
    to: { memberId: string } | { teamId: string },
  ): Promise<{ type: 'member' | 'team'; id: string; name: string } | undefined> {
    const [row] = await queryRows<{ type: 'member' | 'team'; id: string; name: string }>(
      db,
      'teamId' in to
        ? `SELECT 'team' AS type, t.id, t.name FROM teams t WHERE t.organisation_id = $1 AND t.id = $2`
        : `SELECT 'member' AS type, u.id, u.name FROM memberships m JOIN users u ON u.id = m.user_id
            WHERE m.organisation_id = $1 AND m.user_id = $2 AND m.left_at IS NULL`,
      [organisationId, 'teamId' in to ? to.teamId : to.memberId],
    );
    return row;
  }

  /**
   * The record as the API renders it, kept with the row (`record_json`): null when it is not kept
   * (opened before it was, or changed outside the service), and then `readDetail` reads it.
   */
  readRecord(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<{ status: InterruptStatus; record_json: string | null } | undefined> {
    // A record kept by another version of the renderer counts as not kept. A SELECT: its answer
    // is the rows (queryRows only evens out UPDATE and DELETE), taken in one step (PreparedReads.query).
    return (
      db.query(
        `SELECT i.status, CASE WHEN i.record_version = $3 THEN i.record_json END AS record_json FROM interrupts i WHERE i.organisation_id = $1 AND i.id = $2`,
        [organisationId, id, RECORD_RENDER_VERSION],
      ) as Promise<{ status: InterruptStatus; record_json: string | null }[]>
    ).then((rows) => rows[0]);
  }

  /** `readRecord` of several interrupts of one organisation in one statement, by id (absent: not the organisation's). */
  async readRecords(
    db: Queryable,
    organisationId: string,
    ids: readonly string[],
  ): Promise<Map<string, { status: InterruptStatus; record_json: string | null }>> {
    const rows = await queryRows<{
      id: string;
      status: InterruptStatus;
      record_json: string | null;
    }>(
      db,
      `SELECT i.id, i.status, CASE WHEN i.record_version = $3 THEN i.record_json END AS record_json FROM interrupts i WHERE i.organisation_id = $1 AND i.id = ANY($2::uuid[])`,
      [organisationId, ids, RECORD_RENDER_VERSION],
    );
    return new Map(
      rows.map((row) => [row.id, { status: row.status, record_json: row.record_json }]),
    );
  }

  /** The statuses of some of an organisation's interrupts (a resync of held waits, InterruptWaits). */
  async readStatuses(
    db: Queryable,
    organisationId: string,
    ids: readonly string[],
  ): Promise<Map<string, InterruptStatus>> {
    const rows = await queryRows<{ id: string; status: InterruptStatus }>(
      db,
      `SELECT i.id, i.status FROM interrupts i WHERE i.organisation_id = $1 AND i.id = ANY($2::uuid[])`,
      [organisationId, ids],
    );
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  /**
   * Keeps the record's rendering with the row: the last write of every transaction that changes
   * the interrupt (any other update of the row, and any change to its decisions, clears it).
   */
  async keepRecord(
    db: Queryable,
    organisationId: string,
    id: string,
    recordJson: string,
  ): Promise<void> {
    const { text, values } = this.keepRecordStatement(organisationId, id, recordJson);
    await db.query(text, [...values]);
  }

  /** `keepRecord`'s statement, for a caller that runs it with others (`WebhookOutbox.write`). */
  keepRecordStatement(organisationId: string, id: string, recordJson: string): Statement {
    return {
      text: `UPDATE interrupts SET record_json = $3, record_version = $4 WHERE organisation_id = $1 AND id = $2`,
      values: [organisationId, id, recordJson, RECORD_RENDER_VERSION],
    };
  }

  /**
   * The interrupt as the API renders it (SPEC §5), from its row as stored (jsonb's key order, as
   * every read renders it). NOT_FOUND when there is none.
   */
  async render(db: Queryable, organisationId: string, id: string): Promise<InterruptResponse> {
    const row = await this.read(db, organisationId, id);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toInterruptResponse(row);
  }

  /**
   * The interrupt as a change left it, its rendering kept with the row (`record_json`, which the
   * change cleared): the last write to the interrupt in the transaction that changes it.
   */
  async keepRendered(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<InterruptResponse> {
    const record = await this.render(db, organisationId, id);
    await this.keepRecord(db, organisationId, id, JSON.stringify(record));
    return record;
  }

  /**
   * `keepRendered` of several interrupts: read in one statement, kept in one. The records, by id
   * (an id that is not the organisation's has none).
   */
  async keepRenderedMany(
    db: Queryable,
    organisationId: string,
    ids: readonly string[],
  ): Promise<Map<string, InterruptResponse>> {
    const records = new Map<string, InterruptResponse>();
    for (const row of await this.readMany(db, organisationId, ids))
      records.set(row.id, toInterruptResponse(row));
    const kept = [...records.values()];
    await db.query(
      `UPDATE interrupts i SET record_json = k.record_json, record_version = $4
         FROM unnest($2::uuid[], $3::text[]) AS k(id, record_json)
        WHERE i.organisation_id = $1 AND i.id = k.id`,
      [
        organisationId,
        kept.map((r) => r.id),
        kept.map((r) => JSON.stringify(r)),
        RECORD_RENDER_VERSION,
      ],
    );
    return records;
  }

  async read(db: Queryable, organisationId: string, id: string): Promise<InterruptRow | undefined> {
    const [row] = await queryRows<InterruptRow>(
      db,
      `SELECT ${INTERRUPT_COLUMNS} FROM interrupts i WHERE i.organisation_id = $1 AND i.id = $2`,
      [organisationId, id],
    );
    return row;
  }

  /** The organisation's interrupts with these ids, in no particular order (one statement). */
  readMany(db: Queryable, organisationId: string, ids: readonly string[]): Promise<InterruptRow[]> {
    return queryRows<InterruptRow>(
      db,
      `SELECT ${INTERRUPT_COLUMNS} FROM interrupts i WHERE i.organisation_id = $1 AND i.id = ANY($2::uuid[])`,
      [organisationId, ids],
    );
  }

  /** The interrupt, locked until the transaction ends: concurrent reviews of it queue. */
  async lock(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<LockedInterrupt | undefined> {
    const [row] = await queryRows<LockedInterrupt>(
      db,
      `SELECT ${LOCKED_COLUMNS} FROM interrupts WHERE organisation_id = $1 AND id = $2 FOR NO KEY UPDATE`,
      [organisationId, id],
    );
    return row;
  }

  /**
   * Claims, locked until the transaction ends, up to `limit` of the organisation's open interrupts
   * whose deadline is at or before `now` (of `ids` only, when given), oldest deadline first. Rows
   * another transaction holds are skipped — a decision under way, or another batch of expiries:
   * of several workers each claims different ones — and rows changed meanwhile are checked again
   * by the database as they are locked, so a claimed row is still open and due.
   */
  claimDue(
    db: Queryable,
    organisationId: string,
    now: Date,
    limit: number,
    ids?: readonly string[],
  ): Promise<(LockedInterrupt & { id: string })[]> {
    return queryRows<LockedInterrupt & { id: string }>(
      db,
      `SELECT id, ${LOCKED_COLUMNS} FROM interrupts
        WHERE organisation_id = $1 AND status = 'open' AND expires_at IS NOT NULL AND expires_at <= $2
          AND ($4::uuid[] IS NULL OR id = ANY($4::uuid[]))
        ORDER BY expires_at, id LIMIT $3
          FOR NO KEY UPDATE SKIP LOCKED`,
      [organisationId, now, limit, ids ?? null],
    );
  }
  /** `lock`, NOT_FOUND when there is no such interrupt. */
  async lockFound(db: Queryable, organisationId: string, id: string): Promise<LockedInterrupt> {
    const row = await this.lock(db, organisationId, id);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return row;
  }

  /** False when the action already has a decision (the unique index is the backstop). */
  async insertDecision(
    db: Queryable,
    organisationId: string,
    decision: NewDecision,
  ): Promise<boolean> {
    return (await this.insertDecisions(db, organisationId, [decision])).length > 0;
  }

  /**
   * Several decisions in one statement, of interrupts the caller has locked: those whose action
   * already has a decision are left out (the unique index). Returns the ones inserted.
   */
  async insertDecisions(
    db: Queryable,
    organisationId: string,
    decisions: readonly NewDecision[],
  ): Promise<{ interrupt_id: string; action_name: string }[]> {
    if (decisions.length === 0) return [];
    const column = <K extends keyof NewDecision>(key: K) => decisions.map((d) => d[key]);
    const json = (values: readonly unknown[]) =>
      values.map((v) => (v === undefined || v === null ? null : JSON.stringify(v)));
    return queryRows<{ interrupt_id: string; action_name: string }>(
      db,
      `INSERT INTO interrupt_decisions
         (organisation_id, id, interrupt_id, action_name, decision, edited_args, edited_name, message,
          decided_by_type, decided_by_id, decided_by_name, decided_by_rule_id, decided_by_reason, response)
       SELECT $1, d.id, d.interrupt_id, d.action_name, d.decision, d.edited_args, d.edited_name, d.message,
              d.decided_by_type, d.decided_by_id, d.decided_by_name, d.decided_by_rule_id, d.decided_by_reason,
              d.response
         FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[], $7::text[],
                                  $8::text[], $9::text[], $10::uuid[], $11::text[], $12::uuid[], $13::text[],
                                  $14::jsonb[]) WITH ORDINALITY
                          AS d(id, interrupt_id, action_name, decision, edited_args, edited_name, message,
                               decided_by_type, decided_by_id, decided_by_name, decided_by_rule_id,
                               decided_by_reason, response, n)
        ORDER BY d.n
       ON CONFLICT (organisation_id, interrupt_id, action_name) DO NOTHING
       RETURNING interrupt_id, action_name`,
      [
        organisationId,
        column('id'),
        column('interruptId'),
        column('actionName'),
        column('decision'),
        json(column('editedArgs')),
        column('editedName'),
        column('message'),
        column('decidedByType'),
        column('decidedById'),
        column('decidedByName'),
        column('decidedByRuleId'),
        column('decidedByReason'),
        json(column('response')),
      ],
    );
  }

  /** Whether the action already has its decision. */
  async hasDecision(
    db: Queryable,
    organisationId: string,
    id: string,
    actionName: string,
  ): Promise<boolean> {
    return hasRow(
      db,
      `SELECT 1 FROM interrupt_decisions
        WHERE organisation_id = $1 AND interrupt_id = $2 AND action_name = $3`,
      [organisationId, id, actionName],
    );
  }

  /**
   * A member's approval of an action that needs several; the number of approvals it then has, or
   * null when the member had already approved it (the primary key).
   */
  async insertApproval(
    db: Queryable,
    organisationId: string,
    approval: { interruptId: string; actionName: string; memberId: string; memberName: string },
  ): Promise<number | null> {
    const inserted = await queryRows<{ one: number }>(
      db,
      `INSERT INTO interrupt_approvals (organisation_id, interrupt_id, action_name, member_id, member_name)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organisation_id, interrupt_id, action_name, member_id) DO NOTHING
       RETURNING 1 AS one`,
      [
        organisationId,
        approval.interruptId,
        approval.actionName,
        approval.memberId,
        approval.memberName,
      ],
    );
    if (inserted.length === 0) return null;
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM interrupt_approvals
        WHERE organisation_id = $1 AND interrupt_id = $2 AND action_name = $3`,
      [organisationId, approval.interruptId, approval.actionName],
    );
    return n;
  }

  /** The organisation's latest interrupts as argus sees them (the classification dry run). */
  recentForClassification(
    db: Queryable,
    organisationId: string,
    limit: number,
  ): Promise<
    {
      id: string;
      title: string;
      description: string | null;
      session_id: string | null;
      opened_by_key_id: string | null;
      opened_by_key_name: string | null;
      action_requests: StoredActionRequest[];
    }[]
  > {
    return queryRows(
      db,
      `SELECT id, title, description, session_id, opened_by_key_id, opened_by_key_name, action_requests FROM interrupts
        WHERE organisation_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [organisationId, limit],
    );
  }

  /** One interrupt with what argus matches on ("Always allow this"). */
  async readForClassification(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<
    | {
        id: string;
        title: string;
        session_id: string | null;
        opened_by_key_id: string | null;
        action_requests: StoredActionRequest[];
      }
    | undefined
  > {
    const [row] = await queryRows<{
      id: string;
      title: string;
      session_id: string | null;
      opened_by_key_id: string | null;
      action_requests: StoredActionRequest[];
    }>(
      db,
      `SELECT id, title, session_id, opened_by_key_id, action_requests FROM interrupts
        WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
    return row;
  }

  /**
   * How many actions argus rejected, within the last `windowSeconds`, of interrupts this key
   * opened (the circuit breaker); walks the key's recent interrupts by their index.
   */
  async countArgusRejections(
    db: Queryable,
    organisationId: string,
    apiKeyId: string,
    windowSeconds: number,
  ): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      `SELECT count(*)::int AS n
         FROM interrupts i
         JOIN interrupt_decisions d ON d.organisation_id = i.organisation_id AND d.interrupt_id = i.id
        WHERE i.organisation_id = $1 AND i.opened_by_key_id = $2 AND i.created_at > now() - make_interval(secs => $3)
          AND d.decided_by_type = 'argus' AND d.decision = 'reject' AND d.decided_at > now() - make_interval(secs => $3)`,
      [organisationId, apiKeyId, windowSeconds],
    );
    return n;
  }

  async decisionCount(db: Queryable, organisationId: string, id: string): Promise<number> {
    const [{ decided }] = await queryRows<{ decided: number }>(
      db,
      `SELECT count(*)::int AS decided FROM interrupt_decisions WHERE organisation_id = $1 AND interrupt_id = $2`,
      [organisationId, id],
    );
    return decided;
  }

  /**
   * Open interrupts whose deadline is at or before `now`, oldest deadline first, across
   * organisations (the expiry job; `interrupts_due_idx`). Not locked: each is locked and checked
   * again when it is expired, so several instances may read the same ones.
   */
  /**
   * Open interrupts whose next escalation step (of the policy in force: their team's, or their
   * organisation's, SPEC §8e) is due at `now`, oldest first. Only organisations and teams with a
   * policy are read, and of them only open interrupts (the status index).
   */
  async escalationDue(db: Queryable, now: Date, limit: number): Promise<DueInterrupt[]> {
    // The policy in force and the position in it: libs/domain escalationPosition, in SQL.
    return queryRows<DueInterrupt>(
      db,
      `WITH candidates AS (
         SELECT i.organisation_id, i.id
           FROM organisations o
           JOIN interrupts i ON i.organisation_id = o.id AND i.status = 'open'
          WHERE o.interrupt_escalation_policy IS NOT NULL
         UNION
         SELECT i.organisation_id, i.id
           FROM teams t
           JOIN interrupts i ON i.organisation_id = t.organisation_id AND i.assignee_type = 'team'
                            AND i.assignee_id = t.id AND i.status = 'open'
          WHERE t.escalation_policy IS NOT NULL
       ), positioned AS (
         SELECT i.organisation_id, i.id, i.created_at, g.policy,
                CASE WHEN g.moved THEN 0 ELSE i.escalation_step::int END AS step,
                CASE WHEN g.moved THEN COALESCE(i.assignee_changed_at, i.created_at)
                     ELSE COALESCE(i.escalation_clock_at, i.created_at) END AS clock
           FROM candidates c
           JOIN interrupts i ON i.organisation_id = c.organisation_id AND i.id = c.id
           JOIN organisations o ON o.id = i.organisation_id
           LEFT JOIN teams t ON i.assignee_type = 'team' AND t.organisation_id = i.organisation_id
                            AND t.id = i.assignee_id AND t.escalation_policy IS NOT NULL
          CROSS JOIN LATERAL (
            SELECT COALESCE(t.escalation_policy, o.interrupt_escalation_policy) AS policy,
                   (t.id IS DISTINCT FROM i.escalation_policy_team_id
                     OR (t.id IS NOT NULL AND COALESCE(i.assignee_changed_at, i.created_at)
                                              > COALESCE(i.escalation_clock_at, i.created_at))) AS moved
          ) g
       )
       SELECT organisation_id, id FROM positioned
        WHERE policy IS NOT NULL
          AND step < jsonb_array_length(policy -> 'steps')
          AND clock + make_interval(mins => ((policy -> 'steps' -> step) ->> 'afterMinutes')::int) <= $1
        ORDER BY created_at, id
        LIMIT $2`,
      [now, limit],
    );
  }

  /** How many steps of its organisation's escalation policy the interrupt has passed. */
  async setEscalationStep(
    db: Queryable,
    organisationId: string,
    id: string,
    position: EscalationPosition,
  ): Promise<void> {
    await db.query(
      `UPDATE interrupts SET escalation_step = $3, escalation_policy_team_id = $4, escalation_clock_at = $5
        WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id, position.step, position.teamId, position.clock],
    );
  }

  async due(db: Queryable, now: Date, limit: number): Promise<DueInterrupt[]> {
    return queryRows<DueInterrupt>(
      db,
      `SELECT organisation_id, id FROM interrupts
        WHERE status = 'open' AND expires_at IS NOT NULL AND expires_at <= $1
        ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
  }

  /**
   * Claims, in one statement, the open interrupts whose 'deadline coming' warning is due at `now`
   * (SPEC §8h; libs/domain deadlineWarningAt, in SQL) and not yet given for their current
   * deadline: marks them warned and returns them with what their deadline will do. Rows locked by
   * a change under way are skipped (the next run sees them), so of several instances one claims each.
   */
  async claimDeadlineWarnings(db: Queryable, now: Date, limit: number): Promise<DeadlineWarning[]> {
    return queryRows<DeadlineWarning>(
      db,
      `WITH due AS (
         SELECT organisation_id, id FROM interrupts
          WHERE status = 'open' AND expires_at IS NOT NULL AND deadline_warned_at IS NULL
            AND expires_at > $1 AND expires_at - created_at > interval '2 minutes'
            AND expires_at - greatest(interval '1 minute',
                                      least(interval '60 minutes', (expires_at - created_at) * 0.2)) <= $1
          ORDER BY expires_at LIMIT $2
            FOR UPDATE SKIP LOCKED
       )
       UPDATE interrupts i SET deadline_warned_at = $1
         FROM due, organisations o
        WHERE i.organisation_id = due.organisation_id AND i.id = due.id AND o.id = i.organisation_id
       RETURNING i.organisation_id, i.id, i.expires_at, i.on_timeout, i.timeout_escalated,
                 o.interrupt_timeout_approve_allowed AS approve_allowed`,
      [now, limit],
    );
  }

  /** Ends an open interrupt as `expired` or `withdrawn` (with the agent's reason). */
  close(
    db: Queryable,
    organisationId: string,
    id: string,
    status: 'expired' | 'withdrawn',
    reason: string | null,
  ): Promise<void> {
    return this.closeMany(db, organisationId, [id], status, reason);
  }

  /** `close`, of several interrupts in one statement. */
  async closeMany(
    db: Queryable,
    organisationId: string,
    ids: readonly string[],
    status: 'expired' | 'withdrawn',
    reason: string | null,
  ): Promise<void> {
    await db.query(
      `UPDATE interrupts SET status = $3, closed_at = now(), withdrawn_reason = $4
        WHERE organisation_id = $1 AND id = ANY($2::uuid[])`,
      [organisationId, ids, status, reason],
    );
  }

  /** Moves the deadline (an extension, or an `escalate` deadline extending itself once: `escalated`). */
  async setDeadline(
    db: Queryable,
    organisationId: string,
    id: string,
    expiresAt: Date,
    escalated: boolean,
    onTimeout: OnTimeout,
  ): Promise<void> {
    await db.query(
      `UPDATE interrupts SET expires_at = $3, timeout_escalated = timeout_escalated OR $4, on_timeout = $5,
              deadline_warned_at = NULL
        WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id, expiresAt, escalated, onTimeout],
    );
  }

  async markAnswered(db: Queryable, organisationId: string, id: string): Promise<void> {
    await db.query(
      `UPDATE interrupts SET status = 'answered', answered_at = now() WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
  }

  /** Sets the assignee, or (null) clears it; a change of hands is dated (`assignee_changed_at`, SPEC §8e). */
  /** Sets how urgent it is (SPEC §8e). */
  async setPriority(
    db: Queryable,
    organisationId: string,
    id: string,
    priority: Priority,
  ): Promise<void> {
    await db.query(`UPDATE interrupts SET priority = $3 WHERE organisation_id = $1 AND id = $2`, [
      organisationId,
      id,
      priority,
    ]);
  }

  async setAssignee(
    db: Queryable,
    organisationId: string,
    id: string,
    assignee: { type: 'member' | 'team'; id: string; name: string } | null,
    /** When it changes hands (the escalation job's clock); now by default. */
    at?: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE interrupts SET assignee_type = $3, assignee_id = $4, assignee_name = $5,
              assignee_changed_at = CASE WHEN (assignee_type, assignee_id) IS DISTINCT FROM ($3::text, $4::uuid)
                                         THEN COALESCE($6::timestamptz, now()) ELSE assignee_changed_at END
        WHERE organisation_id = $1 AND id = $2`,
      [
        organisationId,
        id,
        assignee?.type ?? null,
        assignee?.id ?? null,
        assignee?.name ?? null,
        at ?? null,
      ],
    );
  }

  async escalate(
    db: Queryable,
    organisationId: string,
    id: string,
    level: number,
    reason: string | null,
  ): Promise<void> {
    await db.query(
      `UPDATE interrupts SET escalation_level = $3, escalation_reason = $4, escalated_at = now()
        WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id, level, reason],
    );
  }

  /** A page of the inbox without a title search (see inboxPageQuery). */
  page<Row extends { id: string } = InterruptRow>(
    db: Queryable,
    organisationId: string,
    filter: InboxFilter,
    after: KeysetPosition | undefined,
    take: number,
    /** The columns read (default: the whole row); `Row` names them. */
    columns?: string,
  ): Promise<Row[]> {
    const q = inboxPageQuery(organisationId, filter, after, take, columns);
    return queryRows<Row>(db, q.sql, q.params);
  }

  /** A page of the plain listing as one row (`InboxPageText`, inboxPageTextQuery). */
  async pageText(
    db: Queryable,
    organisationId: string,
    filter: InboxFilter,
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<InboxPageText> {
    const q = inboxPageTextQuery(organisationId, filter, after, take);
    const [page] = await queryRows<InboxPageText>(db, q.sql, q.params);
    return page;
  }

  /** The lexicon's words for each search prefix (`n` from 1) and the organisation's interrupt count (`n` 0). */
  titleWords(
    db: Queryable,
    organisationId: string,
    words: readonly string[],
  ): Promise<{ n: number; word: string; interrupts: number }[]> {
    const q = titleWordsQuery(organisationId, words);
    return queryRows(db, q.sql, q.params);
  }

  /** A title search's walk of the next `window` interrupts (see titleSearchWalkQuery). */
  titleSearchWalk(
    db: Queryable,
    organisationId: string,
    filter: InboxFilter,
    after: KeysetPosition | undefined,
    take: number,
    window: number,
    tsquery: string,
  ): Promise<InterruptRow[]> {
    const q = titleSearchWalkQuery(organisationId, filter, after, take, window, tsquery);
    return queryRows<InterruptRow>(db, q.sql, q.params);
  }

  /** The last interrupt of a walk's window; undefined when the listing ended within it. */
  async titleSearchWindowEnd(
    db: Queryable,
    organisationId: string,
    filter: InboxFilter,
    after: KeysetPosition | undefined,
    window: number,
  ): Promise<{ id: string; position_at: Date } | undefined> {
    const q = titleSearchWindowEndQuery(organisationId, filter, after, window);
    const [end] = await queryRows<{ id: string; position_at: Date }>(db, q.sql, q.params);
    return end;
  }

  /** A title search through the word index (see titleSearchIndexQuery). */
  titleSearchIndex(
    db: Queryable,
    organisationId: string,
    filter: InboxFilter,
    after: KeysetPosition | undefined,
    take: number,
    keyedTsquery: string,
  ): Promise<InterruptRow[]> {
    const q = titleSearchIndexQuery(organisationId, filter, after, take, keyedTsquery);
    return queryRows<InterruptRow>(db, q.sql, q.params);
  }

  /** The inbox tabs' counts, each capped (see inboxCountsQuery). */
  async counts(db: Queryable, organisationId: string, memberId: string): Promise<InboxCountsRow> {
    const q = inboxCountsQuery(organisationId, memberId);
    const [row] = await queryRows<InboxCountsRow>(db, q.sql, q.params);
    return row;
  }
}
