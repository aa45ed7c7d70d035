import { Injectable } from '@nestjs/common';
import { type Queryable, queryRows } from '../database/query-rows.util';
import type { RuleDefinition, StoredRule } from './rule-engine';

interface RuleRow {
  id: string;
  name: string;
  mode: StoredRule['mode'];
  priority: number;
  match: StoredRule['match'];
  outcome: StoredRule['outcome'];
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface RuleRecord extends StoredRule {
  updatedAt: string;
}

const COLUMNS = `id, name, mode, priority, match, outcome, expires_at, created_at, updated_at`;

function toRecord(row: RuleRow): RuleRecord {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    priority: row.priority,
    match: row.match,
    outcome: row.outcome,
    expiresAt: row.expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
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
  ): Promise<RuleRecord> {
    const [row] = await queryRows<RuleRow>(
      db,
      `INSERT INTO classification_rules (organisation_id, id, name, mode, priority, match, outcome, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        organisationId,
        id,
        rule.name,
        rule.mode,
        rule.priority,
        JSON.stringify(rule.match),
        JSON.stringify(rule.outcome),
        rule.expiresAt,
      ],
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
      `UPDATE classification_rules SET name = $3, mode = $4, priority = $5, match = $6, outcome = $7, expires_at = $8, updated_at = now()
        WHERE organisation_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        organisationId,
        id,
        rule.name,
        rule.mode,
        rule.priority,
        JSON.stringify(rule.match),
        JSON.stringify(rule.outcome),
        rule.expiresAt,
      ],
    );
    return toRecord(row);
  }

  async remove(db: Queryable, organisationId: string, id: string): Promise<void> {
    await db.query(`DELETE FROM classification_rules WHERE organisation_id = $1 AND id = $2`, [
      organisationId,
      id,
    ]);
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
