import { actionDigest } from './action-digest.util';
import type { Decision } from './interrupt-decision.entity';
import type { ResponseSchema } from '@interlock/domain';
import type { InterruptStatus, OnTimeout, Priority } from './interrupt.entity';
import type { Risk } from '../classification/rule-engine';
import {
  type ActorType,
  dueEscalationStep,
  type EscalationPolicy,
  type EscalationStep,
  escalationPosition,
  readDecider,
  type StoredDecider,
} from '@interlock/domain';
import type { SessionStatus } from '../sessions/session.entity';
import type { InterruptDetailResponse, InterruptResponse } from './dto/interrupt.response';

/** An action request as stored: every optional part filled in. */
export interface StoredActionRequest {
  name: string;
  args: Record<string, unknown>;
  description: string | null;
  allowedDecisions: Decision[];
  /**
   * The typed answer the agent asks for, as its JSON text: jsonb would reorder the schema's
   * properties, and their order is the form's. Absent when the action asks for none.
   */
  responseSchemaJson?: string;
  /** How many members' approvals approve it (SPEC §8e); absent (1) on actions stored before. */
  requiredApprovals?: number;
  /** Only members of this team may decide it; absent or null: any member who may decide. */
  approverTeam?: { id: string; name: string } | null;
}

/** A member's approval of an action that needs several, as the read aggregates it. */
export interface StoredApproval {
  actionName: string;
  memberId: string;
  memberName: string;
  /** Postgres' JSON text of a timestamptz. */
  approvedAt: string;
}

/** An action request's responseSchema, or null. */
export function responseSchemaOf(action: StoredActionRequest): ResponseSchema | null {
  return action.responseSchemaJson === undefined
    ? null
    : (JSON.parse(action.responseSchemaJson) as ResponseSchema);
}

export interface InterruptRow {
  /** The kept record (the inbox listing's read: LISTED_INTERRUPT_COLUMNS), when it is kept. */
  record_json?: string | null;
  id: string;
  title: string;
  description: string | null;
  external_id: string | null;
  session_id: string | null;
  status: InterruptStatus;
  action_requests: StoredActionRequest[];
  assignee_type: 'member' | 'team' | null;
  assignee_id: string | null;
  assignee_name: string | null;
  escalation_level: number;
  escalation_reason: string | null;
  escalated_at: Date | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  answered_at: Date | null;
  expires_at: Date | null;
  on_timeout: OnTimeout | null;
  closed_at: Date | null;
  withdrawn_reason: string | null;
  opened_by_key_id: string | null;
  opened_by_key_name: string | null;
  risk: Risk | null;
  risk_labels: string[] | null;
  priority: Priority;
  agent_labels: string[] | null;
  decisions: ({
    id: string;
    actionName: string;
    decision: Decision;
    editedArgs: Record<string, unknown> | null;
    editedName: string | null;
    message: string | null;
    /** Absent in rows read by code that does not select it. */
    response?: Record<string, unknown> | null;
    /** Postgres' JSON text of a timestamptz, e.g. `2026-11-21T10:00:00.123+00:00`. */
    decidedAt: string;
  } & StoredDecider)[];
  /** The approvals of actions that need several, in order (absent from reads that do not select them). */
  approvals?: StoredApproval[];
}

/**
 * The version of `toInterruptResponse`'s rendering. The record kept with each interrupt
 * (`record_json`) is answered only when it was kept by this version; raise it with every change
 * to what the record renders, and older kept records are rendered again on read.
 * 2: `decidedBy` is a tagged union (`type`: member, argus, system).
 * 3: the deadline and withdrawal (`expiresAt`, `onTimeout`, `closedAt`, `withdrawnReason`).
 * 4: `actionDigest` on each action request and decision, `editedActionDigest` on each decision.
 * 5: typed input (`actionRequests[].responseSchema`, `decisions[].response`).
 * 6: `openedBy`, the key that opened it.
 * 7: `requiredApprovals`, `approverTeam` and `approvals` on each action request (several approvers).
 * 8: `risk` and `labels`, what the external classifier said (SPEC §8d).
 * 9: `priority`; `labels` are the agent's then the classifier's, `classifierLabels` the latter (SPEC §8e).
 */
export const RECORD_RENDER_VERSION = 9;

