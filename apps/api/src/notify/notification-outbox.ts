import {
  BUILT_IN_NOTIFICATION_DEFAULTS,
  DAILY_DIGEST_HOUR,
  EVENT_SUBJECTS,
  type NotificationKind,
} from '@interlock/domain';
import type { Statement } from '../database/combined-statement';
import { queryRows, type Queryable } from '../database/query-rows.util';
import { actionDigest } from '../interrupts/action-digest.util';
import type { Risk } from '../classification/rule-engine';
import type { InterruptResponse } from '../interrupts/dto/interrupt.response';
import type { OutboxCause, OutboxEvent, OutboxListener } from '../webhooks/webhook-outbox';
import type { WebhookSecretBox } from '../webhooks/webhook-secret.util';

/** Who an interrupt notification goes to: every member who may read interrupts, its assignee, or both. */
interface Audience {
  watchers: boolean;
  assignee: { type: 'member' | 'team'; id: string } | null;
  /** Members already told about this change by another kind (the assignee of a new interrupt). */
  except: readonly string[];
  /** A permission the recipients' role must hold besides `interrupt.read`. */
  permission?: 'interrupt.decide';
}

/**
 * Of one outbox write: each interrupt's record as the last event left it, and the interrupts it
 * created (whose later events in the same write — argus's decisions and route — are part of the
 * creation, not news of their own).
 */
export function interruptsOf(events: readonly OutboxEvent[]): {
  latest: Map<string, InterruptResponse>;
  createdHere: Set<string>;
} {
  const latest = new Map<string, InterruptResponse>();
  const createdHere = new Set<string>();
  for (const event of events) {
    if (EVENT_SUBJECTS[event.type] !== 'interrupt') continue;
    latest.set(event.subjectId, event.data as InterruptResponse);
    if (event.type === 'interrupt.created') createdHere.add(event.subjectId);
  }
  return { latest, createdHere };
}

/** What an interrupt notification shows: the interrupt as the API rendered it, without bulky parts. */
export interface InterruptNotice {
  id: string;
  title: string;
  description: string | null;
  status: string;
  escalationLevel: number;
  escalationReason: string | null;
  assignee: { type: string; id: string; name: string } | null;
  /** `digest`: the action's digest (SPEC §8e), which an emailed single-use link is bound to (absent in older rows). */
  actionRequests: {
    name: string;
    description: string | null;
    allowedDecisions: string[];
    args: string;
    digest?: string;
    /** Several approvers (SPEC §8e): how many it needs and who approved so far (absent for one approver, and in older rows). */
    requiredApprovals?: number;
    approvedBy?: string[];
  }[];
  /** `interrupt.deadline_approaching`: the deadline, whole minutes left when it was written, and what the deadline will do. */
  deadline?: DeadlineNotice;
  /** `interrupt.approval_needed`: the approval short of the quorum this message tells of. */
  approval?: { actionName: string; approvals: number; requiredApprovals: number };
  decisions: { actionName: string; decision: string; by: string }[];
  createdAt: string;
  /** Argus's classifier's risk (SPEC §8d): null when unknown; absent in rows written before it was kept. */
  risk?: Risk | null;
  /** The classifier's labels (at most NOTICE_LABELS), absent in older rows. */
  labels?: string[];
  /** Withdrawn: who withdrew it (a member, or the agent by its key's name), when known (absent in older rows). */
  withdrawnBy?: { type: 'member' | 'api_key'; name: string } | null;
  /** Withdrawn: the reason given, if any. */
  withdrawnReason?: string | null;
}

/** What a 'deadline coming' warning says (SPEC §8h): `onTimeout` is what the deadline will do now. */
export interface DeadlineNotice {
  expiresAt: string;
  minutesLeft: number;
  onTimeout: 'reject' | 'approve' | 'escalate';
}

/** What a closed interrupt's notice says of its end (SPEC §8h): who and why, in every channel. */
export const EXPIRED_STATE = 'Expired: its deadline passed before every action was decided';

/**
 * The interrupt's state as a message says it: `Waiting for a decision`, `Answered`, the expiry
 * sentence, or `Withdrawn by <member>` / `Withdrawn by the agent (<key name>)` with `: <reason>`
 * when one was given.
 */
