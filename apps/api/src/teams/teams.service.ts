import type { MemberActor } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { queryRows } from '../database/query-rows.util';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';
import type { TeamResponse } from './dto/team.response';
import { DomainError } from '@interlock/domain';

interface TeamRow {
  id: string;
  name: string;
  member_ids: string[];
  created_at: Date;
}

function toResponse(row: TeamRow): TeamResponse {
  return { id: row.id, name: row.name, memberIds: row.member_ids, createdAt: row.created_at.toISOString() };
}

/** A team with its members' ids (uuid[] read as text[]: the driver parses that as an array). */
const SELECT_TEAMS = `
  SELECT t.id, t.name, t.created_at,
         COALESCE(
           array_agg(tm.member_id::text ORDER BY tm.created_at, tm.member_id) FILTER (WHERE tm.member_id IS NOT NULL),
           '{}'::text[]
         ) AS member_ids
    FROM teams t
    LEFT JOIN team_members tm ON tm.organisation_id = t.organisation_id AND tm.team_id = t.id`;

const nameTaken = () => new DomainError('CONFLICT', 'A team with this name already exists.');

/** Teams of members (SPEC §6, team.manage). */
@Injectable()
export class TeamsService {
  constructor(private readonly dataSource: DataSource) {}

  async list(organisationId: string): Promise<TeamResponse[]> {
    const rows: TeamRow[] = await this.dataSource.query(
      `${SELECT_TEAMS}
        WHERE t.organisation_id = $1
        GROUP BY t.organisation_id, t.id
        ORDER BY t.created_at, t.name`,
      [organisationId],
    );
    return rows.map(toResponse);
  }

  /** The ids of the teams a member belongs to now (for "assigned to my teams"). */
  async teamIdsOf(organisationId: string, memberId: string): Promise<string[]> {
    const rows: { team_id: string }[] = await this.dataSource.query(
      `SELECT team_id FROM team_members WHERE organisation_id = $1 AND member_id = $2`,
      [organisationId, memberId],
    );
    return rows.map((r) => r.team_id);
  }

  async create(organisationId: string, actor: MemberActor, name: string, ip: string | null): Promise<TeamResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const [created]: Omit<TeamRow, 'member_ids'>[] = await tx.query(
        `INSERT INTO teams (organisation_id, id, name) VALUES ($1, $2, $3)
         ON CONFLICT (organisation_id, name) DO NOTHING
         RETURNING id, name, created_at`,
        [organisationId, randomUUID(), name],
      );
      if (created === undefined) throw nameTaken();
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'team.created',
        actor: actor,
        target: { type: 'team', id: created.id, name },
        metadata: null,
        ipAddress: ip,
      });
      return { ...created, member_ids: [] };
    });
    return toResponse(row);
  }

  async rename(organisationId: string, actor: MemberActor, id: string, name: string, ip: string | null): Promise<TeamResponse> {
    return this.dataSource.transaction(async (tx) => {
      const before = await this.lockTeam(tx, organisationId, id, 'FOR NO KEY UPDATE');
      if (before.name !== name) {
        try {
          await tx.query(`UPDATE teams SET name = $3 WHERE organisation_id = $1 AND id = $2`, [
            organisationId,
            id,
            name,
          ]);
        } catch (error) {
          if (hasSqlState(error, UNIQUE_VIOLATION)) throw nameTaken();
          throw error;
        }
        await writeAuditEntry(tx, {
          organisationId: organisationId,
          action: 'team.renamed',
          actor: actor,
          target: { type: 'team', id, name },
          metadata: { previousName: before.name, name },
          ipAddress: ip,
        });
      }
      return toResponse(await this.read(tx, organisationId, id));
    });
  }

  async remove(organisationId: string, actor: MemberActor, id: string, ip: string | null): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const team = await this.lockTeam(tx, organisationId, id, 'FOR UPDATE');
      const [{ count }]: { count: number }[] = await tx.query(
        `SELECT count(*)::int AS count FROM team_members WHERE organisation_id = $1 AND team_id = $2`,
        [organisationId, id],
      );
      // Its memberships go with it (foreign key cascade).
      await tx.query(`DELETE FROM teams WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'team.deleted',
        actor: actor,
        target: { type: 'team', id, name: team.name },
        metadata: { memberCount: count },
        ipAddress: ip,
      });
    });
  }

  /** Adds a member of the organisation to the team; adding one already in it changes nothing. */
  async addMember(organisationId: string, actor: MemberActor, id: string, memberId: string, ip: string | null): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const team = await this.lockTeam(tx, organisationId, id, 'FOR KEY SHARE');
      const added = await this.lockMember(tx, organisationId, memberId);
      const inserted: unknown[] = await tx.query(
        `INSERT INTO team_members (organisation_id, team_id, member_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING
         RETURNING member_id`,
        [organisationId, id, added.id],
      );
      if (inserted.length === 0) return;
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'team.member_added',
        actor: actor,
        target: { type: 'team', id, name: team.name },
        metadata: { memberId: added.id, memberName: added.name },
        ipAddress: ip,
      });
    });
  }

  /** Removes a member of the organisation from the team; removing one not in it changes nothing. */
  async removeMember(organisationId: string, actor: MemberActor, id: string, memberId: string, ip: string | null): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const team = await this.lockTeam(tx, organisationId, id, 'FOR KEY SHARE');
      const removed = await this.lockMember(tx, organisationId, memberId);
      const deleted = await queryRows<{ member_id: string }>(
        tx,
        `DELETE FROM team_members WHERE organisation_id = $1 AND team_id = $2 AND member_id = $3 RETURNING member_id`,
        [organisationId, id, removed.id],
      );
      if (deleted.length === 0) return;
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'team.member_removed',
        actor: actor,
        target: { type: 'team', id, name: team.name },
        metadata: { memberId: removed.id, memberName: removed.name },
        ipAddress: ip,
      });
    });
  }

  private async lockTeam(
    tx: EntityManager,
    organisationId: string,
    id: string,
    lock: 'FOR UPDATE' | 'FOR NO KEY UPDATE' | 'FOR KEY SHARE',
  ): Promise<{ name: string }> {
    const [team]: { name: string }[] = await tx.query(
      `SELECT name FROM teams WHERE organisation_id = $1 AND id = $2 ${lock}`,
      [organisationId, id],
    );
    if (team === undefined) throw DomainError.of('NOT_FOUND');
    return team;
  }

  /** A current member of the caller's organisation, locked against removal until the transaction ends. */
  private async lockMember(tx: EntityManager, organisationId: string, memberId: string): Promise<{ id: string; name: string }> {
    const [row]: { id: string; name: string }[] = await tx.query(
      `SELECT u.id, u.name FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organisation_id = $1 AND m.user_id = $2 AND m.left_at IS NULL
          FOR KEY SHARE OF m`,
      [organisationId, memberId],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return row;
  }

  private async read(tx: EntityManager, organisationId: string, id: string): Promise<TeamRow> {
    const [row]: TeamRow[] = await tx.query(
      `${SELECT_TEAMS}
        WHERE t.organisation_id = $1 AND t.id = $2
        GROUP BY t.organisation_id, t.id`,
      [organisationId, id],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return row;
  }
}
