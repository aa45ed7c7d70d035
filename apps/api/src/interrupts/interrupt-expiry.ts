import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { type AuditEntryInput, writeAuditEntries, writeAuditEntry } from '@interlock/audit';
import type { AuditActorRef } from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { OrganisationEventsAnnouncer } from '../events/organisation-events.announcer';
import { LOGGER } from '../logging/logger.module';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import { type OutboxEvent, WebhookOutbox } from '../webhooks/webhook-outbox';
import { InterruptWaits } from './interrupt-waits';
import {
  type LockedInterrupt,
  type NewDecision,
  InterruptsRepository,
} from './interrupts.repository';

/** The service itself, as the audit log and decisions name it when a deadline acts (SPEC §8e). */
export const SYSTEM_ACTOR: AuditActorRef = { type: 'system', id: null, name: 'system' };

/** What a deadline leaves as the message of the decisions it makes. */
export const TIMEOUT_MESSAGE = 'No decision before the deadline.';

/** Why an `escalate` deadline escalated the interrupt. */
const TIMEOUT_ESCALATION_REASON =
  'No decision before the deadline; the deadline was extended once.';

/**
 * How many due interrupts of one organisation one transaction claims and expires (issue 37 §6):
 * each batch appends its audit entries to the organisation's chain in one statement, under one
 * hold of the chain's head, and commits once.
 */
export const EXPIRY_BATCH = 250;

/** How many batches run at once (of one organisation or several). */
const EXPIRY_CONCURRENCY = 4;

/** How many due interrupts one pass reads to find the organisations that have some. */
const DUE_SCAN = 1_000;

type Claimed = LockedInterrupt & { id: string };

/** What one batch did: how many it claimed, and how many of them it changed. */
interface BatchResult {
  claimed: number;
  changed: number;
}

/**
 * Deadlines (SPEC §8e), applied by the expiry job as actor `system`, in batches per organisation:
 * one transaction claims up to EXPIRY_BATCH of the organisation's due interrupts (`FOR NO KEY
 * UPDATE SKIP LOCKED`: several workers, on any number of instances, claim different ones, and a
 * claimed row is checked again as it is locked, so each deadline acts once), decides and closes
 * them, keeps their records, writes their events (webhook, notification, Slack and resumeUrl rows,
 * through the outbox) and appends their audit entries — the same entries and events, in the same
 * words, as one expiry at a time wrote. Once committed, it wakes the organisation's event streams
 * and the requests waiting on each interrupt.
 */
