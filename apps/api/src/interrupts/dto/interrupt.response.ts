import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DECISIONS } from '../interrupt-decision.entity';
import type { Decision } from '../interrupt-decision.entity';
import { ACTOR_TYPES, DECIDER_TYPES, SYSTEM_DECISION_REASONS } from '@interlock/domain';
import type { ActorType, DeciderType, SystemDecisionReason } from '@interlock/domain';
import { INTERRUPT_STATUSES, ON_TIMEOUT, PRIORITIES } from '../interrupt.entity';
import type { InterruptStatus, OnTimeout, Priority } from '../interrupt.entity';
import { SESSION_STATUSES } from '../../sessions/session.entity';
import type { SessionStatus } from '../../sessions/session.entity';
import {
  INTERRUPT_HISTORY_MAX,
  RESUME_DELIVERY_STATUSES,
  type ResumeDeliveryStatus,
} from '../interrupt-record';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

const FREE_FORM = { type: 'object', additionalProperties: true } as const;

/** The team whose members alone may decide an action (SPEC §8e), as named when the interrupt opened. */
export class ApproverTeam {
  @ApiUuid()
  id!: string;

  @ApiProperty({ description: 'The name when the interrupt opened.' })
  name!: string;
}

/** A member's approval of an action that needs several. */
export class ApprovalResponse {
  @ApiUuid({ description: "The member's user id." })
  memberId!: string;

  @ApiProperty({ description: "The member's name at the time of the approval." })
  memberName!: string;

  @ApiDateTime()
  approvedAt!: string;
}

/** An action request as stored: every optional part filled in. */
export class ActionRequestResponse {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'deploy' })
  name!: string;

  @ApiProperty({ ...FREE_FORM, description: '{} when none were given.' })
  args!: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ enum: DECISIONS, enumName: 'DecisionType', isArray: true })
  allowedDecisions!: Decision[];

  @ApiPropertyOptional({
    ...FREE_FORM,
    nullable: true,
    description:
      'Typed input: the JSON Schema a respond answers with (its response), or null when the action asks for none.',
  })
  responseSchema!: Record<string, unknown> | null;

  @ApiPropertyOptional({
    pattern: '^[0-9a-f]{64}$',
    description:
      'What this action asks, as a fingerprint: the hex SHA-256 of the RFC 8785 canonical JSON of {interruptId, name, args} ' +
      '(SPEC §8e). An agent computes it from what it sent and compares: the SDKs refuse a decision whose digest differs. ' +
      'Absent from services before it was introduced.',
  })
  actionDigest?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 5,
    description:
      'How many distinct members must approve the action before it is approved (SPEC §8e); one qualified rejection rejects it. ' +
      'Absent (1) from services before several approvers.',
  })
  requiredApprovals?: number;

  @ApiPropertyOptional({
    type: ApproverTeam,
    nullable: true,
    description:
      'Only members of this team may decide the action; null: any member who may decide.',
  })
  approverTeam?: ApproverTeam | null;

  @ApiPropertyOptional({
    type: [ApprovalResponse],
    description:
      'With requiredApprovals above 1: the approvals so far, in order (the one that meets the quorum is also the decision). ' +
      'Empty for an action needing one approval: its decision says who.',
  })
  approvals?: ApprovalResponse[];
}

/** A member's decision: the member, and their name at the time. */
export class MemberDecidedBy {
  @ApiProperty({ enum: ['member'] })
  type!: 'member';

  @ApiUuid({ description: "The member's user id." })
  id!: string;

  @ApiProperty({ description: "The member's name at the time of the decision." })
  name!: string;
}

/** Argus's decision (the automatic classifier), by one of the organisation's classification rules. */
export class ArgusDecidedBy {
  @ApiProperty({ enum: ['argus'] })
  type!: 'argus';

  @ApiUuid({ description: 'The classification rule that decided.' })
  ruleId!: string;

  @ApiProperty({ enum: ['argus'] })
  name!: 'argus';
}

/** The service's own decision, e.g. at the interrupt's deadline. */
export class SystemDecidedBy {
  @ApiProperty({ enum: ['system'] })
  type!: 'system';

  @ApiProperty({
    enum: SYSTEM_DECISION_REASONS,
    enumName: 'SystemDecisionReason',
    description: 'Why the service decided.',
  })
  reason!: SystemDecisionReason;

  @ApiProperty({ enum: ['system'] })
  name!: 'system';
}

/**
 * Who decided: a member, argus or the service — told apart by `type` (SPEC §5). Stated in the
 * contract as the union of the three (openapi/contract-schemas.ts stateDecidedBy); this class
 * only names the schema.
 */
