import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError, isPermission } from '@interlock/domain';
import type { MemberCall } from '../auth/caller';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { assertHoldsAll } from '../roles/permission-grant.util';
import { RolesRepository } from '../roles/roles.repository';
import type { SsoConnectionResponse, SsoSettingsResponse } from './dto/sso.dto';
import { isPublicEmailDomain } from './public-email-domains';
import { challengeRecordName, challengeRecordValue, SsoDomainDns } from './sso-domain-dns';
import type { PutSsoConnectionCommand } from './put-sso-connection.command';
import { reasonOf, SsoClients } from './sso-clients';
import { SsoSecrets } from './sso-secrets';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoRepository, type SsoConnectionRow, type SsoDomainRow } from './sso.repository';

const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message);

export const SSO_SETTINGS_MESSAGES = {
  secretRequired: 'clientSecret is required to connect a provider.',
  ownerRole: 'defaultRoleId: single sign-on cannot make new members Owners.',
  issuerShape: (production: boolean) =>
    production
      ? 'issuer must be an https URL without credentials, query or fragment.'
      : 'issuer must be an http(s) URL without credentials, query or fragment.',
  domainTaken: (domain: string) =>
    `${domain} is signed in by another organisation's single sign-on already.`,
  discovery: (issuer: string, reason: string) =>
    `Could not read the OpenID provider's configuration at ${issuer}/.well-known/openid-configuration: ${reason}`,
  requiredProviderChange:
    'This organisation requires single sign-on: turn that off before changing the issuer or client id (the new provider has signed nobody in yet).',
  notVerified:
    'Nobody has signed in through this provider yet: sign in with single sign-on once, so it is known to work, before requiring it.',
  publicDomain: (domain: string) =>
    `${domain} is a public email domain: anyone can get an address there, so no organisation can sign it in with single sign-on.`,
  recordMissing: (domain: string, token: string) =>
    `No TXT record ${challengeRecordValue('…')} was found at ${challengeRecordName(domain)}: publish ${challengeRecordValue(token)} there, then verify again (DNS changes can take a while to show).`,
  recordMismatch: (domain: string, token: string) =>
    `The TXT record at ${challengeRecordName(domain)} holds another token: publish ${challengeRecordValue(token)} there, then verify again.`,
  resolverUnreachable: (domain: string, reason: string) =>
    `Could not look up ${challengeRecordName(domain)}: the DNS resolver did not answer (${reason}). Try again shortly.`,
} as const;

/**
 * An organisation's OpenID provider (SPEC §8f): shown without its secret, connected or changed
 * (the discovery document is read before anything is saved, so a mistyped issuer or an
 * unreachable provider is a 400 now, not a failed sign-in later), and removed.
 */
