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
 * Resolves after `ms`, unless `ended` aborts first: then it never resolves and its timer is
 * cleared, so a look-up that ended early holds nothing (a test passes one it resolves itself).
 */
export type Deadline = (ms: number, ended: AbortSignal) => Promise<void>;
const afterMs: Deadline = (ms, ended) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms).unref();
    ended.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });

/** A whole look-up's bound, in tries' timeouts: c-ares waits longer on its second try than its first. */
const DEADLINE_TRIES = 3;

/**
 * Looks domains' challenge records up with `node:dns`'s own resolver (c-ares), pointed at
 * `SSO_DNS_SERVERS` when set, else at the system's resolvers; each try waits `timeoutMs`, and the
 * whole look-up ends after `3 × timeoutMs` whatever the number of servers (c-ares tries each in
 * turn, so several silent ones would hold a request far longer): then it is `ETIMEOUT`.
 */
export class SsoDomainDns {
  private readonly servers: string[];

  constructor(
    servers: readonly string[],
    private readonly timeoutMs: number,
    private readonly deadline: Deadline = afterMs,
  ) {
    this.servers = [...servers];
  }

  async lookUp(domain: string, token: string): Promise<ChallengeLookup> {
    // A resolver per look-up: cancelling at the deadline cancels this look-up's queries only.
    const resolver = new Resolver({ timeout: this.timeoutMs, tries: 2 });
    if (this.servers.length > 0) resolver.setServers(this.servers);
    const ended = new AbortController();
    const timedOut = this.deadline(DEADLINE_TRIES * this.timeoutMs, ended.signal).then(() => {
      resolver.cancel();
      return { outcome: 'unreachable', reason: 'ETIMEOUT' } as const;
    });
    try {
      return await Promise.race([this.ask(resolver, domain, token), timedOut]);
    } finally {
      // Answered before the deadline: its timer (and the resolver it holds) goes now.
      ended.abort();
    }
  }

  private async ask(resolver: Resolver, domain: string, token: string): Promise<ChallengeLookup> {
    let records: string[][];
    try {
      records = await resolver.resolveTxt(challengeRecordName(domain));
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