export function stateOf(notice: InterruptNotice): string {
  switch (notice.status) {
    case 'open':
      return 'Waiting for a decision';
    case 'answered':
      return 'Answered';
    case 'expired':
      return EXPIRED_STATE;
    case 'withdrawn': {
      const by = notice.withdrawnBy;
      const who =
        by === undefined || by === null
          ? 'Withdrawn'
          : by.type === 'member'
            ? `Withdrawn by ${by.name}`
            : `Withdrawn by the agent (${by.name})`;
      const reason = notice.withdrawnReason ?? null;
      return reason === null || reason === '' ? who : `${who}: ${reason}`;
    }
    default:
      return notice.status;
  }
}

/** The classifier's labels a notice keeps (each is 1–50 characters, SPEC §8d). */
const NOTICE_LABELS = 20;

/**
 * What a message says of the classifier's view (SPEC §8h): `Risk: high · Labels: prod, money`,
 * either part alone, or null when the risk is unknown and there are no labels.
 */
export function riskLineOf(notice: InterruptNotice): string | null {
  const parts: string[] = [];
  if (notice.risk !== undefined && notice.risk !== null) parts.push(`Risk: ${notice.risk}`);
  if (notice.labels !== undefined && notice.labels.length > 0)
    parts.push(`Labels: ${notice.labels.join(', ')}`);
  return parts.length === 0 ? null : parts.join(' · ');
}

/**
 * An action that needs several approvers, not yet decided: `1 of 2 approvals: Grace Hopper`
 * (`0 of 2 approvals` before the first), or null for an action one approval decides.
 */
export function approvalsLineOf(action: InterruptNotice['actionRequests'][number]): string | null {
  if (action.requiredApprovals === undefined || action.requiredApprovals < 2) return null;
  const by = action.approvedBy ?? [];
  return `${by.length} of ${action.requiredApprovals} approvals${by.length === 0 ? '' : `: ${by.join(', ')}`}`;
}

/** An action's arguments as the email shows them: compact JSON, cut at this many characters. */
const ARGS_PREVIEW_CHARS = 400;

/** The notice of an interrupt as an event left it; `cause` names who withdrew it. */
export function toNotice(interrupt: InterruptResponse, cause: OutboxCause = {}): InterruptNotice {
  const withdrawn = interrupt.status === 'withdrawn';
  const by = cause.actor;
  return {
    id: interrupt.id,
    title: interrupt.title,
    description: interrupt.description === null ? null : interrupt.description.slice(0, 2000),
    status: interrupt.status,
    escalationLevel: interrupt.escalationLevel,
    escalationReason: interrupt.escalationReason,
    assignee: interrupt.assignee,
    actionRequests: interrupt.actionRequests.map((a) => {
      const args = JSON.stringify(a.args);
      return {
        name: a.name,
        description: a.description,
        allowedDecisions: a.allowedDecisions,
        args: args.length > ARGS_PREVIEW_CHARS ? `${args.slice(0, ARGS_PREVIEW_CHARS)}…` : args,
        // The record's own (rendered since version 4: the same digest), else worked out.
        digest: a.actionDigest ?? actionDigest(interrupt.id, a.name, a.args),
        ...((a.requiredApprovals ?? 1) > 1
          ? {
              requiredApprovals: a.requiredApprovals,
              approvedBy: (a.approvals ?? []).map((approval) => approval.memberName),
            }
          : {}),
      };
    }),
    decisions: interrupt.decisions.map((d) => ({
      actionName: d.actionName,
      decision: d.decision,
      by: d.decidedBy.name,
    })),
    createdAt: interrupt.createdAt,
    risk: interrupt.risk ?? null,
    // The classifier's labels (SPEC §8h); a record rendered before `classifierLabels` had only those as `labels`.
    labels: (interrupt.classifierLabels ?? interrupt.labels ?? []).slice(0, NOTICE_LABELS),
    ...(withdrawn
      ? {
          withdrawnBy:
            by !== undefined && (by.type === 'member' || by.type === 'api_key')
              ? { type: by.type, name: by.name }
              : null,
          withdrawnReason: interrupt.withdrawnReason ?? null,
        }
      : {}),
  };
}

/**
 * One statement per kind and audience: the recipients (current members whose role may read
 * interrupts — and decide them, for an approval that is needed — and, where verification is required, whose address is verified), each one's mode (their own choice, else the organisation's default, else the
 * built-in one), and a row for each whose mode is not `off`, due now or at the digest's hour
 * (the next full hour; the next DAILY_DIGEST_HOUR in the member's time zone).
 */