/** The record's `labels` (SPEC §8e): the agent's, then the classifier's not already among them. */
export function labelsOf(row: Pick<InterruptRow, 'agent_labels' | 'risk_labels'>): string[] {
  const agent = row.agent_labels ?? [];
  const classifier = row.risk_labels ?? [];
  if (classifier.length === 0) return agent;
  if (agent.length === 0) return classifier;
  return [...new Set([...agent, ...classifier])];
}

/** The interrupt record of SPEC §5. */
export function toInterruptResponse(row: InterruptRow): InterruptResponse {
  const digests = new Map(
    row.action_requests.map((a) => [a.name, actionDigest(row.id, a.name, a.args)]),
  );
  const approvals = row.approvals ?? [];
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    externalId: row.external_id,
    sessionId: row.session_id,
    status: row.status,
    // Fixed key order (jsonb keeps its own).
    actionRequests: row.action_requests.map((a) => ({
      name: a.name,
      args: a.args,
      description: a.description,
      allowedDecisions: a.allowedDecisions,
      responseSchema: responseSchemaOf(a) as Record<string, unknown> | null,
      actionDigest: digests.get(a.name),
      requiredApprovals: a.requiredApprovals ?? 1,
      approverTeam: a.approverTeam ?? null,
      approvals: approvals
        .filter((p) => p.actionName === a.name)
        .map((p) => ({
          memberId: p.memberId,
          memberName: p.memberName,
          approvedAt: new Date(p.approvedAt).toISOString(),
        })),
    })),
    decisions: row.decisions.map((d) => ({
      id: d.id,
      actionName: d.actionName,
      decision: d.decision,
      editedArgs: d.editedArgs,
      editedName: d.editedName,
      message: d.message,
      response: d.response ?? null,
      actionDigest: digests.get(d.actionName),
      editedActionDigest:
        d.decision === 'edit'
          ? actionDigest(row.id, d.editedName ?? d.actionName, d.editedArgs)
          : null,
      decidedBy: readDecider(d),
      decidedAt: new Date(d.decidedAt).toISOString(),
    })),
    assignee:
      row.assignee_type === null || row.assignee_id === null
        ? null
        : { type: row.assignee_type, id: row.assignee_id, name: row.assignee_name ?? '' },
    escalationLevel: row.escalation_level,
    escalationReason: row.escalation_reason,
    escalatedAt: row.escalated_at?.toISOString() ?? null,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    answeredAt: row.answered_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    onTimeout: row.on_timeout,
    closedAt: row.closed_at?.toISOString() ?? null,
    withdrawnReason: row.withdrawn_reason,
    openedBy:
      row.opened_by_key_id === null
        ? null
        : { type: 'api_key', id: row.opened_by_key_id, name: row.opened_by_key_name ?? '' },
    risk: row.risk,
    labels: labelsOf(row),
    classifierLabels: row.risk_labels ?? [],
    priority: row.priority,
  };
}

/** GET /api/interrupts/{id}?include=history returns at most this many history entries (the latest). */
export const INTERRUPT_HISTORY_MAX = 100;

/** What GET /api/interrupts/{id} may add to the record, on request (`include`). */
export const INTERRUPT_INCLUDES = ['history', 'session', 'argus', 'resume', 'escalation'] as const;
export type InterruptInclude = (typeof INTERRUPT_INCLUDES)[number];

export interface InterruptDetailRow extends InterruptRow {
  session?: { id: string; name: string; status: SessionStatus } | null;
  history?: InterruptHistoryRow[];
  /** include=argus: the entries argus wrote about it (its receipts), for anyone who may read it. */
  argus?: InterruptHistoryRow[];
  /** include=resume: where its resumeUrl POST stands (null: opened without one). */
  resume?: ResumeDeliveryRow | null;
  /** include=escalation: what its escalation policy did and where it stands in it. */
  escalation?: EscalationRow;
}

/**
 * include=escalation as the detail read's JSON holds it: the service's own entries about the
 * interrupt, the policies that may govern it, and its position (timestamps as Postgres' JSON text).
 */
export interface EscalationRow {
  entries: InterruptHistoryRow[];
  organisationPolicy: EscalationPolicy | null;
  /** The team it is assigned to, when that team has a policy. */
  team: { id: string; name: string; policy: EscalationPolicy } | null;
  step: number;
  policyTeamId: string | null;
  clockAt: string | null;
  assigneeChangedAt: string | null;
}

