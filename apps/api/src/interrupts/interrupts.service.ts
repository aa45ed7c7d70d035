import {
  type ApiKeyActor,
  type AuditEvent,
  type ClassificationReceipt,
  DomainError,
  JsonText,
  storeDecider,
  MAX_TIMEOUT_SECONDS,
} from '@interlock/domain';
import {
  type ActionPlan,
  ARGUS_ACTOR,
  ArgusPipeline,
  BREAKER_REJECTIONS,
  BREAKER_WINDOW_SECONDS,
  withoutDecisions,
} from '../classification/argus-pipeline';
import type { Queryable } from '../database/query-rows.util';
import { lockCurrentMember, lockCurrentMemberByEmail } from '../members/memberships.repository';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  auditEntryStatement,
  chooseSearchPlan,
  parseTimestamp,
  searchTsquery,
  searchWords,
  walkOn,
  writeAuditEntry,
} from '@interlock/audit';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { AllowancesService } from '../allowances/allowances.service';
import { PreparedReads } from '../database/prepared-reads';
import { IdempotencyService, IdempotentResult } from '../idempotency/idempotency.service';
import { DECISIONS } from './interrupt-decision.entity';
import {
  type CursorScope,
  KeysetCursorCodec,
  keysetAfter,
  keysetPage,
  type KeysetPosition,
} from '@interlock/cursor';
import {
  type EscalationRow,
  escalationView,
  type InterruptDetailRow,
  InterruptInclude,
  InterruptRow,
  StoredActionRequest,
  toHistoryEntries,
  toInterruptDetailResponse,
  toInterruptResponse,
} from './interrupt-record';
import { InterruptsRepository } from './interrupts.repository';
import { SessionsService } from '../sessions/sessions.service';
import type {
  CreateInterruptCommand,
  NewActionRequest,
  NewAssignee,
  NewInterrupt,
} from './create-interrupt.command';
import { DeadlineSettingsCache } from '../organisation/deadline-settings-cache';
import type {
  InterruptListing,
  ListCaller,
  ListInterruptsCommand,
} from './list-interrupts.command';
import type {
  InterruptCountsResponse,
  InterruptDetailResponse,
  InterruptEscalation,
  InterruptListResponse,
  InterruptResponse,
} from './dto/interrupt.response';
import { TeamsService } from '../teams/teams.service';
import { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { type OutboxEvent, WebhookOutbox } from '../webhooks/webhook-outbox';
import { InterruptResumes, resumeSigningSecret } from './interrupt-resumes';
import {
  INTERRUPT_STATUSES,
  type InterruptStatus,
  type OnTimeout,
  type Priority,
} from './interrupt.entity';
import {
  InterruptWaits,
  WaitReadBatches,
  type InterruptWait,
  type WaitClient,
  type WaitOutcome,
} from './interrupt-waits';
import {
  argusClassificationChannel,
  type ArgusClassificationRecord,
} from '../metrics/instrumentation-channels';
import {
  COUNT_CAP,
  InboxFilter,
  instantOf,
  LISTED_INTERRUPT_COLUMNS,
  type ListedInterruptRow,
  MAX_TITLE_PREFIX_EXPANSION,
  NO_DEADLINE,
  TITLE_SEARCH_COSTS,
  TITLE_SEARCH_WALK_CHUNK,
} from './inbox-query.util';

const DEFAULT_PAGE = 50;

/** An audit entry argus writes for a new interrupt: the target and address are the interrupt's and none. */
type ArgusAudit = Pick<AuditEvent, 'action' | 'actor' | 'metadata'>;
type WriteTail = { organisationId: string; ipAddress: null };
/** A wait's read: the answer, and the interrupt's status (whether the wait is to be held). */
type StatusAndAnswer = {
  status: InterruptStatus;
  answer: JsonText<InterruptDetailResponse> | InterruptDetailResponse;
};

/** A title search holds at most this many words (as the audit log's `q`). */
const MAX_SEARCH_WORDS = 8;

/**
 * Interrupts as agents and the inbox see them (SPEC §5): open one, read one, list and count them.
 * The rules and the title-search planning; the tables are `InterruptsRepository`'s.
 */
/**
 * What a held wait whose client left answers: nobody reads it (its connection is closed), and a
 * held wait does not keep the record it read first (issue 37 §6: it was ~850 bytes a wait).
 */
const NOBODY_LISTENS = new JsonText<InterruptDetailResponse>('{}');

/** A held wait that lasted this long (or ended by a decision) spends nothing of a key's budget (SPEC §8e). */
export const WAIT_FREE_AFTER_MS = 10_000;

/** How a key's wait spends its organisation's request budget (SPEC §8e); members have none. */
export interface WaitBudget {
  /** Answered without being held: one request, like any read (throws 429 when none is left). */
  spend(): void;
  /** Held: nothing spent (the answer's `RateLimit-*` fields say what was left now). */
  hold(): void;
  /** The hold ended (before its answer is read): the answer gets the fields `hold` saw. */
  unhold(): void;
  /** A held wait ended short by its own clock or its client: one request after all, even past the budget. */
  charge(): void;
}

/**
 * An action request as stored: every optional part filled in. An action needing several
 * approvals cannot be edited (an edit is one member's approval of other arguments, which would
 * pass the quorum by), so its decisions default to approve, reject and respond, and an explicit
 * `edit` is refused (SPEC §8e).
 */
function storedActionRequest(a: NewActionRequest, n: number): StoredActionRequest {
  const requiredApprovals = a.requiredApprovals ?? 1;
  if (requiredApprovals > 1 && a.allowedDecisions?.includes('edit'))
    throw new DomainError(
      'VALIDATION_FAILED',
      `actionRequests.${n}.allowedDecisions: edit cannot be combined with requiredApprovals above 1`,
    );
  return {
    name: a.name,
    args: a.args ?? {},
    description: a.description ?? null,
    allowedDecisions:
      a.allowedDecisions ??
      (requiredApprovals > 1 ? DECISIONS.filter((d) => d !== 'edit') : [...DECISIONS]),
    // Kept only when given: action requests without one stay as they always were.
    ...(a.responseSchema === undefined
      ? {}
      : { responseSchemaJson: JSON.stringify(a.responseSchema) }),
    ...(requiredApprovals > 1 || a.approverTeam !== undefined
      ? { requiredApprovals, approverTeam: null }
      : {}),
  };
}

@Injectable()
export class InterruptsService {
  private readonly cursors: KeysetCursorCodec;
  /** The records held waits read, in batches (a herd's reads, SPEC §8e). */
  private readonly waitRecords: WaitReadBatches<{
    status: InterruptStatus;
    record_json: string | null;
  }>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly interrupts: InterruptsRepository,
    private readonly sessions: SessionsService,
    private readonly allowances: AllowancesService,
    private readonly idempotency: IdempotencyService,
    private readonly teams: TeamsService,
    private readonly events: OrganisationEventsAnnouncer,
    private readonly outbox: WebhookOutbox,
    private readonly waits: InterruptWaits,
    private readonly argus: ArgusPipeline,
    private readonly deadlines: DeadlineSettingsCache,
    private readonly resumes: InterruptResumes,
    @Inject(APP_CONFIG) config: AppConfig,
    // DatabaseModule's, on or loudly off: never a silent off one built here (issue 28).
    private readonly reads: PreparedReads,
  ) {
    this.cursors = new KeysetCursorCodec(config.cursorSecret, 'interrupts.list');
    this.waitRecords = new WaitReadBatches(waits, (organisationId, ids) =>
      this.interrupts.readRecords(this.reads, organisationId, ids),
    );
    waits.readStatusesWith((organisationId, ids) =>
      this.interrupts.readStatuses(this.reads, organisationId, ids),
    );
  }

  /**
   * Opens an interrupt, counts it against the month's messages and writes its
   * `interrupt.created` entry, all in one transaction: a refused or failed open leaves no trace
   * (the count included). The command's `apiKey` signs the resumeUrl's POST (its secret is
   * derived from it: `resumeSigningSecret`); a body with resumeUrl needs it.
   */
  async create(command: CreateInterruptCommand): Promise<IdempotentResult<InterruptResponse>> {
    const { organisationId, actor, interrupt: body, idempotency, ip, apiKey } = command;
    const resume =
      body.resumeUrl === undefined
        ? undefined
        : { url: await this.resumes.checkUrl(body.resumeUrl), apiKey };
    if (resume !== undefined && resume.apiKey === undefined)
      throw new DomainError('VALIDATION_FAILED', 'resumeUrl: not accepted here');
    const actionRequests: StoredActionRequest[] = body.actionRequests.map((a, n) =>
      storedActionRequest(a, n),
    );
    const titleWords = searchWords(body.title);
    // Repeated labels count once, in the order first given (SPEC §8e).
    const agentLabels = [...new Set(body.labels ?? [])];
    const plan = await this.argus.plan(
      organisationId,
      actionRequests.map((a) => ({
        actionName: a.name,
        args: a.args,
        keyId: actor.id,
        sessionId: body.sessionId ?? null,
        titleWords,
        title: body.title,
        allowedDecisions: a.allowedDecisions,
      })),
      { title: body.title, description: body.description ?? null, keyName: actor.name },
    );
    let argusAudit: ArgusAudit[] = [];
    const result = await this.dataSource.transaction((manager) => {
      // The transaction's statements, prepared on its connection (PreparedReads.within).
      const tx = this.reads.within(manager);
      return this.idempotency.once(tx, idempotency, 201, async () => {
        // The linked session, locked against deletion by its owner.
        if (body.sessionId !== undefined && body.sessionId !== null)
          await this.sessions.lockForLink(tx, organisationId, body.sessionId);
        const deadline = await this.deadlineOf(tx, organisationId, body);
        const assignee =
          body.assignTo === undefined
            ? null
            : await this.resolveAssignTo(tx, organisationId, body.assignTo);
        await this.resolveApproverTeams(tx, organisationId, body.actionRequests, actionRequests);
        if (plan.ok) await this.applyArgusQuorum(tx, organisationId, plan.actions, actionRequests);
        const id = randomUUID();
        const row = await this.interrupts.insert(tx, organisationId, {
          id,
          title: body.title,
          description: body.description ?? null,
          externalId: body.externalId ?? null,
          sessionId: body.sessionId ?? null,
          actionRequests,
          metadata: body.metadata ?? null,
          openedByKeyId: actor.id,
          openedByKeyName: actor.name,
          titleWords,
          deadline,
          risk: plan.ok ? plan.risk : null,
          riskLabels: plan.ok && plan.labels.length > 0 ? plan.labels : null,
          priority: body.priority ?? 'normal',
          agentLabels: agentLabels.length > 0 ? agentLabels : null,
          assignee,
        });
        if (resume !== undefined)
          await this.resumes.keep(tx, organisationId, id, {
            url: resume.url,
            secret: resumeSigningSecret(resume.apiKey as string),
          });
        const created = toInterruptResponse(row);
        // Argus (SPEC §8d): its decisions and route, written like a member's, before the record is kept.
        const applied =
          plan.ok && plan.actions.length > 0
            ? await this.applyArgus(
                tx,
                organisationId,
                actor,
                id,
                body.title,
                actionRequests.length,
                plan.actions,
                body.priority ?? 'normal',
              )
            : null;
        const interrupt =
          applied === null
            ? created
            : toInterruptResponse(
                (await this.interrupts.read(tx, organisationId, id)) as InterruptRow,
              );
        // The webhook events (usually one probe: no webhook), with the record kept with the row:
        // rendered from the row as stored (jsonb's key order), as every read renders it.
        const events: OutboxEvent[] = [
          { type: 'interrupt.created', subjectId: id, data: created },
          ...(assignee === null
            ? []
            : [{ type: 'interrupt.assigned' as const, subjectId: id, data: created }]),
          ...(applied === null
            ? []
            : applied.events.map((type) => ({ type, subjectId: id, data: interrupt }))),
        ];
        const keep = [
          this.interrupts.keepRecordStatement(organisationId, row.id, JSON.stringify(interrupt)),
        ];
        // An open of one event sends those rows with the count below, in one statement.
        const writes = await this.outbox.statements(organisationId, events, {}, keep);
        if (writes === undefined) await this.outbox.writeEach(tx, organisationId, events, {}, keep);
        // The count and the audit entry lock the organisation's counter row and audit chain
        // until the commit: they go last, so writes of one organisation queue for as short a
        // time as possible. A refusal (402) rolls the insert and the events back. One statement,
        // one round trip under those locks: the count, then the entry and the outbox's rows
        // (data-modifying WITH entries run after the statement they lead to).
        await this.allowances.consumeMessage(tx, organisationId, [
          ...(writes ?? []),
          auditEntryStatement({
            organisationId,
            action: 'interrupt.created',
            actor,
            target: { type: 'interrupt', id, name: body.title },
            metadata: {
              externalId: body.externalId ?? null,
              actionRequests: actionRequests.map((a) => a.name),
              // Routing the agent asked for (SPEC §8e), only when it did: the (S) shape otherwise.
              ...(body.priority === undefined ? {} : { priority: body.priority }),
              ...(body.labels === undefined ? {} : { labels: agentLabels }),
            },
            ipAddress: ip,
          }),
        ]);
        const target = { type: 'interrupt' as const, id, name: body.title };
        // Assigned by its agent as it opened: audited as a member's assignment is, by the key.
        if (assignee !== null)
          await writeAuditEntry(tx, {
            organisationId,
            action: 'interrupt.assigned',
            actor,
            target,
            metadata: {
              assigneeType: assignee.type,
              assigneeId: assignee.id,
              assigneeName: assignee.name,
              previousAssigneeType: null,
              previousAssigneeId: null,
              previousAssigneeName: null,
            },
            ipAddress: ip,
          });
        if (!plan.ok) {
          await writeAuditEntry(tx, {
            organisationId,
            action: 'classification.failed',
            actor: ARGUS_ACTOR,
            target,
            metadata: { reason: plan.reason, actionNames: actionRequests.map((a) => a.name) },
            ipAddress: null,
          });
        }
        argusAudit = applied?.audit ?? [];
        for (const event of argusAudit)
          await writeAuditEntry(tx, {
            organisationId,
            ...event,
            target,
            ipAddress: null,
          } as AuditEvent & WriteTail);
        return interrupt;
      });
    });
    if (!result.replayed) await this.events.announce(organisationId);
    if (!result.replayed && argusClassificationChannel.hasSubscribers) {
      argusClassificationChannel.publish({
        failed: !plan.ok,
        breakerTripped: argusAudit.some((e) => e.action === 'classification.breaker_tripped'),
        receipts: argusAudit.flatMap((e) =>
          e.action === 'classification.applied' || e.action === 'classification.shadowed'
            ? [{ action: e.action, metadata: e.metadata as ClassificationReceipt }]
            : [],
        ),
      } satisfies ArgusClassificationRecord);
    }
    return result;
  }

  /**
   * Whom the agent assigns a new interrupt to (SPEC §8e `assignTo`): a current member (by id or
   * email) or a team (by id or name) of the organisation, locked against removal until the
   * commit, named as now; 400 when there is none.
   */
  private async resolveAssignTo(
    tx: Queryable,
    organisationId: string,
    to: NewAssignee,
  ): Promise<{ type: 'member' | 'team'; id: string; name: string }> {
    if (to.teamId !== undefined || to.teamName !== undefined) {
      const team =
        to.teamId !== undefined
          ? await this.teams.findTeam(tx, organisationId, to.teamId)
          : await this.teams.findTeamByName(tx, organisationId, to.teamName as string);
      if (team === undefined)
        throw new DomainError('VALIDATION_FAILED', 'assignTo: no such team in this organisation');
      return { type: 'team', id: team.id, name: team.name };
    }
    const member =
      to.memberId !== undefined
        ? await lockCurrentMember(tx, organisationId, to.memberId)
        : await lockCurrentMemberByEmail(tx, organisationId, to.email as string);
    if (member === undefined)
      throw new DomainError('VALIDATION_FAILED', 'assignTo: no such member in this organisation');
    return { type: 'member', id: member.id, name: member.name };
  }

  /**
   * Each action's approver team (SPEC §8e), named by id or name, checked against the organisation
   * and its size, stored as `{id, name}` in the action; locked against removal until the commit.
   */
  private async resolveApproverTeams(
    tx: Queryable,
    organisationId: string,
    given: NewInterrupt['actionRequests'],
    stored: StoredActionRequest[],
  ): Promise<void> {
    for (const [n, a] of given.entries()) {
      if (a.approverTeam === undefined) continue;
      const team = await this.teams.findApproverTeam(tx, organisationId, a.approverTeam);
      if (team === undefined)
        throw new DomainError(
          'VALIDATION_FAILED',
          `actionRequests.${n}.approverTeam: no such team in this organisation`,
        );
      const required = stored[n].requiredApprovals ?? 1;
      if (team.memberCount < required)
        throw new DomainError(
          'VALIDATION_FAILED',
          `actionRequests.${n}.approverTeam: team ${team.name} has ${team.memberCount} member${team.memberCount === 1 ? '' : 's'}, fewer than requiredApprovals (${required})`,
        );
      stored[n].approverTeam = { id: team.id, name: team.name };
    }
  }

  /**
   * Argus's quorum (SPEC §8d): an action whose enforced route sets `requiredApprovals` needs at
   * least that many approvals (the agent's own count stays when higher), and one whose route
   * sets `approverTeam` may be decided only by that team's members (it replaces the agent's: the
   * organisation's rule decides who approves). Like `requiredApprovals` from the agent, a quorum
   * above 1 takes `edit` out of the action's decisions; an action that allows nothing else keeps
   * one approval (receipt `skipped: "decision_not_allowed"`). When the approver team is gone or
   * has fewer members than the quorum, the quorum applies without a team (receipt `skipped:
   * "approver_team_unavailable"`), so the action can still be decided. Shadow routes only record
   * it (their receipts carry `requiredApprovals`/`approverTeamId` with `enforced: false`).
   */
  private async applyArgusQuorum(
    tx: Queryable,
    organisationId: string,
    planned: readonly ActionPlan[],
    stored: StoredActionRequest[],
  ): Promise<void> {
    for (const [n, plan] of planned.entries()) {
      const outcome = plan.route?.outcome;
      if (outcome === undefined) continue;
      if (outcome.requiredApprovals === undefined && outcome.approverTeam === undefined) continue;
      const action = stored[n];
      const receipt = plan.receipts.find((r) => r.action === 'classification.applied')?.metadata;
      const before = action.requiredApprovals ?? 1;
      let required = Math.max(before, outcome.requiredApprovals ?? 1);
      if (required > 1 && before === 1) {
        const allowed = action.allowedDecisions.filter((d) => d !== 'edit');
        if (allowed.length === 0) {
          required = 1;
          if (receipt !== undefined) receipt.skipped = 'decision_not_allowed';
        } else action.allowedDecisions = allowed;
      }
      const teamRef =
        outcome.approverTeam ??
        (action.approverTeam ? { teamId: action.approverTeam.id } : undefined);
      let team: { id: string; name: string } | null = null;
      if (teamRef !== undefined) {
        const found = await this.teams.findApproverTeam(tx, organisationId, teamRef);
        if (found !== undefined && found.memberCount >= required)
          team = { id: found.id, name: found.name };
        else if (receipt !== undefined) receipt.skipped = 'approver_team_unavailable';
      }
      action.requiredApprovals = required;
      action.approverTeam = team;
    }
  }

  /**
   * The deadline an interrupt opens with (SPEC §8e): its `timeoutSeconds`, or the organisation's
   * default; within the organisation's maximum; `onTimeout: approve` only where the organisation
   * allows it. Each refusal is a 400 naming the parameter (checked before the allowance).
   */
  private async deadlineOf(
    tx: Queryable,
    organisationId: string,
    body: Pick<NewInterrupt, 'timeoutSeconds' | 'onTimeout'>,
  ): Promise<{ seconds: number; onTimeout: OnTimeout } | null> {
    const settings = await this.deadlines.get(tx, organisationId);
    if (settings === undefined) throw DomainError.of('NOT_FOUND');
    const seconds = body.timeoutSeconds ?? settings.interrupt_timeout_default_seconds;
    const onTimeout = body.onTimeout ?? 'reject';
    if (seconds === null) {
      if (body.onTimeout !== undefined) {
        throw new DomainError(
          'VALIDATION_FAILED',
          'onTimeout: needs timeoutSeconds (this organisation sets no default deadline)',
        );
      }
      return null;
    }
    const max = settings.interrupt_timeout_max_seconds ?? MAX_TIMEOUT_SECONDS;
    if (seconds > max)
      throw new DomainError(
        'VALIDATION_FAILED',
        `timeoutSeconds: must be at most ${max} (this organisation's maximum)`,
      );
    if (onTimeout === 'approve' && !settings.interrupt_timeout_approve_allowed) {
      throw new DomainError(
        'VALIDATION_FAILED',
        "onTimeout: approve is not allowed by this organisation's settings",
      );
    }
    return { seconds, onTimeout };
  }

  /**
   * Writes what argus decided for a new interrupt, as a member's decisions are written: each
   * decision (decider argus, the rule), the route (assignee, escalation), the answered status
   * when argus decided every action; and returns the audit entries (receipts, then the
   * decisions, the assignment and the escalation, all by actor argus) and webhook events to
   * write. The circuit breaker first: a key argus has rejected too often gets a person.
   */
  private async applyArgus(
    tx: Queryable,
    organisationId: string,
    actor: ApiKeyActor,
    id: string,
    title: string,
    actionCount: number,
    planned: ActionPlan[],
    agentPriority: Priority,
  ): Promise<{
    audit: ArgusAudit[];
    events: (
      'interrupt.decided' | 'interrupt.answered' | 'interrupt.assigned' | 'interrupt.escalated'
    )[];
  }> {
    const audit: ArgusAudit[] = [];
    const events: (
      'interrupt.decided' | 'interrupt.answered' | 'interrupt.assigned' | 'interrupt.escalated'
    )[] = [];
    let actions = planned;
    if (actions.some((a) => a.decision?.decision === 'reject')) {
      const rejections = await this.interrupts.countArgusRejections(
        tx,
        organisationId,
        actor.id,
        BREAKER_WINDOW_SECONDS,
      );
      if (rejections >= BREAKER_REJECTIONS) {
        actions = withoutDecisions(actions);
        audit.push({
          action: 'classification.breaker_tripped',
          actor: ARGUS_ACTOR,
          metadata: {
            apiKeyId: actor.id,
            rejections,
            windowSeconds: BREAKER_WINDOW_SECONDS,
            actionNames: planned.map((a) => a.actionName),
          },
        });
      }
    }
    for (const plan of actions) {
      // What the external classifier said of the action, or why it said nothing (SPEC §8d).
      const c = plan.classifier;
      if (c !== undefined)
        audit.push(
          c.ok
            ? {
                action: 'classification.classified',
                actor: ARGUS_ACTOR,
                metadata: {
                  actionName: plan.actionName,
                  risk: c.risk,
                  labels: c.labels,
                  reasons: c.reasons,
                  classifierMs: c.ms,
                },
              }
            : {
                action: 'classification.classifier_failed',
                actor: ARGUS_ACTOR,
                metadata: { actionName: plan.actionName, reason: c.error, classifierMs: c.ms },
              },
        );
      for (const r of plan.receipts)
        audit.push({ action: r.action, actor: ARGUS_ACTOR, metadata: r.metadata });
    }
    await this.argus.record(tx, organisationId, id, actions);
    let decided = 0;
    for (const plan of actions) {
      if (plan.decision === undefined) continue;
      await this.interrupts.insertDecision(tx, organisationId, {
        id: randomUUID(),
        interruptId: id,
        actionName: plan.actionName,
        decision: plan.decision.decision,
        editedArgs: null,
        editedName: null,
        message: plan.decision.message,
        ...storeDecider({ type: 'argus', ruleId: plan.decision.ruleId, name: 'argus' }),
      });
      decided++;
      const becameAnswered = decided === actionCount;
      audit.push({
        action: 'interrupt.decided',
        actor: ARGUS_ACTOR,
        metadata: { actionName: plan.actionName, decision: plan.decision.decision, becameAnswered },
      });
      events.push('interrupt.decided');
      if (becameAnswered) {
        await this.interrupts.markAnswered(tx, organisationId, id);
        events.push('interrupt.answered');
      }
    }
    // A route applies to the interrupt: the first enforced one, while an action is left for a person.
    const route =
      decided < actionCount ? actions.find((a) => a.route !== undefined)?.route : undefined;
    if (route !== undefined) {
      const to = route.outcome.assignTo;
      const assignee =
        to === undefined
          ? undefined
          : 'teamId' in to
            ? await this.teams
                .findTeam(tx, organisationId, to.teamId)
                .then((t) => (t === undefined ? undefined : { type: 'team' as const, ...t }))
            : await lockCurrentMember(tx, organisationId, to.memberId).then((m) =>
                m === undefined ? undefined : { type: 'member' as const, ...m },
              );
      if (assignee !== undefined) {
        await this.interrupts.setAssignee(tx, organisationId, id, assignee);
        audit.push({
          action: 'interrupt.assigned',
          actor: ARGUS_ACTOR,
          metadata: {
            assigneeType: assignee.type,
            assigneeId: assignee.id,
            assigneeName: assignee.name,
            previousAssigneeType: null,
            previousAssigneeId: null,
          },
        });
        events.push('interrupt.assigned');
      }
      // The organisation's rule says how urgent it is, over its agent (SPEC §8e).
      const priority = route.outcome.priority;
      if (priority !== undefined && priority !== agentPriority) {
        await this.interrupts.setPriority(tx, organisationId, id, priority);
        audit.push({
          action: 'interrupt.priority_changed',
          actor: ARGUS_ACTOR,
          metadata: { from: agentPriority, to: priority },
        });
      }
      if (route.outcome.escalate === true) {
        const reason = 'Escalated by a classification rule';
        await this.interrupts.escalate(tx, organisationId, id, 1, reason);
        audit.push({
          action: 'interrupt.escalated',
          actor: ARGUS_ACTOR,
          metadata: { level: 1, reason },
        });
        events.push('interrupt.escalated');
      }
    }
    void title;
    return { audit, events };
  }

  /**
   * One interrupt with its decisions and, when asked, its linked session and its history — in
   * one query. Without `include` it is exactly the record agents read.
   */
  async get(
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude> = new Set(),
  ): Promise<InterruptDetailResponse> {
    const row = await this.interrupts.readDetail(this.reads, organisationId, id, include);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    const answer = toInterruptDetailResponse(row);
    if (row.escalation !== undefined)
      answer.escalation = await this.escalationOf(organisationId, row, row.escalation);
    return answer;
  }

  /**
   * include=escalation (SPEC §8e): the service's entries about the interrupt, the policy that
   * governs it and its next step, whose assignee is named as it is now (null when gone since).
   */
  private async escalationOf(
    organisationId: string,
    row: InterruptDetailRow,
    raw: EscalationRow,
  ): Promise<InterruptEscalation> {
    const view = escalationView(row, raw, new Date());
    const next = view.next;
    const assignee =
      next?.assignTo === null || next === null
        ? undefined
        : await this.interrupts.escalationAssignee(this.reads, organisationId, next.assignTo);
    return {
      policy: view.policy,
      team: view.team,
      next:
        next === null
          ? null
          : {
              step: next.step,
              afterMinutes: next.afterMinutes,
              action: next.action,
              when: next.when,
              dueAt: next.dueAt.toISOString(),
              assignTo: next.action === 'escalate' ? (assignee ?? null) : null,
            },
      entries: toHistoryEntries(raw.entries),
    };
  }

  /**
   * `get` as the HTTP answer. Without `include` it is the record kept with the row, answered as it
   * is: one text column to read, nothing to decode and nothing to write out again — the read
   * agents poll while they wait for a decision (issue 14). A record not kept is read as `get` reads it.
   */
  getAnswer(
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude>,
  ): Promise<JsonText<InterruptDetailResponse> | InterruptDetailResponse> {
    if (include.size > 0) return this.get(organisationId, id, include);
    // One step from the statement's rows to the answer, not async functions nested: a read in
    // flight holds no suspended frames while it waits for a connection or its rows (issue 28,
    // BENCHMARKS "session 21 (pkread)").
    return this.interrupts
      .readRecord(this.reads, organisationId, id)
      .then<JsonText<InterruptDetailResponse> | InterruptDetailResponse>((kept) => {
        if (kept === undefined) throw DomainError.of('NOT_FOUND');
        if (kept.record_json === null) return this.get(organisationId, id);
        return new JsonText<InterruptDetailResponse>(kept.record_json);
      });
  }

  /**
   * `getAnswer`, held while the interrupt is `open` (SPEC §8e `waitSeconds`): the wait is
   * registered before the first read, so a decision committed between the read and the wait still
   * wakes it; then nothing is read until it is woken — by the decision, on any instance — or its
   * time runs out, and the current state is read once more. A client that leaves is released
   * without that read (nobody is there to answer).
   *
   * `budget` is a key's request budget (SPEC §8e, "waiting costs no requests"): a request answered
   * without being held spends one (refused 429 when none is left); a held one spends nothing,
   * unless it ends by its own clock or its client leaving within WAIT_FREE_AFTER_MS — then one,
   * at its end, so that short waits in a loop cost what polling costs.
   */
  waitForAnswer(
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude>,
    waitMs: number,
    client?: WaitClient,
    budget?: WaitBudget,
  ): Promise<JsonText<InterruptDetailResponse> | InterruptDetailResponse> {
    const wait = this.waits.register(organisationId, id);
    // Known open (the agent's last wait here ran its time, nothing announced since): the first
    // read would find it open and keep nothing of it, so it is not made, and the wait is held at
    // once — without a suspended frame of this function for the whole hold (issue 37 §6).
    if (waitMs > 0 && wait.refusal === undefined && wait.takeKnownOpen())
      return this.holdWait(wait, organisationId, id, include, waitMs, client, budget);
    // Else the first read: answered at once, refused, or held — the promise of the hold handed
    // on, nothing of this call left suspended while held.
    return this.firstRead(organisationId, id, include, waitMs, budget).then(
      (answer) => {
        if (answer === undefined && wait.refusal === undefined)
          return this.holdWait(wait, organisationId, id, include, waitMs, client, budget);
        wait.release();
        if (answer !== undefined) return answer;
        budget?.spend();
        throw wait.refusal;
      },
      (error: unknown) => {
        wait.release();
        throw error;
      },
    );
  }

  /**
   * Holds a registered wait that was not refused, then reads its answer (answerHeld). What a held
   * request keeps of it is the wait's promise and one reaction, no suspended async frame: a
   * generator and its registers were ~0.3 KB of each of thousands of held requests' heap, promoted
   * with them, and every promoted byte a cycle is the collector's work (issue 37 §6: 10.02 → 9.80
   * KB a held wait, `npx nx run tools:bench-wait-heap`; BENCHMARKS.md, session 20).
   */
  private holdWait(
    wait: InterruptWait,
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude>,
    waitMs: number,
    client: WaitClient | undefined,
    budget: WaitBudget | undefined,
  ): Promise<JsonText<InterruptDetailResponse> | InterruptDetailResponse> {
    let heldAt: number;
    try {
      budget?.hold();
      heldAt = Date.now();
    } catch (error) {
      wait.release();
      return Promise.reject(error);
    }
    return wait.until(waitMs, client).then(
      (outcome) => this.answerHeld(wait, outcome, heldAt, organisationId, id, include, budget),
      // `until` does not reject today; if it ever does, the wait is still released.
      (error: unknown) => {
        wait.release();
        throw error;
      },
    );
  }

  /** A held wait ended (`outcome`): its budget settled, its answer read; released in any case. */
  private async answerHeld(
    wait: InterruptWait,
    outcome: WaitOutcome,
    heldAt: number,
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude>,
    budget: WaitBudget | undefined,
  ): Promise<JsonText<InterruptDetailResponse> | InterruptDetailResponse> {
    try {
      budget?.unhold();
      if (
        (outcome === 'elapsed' || outcome === 'disconnected') &&
        Date.now() - heldAt < WAIT_FREE_AFTER_MS
      )
        budget?.charge();
      if (outcome === 'disconnected') return NOBODY_LISTENS;
      // Read first, and never gathered (WAIT_READ_GATHER_MS): the answer of a wait its interrupt's
      // change woke, and every wait's when the instance stops (its pool closes after them).
      const settled = outcome === 'settled' || outcome === 'stopping';
      const read =
        include.size > 0
          ? await this.waits.read(() => this.readDetail(organisationId, id, include), settled)
          : await this.waitAnswer(organisationId, id, settled);
      // Its time ran out, yet it is not open: not known open for the next wait either.
      if (read.status !== 'open') wait.forgetKnownOpen();
      return read.answer;
    } finally {
      wait.release();
    }
  }

  /**
   * A wait's first read: the answer when it is given at once (the interrupt is not open, or no
   * wait was asked), spending one request of a key's budget then (or when the read fails);
   * undefined when the wait is to be held — the record read is not kept while held (thousands of
   * waits, issue 37 §6): the answer is read again at the end.
   */
  private async firstRead(
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude>,
    waitMs: number,
    budget: WaitBudget | undefined,
  ): Promise<JsonText<InterruptDetailResponse> | InterruptDetailResponse | undefined> {
    let read: StatusAndAnswer;
    try {
      // The waits' reads take their turns (InterruptWaits.read): a herd never drains the pool.
      read =
        include.size > 0
          ? await this.waits.read(() => this.readDetail(organisationId, id, include))
          : await this.waitAnswer(organisationId, id, false);
    } catch (error) {
      budget?.spend();
      throw error;
    }
    if (read.status !== 'open' || waitMs <= 0) {
      budget?.spend();
      return read.answer;
    }
    return undefined;
  }

  /**
   * The kept record (or, when not kept, the read `get` makes) and its status, for a wait: the
   * kept record is read in a batch with the other waits' (a herd of them ending together costs a
   * few statements, WaitReadBatches); a record not kept is read as `get` reads it, in its turn.
   */
  private async waitAnswer(
    organisationId: string,
    id: string,
    settled: boolean,
  ): Promise<StatusAndAnswer> {
    const kept = await this.waitRecords.load(organisationId, id, settled);
    if (kept === undefined) throw DomainError.of('NOT_FOUND');
    if (kept.record_json === null)
      return {
        status: kept.status,
        answer: await this.waits.read(() => this.get(organisationId, id), settled),
      };
    return { status: kept.status, answer: new JsonText(kept.record_json) };
  }

  private async readDetail(
    organisationId: string,
    id: string,
    include: ReadonlySet<InterruptInclude>,
  ): Promise<{ status: InterruptStatus; answer: InterruptDetailResponse }> {
    const answer = await this.get(organisationId, id, include);
    return { status: answer.status, answer };
  }

  /** One interrupt with what argus matches on ("Always allow this"); 404 when not the organisation's. */
  async forClassification(
    organisationId: string,
    id: string,
  ): Promise<{
    id: string;
    title: string;
    sessionId: string | null;
    keyId: string | null;
    actionRequests: StoredActionRequest[];
  }> {
    const r = await this.interrupts.readForClassification(this.dataSource, organisationId, id);
    if (r === undefined) throw DomainError.of('NOT_FOUND');
    return {
      id: r.id,
      title: r.title,
      sessionId: r.session_id,
      keyId: r.opened_by_key_id,
      actionRequests: r.action_requests,
    };
  }

  /** The latest interrupts with what argus matches on (the classification dry run). */
  async recentForClassification(
    organisationId: string,
    limit: number,
  ): Promise<
    {
      id: string;
      title: string;
      description: string | null;
      sessionId: string | null;
      keyId: string | null;
      keyName: string | null;
      actionRequests: StoredActionRequest[];
    }[]
  > {
    const rows = await this.interrupts.recentForClassification(
      this.dataSource,
      organisationId,
      limit,
    );
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description,
      sessionId: r.session_id,
      keyId: r.opened_by_key_id,
      keyName: r.opened_by_key_name,
      actionRequests: r.action_requests,
    }));
  }

  /**
   * The inbox (and the agents' listing): filtered, newest or oldest first by keyset (createdAt,
   * id), so a page is stable while new interrupts arrive. `caller` is who `me` refers to: the
   * signed-in member for `assignee=me|my_teams`, the API key for `openedBy=me`.
   */
  async list(command: ListInterruptsCommand): Promise<InterruptListResponse> {
    const { organisationId, listing, caller } = command;
    const plan = await this.listingPlan(organisationId, listing, caller);
    const page = await this.listRows<InterruptRow>(organisationId, plan, listing);
    return { interrupts: page.rows.map(toInterruptResponse), nextCursor: page.nextCursor };
  }

  /**
   * `list` as the HTTP answer, as the audit page is answered (issue 28 item 4): the page is read
   * as each interrupt's record kept with its row (`record_json`, by this renderer), put in the
   * page as it is — nothing of it decoded, nothing written out again. Without a title search it
   * is one row, the records joined by Postgres (`InboxPageText`, issue 28 §4); a page with
   * records not kept is read again row by row, and those interrupts read whole in one statement
   * and rendered. The same bytes as `list`'s page serialised.
   */
  async listAnswer(command: ListInterruptsCommand): Promise<JsonText<InterruptListResponse>> {
    const { organisationId, listing, caller } = command;
    const plan = await this.listingPlan(organisationId, listing, caller);
    const joined =
      plan !== undefined && plan.filter.words.length === 0
        ? await this.joinedPage(organisationId, plan, listing.cursor)
        : undefined;
    if (joined !== undefined) return joined;
    const page = await this.listRows<ListedInterruptRow | InterruptRow>(
      organisationId,
      plan,
      listing,
      LISTED_INTERRUPT_COLUMNS,
    );
    // A title search reads whole rows; the plain page reads the listed columns.
    const unkept = page.rows.filter((row) => !('title' in row) && row.record_json === null);
    const whole = new Map<string, InterruptRow>();
    if (unkept.length > 0) {
      const rows = await this.interrupts.readMany(
        this.reads,
        organisationId,
        unkept.map((row) => row.id),
      );
      for (const row of rows) whole.set(row.id, row);
    }
    let items = '';
    for (let i = 0; i < page.rows.length; i++) {
      const row = page.rows[i];
      let rendered = row.record_json;
      if (rendered === null || rendered === undefined) {
        const full = 'title' in row ? row : whole.get(row.id);
        // Gone since the page was read (the organisation's data erased): not listed.
        if (full === undefined) continue;
        rendered = JSON.stringify(toInterruptResponse(full));
      }
      items += (items === '' ? '' : ',') + rendered;
    }
    return listText(items, page.nextCursor);
  }

  /**
   * A page without a title search as one row, the kept records joined by Postgres
   * (`InboxPageText`); undefined when a record of the page is not kept.
   */
  private async joinedPage(
    organisationId: string,
    plan: ListingPlan,
    cursor: string | undefined,
  ): Promise<JsonText<InterruptListResponse> | undefined> {
    const after = keysetAfter(this.cursors, plan.scope, cursor);
    // `my_teams` of a member in no team: nothing to read.
    if (plan.filter.assignees?.ids.length === 0) return listText('', null);
    const page = await this.interrupts.pageText(
      this.reads,
      organisationId,
      plan.filter,
      after,
      plan.limit + 1,
    );
    if (page.unkept > 0) return undefined;
    const last = { created_at: page.last_created_at as string, expires_at: page.last_expires_at };
    const nextCursor =
      page.taken > plan.limit && page.last_id !== null
        ? this.cursors.encode(plan.scope, {
            createdAt: listingPosition(plan.filter.order, last),
            id: page.last_id,
          })
        : null;
    return listText(page.records ?? '', nextCursor);
  }

  /**
   * What a listing reads: its filter, the scope its cursors are bound to and its page size; or
   * undefined when it is a valid query that matches nothing (`me` naming what the caller is not).
   */
  private async listingPlan(
    organisationId: string,
    query: InterruptListing,
    caller: ListCaller,
  ): Promise<ListingPlan | undefined> {
    const { memberId, apiKeyId } = caller;
    const words = query.q === undefined ? [] : searchWords(query.q);
    if (words.length > MAX_SEARCH_WORDS) {
      throw new DomainError('VALIDATION_FAILED', `q: must have at most ${MAX_SEARCH_WORDS} words`);
    }
    const from = timestampParameter('from', query.from);
    const to = timestampParameter('to', query.to);
    if (from !== undefined && to !== undefined && Date.parse(from) > Date.parse(to)) {
      throw new DomainError('VALIDATION_FAILED', 'from: must not be after to');
    }
    const personal = query.assignee === 'me' || query.assignee === 'my_teams';
    // `me` names the caller: a key is no member and in no team, so nothing is assigned to it; a
    // member is no key, so it opened nothing. Both are valid queries that match nothing.
    if (personal && memberId === undefined) return undefined;
    if (query.openedBy === 'me' && apiKeyId === undefined) return undefined;
    const openedByKeyId = query.openedBy === 'me' ? apiKeyId : undefined;
    const order = query.order ?? 'newest';
    // A cursor is good for one organisation, one set of filters and (for me/my_teams) one member.
    const filters = JSON.stringify([
      organisationId,
      query.status ?? null,
      query.externalId ?? null,
      query.assignee ?? null,
      personal ? memberId : null,
      query.escalated ?? null,
      words.join(' '),
      from ?? null,
      to ?? null,
      order,
      openedByKeyId ?? null,
      query.priority === undefined ? null : [...query.priority].sort(),
      query.label ?? null,
    ]);
    let assignees: InboxFilter['assignees'];
    if (query.assignee === 'me') assignees = { type: 'member', ids: [memberId as string] };
    if (query.assignee === 'my_teams')
      assignees = {
        type: 'team',
        ids: await this.teams.teamIdsOf(organisationId, memberId as string),
      };
    const filter: InboxFilter = {
      statuses: query.status === undefined ? INTERRUPT_STATUSES : [query.status],
      assignees,
      unassigned: query.assignee === 'unassigned',
      escalated: query.escalated,
      externalId: query.externalId,
      openedByKeyId,
      priorities: query.priority,
      label: query.label,
      words,
      from,
      to,
      order,
    };
    return {
      filter,
      scope: { organisationId, filters },
      limit: query.limit ?? DEFAULT_PAGE,
    };
  }

  /** One page of the listing's rows (`columns`: what the plain listing reads of each, `Row`). */
  private async listRows<
    Row extends { id: string; created_at: Date | string; expires_at: Date | string | null },
  >(
    organisationId: string,
    plan: ListingPlan | undefined,
    query: InterruptListing,
    columns?: string,
  ): Promise<{ rows: Row[]; nextCursor: string | null }> {
    if (plan === undefined) return { rows: [], nextCursor: null };
    const { filter } = plan;
    const page = await keysetPage<Row>(
      this.cursors,
      { ...plan.scope, cursor: query.cursor, limit: plan.limit },
      (row) => listingPosition(filter.order, row),
      async (after, take) => {
        const { assignees, words } = filter;
        if (assignees !== undefined && assignees.ids.length === 0) return [];
        // A title search reads whole rows, which every `Row` a caller names includes.
        if (words.length > 0)
          return (await this.titleSearch(organisationId, filter, after, take)) as unknown as Row[];
        // A named prepared statement (one per shape of filter): parsed and planned once a
        // connection, as the audit page is (issue 28 item 4).
        return this.interrupts.page<Row>(this.reads, organisationId, filter, after, take, columns);
      },
    );
    return { rows: page.rows, nextCursor: page.nextCursor };
  }

  /**
   * A page of a title search, planned as the audit log's are (libs/audit search-plan.ts): each
   * prefix expands into the organisation's exact title words (the lexicon), whose counts choose
   * between the word index (few matches) and an ordered walk of the listing, which goes on while
   * the matches it finds make walking cheaper than the index, then hands over to the index from
   * where it stopped. A prefix that starts no word matches nothing, and costs one lookup.
   */
  private async titleSearch(
    organisationId: string,
    filter: InboxFilter,
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<InterruptRow[]> {
    const found = await this.interrupts.titleWords(this.dataSource, organisationId, filter.words);
    const total = found.find((r) => r.n === 0)?.interrupts ?? 0;
    const expanded: (string[] | null)[] = [];
    const counts: (number | null)[] = [];
    filter.words.forEach((_, i) => {
      const words = found.filter((r) => r.n === i + 1);
      const tooMany = words.length > MAX_TITLE_PREFIX_EXPANSION;
      expanded.push(tooMany ? null : words.map((r) => r.word));
      counts.push(tooMany ? null : words.reduce((sum, r) => sum + r.interrupts, 0));
    });
    if (expanded.some((words) => words !== null && words.length === 0)) return [];
    const search = { words: [...filter.words], expanded };
    const plan = chooseSearchPlan(counts, total, take, TITLE_SEARCH_COSTS);
    const hits: InterruptRow[] = [];
    let position = after;
    if (plan.kind === 'walk') {
      const words = searchTsquery(search);
      // The planned window in chunks (a long LIMIT can make Postgres sort instead of walk), then
      // on while the matches found make walking cheaper than the index.
      for (let walked = 0; ;) {
        const window =
          walked < plan.window
            ? Math.min(TITLE_SEARCH_WALK_CHUNK, plan.window - walked)
            : TITLE_SEARCH_WALK_CHUNK;
        hits.push(
          ...(await this.interrupts.titleSearchWalk(
            this.dataSource,
            organisationId,
            filter,
            position,
            take - hits.length,
            window,
            words,
          )),
        );
        if (hits.length >= take) return hits;
        const end = await this.interrupts.titleSearchWindowEnd(
          this.dataSource,
          organisationId,
          filter,
          position,
          window,
        );
        if (end === undefined) return hits;
        walked += window;
        position = { createdAt: end.position_at, id: end.id };
        if (walked >= plan.window && !walkOn(hits.length, walked, take, total, TITLE_SEARCH_COSTS))
          break;
      }
    }
    const keyed = searchTsquery(search, `${organisationId}:`);
    return [
      ...hits,
      ...(await this.interrupts.titleSearchIndex(
        this.dataSource,
        organisationId,
        filter,
        position,
        take - hits.length,
        keyed,
      )),
    ];
  }

  /** The inbox tabs' counts for a member, each capped (see COUNT_CAP). */
  async counts(organisationId: string, memberId: string): Promise<InterruptCountsResponse> {
    const row = await this.interrupts.counts(this.dataSource, organisationId, memberId);
    const tab = (n: number) => ({ count: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP });
    return {
      open: tab(row.open),
      assignedToMe: tab(row.assigned_to_me),
      waitingForMe: tab(row.waiting_for_me),
      escalated: tab(row.escalated),
      answered: tab(row.answered),
      cap: COUNT_CAP,
    };
  }
}

/** A query's `from`/`to`, validated as the audit log does (SPEC §7); undefined when absent. */
function timestampParameter(name: 'from' | 'to', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseTimestamp(value);
  if (parsed === null)
    throw new DomainError(
      'VALIDATION_FAILED',
      `${name}: must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z`,
    );
  return parsed;
}

/** A listing's answer: its records' JSON, joined with commas, and its next cursor. */
function listText(items: string, nextCursor: string | null): JsonText<InterruptListResponse> {
  return new JsonText(`{"interrupts":[${items}],"nextCursor":${JSON.stringify(nextCursor)}}`);
}

/** A listing's filter, the scope its cursors are bound to and its page size (`listingPlan`). */
interface ListingPlan {
  filter: InboxFilter;
  scope: CursorScope;
  limit: number;
}

/** A row's place in a listing of this order: its createdAt, or its deadline (NO_DEADLINE for none). */
function listingPosition(
  order: InboxFilter['order'],
  row: { created_at: Date | string; expires_at: Date | string | null },
): Date {
  if (order !== 'deadline') return instantOf(row.created_at);
  return row.expires_at === null ? NO_DEADLINE : instantOf(row.expires_at);
}