const WRITE_INTERRUPT_NOTIFICATIONS = `
WITH recipients AS (
  SELECT m.user_id, u.email
    FROM memberships m
    JOIN users u ON u.id = m.user_id
    JOIN roles r ON r.organisation_id = m.organisation_id AND r.id = m.role_id
   WHERE m.organisation_id = $1 AND m.left_at IS NULL AND 'interrupt.read' = ANY(r.permissions)
     AND $13::text = ANY(r.permissions)
     AND NOT (m.user_id = ANY($9::uuid[]))
     AND (u.email_verified_at IS NOT NULL OR NOT $12::boolean)
     AND ($4::boolean
          OR ($5::text = 'member' AND m.user_id = $6::uuid)
          OR ($5::text = 'team' AND EXISTS (SELECT 1 FROM team_members tm
                                             WHERE tm.organisation_id = $1 AND tm.team_id = $6::uuid AND tm.member_id = m.user_id)))
), chosen AS (
  SELECT r.user_id, r.email, gen_random_uuid() AS id, coalesce(ms.time_zone, 'UTC') AS tz,
         coalesce(ms.preferences -> $2::text ->> 'email', os.defaults -> $2::text ->> 'email', $7::text) AS mode
    FROM recipients r
    LEFT JOIN notification_member_settings ms ON ms.organisation_id = $1 AND ms.user_id = r.user_id
    LEFT JOIN notification_settings os ON os.organisation_id = $1
), timed AS (
  SELECT c.*, CASE c.mode
           WHEN 'hourly' THEN date_trunc('hour', now()) + interval '1 hour'
           WHEN 'daily' THEN (date_trunc('day', now() AT TIME ZONE c.tz) + $10::int * interval '1 hour'
                              + CASE WHEN now() AT TIME ZONE c.tz >= date_trunc('day', now() AT TIME ZONE c.tz) + $10::int * interval '1 hour'
                                     THEN interval '1 day' ELSE interval '0' END) AT TIME ZONE c.tz
           ELSE now() END AS at
    FROM chosen c WHERE c.mode IN ('immediately', 'hourly', 'daily')
)
INSERT INTO notifications (organisation_id, id, recipient_user_id, recipient_email, recipient_key, channel, kind, mode, subject_id,
                           data, batch_key, status, due_at, scheduled_for, max_attempts)
SELECT $1, t.id, t.user_id, t.email, t.user_id::text, 'email', $2, t.mode, $3, $8::jsonb,
       CASE WHEN t.mode = 'immediately' THEN t.id::text ELSE t.mode || ':' || (extract(epoch FROM t.at) * 1000)::bigint END,
       'pending', t.at, t.at, $11
  FROM timed t
RETURNING recipient_user_id AS user_id`;

const WRITE_INVITATION = `
INSERT INTO notifications (organisation_id, id, recipient_user_id, recipient_email, recipient_key, channel, kind, mode, subject_id,
                           data, batch_key, status, due_at, scheduled_for, max_attempts)
VALUES ($1, $2::uuid, NULL, $3::text, 'email:' || $3::text, 'email', 'invitation', 'immediately', $2::uuid, $4::jsonb, $6::text, 'pending', now(), now(), $5)`;

/**
 * Where a notification statement goes: run in the transaction (answering its recipients), or
 * collected for one statement with the outbox's others. `answer`: the caller reads the recipients.
 */
type Sink = (statement: Statement, answer: boolean) => Promise<string[]>;

/** A sink that runs each statement in `tx`. */
function running(tx: Queryable): Sink {
  return async ({ text, values }) =>
    (await queryRows<{ user_id: string }>(tx, text, [...values])).map((r) => r.user_id);
}

/** An invitation to email: the link carries the token, kept sealed until it is sent. */
export interface InvitationNotice {
  invitationId: string;
  email: string;
  token: string;
  inviterName: string;
  roleName: string;
  expiresAt: string;
}

/**
 * The notification outbox (issue 30). It hears every event the webhook outbox records, in the
 * same transaction, and writes a notification for each person the event concerns — so a
 * notification exists if and only if its change committed, and the delivery worker sends it
 * after the commit. Events it does not know (those other features add) notify nobody until a
 * line below maps them: that is the extension point for reminders and deadlines.
 */
