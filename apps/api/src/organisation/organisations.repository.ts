import { Injectable } from '@nestjs/common';
import type { EscalationPolicy, Plan } from '@interlock/domain';
import { type Queryable, queryRows } from '../database/query-rows.util';

export interface OrganisationRow {
  id: string;
  name: string;
  plan: Plan;
  created_at: Date;
}

/** The bounds an organisation sets on interrupt deadlines (SPEC §8e); a null maximum is the service's (30 days). */
export interface DeadlineSettingsRow {
  interrupt_timeout_default_seconds: number | null;
  interrupt_timeout_max_seconds: number | null;
  interrupt_timeout_approve_allowed: boolean;
}

export type OrganisationLock = 'FOR UPDATE' | 'FOR NO KEY UPDATE';

/**
 * The organisations table joined beside another owner's rows, for reads that show its name or
 * plan and must stay one statement (the sign-in lookup on every cookie request, an invitation
 * found by its token): `JOIN organisations <alias> ON <alias>.id = <organisationIdColumn>`. The
 * composing owner selects `<alias>.name` and `<alias>.plan` from it, and nothing else — but the
 * sign-in lookup, which also reads `<alias>.require_two_factor` (SPEC §8f).
 */
export function joinOrganisations(alias: string, organisationIdColumn: string): string {
  return `JOIN organisations ${alias} ON ${alias}.id = ${organisationIdColumn}`;
}

/**
 * The `organisations` table's one owner. Every method takes the handle to run on (the caller's
 * transaction, or the data source for a plain read) and the organisation first.
 */
@Injectable()
export class OrganisationsRepository {
  /** A new organisation on the Free plan. */
  async insert(db: Queryable, organisationId: string, name: string): Promise<void> {
    await db.query(`INSERT INTO organisations (id, name, plan) VALUES ($1, $2, 'free')`, [
      organisationId,
      name,
    ]);
  }

  async read(db: Queryable, organisationId: string): Promise<OrganisationRow | undefined> {
    const [row] = await queryRows<OrganisationRow>(
      db,
      `SELECT id, name, plan, created_at FROM organisations WHERE id = $1`,
      [organisationId],
    );
    return row;
  }

  /**
   * The organisation, locked as asked until the transaction ends: FOR NO KEY UPDATE before
   * changing a column that is no key (the plan, the settings) or to queue one kind of work of the
   * organisation (its other writes, which take KEY SHARE through their foreign keys, do not wait —
   * under FOR UPDATE one that already holds its audit head would deadlock with a change that
   * writes an audit entry); FOR UPDATE only before changing its key.
   */
  async lock(
    db: Queryable,
    organisationId: string,
    lock: OrganisationLock,
  ): Promise<OrganisationRow | undefined> {
    const [row] = await queryRows<OrganisationRow>(
      db,
      `SELECT id, name, plan, created_at FROM organisations WHERE id = $1 ${lock}`,
      [organisationId],
    );
    return row;
  }

  /**
   * The deadline bounds; `lock` FOR NO KEY UPDATE before changing them (not FOR UPDATE: the
   * organisation's other writes take KEY SHARE through their foreign keys, some after their audit
   * entry, whose head this change then waits for — a deadlock).
   */
  /** The organisation's name and escalation policy (null: none; SPEC §8e). */
  async escalationPolicy(
    db: Queryable,
    organisationId: string,
    lock: '' | 'FOR NO KEY UPDATE' = '',
  ): Promise<{ name: string; policy: EscalationPolicy | null } | undefined> {
    const [row] = await queryRows<{ name: string; policy: EscalationPolicy | null }>(
      db,
      `SELECT name, interrupt_escalation_policy AS policy FROM organisations WHERE id = $1 ${lock}`,
      [organisationId],
    );
    return row;
  }

  async setEscalationPolicy(
    db: Queryable,
    organisationId: string,
    policy: EscalationPolicy | null,
  ): Promise<void> {
    await db.query(`UPDATE organisations SET interrupt_escalation_policy = $2 WHERE id = $1`, [
      organisationId,
      policy === null ? null : JSON.stringify(policy),
    ]);
  }

  async deadlineSettings(
    db: Queryable,
    organisationId: string,
    lock: '' | 'FOR NO KEY UPDATE' = '',
  ): Promise<(DeadlineSettingsRow & { name: string }) | undefined> {
    const [row] = await queryRows<DeadlineSettingsRow & { name: string }>(
      db,
      `SELECT name, interrupt_timeout_default_seconds, interrupt_timeout_max_seconds, interrupt_timeout_approve_allowed
         FROM organisations WHERE id = $1 ${lock}`,
      [organisationId],
    );
    return row;
  }

  async setDeadlineSettings(
    db: Queryable,
    organisationId: string,
    settings: DeadlineSettingsRow,
  ): Promise<void> {
    await db.query(
      `UPDATE organisations
          SET interrupt_timeout_default_seconds = $2, interrupt_timeout_max_seconds = $3, interrupt_timeout_approve_allowed = $4
        WHERE id = $1`,
      [
        organisationId,
        settings.interrupt_timeout_default_seconds,
        settings.interrupt_timeout_max_seconds,
        settings.interrupt_timeout_approve_allowed,
      ],
    );
  }

  /** Whether the organisation requires two-factor sign-in of its members (SPEC §8f); undefined when it is gone. */
  async requiresTwoFactor(db: Queryable, organisationId: string): Promise<boolean | undefined> {
    const [row] = await queryRows<{ require_two_factor: boolean }>(
      db,
      `SELECT require_two_factor FROM organisations WHERE id = $1`,
      [organisationId],
    );
    return row?.require_two_factor;
  }

  /** Sets the two-factor requirement; whether it changed (false: it was so already). */
  async setRequireTwoFactor(
    db: Queryable,
    organisationId: string,
    requireTwoFactor: boolean,
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      db,
      `UPDATE organisations SET require_two_factor = $2
        WHERE id = $1 AND require_two_factor IS DISTINCT FROM $2 RETURNING id`,
      [organisationId, requireTwoFactor],
    );
    return rows.length === 1;
  }

  async setPlan(db: Queryable, organisationId: string, plan: Plan): Promise<void> {
    await db.query(`UPDATE organisations SET plan = $2 WHERE id = $1`, [organisationId, plan]);
  }
}
