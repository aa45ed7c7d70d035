import { Injectable } from '@nestjs/common';
import type { Plan } from '@interlock/domain';
import { type Queryable, queryRows } from '../database/query-rows.util';
import { joinOrganisationPlan } from '../organisation/organisation-plan-query.util';

/** A key as members see it listed (never its hash). */
export interface ApiKeyRow {
  id: string;
  name: string;
  start: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** A key as verification needs it: its hash, its organisation and that organisation's plan. */
export interface ApiKeyLookupRow {
  id: string;
  organisation_id: string;
  name: string;
  key_hash: string;
  expires_at: Date | null;
  plan: Plan;
}

export interface NewApiKey {
  id: string;
  name: string;
  start: string;
  keyHash: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
}

const LISTED = `id, name, start, created_at, expires_at, last_used_at`;

/**
 * Verification's one statement, on a cache miss only (`ApiKeyVerifier`): the key by its hash
 * with its organisation's plan. The plan is the organisation module's column, composed through
 * its fragment (`joinOrganisationPlan`) so the hot key path keeps one round trip; the text is
 * built once, so it stays one statement for the server's plan cache.
 */
const LOOKUP_BY_HASH = `SELECT k.id, k.organisation_id, k.name, k.key_hash, k.expires_at, o.plan
  FROM api_keys k ${joinOrganisationPlan('o', 'k.organisation_id')}
 WHERE k.key_hash = $1`;

/**
 * The `api_keys` table's one owner. Every method takes the handle to run on (the caller's
 * transaction, or the data source for a plain read) and, but for the lookup by hash that finds
 * the organisation, the organisation first.
 */
@Injectable()
export class ApiKeysRepository {
  /** The organisation's keys that have not expired, newest first. */
  listLive(db: Queryable, organisationId: string): Promise<ApiKeyRow[]> {
    return queryRows<ApiKeyRow>(
      db,
      `SELECT ${LISTED} FROM api_keys
        WHERE organisation_id = $1 AND (expires_at IS NULL OR expires_at > now())
        ORDER BY created_at DESC, id`,
      [organisationId],
    );
  }

  async insert(db: Queryable, organisationId: string, key: NewApiKey): Promise<void> {
    const { id, name, start, keyHash, createdBy, createdAt, expiresAt } = key;
    await db.query(
      `INSERT INTO api_keys (organisation_id, id, name, start, key_hash, created_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [organisationId, id, name, start, keyHash, createdBy, createdAt, expiresAt],
    );
  }

  /** The key's name, locked until the transaction ends; undefined when expired or not the organisation's. */
  async lockLive(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<{ name: string } | undefined> {
    const [row] = await queryRows<{ name: string }>(
      db,
      `SELECT name FROM api_keys
        WHERE organisation_id = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now())
        FOR UPDATE`,
      [organisationId, id],
    );
    return row;
  }

  /** The key renamed, or undefined when it is not the organisation's. */
  async rename(
    db: Queryable,
    organisationId: string,
    id: string,
    name: string,
  ): Promise<ApiKeyRow | undefined> {
    const [row] = await queryRows<ApiKeyRow>(
      db,
      `UPDATE api_keys SET name = $3 WHERE organisation_id = $1 AND id = $2 RETURNING ${LISTED}`,
      [organisationId, id, name],
    );
    return row;
  }

  /** Deletes the key; its name and start, or undefined when it is not the organisation's. */
  async delete(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<{ name: string; start: string } | undefined> {
    const [row] = await queryRows<{ name: string; start: string }>(
      db,
      `DELETE FROM api_keys WHERE organisation_id = $1 AND id = $2 RETURNING name, start`,
      [organisationId, id],
    );
    return row;
  }

  /** The key with this hash, of any organisation (verification, before the organisation is known). */
  async findByHash(db: Queryable, keyHash: string): Promise<ApiKeyLookupRow | undefined> {
    const [row] = await queryRows<ApiKeyLookupRow>(db, LOOKUP_BY_HASH, [keyHash]);
    return row;
  }

  /** Records a use, never moving `last_used_at` backwards. */
  async recordLastUsed(
    db: Queryable,
    organisationId: string,
    id: string,
    usedAt: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE api_keys SET last_used_at = $3
        WHERE organisation_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at < $3)`,
      [organisationId, id, usedAt],
    );
  }
}