export class NotificationOutbox implements OutboxListener {
  constructor(
    private readonly maxAttempts: number,
    private readonly box: WebhookSecretBox,
    /** `EMAIL_VERIFICATION=required`: people whose address is unproven are emailed nothing (SPEC §8f). */
    private readonly verifiedOnly = false,
  ) {}

  async write(
    tx: Queryable,
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause = {},
  ): Promise<void> {
    await this.writeEvents(running(tx), organisationId, events, cause);
  }

  /**
   * Its statements, unless one's recipients are read (a new interrupt's assignee, left out of the
   * readers told next). Its statements write new rows only, so they may run at once.
   */
  async statementsFor(
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause,
  ): Promise<readonly Statement[] | undefined> {
    const statements: Statement[] = [];
    let answered = false;
    await this.writeEvents(
      async (statement, answer) => {
        answered ||= answer;
        statements.push(statement);
        return [];
      },
      organisationId,
      events,
      cause,
    );
    return answered ? undefined : statements;
  }

  private async writeEvents(
    sink: Sink,
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause,
  ): Promise<void> {
    // The member who made the change is not told about it (assigning to their own team, deciding what was theirs…).
    const actor = cause.memberId === undefined ? [] : [cause.memberId];
    // A new interrupt is told about as argus left it in the same write (decided, routed,
    // escalated): one notification per person for its creation, none for what argus did to it.
    const { latest, createdHere } = interruptsOf(events);
    for (const event of events) {
      if (event.type !== 'interrupt.created' && createdHere.has(event.subjectId)) continue;
      switch (event.type) {
        case 'interrupt.created': {
          const interrupt = latest.get(event.subjectId) ?? event.data;
          // Decided at once (by argus): nothing waits for anyone.
          if (interrupt.status !== 'open') break;
          // Its assignee, told first: the readers' statement leaves them out.
          const told =
            interrupt.assignee === null
              ? []
              : await this.notify(
                  (statement) => sink(statement, true),
                  organisationId,
                  'interrupt.assigned',
                  interrupt,
                  this.assigneeOnly(interrupt, actor),
                );
          // Escalated as it opened (an argus route): the readers hear it as escalated.
          await this.notify(
            sink,
            organisationId,
            interrupt.escalationLevel > 0 ? 'interrupt.escalated' : 'interrupt.opened',
            interrupt,
            { watchers: true, assignee: null, except: [...actor, ...told] },
          );
          break;
        }
        case 'interrupt.assigned':
          await this.notify(
            sink,
            organisationId,
            'interrupt.assigned',
            event.data,
            this.assigneeOnly(event.data, actor),
          );
          break;
        case 'interrupt.escalated':
          await this.notify(sink, organisationId, 'interrupt.escalated', event.data, {
            ...this.assigneeOnly(event.data, actor),
            watchers: true,
          });
          break;
        case 'interrupt.reminder': {
          // An escalation chain's reminder (issue 37): the assignee, or every reader when nobody is.
          const interrupt = event.data;
          if (interrupt.status !== 'open') break;
          await this.notify(
            sink,
            organisationId,
            'interrupt.reminder',
            interrupt,
            this.waitingOn(interrupt, actor),
          );
          break;
        }
        case 'interrupt.withdrawn':
        case 'interrupt.expired':
          // Those it waited on hear that it no longer does, who closed it and why (SPEC §8h).
          await this.notify(
            sink,
            organisationId,
            'interrupt.closed',
            event.data,
            this.waitingOn(event.data, actor),
            cause,
          );
          break;
        case 'interrupt.approval_added':
          await this.approvalNeeded(sink, organisationId, event.data, cause);
          break;
        case 'interrupt.answered':
          if (event.data.assignee !== null)
            await this.notify(
              sink,
              organisationId,
              'interrupt.decided',
              event.data,
              this.assigneeOnly(event.data, actor),
            );
          break;
        default:
          break;
      }
    }
  }