export class DecidedBy {
  @ApiProperty({ enum: DECIDER_TYPES })
  type!: DeciderType;

  @ApiProperty()
  name!: string;
}

export type DecidedByValue = MemberDecidedBy | ArgusDecidedBy | SystemDecidedBy;

@ApiExtraModels(MemberDecidedBy, ArgusDecidedBy, SystemDecidedBy)
export class DecisionResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  actionName!: string;

  @ApiProperty({ enum: DECISIONS, enumName: 'DecisionType' })
  decision!: Decision;

  @ApiProperty({ ...FREE_FORM, nullable: true, description: 'Set with decision edit.' })
  editedArgs!: Record<string, unknown> | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Set with decision edit when the member renamed the action.',
  })
  editedName!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Set with respond unless it carried a response; optional with the others.',
  })
  message!: string | null;

  @ApiPropertyOptional({
    ...FREE_FORM,
    nullable: true,
    description:
      'Typed input: with respond on an action that has a responseSchema, the answer, valid against it; null otherwise.',
  })
  response!: Record<string, unknown> | null;

  @ApiPropertyOptional({
    pattern: '^[0-9a-f]{64}$',
    description:
      "The decided action's actionDigest: what the decision is about. Absent from services before it was introduced.",
  })
  actionDigest?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: '^[0-9a-f]{64}$',
    description:
      'With decision edit: the digest of the action as edited — {interruptId, name: editedName or the action name, args: editedArgs}; null otherwise.',
  })
  editedActionDigest?: string | null;

  @ApiProperty({ type: DecidedBy })
  decidedBy!: DecidedByValue;

  @ApiDateTime()
  decidedAt!: string;
}

export class Assignee {
  @ApiProperty({ enum: ['member', 'team'] })
  type!: 'member' | 'team';

  @ApiUuid()
  id!: string;

  @ApiProperty({ description: 'The name when assigned.' })
  name!: string;
}

/** Who opened an interrupt: the API key (its agent), named as it was then. */
export class OpenedBy {
  @ApiProperty({ enum: ['api_key'] })
  type!: 'api_key';

  @ApiUuid()
  id!: string;

  @ApiProperty({
    description:
      "The key's name when it opened the interrupt (keys are renamed, and deleted when revoked).",
  })
  name!: string;
}

/** The interrupt record (SPEC §5), plus the escalation level and reason. */
export class InterruptResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Deploy to prod' })
  title!: string;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ type: String, nullable: true })
  externalId!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  sessionId!: string | null;

  @ApiProperty({
    enum: INTERRUPT_STATUSES,
    enumName: 'InterruptStatus',
    description:
      'open until every action request has a decision (answered), its deadline passes (expired) or its agent withdraws it ' +
      '(withdrawn). Every status but open is final.',
  })
  status!: InterruptStatus;

  @ApiProperty({ type: [ActionRequestResponse] })
  actionRequests!: ActionRequestResponse[];

  @ApiProperty({ type: [DecisionResponse], description: 'In the order they were made.' })
  decisions!: DecisionResponse[];

  @ApiProperty({ type: Assignee, nullable: true })
  assignee!: Assignee | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: '0 until escalated; each escalation adds one.',
  })
  escalationLevel!: number;

  @ApiProperty({ type: String, nullable: true })
  escalationReason!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  escalatedAt!: string | null;

  @ApiProperty({ ...FREE_FORM, nullable: true })
  metadata!: Record<string, unknown> | null;

  @ApiDateTime()
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  answeredAt!: string | null;

  // The four deadline fields are always sent; optional in the contract only so that clients still
  // read services from before deadlines.
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The deadline, or null for none.',
  })
  expiresAt!: string | null;

  @ApiPropertyOptional({
    enum: ON_TIMEOUT,
    enumName: 'OnTimeout',
    nullable: true,
    description:
      'What the deadline does: reject (the default) or approve the undecided actions, or escalate and extend once. Null without a deadline.',
  })
  onTimeout!: OnTimeout | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it expired or was withdrawn.',
  })
  closedAt!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Why its agent withdrew it, when it said.',
  })
  withdrawnReason!: string | null;

  @ApiPropertyOptional({
    type: OpenedBy,
    nullable: true,
    description:
      'The API key that opened it (its agent), named as it was then; null when no key is recorded.',
  })
  openedBy?: OpenedBy | null;

  @ApiPropertyOptional({
    enum: ['low', 'medium', 'high', 'critical'],
    enumName: 'Risk',
    nullable: true,
    description:
      "The organisation's external classifier's highest risk over the actions it answered for (SPEC §8d); null when none answered or none is set up.",
  })
  risk?: 'low' | 'medium' | 'high' | 'critical' | null;

  @ApiPropertyOptional({
    type: [String],
    description:
      "Its labels, each once: the ones its agent gave it, then the external classifier's for its actions, in the order first given; empty when none.",
  })
  labels?: string[];

  @ApiPropertyOptional({
    type: [String],
    description:
      "The external classifier's labels for the actions alone, each once, in the order first given; empty when it gave none.",
  })
  classifierLabels?: string[];

  @ApiPropertyOptional({
    enum: PRIORITIES,
    enumName: 'Priority',
    description:
      'How urgent it is: low, normal (the default), high or urgent — set by its agent, an argus route, or a member since.',
  })
  priority?: Priority;
}

