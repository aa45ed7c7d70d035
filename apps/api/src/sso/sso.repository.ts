import { Injectable } from '@nestjs/common';
import { hasRow, type Queryable, queryRows } from '../database/query-rows.util';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';

export interface SsoConnectionRow {
  organisation_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: Buffer;
  default_role_id: string;
  allowed_domains: string[];
  require_sso: boolean;
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** One email domain an organisation's single sign-on names (SPEC §8f). */
export interface SsoDomainRow {
  domain: string;
  verification_token: string;
  verified_at: Date | null;
  /** The latest periodic look-up of a proven domain's record (null: none since it was proven). */
  last_checked_at: Date | null;
  /** Periodic look-ups in a row that did not find the record. */
  failed_checks: number;
}

/** A proven domain whose record is due to be looked up again (SPEC §8f). */
export interface DueDomainCheck {
  organisation_id: string;
  domain: string;
  verification_token: string;
}

/** One run of the periodic re-check: its time, and the last look-up a domain due then had. */
export interface RecheckRun {
  at: Date;
  /** `at` less `SSO_DOMAIN_RECHECK_INTERVAL`. */
  dueBefore: Date;
}

const COLUMNS = `organisation_id, issuer, client_id, client_secret_sealed, default_role_id, allowed_domains, require_sso, verified_at, created_at, updated_at`;

/**
 * For the sign-in lookup (one statement on every cookie request): a LEFT JOIN of the single
 * sign-on connection of the organisation `organisationIdColumn`. The composing owner selects
 * `<alias>.require_sso` (null when the organisation has no connection).
 */
export function leftJoinSsoConnection(alias: string, organisationIdColumn: string): string {
  return `LEFT JOIN sso_connections ${alias} ON ${alias}.organisation_id = ${organisationIdColumn}`;
}

/** Of `organisationIds`, those that require single sign-on (SPEC §8f). */
export async function organisationsRequiringSso(
  db: Queryable,
  organisationIds: readonly string[],
): Promise<Set<string>> {
  if (organisationIds.length === 0) return new Set();
  const rows = await queryRows<{ organisation_id: string }>(
    db,
    `SELECT organisation_id FROM sso_connections WHERE organisation_id = ANY($1::uuid[]) AND require_sso`,
    [organisationIds],
  );
  return new Set(rows.map((r) => r.organisation_id));
}

/**
 * The single sign-on tables' one owner: `sso_connections` (an organisation's provider),
 * `sso_domains` (which organisation signs in an email domain: looked up before any organisation
 * is known) and `sso_identities` (a provider's subject linked to a user).
 */
@Injectable()
export class SsoRepository {
  async read(
    db: Queryable,
    organisationId: string,
    lock: '' | 'FOR UPDATE' = '',
  ): Promise<SsoConnectionRow | undefined> {
    const [row] = await queryRows<SsoConnectionRow>(
      db,
      `SELECT ${COLUMNS} FROM sso_connections WHERE organisation_id = $1 ${lock}`,
      [organisationId],
    );
    return row;
  }

  async upsert(
    tx: Queryable,
    connection: {
      organisationId: string;
      issuer: string;
      clientId: string;
      clientSecretSealed: Buffer;
      defaultRoleId: string;
      allowedDomains: string[];
    },
  ): Promise<SsoConnectionRow> {
    const [row] = await queryRows<SsoConnectionRow>(
      tx,
      `INSERT INTO sso_connections (organisation_id, issuer, client_id, client_secret_sealed, default_role_id, allowed_domains)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organisation_id) DO UPDATE
          SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
              -- Another provider or client has signed nobody in yet.
              verified_at = CASE WHEN sso_connections.issuer = EXCLUDED.issuer
                                  AND sso_connections.client_id = EXCLUDED.client_id
                                 THEN sso_connections.verified_at END,
              client_secret_sealed = EXCLUDED.client_secret_sealed,
              default_role_id = EXCLUDED.default_role_id,
              allowed_domains = EXCLUDED.allowed_domains, updated_at = now()
       RETURNING ${COLUMNS}`,
      [
        connection.organisationId,
        connection.issuer,
        connection.clientId,
        connection.clientSecretSealed,
        connection.defaultRoleId,
        connection.allowedDomains,
      ],
    );
    return row as SsoConnectionRow;
  }

