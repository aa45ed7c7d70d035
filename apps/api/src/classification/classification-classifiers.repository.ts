import { Injectable } from '@nestjs/common';
import { type Queryable, queryRows } from '../database/query-rows.util';
import { bumpVersion } from './classification-versions.repository';

export interface ClassifierRow {
  organisation_id: string;
  url: string;
  timeout_ms: number;
  enabled: boolean;
  secret: Buffer;
  previous_secret: Buffer | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `organisation_id, url, timeout_ms, enabled, secret, previous_secret, previous_secret_expires_at, created_at, updated_at`;

/** The previous secret signs beside a new one this long after a rotation (as webhooks' do). */
const ROTATION_OVERLAP = `interval '24 hours'`;

/** The `classification_classifiers` table's one owner: one row per organisation at most. */
@Injectable()
export class ClassificationClassifiersRepository {
  async read(db: Queryable, organisationId: string): Promise<ClassifierRow | undefined> {
    const [row] = await queryRows<ClassifierRow>(
      db,
      `SELECT ${COLUMNS} FROM classification_classifiers WHERE organisation_id = $1`,
      [organisationId],
    );
    return row;
  }

  /** The row, locked until the commit (a change reads what it changes). */
  async lock(db: Queryable, organisationId: string): Promise<ClassifierRow | undefined> {
    const [row] = await queryRows<ClassifierRow>(
      db,
      `SELECT ${COLUMNS} FROM classification_classifiers WHERE organisation_id = $1 FOR UPDATE`,
      [organisationId],
    );
    return row;
  }

  /** Creates the organisation's classifier; undefined when one exists already (a concurrent create). */
  async insert(
    db: Queryable,
    organisationId: string,
    values: { url: string; timeoutMs: number; enabled: boolean; secret: Buffer },
  ): Promise<ClassifierRow | undefined> {
    const [row] = await queryRows<ClassifierRow>(
      db,
      `WITH ${bumpVersion()}
       INSERT INTO classification_classifiers (organisation_id, url, timeout_ms, enabled, secret)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (organisation_id) DO NOTHING RETURNING ${COLUMNS}`,
      [organisationId, values.url, values.timeoutMs, values.enabled, values.secret],
    );
    return row;
  }

  async update(
    db: Queryable,
    organisationId: string,
    values: { url: string; timeoutMs: number; enabled: boolean },
  ): Promise<ClassifierRow> {
    const [row] = await queryRows<ClassifierRow>(
      db,
      `WITH ${bumpVersion()}
       UPDATE classification_classifiers SET url = $2, timeout_ms = $3, enabled = $4, updated_at = now()
        WHERE organisation_id = $1 RETURNING ${COLUMNS}`,
      [organisationId, values.url, values.timeoutMs, values.enabled],
    );
    return row;
  }

  async rotateSecret(
    db: Queryable,
    organisationId: string,
    secret: Buffer,
  ): Promise<ClassifierRow> {
    const [row] = await queryRows<ClassifierRow>(
      db,
      `WITH ${bumpVersion()}
       UPDATE classification_classifiers SET previous_secret = secret, previous_secret_expires_at = now() + ${ROTATION_OVERLAP}, secret = $2, updated_at = now()
        WHERE organisation_id = $1 RETURNING ${COLUMNS}`,
      [organisationId, secret],
    );
    return row;
  }

  async remove(db: Queryable, organisationId: string): Promise<void> {
    await db.query(
      `WITH ${bumpVersion()} DELETE FROM classification_classifiers WHERE organisation_id = $1`,
      [organisationId],
    );
  }
}
