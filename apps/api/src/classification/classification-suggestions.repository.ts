import { Injectable } from '@nestjs/common';
import { type Queryable, queryRows } from '../database/query-rows.util';

/** One (key, action name, argument shape) people approved often and never rejected lately. */
export interface SuggestionEvidenceRow {
  key_id: string;
  key_name: string;
  action_name: string;
  shape: Record<string, string>;
  approvals: number;
  last_approved_at: Date;
  /** The approved actions' arguments, newest first (at most the sample size asked for). */
  samples: Record<string, unknown>[];
  latest_interrupt_id: string;
}

export interface SuggestionQuery {
  days: number;
  minApprovals: number;
  samples: number;
  /** At most this many, most approved first; absent: all. */
  limit?: number;
}

/**
 * Reads suggestions' evidence from people's decisions (`interrupt_decisions`, through the partial
 * index on people's approvals and rejections by time) and owns `classification_suggestions`,
 * what people said of them.
 */
@Injectable()
export class ClassificationSuggestionsRepository {
  /**
   * Every (key, action name, argument shape) of the organisation that members approved at least
   * `minApprovals` times and rejected never in the last `days` days, whose key still exists and
   * of which nobody has dismissed or applied the suggestion. An action's shape is each top-level
   * argument's name and JSON type; decisions by argus or the service do not count, nor edits.
   */
  async evidence(
    db: Queryable,
    organisationId: string,
    query: SuggestionQuery,
  ): Promise<SuggestionEvidenceRow[]> {
    return queryRows<SuggestionEvidenceRow>(
      db,
      `WITH decided AS (
         SELECT i.opened_by_key_id AS key_id, d.action_name, d.decision, d.decided_at, d.interrupt_id,
                COALESCE(a.args, '{}'::jsonb) AS args
           FROM interrupt_decisions d
           JOIN interrupts i ON i.organisation_id = d.organisation_id AND i.id = d.interrupt_id
           LEFT JOIN LATERAL (
             SELECT CASE WHEN jsonb_typeof(r->'args') = 'object' THEN r->'args' END AS args
               FROM jsonb_array_elements(i.action_requests) r
              WHERE r->>'name' = d.action_name
              LIMIT 1) a ON true
          WHERE d.organisation_id = $1
            AND d.decided_by_type = 'member' AND d.decision IN ('approve', 'reject')
            AND d.decided_at > now() - $2::int * interval '1 day'
            AND i.opened_by_key_id IS NOT NULL),
       shaped AS (
         SELECT decided.*,
                COALESCE((SELECT jsonb_object_agg(e.key, jsonb_typeof(e.value)) FROM jsonb_each(decided.args) e), '{}'::jsonb) AS shape
           FROM decided)
       SELECT s.key_id, k.name AS key_name, s.action_name, s.shape,
              count(*)::int AS approvals,
              max(s.decided_at) AS last_approved_at,
              (array_agg(s.args ORDER BY s.decided_at DESC, s.interrupt_id))[1:$4] AS samples,
              (array_agg(s.interrupt_id ORDER BY s.decided_at DESC, s.interrupt_id))[1] AS latest_interrupt_id
         FROM shaped s
         JOIN api_keys k ON k.organisation_id = $1 AND k.id = s.key_id
        WHERE NOT EXISTS (
                SELECT 1 FROM classification_suggestions c
                 WHERE c.organisation_id = $1 AND c.key_id = s.key_id
                   AND c.action_name = s.action_name AND c.shape = s.shape)
        GROUP BY s.key_id, k.name, s.action_name, s.shape
       HAVING count(*) FILTER (WHERE s.decision = 'reject') = 0 AND count(*) >= $3
        ORDER BY count(*) DESC, max(s.decided_at) DESC, s.key_id, s.action_name
        LIMIT $5`,
      [organisationId, query.days, query.minApprovals, query.samples, query.limit ?? null],
    );
  }

  /**
   * Records what a person said of a suggestion; false when somebody already had (the unique
   * subject), so the caller's transaction is rolled back and nothing else is written.
   */
  async record(
    db: Queryable,
    organisationId: string,
    said: {
      id: string;
      keyId: string;
      actionName: string;
      shape: Record<string, string>;
      status: 'dismissed' | 'applied';
      ruleId: string | null;
      decidedById: string;
      decidedByName: string;
    },
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      db,
      `INSERT INTO classification_suggestions (organisation_id, id, key_id, action_name, shape, status, rule_id, decided_by_id, decided_by_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        organisationId,
        said.id,
        said.keyId,
        said.actionName,
        JSON.stringify(said.shape),
        said.status,
        said.ruleId,
        said.decidedById,
        said.decidedByName,
      ],
    );
    return rows.length === 1;
  }

  /**
   * Forgets a dismissal (the undo of Dismiss): the row goes, so the suggestion is made again while
   * its evidence holds. Answers what was dismissed, with its key's name when the key is still
   * there; null when the organisation has no dismissal of that id (unknown, applied, another's).
   */
  async restore(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<{
    key_id: string;
    key_name: string | null;
    action_name: string;
    shape: Record<string, string>;
  } | null> {
    const [row] = await queryRows<{
      key_id: string;
      key_name: string | null;
      action_name: string;
      shape: Record<string, string>;
    }>(
      db,
      `WITH gone AS (
         DELETE FROM classification_suggestions
          WHERE organisation_id = $1 AND id = $2 AND status = 'dismissed'
          RETURNING key_id, action_name, shape)
       SELECT g.key_id, k.name AS key_name, g.action_name, g.shape
         FROM gone g
         LEFT JOIN api_keys k ON k.organisation_id = $1 AND k.id = g.key_id`,
      [organisationId, id],
    );
    return row ?? null;
  }
}
