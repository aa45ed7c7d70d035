import { Injectable } from '@nestjs/common';
import { type Queryable, queryRows } from '../database/query-rows.util';
import { bumpVersion, readVersion } from './classification-versions.repository';
import type { RuleDefinition, RuleOrigin, RulePause, StoredRule } from './rule-engine';

interface RuleRow {
  id: string;
  name: string;
  mode: StoredRule['mode'];
  priority: number;
  match: StoredRule['match'];
  outcome: StoredRule['outcome'];
  expires_at: Date | null;
  origin: RuleOrigin;
  origin_interrupt_id: string | null;
  paused: RulePause | null;
  created_at: Date;
  updated_at: Date;
}

export interface RuleRecord extends StoredRule {
  origin: RuleOrigin;
  originInterruptId: string | null;
  paused: RulePause | null;
  updatedAt: string;
}

/** Where a new rule comes from (absent: the editor or API). */
export interface RuleProvenance {
  origin: RuleOrigin;
  interruptId: string | null;
}

const COLUMNS = `id, name, mode, priority, match, outcome, expires_at, origin, origin_interrupt_id, paused, created_at, updated_at`;

function toRecord(row: RuleRow): RuleRecord {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    priority: row.priority,
    match: row.match,
    outcome: row.outcome,
    expiresAt: row.expires_at?.toISOString() ?? null,
    origin: row.origin,
    originInterruptId: row.origin_interrupt_id,
    paused: row.paused,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A rule's $1…$8 of the insert and the update alike: its organisation, id and definition. */
function ruleParameters(organisationId: string, id: string, rule: RuleDefinition): unknown[] {
  return [
    organisationId,
    id,
    rule.name,
    rule.mode,
    rule.priority,
    JSON.stringify(rule.match),
    JSON.stringify(rule.outcome),
    rule.expiresAt,
  ];
}

/** The `classification_rules` table's one owner. */
@Injectable()
export class ClassificationRulesRepository {
  /** Every rule of the organisation, in evaluation order. */
  async list(db: Queryable, organisationId: string): Promise<RuleRecord[]> {
    const rows = await queryRows<RuleRow>(
      db,
      `SELECT ${COLUMNS} FROM classification_rules WHERE organisation_id = $1 ORDER BY priority, created_at, id`,
      [organisationId],
    );
    return rows.map(toRecord);
  }

  async read(
    db: Queryable,
    organisationId: string,
    id: string,
    lock = false,
  ): Promise<RuleRecord | undefined> {
    const [row] = await queryRows<RuleRow>(
      db,
      `SELECT ${COLUMNS} FROM classification_rules WHERE organisation_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [organisationId, id],
    );
    return row === undefined ? undefined : toRecord(row);
  }

  async insert(
    db: Queryable,
    organisationId: string,
    id: string,
    rule: RuleDefinition,
    provenance: RuleProvenance = { origin: 'member', interruptId: null },
  ): Promise<RuleRecord> {
    const [row] = await queryRows<RuleRow>(
      db,
      `WITH ${bumpVersion()}
       INSERT INTO classification_rules (organisation_id, id, name, mode, priority, match, outcome, expires_at, origin, origin_interrupt_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
      [...ruleParameters(organisationId, id, rule), provenance.origin, provenance.interruptId],
    );
    return toRecord(row);
  }

  async update(
    db: Queryable,
    organisationId: string,
    id: string,
    rule: RuleDefinition,
  ): Promise<RuleRecord> {
    const [row] = await queryRows<RuleRow>(
      db,
      `WITH ${bumpVersion()}
       UPDATE classification_rules SET name = $3, mode = $4, priority = $5, match = $6, outcome = $7, expires_at = $8,
              paused = CASE WHEN mode = $4 THEN paused END, updated_at = now()
        WHERE organisation_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      ruleParameters(organisationId, id, rule),
    );
    return toRecord(row);
  }

  async remove(db: Queryable, organisationId: string, id: string): Promise<void> {
    await db.query(
      `WITH ${bumpVersion()} DELETE FROM classification_rules WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
  }

  /**
   * Switches an enforced rule off because a person rejected an action it would approve; undefined
   * when it is no longer enforced (changed meanwhile).
   */
  async pause(
    db: Queryable,
    organisationId: string,
    id: string,
    pause: Omit<RulePause, 'at'>,
  ): Promise<RuleRecord | undefined> {
    // The version rises only with a pause, after the rule's row lock (the order every writer takes).
    const [row] = await queryRows<RuleRow>(
      db,
      `WITH paused AS (
         UPDATE classification_rules
            SET mode = 'off', updated_at = now(),
                paused = jsonb_build_object('at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                            'interruptId', $3::text, 'actionName', $4::text, 'byName', $5::text)
          WHERE organisation_id = $1 AND id = $2 AND mode = 'enforce' RETURNING ${COLUMNS}),
       ${bumpVersion('EXISTS (SELECT 1 FROM paused)')}
       SELECT * FROM paused`,
      [organisationId, id, pause.interruptId, pause.actionName, pause.byName],
    );
    return row === undefined ? undefined : toRecord(row);
  }

  /** The version of the organisation's rules and classifier (see `readVersion`). */
  version(db: Queryable, organisationId: string): Promise<string> {
    return readVersion(db, organisationId);
  }

  /** How many rules the organisation has (the per-organisation cap). */
  async count(db: Queryable, organisationId: string): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM classification_rules WHERE organisation_id = $1`,
      [organisationId],
    );
    return n;
  }
}