@Injectable()
export class SsoSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sso: SsoRepository,
    private readonly roles: RolesRepository,
    private readonly organisations: OrganisationsRepository,
    private readonly clients: SsoClients,
    private readonly secrets: SsoSecrets,
    private readonly signIn: SsoSignInService,
    private readonly dns: SsoDomainDns,
    private readonly limiter: AuthAttemptLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(organisationId: string): Promise<SsoSettingsResponse> {
    const row = await this.sso.read(this.dataSource, organisationId);
    return this.answer(this.dataSource, row);
  }

  /** The settings' answer: the connection (if any) with its domains' proof, and the redirect URI. */
  private async answer(
    db: Queryable,
    row: SsoConnectionRow | undefined,
  ): Promise<SsoSettingsResponse> {
    const domains = row === undefined ? [] : await this.sso.domainsOf(db, row.organisation_id);
    return {
      connection: row === undefined ? null : toResponse(row, domains),
      redirectUri: this.signIn.redirectUri(),
    };
  }

  async put({
    organisationId,
    actor,
    permissions,
    connection: dto,
    ip,
  }: PutSsoConnectionCommand): Promise<SsoSettingsResponse> {
    const production = this.config.nodeEnv === 'production';
    const issuer = checkIssuer(dto.issuer, production);
    const domains = [...new Set(dto.allowedDomains)].sort();
    const publicDomain = domains.find(isPublicEmailDomain);
    if (publicDomain !== undefined) throw invalid(SSO_SETTINGS_MESSAGES.publicDomain(publicDomain));
    const before = await this.sso.read(this.dataSource, organisationId);
    const secret =
      dto.clientSecret ?? (before === undefined ? undefined : this.secrets.open(before));
    if (secret === undefined) throw invalid(SSO_SETTINGS_MESSAGES.secretRequired);
    try {
      await this.clients.configuration(issuer, dto.clientId, secret, true);
    } catch (thrown) {
      throw new DomainError(
        'SSO_DISCOVERY_FAILED',
        SSO_SETTINGS_MESSAGES.discovery(issuer, reasonOf(thrown)),
      );
    }
    const saved = await this.dataSource.transaction(async (tx) => {
      const role = await this.roles.lock(tx, organisationId, dto.defaultRoleId, 'FOR KEY SHARE');
      if (role === undefined) throw DomainError.of('NOT_FOUND');
      if (role.built_in === 'owner') throw invalid(SSO_SETTINGS_MESSAGES.ownerRole);
      // No privilege escalation: whoever sets it up could not grant more by inviting.
      assertHoldsAll(permissions, role.permissions.filter(isPermission));
      const previous = await this.sso.read(tx, organisationId, 'FOR UPDATE');
      if (
        previous?.require_sso === true &&
        (previous.issuer !== issuer || previous.client_id !== dto.clientId)
      )
        throw new DomainError('CONFLICT', SSO_SETTINGS_MESSAGES.requiredProviderChange);
      const row = await this.sso.upsert(tx, {
        organisationId,
        issuer,
        clientId: dto.clientId,
        clientSecretSealed: this.secrets.seal(secret, organisationId),
        defaultRoleId: role.id,
        allowedDomains: domains,
      });
      const clash = await this.sso.replaceDomains(tx, organisationId, domains);
      if (clash !== undefined)
        throw new DomainError('CONFLICT', SSO_SETTINGS_MESSAGES.domainTaken(clash.taken));
      const organisation = await this.organisations.read(tx, organisationId);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.sso_configured',
        actor,
        target: { type: 'organisation', id: organisationId, name: organisation?.name ?? '' },
        metadata: {
          connected: previous === undefined,
          issuer,
          clientId: dto.clientId,
          allowedDomains: domains,
          defaultRoleId: role.id,
          defaultRole: role.name,
          secretChanged: dto.clientSecret !== undefined,
        },
        ipAddress: ip,
      });
      return this.answer(tx, row);
    });
    return saved;
  }

  /**
   * Looks the domain's TXT record up now (SPEC §8f) and, when it holds this organisation's
   * token, records the proof (audited). A domain proven already answers as it is.
   */
  async verifyDomain(
    { organisationId, actor, ip }: MemberCall,
    domain: string,
  ): Promise<SsoSettingsResponse> {
    const row = await this.sso.read(this.dataSource, organisationId);
    const named = (await this.sso.domainsOf(this.dataSource, organisationId)).find(
      (d) => d.domain === domain,
    );
    if (row === undefined || named === undefined) throw DomainError.of('NOT_FOUND');
    if (named.verified_at !== null) return this.answer(this.dataSource, row);
    if (await this.sso.provenElsewhere(this.dataSource, organisationId, domain))
      throw new DomainError('CONFLICT', SSO_SETTINGS_MESSAGES.domainTaken(domain));
    const token = named.verification_token;
    // Only what asks the resolver counts (SPEC §8b): 429 once the organisation has spent its own.
    await this.limiter.ssoDomainVerify(organisationId);
    const found = await this.dns.lookUp(domain, token);
    switch (found.outcome) {
      case 'missing':
        throw new DomainError(
          'DOMAIN_NOT_VERIFIED',
          SSO_SETTINGS_MESSAGES.recordMissing(domain, token),
        );
      case 'mismatch':
        throw new DomainError(
          'DOMAIN_NOT_VERIFIED',
          SSO_SETTINGS_MESSAGES.recordMismatch(domain, token),
        );
      case 'unreachable':
        throw new DomainError(
          'SERVICE_UNAVAILABLE',
          SSO_SETTINGS_MESSAGES.resolverUnreachable(domain, found.reason),
          { 'retry-after': '30' },
        );
      case 'found':
        break;
    }
    return this.dataSource.transaction(async (tx) => {
      const current = await this.sso.read(tx, organisationId, 'FOR UPDATE');
      if (current === undefined) throw DomainError.of('NOT_FOUND');
      const marked = await this.sso.markDomainVerified(tx, organisationId, domain);
      if (marked === 'gone') throw DomainError.of('NOT_FOUND');
      if (marked === 'already') return this.answer(tx, current);
      if (marked === 'taken')
        throw new DomainError('CONFLICT', SSO_SETTINGS_MESSAGES.domainTaken(domain));
      const organisation = await this.organisations.read(tx, organisationId);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.sso_domain_verified',
        actor,
        target: { type: 'organisation', id: organisationId, name: organisation?.name ?? '' },
        metadata: { domain, recordName: challengeRecordName(domain) },
        ipAddress: ip,
      });
      return this.answer(tx, current);
    });
  }

  /**
   * Turns "require single sign-on" on or off (SPEC §8f). On needs a provider that has signed
   * someone in with its current issuer and client id (409 otherwise); 404 without a provider.
   * Setting what is already set changes and audits nothing.
   */
  async setRequirement(
    { organisationId, actor, ip }: MemberCall,
    requireSso: boolean,
  ): Promise<SsoSettingsResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const current = await this.sso.read(tx, organisationId, 'FOR UPDATE');
      if (current === undefined) throw DomainError.of('NOT_FOUND');
      if (current.require_sso === requireSso) return current;
      if (requireSso && current.verified_at === null)
        throw new DomainError('CONFLICT', SSO_SETTINGS_MESSAGES.notVerified);
      const changed = await this.sso.setRequired(tx, organisationId, requireSso);
      const organisation = await this.organisations.read(tx, organisationId);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.sso_requirement_changed',
        actor,
        target: { type: 'organisation', id: organisationId, name: organisation?.name ?? '' },
        metadata: { requireSso, issuer: current.issuer },
        ipAddress: ip,
      });
      return changed;
    });
    return this.answer(this.dataSource, row);
  }

  async remove({ organisationId, actor, ip }: MemberCall): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const removed = await this.sso.delete(tx, organisationId);
      if (removed === undefined) throw DomainError.of('NOT_FOUND');
      const organisation = await this.organisations.read(tx, organisationId);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.sso_removed',
        actor,
        target: { type: 'organisation', id: organisationId, name: organisation?.name ?? '' },
        metadata: { issuer: removed.issuer },
        ipAddress: ip,
      });
    });
  }
}

/** The issuer as stored (no trailing slash), or the 400. */
function checkIssuer(raw: string, production: boolean): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(SSO_SETTINGS_MESSAGES.issuerShape(production));
  }
  const protocols = production ? ['https:'] : ['https:', 'http:'];
  if (
    !protocols.includes(url.protocol) ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  )
    throw invalid(SSO_SETTINGS_MESSAGES.issuerShape(production));
  return url.href.replace(/\/+$/, '');
}

function toResponse(row: SsoConnectionRow, domains: SsoDomainRow[]): SsoConnectionResponse {
  return {
    issuer: row.issuer,
    clientId: row.client_id,
    allowedDomains: row.allowed_domains,
    domains: domains.map((d) => ({
      domain: d.domain,
      verifiedAt: d.verified_at?.toISOString() ?? null,
      lastCheckedAt: d.last_checked_at?.toISOString() ?? null,
      failedChecks: d.failed_checks,
      recordName: challengeRecordName(d.domain),
      recordValue: challengeRecordValue(d.verification_token),
    })),
    defaultRoleId: row.default_role_id,
    requireSso: row.require_sso,
    verifiedAt: row.verified_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
