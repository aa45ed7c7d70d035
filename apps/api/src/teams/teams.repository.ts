import { Injectable } from '@nestjs/common';
import type { EscalationPolicy } from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { hasRow, queryRows } from '../database/query-rows.util';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';

export interface TeamRow {
  id: string;
  name: string;
  member_ids: string[];
  created_at: Date;
}

export type TeamLock = 'FOR UPDATE' | 'FOR NO KEY UPDATE' | 'FOR KEY SHARE';

/** A team with its members' ids (uuid[] read as text[]: the driver parses that as an array). */
const SELECT_TEAMS = `
  SELECT t.id, t.name, t.created_at,
         COALESCE(
           array_agg(tm.member_id::text ORDER BY tm.created_at, tm.member_id) FILTER (WHERE tm.member_id IS NOT NULL),
           '{}'::text[]
         ) AS member_ids
    FROM teams t
    LEFT JOIN team_members tm ON tm.organisation_id = t.organisation_id AND tm.team_id = t.id`;

/**
 * The `teams` and `team_members` tables' one owner. Every method takes the handle to run on (the
 * caller's transaction, or the data source for a plain read) and the organisation first.
 */
@Injectable()
export class TeamsRepository {
  list(db: Queryable, organisationId: string): Promise<TeamRow[]> {
    return queryRows<TeamRow>(
      db,
      `${SELECT_TEAMS}
        WHERE t.organisation_id = $1
        GROUP BY t.organisation_id, t.id
        ORDER BY t.created_at, t.name`,
      [organisationId],
    );
  }

  async read(db: Queryable, organisationId: string, id: string): Promise<TeamRow | undefined> {
    const [row] = await queryRows<TeamRow>(
      db,
      `${SELECT_TEAMS}
        WHERE t.organisation_id = $1 AND t.id = $2
        GROUP BY t.organisation_id, t.id`,
      [organisationId, id],
    );
    return row;
  }

  /** The team, locked as asked until the transaction ends; undefined when it is not the organisation's. */
  lock(
    db: Queryable,
    organisationId: string,
    id: string,
    lock: TeamLock,
  ): Promise<{ id: string; name: string } | undefined> {
    return this.lockOne(db, organisationId, 'id', id, lock);
  }

  /** The team of that name, locked as asked until the transaction ends; undefined when the organisation has none. */
  lockByName(
    db: Queryable,
    organisationId: string,
    name: string,
    lock: TeamLock,
  ): Promise<{ id: string; name: string } | undefined> {
    return this.lockOne(db, organisationId, 'name', name, lock);
  }

  private async lockOne(
    db: Queryable,
    organisationId: string,
    column: 'id' | 'name',
    value: string,
    lock: TeamLock,
  ): Promise<{ id: string; name: string } | undefined> {
    const [team] = await queryRows<{ id: string; name: string }>(
      db,
      `SELECT id, name FROM teams WHERE organisation_id = $1 AND ${column} = $2 ${lock}`,
      [organisationId, value],
    );
    return team;
  }

  /** Whether the member belongs to the team now. */
  async isMember(
    db: Queryable,
    organisationId: string,
    teamId: string,
    memberId: string,
  ): Promise<boolean> {
    return hasRow(
      db,
      `SELECT 1 FROM team_members WHERE organisation_id = $1 AND team_id = $2 AND member_id = $3`,
      [organisationId, teamId, memberId],
    );
  }

  /** The ids of the teams a member belongs to now. */
  async teamIdsOf(db: Queryable, organisationId: string, memberId: string): Promise<string[]> {
    const rows = await queryRows<{ team_id: string }>(
      db,
      `SELECT team_id FROM team_members WHERE organisation_id = $1 AND member_id = $2`,
      [organisationId, memberId],
    );
    return rows.map((r) => r.team_id);
  }

  /** The new team, or undefined when the organisation has one of that name. */
  async insert(
    db: Queryable,
    organisationId: string,
    id: string,
    name: string,
  ): Promise<Omit<TeamRow, 'member_ids'> | undefined> {
    const [created] = await queryRows<Omit<TeamRow, 'member_ids'>>(
      db,
      `INSERT INTO teams (organisation_id, id, name) VALUES ($1, $2, $3)
       ON CONFLICT (organisation_id, name) DO NOTHING
       RETURNING id, name, created_at`,
      [organisationId, id, name],
    );
    return created;
  }

  /** False when another team of the organisation has the name. */
  async rename(db: Queryable, organisationId: string, id: string, name: string): Promise<boolean> {
    try {
      await db.query(`UPDATE teams SET name = $3 WHERE organisation_id = $1 AND id = $2`, [
        organisationId,
        id,
        name,
      ]);
      return true;
    } catch (error) {
      if (hasSqlState(error, UNIQUE_VIOLATION)) return false;
      throw error;
    }
  }

  /** The team's escalation policy (SPEC §8e), locked as asked; undefined when it is not the organisation's. */
  async escalationPolicy(
    db: Queryable,
    organisationId: string,
    id: string,
    lock: '' | 'FOR NO KEY UPDATE' = '',
  ): Promise<{ id: string; name: string; policy: EscalationPolicy | null } | undefined> {
    const [row] = await queryRows<{ id: string; name: string; policy: EscalationPolicy | null }>(
      db,
      `SELECT id, name, escalation_policy AS policy FROM teams WHERE organisation_id = $1 AND id = $2 ${lock}`,
      [organisationId, id],
    );
    return row;
  }

  async setEscalationPolicy(
    db: Queryable,
    organisationId: string,
    id: string,
    policy: EscalationPolicy | null,
  ): Promise<void> {
    await db.query(
      `UPDATE teams SET escalation_policy = $3 WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id, policy === null ? null : JSON.stringify(policy)],
    );
  }

  async memberCount(db: Queryable, organisationId: string, id: string): Promise<number> {
    const [{ count }] = await queryRows<{ count: number }>(
      db,
      `SELECT count(*)::int AS count FROM team_members WHERE organisation_id = $1 AND team_id = $2`,
      [organisationId, id],
    );
    return count;
  }

  /** Deletes the team; its memberships go with it (foreign key cascade). */
  async delete(db: Queryable, organisationId: string, id: string): Promise<void> {
    await db.query(`DELETE FROM teams WHERE organisation_id = $1 AND id = $2`, [
      organisationId,
      id,
    ]);
  }

  /** Puts the member in the team (`inTeam`) or takes them out; true when the team changed. */
  async setMember(
    db: Queryable,
    organisationId: string,
    id: string,
    memberId: string,
    inTeam: boolean,
  ): Promise<boolean> {
    const changed = await queryRows<{ member_id: string }>(
      db,
      inTeam
        ? `INSERT INTO team_members (organisation_id, team_id, member_id) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING
           RETURNING member_id`
        : `DELETE FROM team_members WHERE organisation_id = $1 AND team_id = $2 AND member_id = $3 RETURNING member_id`,
      [organisationId, id, memberId],
    );
    return changed.length > 0;
  }

  /** Takes a member out of every team of the organisation (their membership is ending). */
  async removeMemberFromAll(
    db: Queryable,
    organisationId: string,
    memberId: string,
  ): Promise<void> {
    await db.query(`DELETE FROM team_members WHERE organisation_id = $1 AND member_id = $2`, [
      organisationId,
      memberId,
    ]);
  }
}