  /**
   * Makes `domains` the organisation's, and no others: a domain it keeps keeps its token and
   * proof, a new one gets a token and is unproven. `{taken}` names a domain another organisation
   * has proven (then nothing changed: the caller rolls back).
   */
  async replaceDomains(
    tx: Queryable,
    organisationId: string,
    domains: readonly string[],
  ): Promise<{ taken: string } | undefined> {
    const [clash] = await queryRows<{ domain: string }>(
      tx,
      `SELECT domain FROM sso_domains
        WHERE domain = ANY($1::text[]) AND organisation_id <> $2 AND verified_at IS NOT NULL
        ORDER BY domain LIMIT 1`,
      [domains, organisationId],
    );
    if (clash !== undefined) return { taken: clash.domain };
    await tx.query(
      `DELETE FROM sso_domains WHERE organisation_id = $1 AND domain <> ALL($2::text[])`,
      [organisationId, domains],
    );
    await this.forgetUnheldLinks(tx, organisationId);
    await tx.query(
      `INSERT INTO sso_domains (domain, organisation_id, verification_token)
       SELECT d, $2, replace(gen_random_uuid()::text, '-', '') FROM unnest($1::text[]) AS d
       ON CONFLICT (domain, organisation_id) DO NOTHING`,
      [domains, organisationId],
    );
    return undefined;
  }

  /** The organisation's domains with their tokens and proof, by name. */
  domainsOf(db: Queryable, organisationId: string): Promise<SsoDomainRow[]> {
    return queryRows<SsoDomainRow>(
      db,
      `SELECT domain, verification_token, verified_at, last_checked_at, failed_checks FROM sso_domains
        WHERE organisation_id = $1 ORDER BY domain`,
      [organisationId],
    );
  }

  /** Whether another organisation has proven `domain`. */
  async provenElsewhere(db: Queryable, organisationId: string, domain: string): Promise<boolean> {
    return hasRow(
      db,
      `SELECT 1 FROM sso_domains
        WHERE domain = $1 AND organisation_id <> $2 AND verified_at IS NOT NULL`,
      [domain, organisationId],
    );
  }

  /**
   * Records the organisation's proof of `domain`: `proven` when this call proved it, `already`
   * when a concurrent call did, `gone` when the domain left the connection meanwhile, `taken`
   * when another organisation proved it first (the partial unique index decides a race).
   */
  async markDomainVerified(
    tx: Queryable,
    organisationId: string,
    domain: string,
  ): Promise<'proven' | 'already' | 'gone' | 'taken'> {
    const [row] = await queryRows<{ verified_at: Date | null }>(
      tx,
      `SELECT verified_at FROM sso_domains WHERE organisation_id = $1 AND domain = $2 FOR UPDATE`,
      [organisationId, domain],
    );
    if (row === undefined) return 'gone';
    if (row.verified_at !== null) return 'already';
    try {
      await tx.query(
        `UPDATE sso_domains
            SET verified_at = now(), last_checked_at = NULL, last_attempted_at = NULL, failed_checks = 0
          WHERE organisation_id = $1 AND domain = $2`,
        [organisationId, domain],
      );
    } catch (error) {
      if (hasSqlState(error, UNIQUE_VIOLATION)) return 'taken';
      throw error;
    }
    return 'proven';
  }

  /** Turns "require single sign-on" on or off; the row as it is now. */
  async setRequired(
    tx: Queryable,
    organisationId: string,
    required: boolean,
  ): Promise<SsoConnectionRow> {
    const [row] = await queryRows<SsoConnectionRow>(
      tx,
      `UPDATE sso_connections SET require_sso = $2, updated_at = now() WHERE organisation_id = $1
       RETURNING ${COLUMNS}`,
      [organisationId, required],
    );
    return row as SsoConnectionRow;
  }

  /** Records that the provider (still this issuer and client id) signed someone in, the first time only. */
  async markVerified(
    tx: Queryable,
    organisationId: string,
    issuer: string,
    clientId: string,
  ): Promise<void> {
    await tx.query(
      `UPDATE sso_connections SET verified_at = now()
        WHERE organisation_id = $1 AND issuer = $2 AND client_id = $3 AND verified_at IS NULL`,
      [organisationId, issuer, clientId],
    );
  }