/** The step an interrupt's policy takes next, as `escalationView` finds it (its assignee by id). */
export interface NextEscalationStep {
  step: number;
  afterMinutes: number;
  action: EscalationStep['action'];
  when: EscalationStep['when'];
  dueAt: Date;
  assignTo: EscalationStep['assignTo'];
}

/**
 * Where an open interrupt stands in the escalation policy that governs it (SPEC §8e, as the
 * escalation job reckons it: libs/domain escalationPosition): which policy, and its next step —
 * the latest step already due when the job has yet to act on it, else the first not passed. Null
 * policy: none governs (none set, or the interrupt is no longer open).
 */
export function escalationView(
  row: Pick<InterruptRow, 'status' | 'created_at'>,
  e: EscalationRow,
  now: Date,
): {
  policy: 'organisation' | 'team' | null;
  team: { id: string; name: string } | null;
  next: NextEscalationStep | null;
} {
  const steps = e.team?.policy.steps ?? e.organisationPolicy?.steps ?? [];
  if (row.status !== 'open' || steps.length === 0) return { policy: null, team: null, next: null };
  const position = escalationPosition(
    {
      createdAt: row.created_at,
      assigneeTeamId: e.team?.id ?? null,
      assigneeChangedAt: e.assigneeChangedAt === null ? null : new Date(e.assigneeChangedAt),
      step: e.step,
      policyTeamId: e.policyTeamId,
      clockAt: e.clockAt === null ? null : new Date(e.clockAt),
    },
    e.team !== null,
  );
  const due = dueEscalationStep(steps, position, now);
  const index = due >= 0 ? due : position.step;
  const step = steps[index] as EscalationStep | undefined;
  return {
    policy: e.team === null ? 'organisation' : 'team',
    team: e.team === null ? null : { id: e.team.id, name: e.team.name },
    next:
      step === undefined
        ? null
        : {
            step: index + 1,
            afterMinutes: step.afterMinutes,
            action: step.action,
            when: step.when,
            dueAt: new Date(position.clock.getTime() + step.afterMinutes * 60_000),
            assignTo: step.assignTo,
          },
  };
}

/** A resumeUrl POST's state as the detail read's JSON holds it (timestamps as Postgres' JSON text). */
interface ResumeDeliveryRow {
  status: ResumeDeliveryStatus;
  attempts: number;
  maxAttempts: number;
  lastAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

/** SPEC §8e: where a resumeUrl POST stands. */
export const RESUME_DELIVERY_STATUSES = [
  'waiting',
  'pending',
  'delivering',
  'retrying',
  'delivered',
  'failed',
] as const;
export type ResumeDeliveryStatus = (typeof RESUME_DELIVERY_STATUSES)[number];

const isoOrNull = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** One audit entry of the interrupt, as the detail read's JSON holds it. */
interface InterruptHistoryRow {
  id: string;
  action: string;
  /** Postgres' JSON text of a timestamptz. */
  createdAt: string;
  actorType: ActorType;
  actorId: string | null;
  actorName: string;
  summary: string;
  metadata: Record<string, unknown> | null;
}

/** Entries as the API answers them: timestamps in ISO form. */
export const toHistoryEntries = (rows: InterruptHistoryRow[]) =>
  rows.map((h) => ({ ...h, createdAt: new Date(h.createdAt).toISOString() }));

/** GET /api/interrupts/{id}: the record, and its linked session, history and argus's receipts when included. */
export function toInterruptDetailResponse(row: InterruptDetailRow): InterruptDetailResponse {
  return {
    ...toInterruptResponse(row),
    ...(row.session === undefined ? {} : { session: row.session }),
    ...(row.history === undefined ? {} : { history: toHistoryEntries(row.history) }),
    ...(row.argus === undefined ? {} : { argus: toHistoryEntries(row.argus) }),
    ...(row.resume === undefined
      ? {}
      : {
          resume:
            row.resume === null
              ? null
              : {
                  ...row.resume,
                  lastAttemptAt: isoOrNull(row.resume.lastAttemptAt),
                  nextAttemptAt: isoOrNull(row.resume.nextAttemptAt),
                  finishedAt: isoOrNull(row.resume.finishedAt),
                },
        }),
  };
}
