import { Injectable } from '@nestjs/common';
import { type Queryable, queryRows } from '../database/query-rows.util';
import { deleteRowsOlderThan } from '../database/retention-delete.util';

/** One rule matching one action request, as the pipeline records it. */
export interface MatchToRecord {
  ruleId: string;
  actionName: string;
  mode: 'shadow' | 'enforce';
  outcome: string;
  /** Shadow: would have decided the action; enforce: decided it. */
  decides: boolean;
}

/** A shadow rule's opinion on an action a person has just decided. */
export interface ShadowOpinion {
  ruleId: string;
  outcome: string;
  /** null: the rule would not have decided (route, require_human, or a decision the action does not allow). */
  agreed: boolean | null;
}

export interface RuleStatsRow {
  rule_id: string;
  shadow_matched: number;
  shadow_would_decide: number;
  shadow_decided_by_people: number;
  shadow_agreed: number;
  enforce_matched: number;
  enforce_decided: number;
  last_matched_at: Date | null;
}

export interface DisagreementRow {
  interrupt_id: string;
  title: string;
  action_name: string;
  outcome: string;
  person_decision: string;
  person_name: string | null;
  decided_at: Date;
}

const STATS = `
  count(*) FILTER (WHERE mode = 'shadow')::int AS shadow_matched,
  count(*) FILTER (WHERE mode = 'shadow' AND decides)::int AS shadow_would_decide,
  count(*) FILTER (WHERE mode = 'shadow' AND decides AND person_decision IS NOT NULL)::int AS shadow_decided_by_people,
  count(*) FILTER (WHERE mode = 'shadow' AND agreed)::int AS shadow_agreed,
  count(*) FILTER (WHERE mode = 'enforce')::int AS enforce_matched,
  count(*) FILTER (WHERE mode = 'enforce' AND decides)::int AS enforce_decided,
  max(created_at) AS last_matched_at`;

/** The `classification_matches` table's one owner: argus's statistics (SPEC §8d). */
@Injectable()
export class ClassificationMatchesRepository {
  /** Records the rules that matched a new interrupt's actions (one statement). */
  async insertMany(
    db: Queryable,
    organisationId: string,
    interruptId: string,
    matches: readonly MatchToRecord[],
  ): Promise<void> {
    if (matches.length === 0) return;
    await db.query(
      `INSERT INTO classification_matches (organisation_id, id, rule_id, interrupt_id, action_name, mode, outcome, decides)
       SELECT $1, gen_random_uuid(), m.rule_id, $2, m.action_name, m.mode, m.outcome, m.decides
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::boolean[]) AS m(rule_id, action_name, mode, outcome, decides)`,
      [
        organisationId,
        interruptId,
        matches.map((m) => m.ruleId),
        matches.map((m) => m.actionName),
        matches.map((m) => m.mode),
        matches.map((m) => m.outcome),
        matches.map((m) => m.decides),
      ],
    );
  }

  /**
   * A person decided an action: every shadow rule that matched it records the decision and
   * whether it would have agreed (it would have decided, and the same way).
   */
  async recordPersonDecision(
    db: Queryable,
    organisationId: string,
    interruptId: string,
    actionName: string,
    decision: string,
    personName: string,
  ): Promise<ShadowOpinion[]> {
    const rows = await queryRows<{ rule_id: string; outcome: string; agreed: boolean | null }>(
      db,
      `UPDATE classification_matches
          SET person_decision = $4, person_name = $5, decided_at = now(), agreed = CASE WHEN decides THEN outcome = $4 ELSE NULL END
        WHERE organisation_id = $1 AND interrupt_id = $2 AND action_name = $3 AND mode = 'shadow' AND person_decision IS NULL
        RETURNING rule_id, outcome, agreed`,
      [organisationId, interruptId, actionName, decision, personName],
    );
    return rows
      .map((r) => ({ ruleId: r.rule_id, outcome: r.outcome, agreed: r.agreed }))
      .sort((a, b) => a.ruleId.localeCompare(b.ruleId));
  }

  /** Drops a rule's figures (what it matches or does changed: they described another rule). */
  async forgetRule(db: Queryable, organisationId: string, ruleId: string): Promise<void> {
    await db.query(
      `DELETE FROM classification_matches WHERE organisation_id = $1 AND rule_id = $2`,
      [organisationId, ruleId],
    );
  }

  /** Deletes at most `limit` matches, of any organisation, recorded longer ago than the retention. */
  deleteOlderThan(db: Queryable, retentionMs: number, limit: number): Promise<number> {
    return deleteRowsOlderThan(
      db,
      'classification_matches',
      ['organisation_id', 'id'],
      retentionMs,
      limit,
    );
  }

  /** Every rule's figures that has any. */
  async statsByRule(db: Queryable, organisationId: string): Promise<RuleStatsRow[]> {
    return queryRows<RuleStatsRow>(
      db,
      `SELECT rule_id, ${STATS} FROM classification_matches WHERE organisation_id = $1 GROUP BY rule_id`,
      [organisationId],
    );
  }

  async statsOfRule(db: Queryable, organisationId: string, ruleId: string): Promise<RuleStatsRow> {
    const [row] = await queryRows<RuleStatsRow>(
      db,
      `SELECT $2::uuid AS rule_id, ${STATS} FROM classification_matches WHERE organisation_id = $1 AND rule_id = $2`,
      [organisationId, ruleId],
    );
    return row;
  }

  /** The latest actions people decided otherwise than the shadow rule would have, newest first. */
  async disagreements(
    db: Queryable,
    organisationId: string,
    ruleId: string,
    limit: number,
  ): Promise<DisagreementRow[]> {
    return queryRows<DisagreementRow>(
      db,
      `SELECT m.interrupt_id, i.title, m.action_name, m.outcome, m.person_decision, m.person_name, m.decided_at
         FROM classification_matches m
         JOIN interrupts i ON i.organisation_id = m.organisation_id AND i.id = m.interrupt_id
        WHERE m.organisation_id = $1 AND m.rule_id = $2 AND m.agreed = false
        ORDER BY m.decided_at DESC, m.id
        LIMIT $3`,
      [organisationId, ruleId, limit],
    );
  }
}