  /** Removes the organisation's provider, its domains and its links; false when it had none. */
  async delete(tx: Queryable, organisationId: string): Promise<SsoConnectionRow | undefined> {
    await tx.query(`DELETE FROM sso_domains WHERE organisation_id = $1`, [organisationId]);
    await this.forgetUnheldLinks(tx, organisationId);
    const [row] = await queryRows<SsoConnectionRow>(
      tx,
      `DELETE FROM sso_connections WHERE organisation_id = $1 RETURNING ${COLUMNS}`,
      [organisationId],
    );
    return row;
  }

  /** The organisation whose provider signs in `domain` (lower-case), if one has proven it. */
  async organisationOfDomain(db: Queryable, domain: string): Promise<string | undefined> {
    const [row] = await queryRows<{ organisation_id: string }>(
      db,
      `SELECT organisation_id FROM sso_domains WHERE domain = $1 AND verified_at IS NOT NULL`,
      [domain],
    );
    return row?.organisation_id;
  }

  /**
   * Holds the organisation's provider row for a sign-in's transaction (FOR KEY SHARE: sign-ins do
   * not wait for each other, a settings change waits for them). Taken before the domain, as every
   * settings change takes the provider before its domains: one lock order, no deadlock between a
   * first sign-in (which marks the provider verified) and a change removing its domain.
   */
  async holdConnection(tx: Queryable, organisationId: string): Promise<void> {
    await tx.query(`SELECT 1 FROM sso_connections WHERE organisation_id = $1 FOR KEY SHARE`, [
      organisationId,
    ]);
  }

  /**
   * `organisationOfDomain` inside a sign-in's transaction, the verified row held FOR SHARE until
   * it ends: removing or re-proving the domain waits for the sign-in, not the other way round.
   */
  async holdDomain(tx: Queryable, domain: string): Promise<string | undefined> {
    const [row] = await queryRows<{ organisation_id: string }>(
      tx,
      `SELECT organisation_id FROM sso_domains WHERE domain = $1 AND verified_at IS NOT NULL FOR SHARE`,
      [domain],
    );
    return row?.organisation_id;
  }

  /** Waits for the other single sign-ons of `email` in progress (a transaction-scoped lock). */
  async takeTurnForAddress(tx: Queryable, email: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('sso-sign-in:' || $1, 0))`, [
      email,
    ]);
  }

  /** The user a provider's subject is linked to in the organisation, if any. */
  async userOfIdentity(
    db: Queryable,
    organisationId: string,
    issuer: string,
    subject: string,
  ): Promise<string | undefined> {
    const [row] = await queryRows<{ user_id: string }>(
      db,
      `SELECT user_id FROM sso_identities WHERE organisation_id = $1 AND issuer = $2 AND subject = $3`,
      [organisationId, issuer, subject],
    );
    return row?.user_id;
  }

  /**
   * Forgets the organisation's links whose account's address is at no domain the organisation
   * names (SPEC §8f). A link is made only at a proven domain, so a named domain without proof is
   * one whose proof lapsed at a periodic look-up: its links stay, unused until it is proven again.
   */
  async forgetUnheldLinks(tx: Queryable, organisationId: string): Promise<void> {
    await tx.query(
      `DELETE FROM sso_identities i USING users u
        WHERE i.organisation_id = $1 AND u.id = i.user_id
          AND NOT EXISTS (SELECT 1 FROM sso_domains d
                           WHERE d.organisation_id = i.organisation_id
                             AND d.domain = lower(substring(u.email from '@([^@]*)$')))`,
      [organisationId],
    );
  }

  /** Links a provider's subject to a user; false when it was linked already (a concurrent first sign-in). */
  async link(
    tx: Queryable,
    organisationId: string,
    issuer: string,
    subject: string,
    userId: string,
  ): Promise<boolean> {
    const rows = await queryRows<{ user_id: string }>(
      tx,
      `INSERT INTO sso_identities (organisation_id, issuer, subject, user_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [organisationId, issuer, subject, userId],
    );
    return rows.length === 1;
  }