  /**
   * An approval short of an action's quorum (SPEC §8e, `interrupt.approval_added`): the members
   * who may still approve it — holding `interrupt.decide`, of its approver team when it names
   * one, not among those who approved — are told their approval is needed (kind
   * `interrupt.approval_needed`). The action is the one whose latest approval is the approver's.
   */
  private async approvalNeeded(
    sink: Sink,
    organisationId: string,
    interrupt: InterruptResponse,
    cause: OutboxCause,
  ): Promise<void> {
    if (interrupt.status !== 'open') return;
    let latest: { action: InterruptResponse['actionRequests'][number]; at: string } | undefined;
    for (const action of interrupt.actionRequests) {
      const last = action.approvals?.at(-1);
      if (last === undefined || last.memberId !== cause.memberId) continue;
      if (interrupt.decisions.some((d) => d.actionName === action.name)) continue;
      if (latest === undefined || last.approvedAt > latest.at)
        latest = { action, at: last.approvedAt };
    }
    if (latest === undefined) return;
    const { action } = latest;
    const approved = (action.approvals ?? []).map((a) => a.memberId);
    const team = action.approverTeam ?? null;
    await this.notify(
      sink,
      organisationId,
      'interrupt.approval_needed',
      interrupt,
      {
        watchers: team === null,
        assignee: team === null ? null : { type: 'team', id: team.id },
        except: approved,
        permission: 'interrupt.decide',
      },
      cause,
      {
        approval: {
          actionName: action.name,
          approvals: approved.length,
          requiredApprovals: action.requiredApprovals ?? 1,
        },
      },
    );
  }

  /**
   * Warns the people an open interrupt waits on that its deadline is near (SPEC §8h, kind
   * `interrupt.deadline_approaching`): written by the warning job in the transaction that marks
   * the interrupt warned. Recipients as for a reminder: its assignee, or every reader when nobody is.
   */
  async writeDeadlineApproaching(
    tx: Queryable,
    organisationId: string,
    interrupt: InterruptResponse,
    deadline: DeadlineNotice,
  ): Promise<string[]> {
    if (interrupt.status !== 'open') return [];
    return this.notify(
      running(tx),
      organisationId,
      'interrupt.deadline_approaching',
      interrupt,
      this.waitingOn(interrupt, []),
      {},
      { deadline },
    );
  }

  /** Emails an invitation (written in the invitation's transaction). */
  async writeInvitation(
    tx: Queryable,
    organisationId: string,
    invitation: InvitationNotice,
  ): Promise<void> {
    const sealedToken = this.box
      .seal(invitation.token, organisationId, invitation.invitationId)
      .toString('base64');
    const data = {
      inviterName: invitation.inviterName,
      roleName: invitation.roleName,
      expiresAt: invitation.expiresAt,
      sealedToken,
    };
    await tx.query(WRITE_INVITATION, [
      organisationId,
      invitation.invitationId,
      invitation.email,
      JSON.stringify(data),
      this.maxAttempts,
      invitation.invitationId,
    ]);
  }

  /** The invitation's token, for the message (and nothing else). */
  openInvitationToken(organisationId: string, invitationId: string, sealed: string): string {
    return this.box.open(Buffer.from(sealed, 'base64'), organisationId, invitationId);
  }

  /** Whom an interrupt waits on: its assignee (a member, or every member of the team), or every reader when nobody is assigned. */
  private waitingOn(interrupt: InterruptResponse, except: readonly string[]): Audience {
    return interrupt.assignee === null
      ? { watchers: true, assignee: null, except }
      : this.assigneeOnly(interrupt, except);
  }

  private assigneeOnly(interrupt: InterruptResponse, except: readonly string[]): Audience {
    return {
      watchers: false,
      assignee:
        interrupt.assignee === null
          ? null
          : { type: interrupt.assignee.type, id: interrupt.assignee.id },
      except,
    };
  }

  private async notify(
    sink: Sink,
    organisationId: string,
    kind: NotificationKind,
    interrupt: InterruptResponse,
    audience: Audience,
    cause: OutboxCause = {},
    extra: Partial<InterruptNotice> = {},
  ): Promise<string[]> {
    if (!audience.watchers && audience.assignee === null) return [];
    const values = [
      organisationId,
      kind,
      interrupt.id,
      audience.watchers,
      audience.assignee?.type ?? null,
      audience.assignee?.id ?? null,
      BUILT_IN_NOTIFICATION_DEFAULTS[kind].email,
      JSON.stringify({ ...toNotice(interrupt, cause), ...extra }),
      audience.except,
      DAILY_DIGEST_HOUR,
      this.maxAttempts,
      this.verifiedOnly,
      audience.permission ?? 'interrupt.read',
    ];
    return sink({ text: WRITE_INTERRUPT_NOTIFICATIONS, values }, false);
  }
}
