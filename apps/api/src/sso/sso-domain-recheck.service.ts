import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import type { AuditActorRef } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { LOGGER } from '../logging/logger.module';
import { Mailer } from '../mail/mailer';
import { listCurrentMembers } from '../members/memberships.repository';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import { describeInterval, renderAccountMail, type AccountMailName } from '../users/account-mail';
import { challengeRecordName, challengeRecordValue, SsoDomainDns } from './sso-domain-dns';
import { SsoRepository, type DueDomainCheck, type RecheckRun } from './sso.repository';

/** Proven domains looked up per run at most: the next run (an hour on) carries on. */
export const RECHECK_BATCH = 50;

/** The service's own decisions in the audit log (SPEC §7): no member, no key. */
const SYSTEM: AuditActorRef = { type: 'system', id: null, name: 'Interlock' };

/**
 * What became of a proven domain at a periodic look-up (`skipped`: nothing recorded — the
 * provider is gone, or another run claimed or recorded the domain meanwhile).
 */
export type RecheckOutcome = 'found' | 'missing' | 'unverified' | 'unreachable' | 'skipped';

/**
 * Periodic re-check of proven single sign-on domains (SPEC §8f): a domain's TXT record is looked
 * up again once `SSO_DOMAIN_RECHECK_INTERVAL` has passed since its proof or its last look-up.
 * Found: nothing changes. Not found (or holding another token): counted; the Owners are warned
 * at the first miss; at `SSO_DOMAIN_RECHECK_FAILURES` misses in a row the proof is withdrawn
 * (`settings.sso_domain_unverified`, actor `system`) and the Owners are emailed; its links stay,
 * signing nobody in until the organisation proves the domain again. A resolver that does not answer says
 * nothing about the record: nothing is counted, and the domain is looked up again at the next run —
 * after the due domains attempted longer ago, since every attempt is stamped.
 */
@Injectable()
export class SsoDomainRecheck {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sso: SsoRepository,
    private readonly dns: SsoDomainDns,
    private readonly organisations: OrganisationsRepository,
    private readonly mailer: Mailer,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Looks up the proven domains due at `now`, at most `limit` (`RECHECK_BATCH`; tests pass less),
   * the longest unattempted first; each one's outcome, in that order.
   */
  async recheckDue(now: Date, limit = RECHECK_BATCH): Promise<Map<string, RecheckOutcome>> {
    const { domainRecheckIntervalMs: interval } = this.config.sso;
    const run: RecheckRun = { at: now, dueBefore: new Date(now.getTime() - interval) };
    const due = await this.sso.claimDueDomainChecks(this.dataSource, run, limit);
    const outcomes = new Map<string, RecheckOutcome>();
    for (const check of due) {
      const outcome = await this.recheck(check, run);
      outcomes.set(`${check.organisation_id}/${check.domain}`, outcome);
    }
    return outcomes;
  }

  private async recheck(check: DueDomainCheck, run: RecheckRun): Promise<RecheckOutcome> {
    const now = run.at;
    const looked = await this.dns.lookUp(check.domain, check.verification_token);
    if (looked.outcome === 'unreachable') {
      this.logger.warn(
        { domain: check.domain, reason: looked.reason },
        'single sign-on domain re-check: the DNS resolver did not answer',
      );
      return 'unreachable';
    }
    const found = looked.outcome === 'found';
    const threshold = this.config.sso.domainRecheckFailures;
    const result = await this.dataSource.transaction(async (tx) => {
      // The provider first, then its domain: the order sign-ins and settings changes lock them in.
      if ((await this.sso.read(tx, check.organisation_id, 'FOR UPDATE')) === undefined)
        return undefined;
      const failed = await this.sso.recordDomainCheck(tx, check, found, run);
      if (failed === undefined || failed < threshold) return failed;
      await this.sso.unverifyDomain(tx, check.organisation_id, check.domain);
      const organisation = await this.organisations.read(tx, check.organisation_id);
      await writeAuditEntry(tx, {
        organisationId: check.organisation_id,
        action: 'settings.sso_domain_unverified',
        actor: SYSTEM,
        target: { type: 'organisation', id: check.organisation_id, name: organisation?.name ?? '' },
        metadata: {
          domain: check.domain,
          recordName: challengeRecordName(check.domain),
          failedChecks: failed,
        },
        ipAddress: null,
      });
      return failed;
    });
    if (result === undefined) return 'skipped';
    if (found) return 'found';
    if (result >= threshold) {
      await this.tellOwners(check, 'ssoDomainUnverified', now, { failedChecks: String(result) });
      return 'unverified';
    }
    if (result === 1)
      await this.tellOwners(check, 'ssoDomainRecordMissing', now, {
        checksLeft: String(threshold - 1),
        every: describeInterval(this.config.sso.domainRecheckIntervalMs),
      });
    return 'missing';
  }

  /** Emails the organisation's Owners about its domain; a failed send is logged, not retried. */
  private async tellOwners(
    check: DueDomainCheck,
    mail: Extract<AccountMailName, 'ssoDomainUnverified' | 'ssoDomainRecordMissing'>,
    now: Date,
    values: Record<string, string>,
  ): Promise<void> {
    const organisation = await this.organisations.read(this.dataSource, check.organisation_id);
    const owners = await listCurrentMembers(this.dataSource, check.organisation_id, 'owners');
    for (const owner of owners) {
      try {
        await this.mailer.send(
          renderAccountMail(mail, owner.email, {
            ...values,
            name: owner.name,
            organisationName: organisation?.name ?? '',
            domain: check.domain,
            recordName: challengeRecordName(check.domain),
            recordValue: challengeRecordValue(check.verification_token),
            at: now.toISOString().slice(0, 16).replace('T', ' '),
            settingsUrl: `${this.config.dashboardUrl}/organisation/sso`,
          }),
        );
      } catch (error) {
        this.logger.error({ err: error, domain: check.domain }, `${mail} email not sent`);
      }
    }
  }
}
