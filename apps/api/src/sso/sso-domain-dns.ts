import { Resolver } from 'node:dns/promises';

/** Where an organisation publishes a domain's proof (SPEC §8f). */
export const challengeRecordName = (domain: string): string => `_interlock-challenge.${domain}`;

/** The TXT value that proves `token`'s organisation controls the domain. */
export const challengeRecordValue = (token: string): string =>
  `interlock-domain-verification=${token}`;

/** What a look-up of the challenge record found. */
export type ChallengeLookup =
  | { outcome: 'found' }
  | { outcome: 'missing' }
  | { outcome: 'mismatch' }
  | { outcome: 'unreachable'; reason: string };

/** Answers from the name server that mean "no such record", not "could not ask". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Looks domains' challenge records up with `node:dns`'s own resolver (c-ares), pointed at
 * `SSO_DNS_SERVERS` when set, else at the system's resolvers; each try waits `timeoutMs`.
 */
export class SsoDomainDns {
  private readonly resolver: Resolver;

  constructor(servers: readonly string[], timeoutMs: number) {
    this.resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (servers.length > 0) this.resolver.setServers([...servers]);
  }

  async lookUp(domain: string, token: string): Promise<ChallengeLookup> {
    let records: string[][];
    try {
      records = await this.resolver.resolveTxt(challengeRecordName(domain));
    } catch (thrown) {
      const code = (thrown as { code?: unknown }).code;
      if (typeof code === 'string' && ABSENT.has(code)) return { outcome: 'missing' };
      return { outcome: 'unreachable', reason: typeof code === 'string' ? code : 'error' };
    }
    // A TXT record may be split into strings of up to 255 bytes: they join into one value.
    const values = records.map((chunks) => chunks.join('').trim());
    const ours = values.filter((v) => v.startsWith(challengeRecordValue('')));
    if (ours.length === 0) return { outcome: 'missing' };
    return ours.includes(challengeRecordValue(token))
      ? { outcome: 'found' }
      : { outcome: 'mismatch' };
  }
}