@Injectable()
export class InterruptExpiry {
  constructor(
    private readonly dataSource: DataSource,
    private readonly interrupts: InterruptsRepository,
    private readonly organisations: OrganisationsRepository,
    private readonly events: OrganisationEventsAnnouncer,
    private readonly outbox: WebhookOutbox,
    private readonly waits: InterruptWaits,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Applies every deadline at or before `now` (`now` is injected so tests need not wait), with
   * EXPIRY_CONCURRENCY batches of `batchSize` at a time. Safe on several instances at once.
   * Returns how many interrupts it changed (expired, or escalated by an `escalate` deadline).
   */
  async expireDue(now: Date, batchSize = EXPIRY_BATCH): Promise<number> {
    let changed = 0;
    for (;;) {
      const due = await this.interrupts.due(this.dataSource, now, DUE_SCAN);
      // The organisations with due interrupts, the oldest deadline first; each is worked on until
      // a batch of it claims less than a full batch (the rest is taken, or there is no more).
      const active = [...new Set(due.map((d) => d.organisation_id))];
      let claimed = 0;
      let turn = 0;
      const worker = async () => {
        while (active.length > 0) {
          const organisationId = active[turn++ % active.length];
          const batch = await this.expireBatch(organisationId, now, batchSize);
          claimed += batch.claimed;
          changed += batch.changed;
          if (batch.claimed < batchSize) {
            const at = active.indexOf(organisationId);
            if (at >= 0) active.splice(at, 1);
          }
        }
      };
      await Promise.all(Array.from({ length: EXPIRY_CONCURRENCY }, worker));
      // Nothing claimed: what is still due is being expired by others (or failed, and logged).
      if (due.length < DUE_SCAN || claimed === 0) return changed;
    }
  }

  /**
   * One interrupt's deadline, if it is due at `now` (a batch of one). False when there was nothing
   * to do: decided, withdrawn, extended or expired meanwhile, or held by a change under way (the
   * next run of the job sees it).
   */
  async expire(organisationId: string, id: string, now: Date): Promise<boolean> {
    return (await this.expireBatch(organisationId, now, 1, [id])).changed > 0;
  }

  /**
   * One batch. When it fails, its interrupts are tried one at a time, so one that cannot be
   * expired (logged) holds up no other.
   */
  private async expireBatch(
    organisationId: string,
    now: Date,
    limit: number,
    ids?: readonly string[],
  ): Promise<BatchResult> {
    let claimedIds: string[] = [];
    try {
      return await this.applyBatch(organisationId, now, limit, ids, (claimed) => {
        claimedIds = claimed;
      });
    } catch (error) {
      if (claimedIds.length <= 1) {
        this.logger.error(
          { err: error, organisationId, interruptId: claimedIds[0] ?? ids?.[0] },
          'could not apply an interrupt deadline',
        );
        return { claimed: claimedIds.length, changed: 0 };
      }
      let changed = 0;
      for (const id of claimedIds)
        changed += (await this.expireBatch(organisationId, now, 1, [id])).changed;
      return { claimed: claimedIds.length, changed };
    }
  }

  private async applyBatch(
    organisationId: string,
    now: Date,
    limit: number,
    ids: readonly string[] | undefined,
    onClaimed: (ids: string[]) => void,
  ): Promise<BatchResult> {
    const done = await this.dataSource.transaction(async (tx) => {
      const claimed = await this.interrupts.claimDue(tx, organisationId, now, limit, ids);
      onClaimed(claimed.map((c) => c.id));
      const escalating = claimed.filter((c) => c.on_timeout === 'escalate' && !c.timeout_escalated);
      for (const interrupt of escalating) await this.escalate(tx, organisationId, interrupt, now);
      const expiring = claimed.filter((c) => !escalating.includes(c));
      await this.expireClaimed(tx, organisationId, expiring);
      return { claimed: claimed.length, expired: expiring.map((c) => c.id) };
    });
    if (done.claimed > 0) await this.events.announce(organisationId);
    await this.waits.announceAllSettled(organisationId, done.expired);
    return { claimed: done.claimed, changed: done.claimed };
  }

  /**
   * An `escalate` deadline, the first time: escalates and extends the deadline by its original
   * length (a later deadline rejects).
   */
  private async escalate(
    tx: Queryable,
    organisationId: string,
    interrupt: Claimed,
    now: Date,
  ): Promise<void> {
    const { id } = interrupt;
    const expiresAt = interrupt.expires_at as Date;
    const length = expiresAt.getTime() - interrupt.created_at.getTime();
    const level = interrupt.escalation_level + 1;
    await this.interrupts.escalate(tx, organisationId, id, level, TIMEOUT_ESCALATION_REASON);
    await this.interrupts.setDeadline(
      tx,
      organisationId,
      id,
      new Date(now.getTime() + length),
      true,
      'escalate',
    );
    await writeAuditEntry(tx, {
      organisationId,
      action: 'interrupt.escalated',
      actor: SYSTEM_ACTOR,
      target: { type: 'interrupt', id, name: interrupt.title },
      metadata: { level, reason: TIMEOUT_ESCALATION_REASON },
      ipAddress: null,
    });
    const escalated = await this.interrupts.keepRendered(tx, organisationId, id);
    await this.outbox.write(tx, organisationId, [
      { type: 'interrupt.escalated', subjectId: id, data: escalated },
    ]);
  }

  /**
   * Every undecided action of each interrupt is decided `reject` (or `approve`, where it asked
   * for that and the organisation allows it now) by `system`, and the interrupt becomes
   * `expired` — a statement per step for the whole batch, its audit entries last (the chain's
   * head is held from the first of them to the commit).
   */
  private async expireClaimed(
    tx: Queryable,
    organisationId: string,
    claimed: readonly Claimed[],
  ): Promise<void> {
    if (claimed.length === 0) return;
    const ids = claimed.map((c) => c.id);
    // Approval at the deadline needs the organisation's leave now, not only when it opened:
    // turning it off in Settings rejects the interrupts already waiting for it.
    const approveAllowed =
      claimed.some((c) => c.on_timeout === 'approve') &&
      (await this.organisations.deadlineSettings(tx, organisationId))
        ?.interrupt_timeout_approve_allowed === true;
    const outcome = (c: Claimed) =>
      approveAllowed && c.on_timeout === 'approve' ? ('approve' as const) : ('reject' as const);
    const decisions: NewDecision[] = claimed.flatMap((c) =>
      c.action_requests.map((action) => ({
        id: randomUUID(),
        interruptId: c.id,
        actionName: action.name,
        decision: outcome(c),
        editedArgs: null,
        editedName: null,
        message: outcome(c) === 'reject' ? TIMEOUT_MESSAGE : null,
        decidedByType: 'system' as const,
        decidedById: null,
        decidedByName: 'system',
        decidedByRuleId: null,
        decidedByReason: 'timeout' as const,
      })),
    );
    const inserted = new Set(
      (await this.interrupts.insertDecisions(tx, organisationId, decisions)).map(
        (d) => `${d.interrupt_id}\n${d.action_name}`,
      ),
    );
    await this.interrupts.closeMany(tx, organisationId, ids, 'expired', null);
    const records = await this.interrupts.keepRenderedMany(tx, organisationId, ids);
    const events: OutboxEvent[] = claimed.map((c) => {
      const data = records.get(c.id);
      // Claimed under its lock in this transaction: it cannot be gone.
      if (data === undefined) throw new Error(`interrupt ${c.id} vanished while it expired`);
      return { type: 'interrupt.expired', subjectId: c.id, data };
    });
    await this.outbox.write(tx, organisationId, events);
    const entries: AuditEntryInput[] = claimed.map((c) => ({
      organisationId,
      action: 'interrupt.expired',
      actor: SYSTEM_ACTOR,
      target: { type: 'interrupt', id: c.id, name: c.title },
      metadata: {
        outcome: outcome(c),
        actionNames: c.action_requests
          .map((a) => a.name)
          .filter((name) => inserted.has(`${c.id}\n${name}`)),
      },
      ipAddress: null,
    }));
    await writeAuditEntries(tx, entries);
  }
}