export class LinkedSession {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: SESSION_STATUSES, enumName: 'SessionStatus' })
  status!: SessionStatus;
}

/** One of the interrupt's audit entries: who opened, decided, assigned or escalated it, and when. */
export class InterruptHistoryEntry {
  @ApiUuid({ description: 'The audit entry id.' })
  id!: string;

  @ApiProperty({
    example: 'interrupt.assigned',
    description:
      'interrupt.created, interrupt.decided (metadata {actionName, decision, becameAnswered}), interrupt.assigned ' +
      '(metadata {assigneeType, assigneeId, assigneeName, previousAssigneeType, previousAssigneeId, previousAssigneeName}), interrupt.unassigned ' +
      '(metadata {previousAssigneeType, previousAssigneeId, previousAssigneeName}), interrupt.escalated ' +
      '(metadata {level, reason}); treat others as opaque.',
  })
  action!: string;

  @ApiDateTime()
  createdAt!: string;

  @ApiProperty({ enum: ACTOR_TYPES, enumName: 'ActorType' })
  actorType!: ActorType;

  @ApiProperty({ type: String, nullable: true })
  actorId!: string | null;

  @ApiProperty({ description: 'As it was at the time.' })
  actorName!: string;

  @ApiProperty()
  summary!: string;

  @ApiProperty({ ...FREE_FORM, nullable: true })
  metadata!: Record<string, unknown> | null;
}

/** Where an interrupt's resumeUrl POST stands (SPEC §8e): never the URL or its secret. */
export class ResumeDelivery {
  @ApiProperty({
    enum: RESUME_DELIVERY_STATUSES,
    enumName: 'ResumeDeliveryStatus',
    description:
      'waiting: the interrupt is still open; pending: due, not tried yet; delivering: an attempt is under way; ' +
      'retrying: an attempt failed and another is due at nextAttemptAt; delivered: the endpoint answered 2xx; failed: the last attempt failed.',
  })
  status!: ResumeDeliveryStatus;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Attempts made so far.' })
  attempts!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Attempts it gets in all (the webhook retry schedule, plus the first).',
  })
  maxAttempts!: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastAttemptAt!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The last attempt's HTTP status (null: no answer).",
  })
  lastResponseStatus!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the last attempt failed (e.g. "The endpoint answered 503.", "The connection was refused."); null after a success.',
  })
  lastError!: string | null;

  @ApiDateTime({
    nullable: true,
    description: 'pending / retrying: when the next attempt is due.',
  })
  nextAttemptAt!: string | null;

  @ApiDateTime({
    nullable: true,
    description: 'delivered / failed: when.',
  })
  finishedAt!: string | null;
}

/** The step an interrupt's escalation policy takes next (SPEC §8e). */
export class NextEscalationStep {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: "The step's number in its policy (1 is the first).",
  })
  step!: number;

  @ApiProperty({ type: 'integer', minimum: 1 })
  afterMinutes!: number;

  @ApiProperty({ enum: ['remind', 'escalate'] })
  action!: 'remind' | 'escalate';

  @ApiProperty({
    enum: ['undecided', 'unassigned'],
    description: 'unassigned: it acts only if nobody holds the interrupt then.',
  })
  when!: 'undecided' | 'unassigned';

  @ApiDateTime({
    description:
      'When it is due; in the past when it is due already (the escalation job applies it within about 15 s).',
  })
  dueAt!: string;

  @ApiProperty({
    type: Assignee,
    nullable: true,
    description:
      'escalate: who gets the interrupt, named as now (null: nobody new, or a member who left / a team deleted since).',
  })
  assignTo!: Assignee | null;
}

/** The team whose escalation policy governs an interrupt. */
export class EscalationPolicyTeam {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;
}