  /** Since when the user is linked to the organisation's provider `issuer`, if they are. */
  async linkedSince(
    db: Queryable,
    organisationId: string,
    issuer: string,
    userId: string,
  ): Promise<Date | undefined> {
    const [row] = await queryRows<{ since: Date | null }>(
      db,
      `SELECT min(created_at) AS since FROM sso_identities
        WHERE organisation_id = $1 AND issuer = $2 AND user_id = $3`,
      [organisationId, issuer, userId],
    );
    return row?.since ?? undefined;
  }

  /**
   * Claims for the run at `run.at` the proven domains last looked up (or proven) at or before
   * `run.dueBefore`, at most `limit`: the longest unattempted first (an attempt whose name server
   * did not answer counts, so silent domains do not come first at every run and hold the others
   * back), each stamped `last_attempted_at = run.at`. A domain another transaction holds at that
   * moment (a sign-in's, a settings change's) is skipped and comes first next run: waiting for it
   * could deadlock with a transaction that holds its provider and waits for another domain.
   */
  async claimDueDomainChecks(
    db: Queryable,
    run: RecheckRun,
    limit: number,
  ): Promise<DueDomainCheck[]> {
    const rows = await queryRows<DueDomainCheck & { waiting_since: Date }>(
      db,
      `WITH due AS (
         SELECT organisation_id, domain, coalesce(last_attempted_at, last_checked_at, verified_at) AS waiting_since
           FROM sso_domains
          WHERE verified_at IS NOT NULL AND coalesce(last_checked_at, verified_at) <= $1
          ORDER BY waiting_since, domain
          LIMIT $3
          FOR UPDATE SKIP LOCKED)
       UPDATE sso_domains d SET last_attempted_at = $2
         FROM due WHERE d.organisation_id = due.organisation_id AND d.domain = due.domain
       RETURNING d.organisation_id, d.domain, d.verification_token, due.waiting_since`,
      [run.dueBefore, run.at, limit],
    );
    return rows
      .sort(
        (a, b) =>
          a.waiting_since.getTime() - b.waiting_since.getTime() || a.domain.localeCompare(b.domain),
      )
      .map(({ organisation_id, domain, verification_token }) => ({
        organisation_id,
        domain,
        verification_token,
      }));
  }

  /**
   * Records the look-up of a proven domain claimed by the run at `run.at`: its record found
   * clears the count of failed look-ups, not found adds one. Counted only while the domain is
   * still due and the run's claim the latest — a run that outlasted its interval, whose domain
   * another run claimed or recorded meanwhile, counts nothing (one look-up counts once). Answers
   * the count, or undefined when nothing was recorded (that, or the domain is no longer proven
   * with `token`: removed, or named again with a new token, meanwhile).
   */
  async recordDomainCheck(
    tx: Queryable,
    check: DueDomainCheck,
    found: boolean,
    run: RecheckRun,
  ): Promise<number | undefined> {
    const [row] = await queryRows<{ failed_checks: number }>(
      tx,
      `UPDATE sso_domains
          SET last_checked_at = $4, failed_checks = CASE WHEN $6 THEN 0 ELSE failed_checks + 1 END
        WHERE organisation_id = $1 AND domain = $2 AND verification_token = $3
          AND verified_at IS NOT NULL AND last_attempted_at = $4
          AND coalesce(last_checked_at, verified_at) <= $5
       RETURNING failed_checks`,
      [check.organisation_id, check.domain, check.verification_token, run.at, run.dueBefore, found],
    );
    return row?.failed_checks;
  }

  /**
   * Withdraws the proof of a domain (its record was not found too often). Its links stay, unused:
   * every sign-in needs the domain proven by this organisation, so they sign nobody in until the
   * organisation proves it again (SPEC §8f).
   */
  async unverifyDomain(tx: Queryable, organisationId: string, domain: string): Promise<void> {
    await tx.query(
      `UPDATE sso_domains
          SET verified_at = NULL, last_checked_at = NULL, last_attempted_at = NULL, failed_checks = 0
        WHERE organisation_id = $1 AND domain = $2`,
      [organisationId, domain],
    );
  }
}