/** include=escalation (SPEC §8e): what the escalation policy did to an interrupt and what comes next. */
export class InterruptEscalation {
  @ApiProperty({
    enum: ['organisation', 'team'],
    enumName: 'EscalationPolicySource',
    nullable: true,
    description:
      "Which policy governs the interrupt now: the organisation's, or that of the team it is assigned to; null when none does (no steps, or it is no longer open).",
  })
  policy!: 'organisation' | 'team' | null;

  @ApiProperty({
    type: EscalationPolicyTeam,
    nullable: true,
    description: 'policy team: which team.',
  })
  team!: EscalationPolicyTeam | null;

  @ApiProperty({
    type: NextEscalationStep,
    nullable: true,
    description: 'The next step of that policy; null when none is left (or none governs).',
  })
  next!: NextEscalationStep | null;

  @ApiProperty({
    type: [InterruptHistoryEntry],
    description:
      'The entries the service itself (actor system) wrote about the interrupt, oldest first: reminders (interrupt.reminder, ' +
      'metadata {step, afterMinutes, assigneeType, assigneeId, assigneeName, teamId?, teamName?}), escalations (interrupt.escalated), ' +
      'the assignments they made (interrupt.assigned, metadata with previousAssigneeName), deadline outcomes (interrupt.expired). ' +
      `Needs only interrupt.read (the latest ${INTERRUPT_HISTORY_MAX} at most).`,
  })
  entries!: InterruptHistoryEntry[];
}

/**
 * One interrupt as GET /api/interrupts/{id} reads it: the record and, when asked for with
 * `include`, its linked session and its history.
 */
export class InterruptDetailResponse extends InterruptResponse {
  @ApiPropertyOptional({
    type: LinkedSession,
    nullable: true,
    description: 'With include=session: the session sessionId names, or null.',
  })
  session?: LinkedSession | null;

  @ApiPropertyOptional({
    type: [InterruptHistoryEntry],
    description: `With include=history: the interrupt's audit entries, oldest first (the latest ${INTERRUPT_HISTORY_MAX} at most).`,
  })
  history?: InterruptHistoryEntry[];

  @ApiPropertyOptional({
    type: [InterruptHistoryEntry],
    description:
      'With include=argus: the entries argus wrote about the interrupt, oldest first — its receipts ' +
      '(classification.applied / classification.shadowed, metadata {actionName, ruleIds, policyVersion, mode, outcome, enforced, skipped?, policyIds?, error?}), ' +
      'classification.failed, classification.breaker_tripped, and the assignments and escalations its routes made. ' +
      `Needs only interrupt.read (the latest ${INTERRUPT_HISTORY_MAX} at most).`,
  })
  argus?: InterruptHistoryEntry[];

  @ApiPropertyOptional({
    type: ResumeDelivery,
    nullable: true,
    description:
      'With include=resume: where the POST to its resumeUrl stands (null: it was opened without one). Needs only interrupt.read; never shows the URL.',
  })
  resume?: ResumeDelivery | null;

  @ApiPropertyOptional({
    type: InterruptEscalation,
    description:
      'With include=escalation: the reminders and escalations its escalation policy made, and the next step. Needs only interrupt.read.',
  })
  escalation?: InterruptEscalation;
}

export class InterruptListResponse {
  @ApiProperty({ type: [InterruptResponse], description: 'Newest first.' })
  interrupts!: InterruptResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null on the last page.' })
  nextCursor!: string | null;
}

export class TabCount {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'At most cap.' })
  count!: number;

  @ApiProperty({ description: 'true: there are more than cap (show "cap+").' })
  capped!: boolean;
}

/** The inbox tabs' counts for the signed-in member. */
export class InterruptCountsResponse {
  @ApiProperty({ type: TabCount, description: 'Open.' })
  open!: TabCount;

  @ApiProperty({
    type: TabCount,
    description: 'Open and assigned to the signed-in member (directly, not through a team).',
  })
  assignedToMe!: TabCount;

  @ApiProperty({
    type: TabCount,
    description:
      'Open and assigned to the signed-in member or to a team they belong to: what waits for them (the tab title and browser notifications count it).',
  })
  waitingForMe!: TabCount;

  @ApiProperty({ type: TabCount, description: 'Open and escalated.' })
  escalated!: TabCount;

  @ApiProperty({ type: TabCount, description: 'Answered.' })
  answered!: TabCount;

  @ApiProperty({ type: 'integer', example: 1000, description: 'Where counting stops.' })
  cap!: number;
}
