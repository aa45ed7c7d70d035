import { SsoDomainRecheck, type RecheckOutcome } from '../src/sso/sso-domain-recheck.service';
import type { SignedUpOwner } from './support/factories';
import { signInWithSso } from './support/oidc-provider';
import { SSO_REDIRECT as REDIRECT, ssoDomainSuite } from './support/sso-domain-suite';
import { waitFor } from './support/wait-for';

const DAY = 86_400_000;

// SPEC §8f: a proven domain's TXT record is looked up again every SSO_DOMAIN_RECHECK_INTERVAL
// (1 day here), at the real name server of the test; the clock is the test's, passed to each run.
describe('proven single sign-on domains are looked up again (SPEC §8f, issue 33)', () => {
  const suite = ssoDomainSuite({ SSO_DOMAIN_RECHECK_FAILURES: '3' });
  const { server, http, db, claim, shown, verify, prove } = suite;
  const newDomain = () => suite.newDomain('recheck');

  /** A new organisation connecting the test provider for `domain`, its record published and verified. */
  async function provenBy(organisationName: string, domain: string): Promise<SignedUpOwner> {
    const owner = await claim([domain], organisationName);
    await prove(owner, domain);
    return owner;
  }

  /** A new domain proven by a new organisation, then its record removed; its proof's time in ms. */
  async function provenThenGone(organisationName: string) {
    const d = newDomain();
    const owner = await provenBy(organisationName, d);
    const proven = await shown(owner, d);
    suite.dns.publish(proven.recordName, []);
    return { d, owner, proven, start: Date.parse(proven.verifiedAt as string) };
  }

  /** One run of the re-check at `at`: what became of `owner`'s `domain` (undefined: not due). */
  async function recheckAt(
    at: Date,
    owner: SignedUpOwner,
    domain: string,
  ): Promise<RecheckOutcome | undefined> {
    const outcomes = await suite.t.app.get(SsoDomainRecheck).recheckDue(at);
    return outcomes.get(`${owner.organisationId}/${domain}`);
  }
  /** `ms` after `start` (a proof's time as answered, in ms), and 1 ms more: Postgres keeps µs. */
  const after = (start: number, ms: number) => new Date(start + ms + 1);

  it('runs on the job runner, once across instances', async () => {
    for (let i = 0; i < 400; i++) {
      const rows = await db().query(
        `SELECT name FROM scheduled_jobs WHERE name = 'sso-domain-recheck'`,
      );
      if (rows.length === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('sso-domain-recheck was never scheduled');
  });

  it('a record still published: looked up once an interval after the proof, nothing else changes, nothing audited', async () => {
    const d = newDomain();
    const owner = await provenBy('Kept Inc', d);
    const proven = await shown(owner, d);
    const start = Date.parse(proven.verifiedAt as string);
    expect(await recheckAt(after(start, DAY - 60_000), owner, d)).toBeUndefined();
    const firstCheck = after(start, DAY);
    expect(await recheckAt(firstCheck, owner, d)).toBe('found');
    expect(await shown(owner, d)).toEqual({
      ...proven,
      lastCheckedAt: firstCheck.toISOString(),
      failedChecks: 0,
    });
    // The next look-up is an interval after the last one.
    expect(await recheckAt(after(start, 2 * DAY - 60_000), owner, d)).toBeUndefined();
    expect(await recheckAt(after(start, 2 * DAY), owner, d)).toBe('found');
    const audit = await db().query(
      `SELECT 1 FROM audit_log_entries WHERE organisation_id = $1 AND action = 'settings.sso_domain_unverified'`,
      [owner.organisationId],
    );
    expect(audit).toEqual([]);
  });

  it('a record gone: the Owner is warned at the first miss; an unreachable resolver counts nothing; at the third miss in a row the system withdraws the proof (audited, Owner emailed), sign-ins stop, and proving it again brings the links back', async () => {
    const d = newDomain();
    const owner = await provenBy('Lapsed Inc', d);
    const bob = await signInWithSso(server(), REDIRECT, `bob@${d}`);
    const proven = await shown(owner, d);
    const start = Date.parse(proven.verifiedAt as string);
    suite.dns.publish(proven.recordName, []);

    expect(await recheckAt(after(start, DAY), owner, d)).toBe('missing');
    expect(await shown(owner, d)).toMatchObject({
      verifiedAt: proven.verifiedAt,
      failedChecks: 1,
      lastCheckedAt: after(start, DAY).toISOString(),
    });
    const warning = `The DNS record proving ${d} for Lapsed Inc’s single sign-on is missing`;
    await suite.sink.until(() => suite.sink.withSubject(owner.email, warning).length === 1);
    expect(suite.sink.withSubject(owner.email, warning)[0]?.parsed.text).toContain(
      `If the record is still missing at the next 2 look-up(s) (one every 1 day), ${d} stops being verified`,
    );

    // A resolver that does not answer says nothing about the record: not counted, asked again.
    suite.dns.mode('servfail');
    try {
      expect(await recheckAt(after(start, 2 * DAY), owner, d)).toBe('unreachable');
    } finally {
      suite.dns.mode('ok');
    }
    expect((await shown(owner, d)).failedChecks).toBe(1);
    expect(await recheckAt(after(start, 2 * DAY), owner, d)).toBe('missing');
    expect((await shown(owner, d)).failedChecks).toBe(2);
    // Still proven meanwhile: its people sign in.
    expect((await signInWithSso(server(), REDIRECT, bob.body.user.email)).body.user.id).toBe(
      bob.body.user.id,
    );

    expect(await recheckAt(after(start, 3 * DAY), owner, d)).toBe('unverified');
    expect(await shown(owner, d)).toEqual({
      ...proven,
      verifiedAt: null,
      lastCheckedAt: null,
      failedChecks: 0,
    });
    const audit = await db().query(
      `SELECT actor_type, actor_id, category, summary, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND action = 'settings.sso_domain_unverified'`,
      [owner.organisationId],
    );
    expect(audit).toEqual([
      {
        actor_type: 'system',
        actor_id: null,
        category: 'settings',
        summary: `${d} no longer verified for single sign-on: its TXT record was not found at 3 look-ups in a row`,
        metadata: { domain: d, recordName: `_interlock-challenge.${d}`, failedChecks: 3 },
      },
    ]);
    const gone = `${d} is no longer verified for Lapsed Inc’s single sign-on`;
    await suite.sink.until(() => suite.sink.withSubject(owner.email, gone).length === 1);
    expect(suite.sink.withSubject(owner.email, warning)).toHaveLength(1);
    // Nobody at the domain signs in with single sign-on now: no flow starts.
    const start404 = await http().post('/api/auth/sso').send({ email: bob.body.user.email });
    expect(start404.status).toBe(404);
    expect(start404.body).toMatchObject({
      code: 'SSO_NOT_CONFIGURED',
      message: `No organisation signs in addresses at ${d} with single sign-on: sign in with your password.`,
    });
    // No longer proven: not looked up again.
    expect(await recheckAt(after(start, 5 * DAY), owner, d)).toBeUndefined();

    // Published and verified again: Bob's link, kept unused meanwhile, signs him in again.
    suite.dns.publish(proven.recordName, [proven.recordValue]);
    expect((await verify(owner, d)).status).toBe(200);
    const back = await signInWithSso(server(), REDIRECT, bob.body.user.email);
    expect(back.body.user.id).toBe(bob.body.user.id);
  });

  it('a record back before the last miss: the count starts again', async () => {
    const { d, owner, proven, start } = await provenThenGone('Flaky Inc');
    expect(await recheckAt(after(start, DAY), owner, d)).toBe('missing');
    expect(await recheckAt(after(start, 2 * DAY), owner, d)).toBe('missing');
    suite.dns.publish(proven.recordName, ['v=spf1 -all', proven.recordValue]);
    expect(await recheckAt(after(start, 3 * DAY), owner, d)).toBe('found');
    expect((await shown(owner, d)).failedChecks).toBe(0);
    // Another token at the name counts as missing.
    suite.dns.publish(proven.recordName, ['interlock-domain-verification=0123456789abcdef']);
    expect(await recheckAt(after(start, 4 * DAY), owner, d)).toBe('missing');
    expect(await shown(owner, d)).toMatchObject({ verifiedAt: proven.verifiedAt, failedChecks: 1 });
  });

  it('two runs at once (one outlasting its interval) count a miss once: only the latest claim of the domain records its look-up', async () => {
    const { d, owner, proven, start } = await provenThenGone('Overlap Inc');
    const key = `${owner.organisationId}/${d}`;
    const recheck = suite.t.app.get(SsoDomainRecheck);
    // Runs that looked the record up and wait to record it, held at the organisation's provider.
    const waitingToRecord = async (n: number) => {
      const [row] = await db().query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE '%FROM sso_connections WHERE organisation_id = $1 FOR UPDATE%'`,
      );
      return (row as { n: number }).n >= n;
    };
    const holder = db().createQueryRunner();
    await holder.connect();
    let runs: Promise<Map<string, RecheckOutcome>>[] = [];
    try {
      await holder.startTransaction();
      await holder.query(`SELECT 1 FROM sso_connections WHERE organisation_id = $1 FOR UPDATE`, [
        owner.organisationId,
      ]);
      // The first run claims the domain, finds no record, and waits to record the miss; a minute
      // on (its interval, say, when SSO_DOMAIN_RECHECK_INTERVAL is 1m) the next run claims it again.
      runs = [recheck.recheckDue(after(start, DAY))];
      await waitFor(() => waitingToRecord(1), 'the first run to wait to record its look-up');
      runs.push(recheck.recheckDue(after(start, DAY + 60_000)));
      await waitFor(() => waitingToRecord(2), 'the second run to wait to record its look-up');
    } finally {
      if (holder.isTransactionActive) await holder.commitTransaction();
      await holder.release();
    }
    const [first, second] = await Promise.all(runs);
    expect([first?.get(key), second?.get(key)]).toEqual(['skipped', 'missing']);
    expect(await shown(owner, d)).toMatchObject({
      verifiedAt: proven.verifiedAt,
      failedChecks: 1,
      lastCheckedAt: after(start, DAY + 60_000).toISOString(),
    });
    const warning = `The DNS record proving ${d} for Overlap Inc’s single sign-on is missing`;
    await suite.sink.until(() => suite.sink.withSubject(owner.email, warning).length >= 1);
    expect(suite.sink.withSubject(owner.email, warning)).toHaveLength(1);
  });

  it('a domain whose name server is silent does not starve the others: each attempt is stamped, the longest unattempted goes first, and the silent one is asked again after them', async () => {
    // Every proven domain of the earlier tests looked up far ahead: none is due again before `at`.
    const drained = new Date(Date.now() + 400 * DAY);
    await suite.t.app.get(SsoDomainRecheck).recheckDue(drained);
    const silent = newDomain();
    const heard = newDomain();
    const silentOwner = await provenBy('Silent Inc', silent);
    const heardOwner = await provenBy('Heard Inc', heard);
    const oneRun = async (at: Date) => [
      ...(await suite.t.app.get(SsoDomainRecheck).recheckDue(at, 1)),
    ];
    const at = new Date(drained.getTime() + DAY / 2);
    suite.dns.silence(`_interlock-challenge.${silent}`, true);
    try {
      // One domain a run: the silent one, proven first, goes first — and its look-up times out.
      expect(await oneRun(at)).toEqual([
        [`${silentOwner.organisationId}/${silent}`, 'unreachable'],
      ]);
      // It records nothing, but its attempt is stamped: the next run takes the other domain.
      expect(await oneRun(new Date(at.getTime() + 3_600_000))).toEqual([
        [`${heardOwner.organisationId}/${heard}`, 'found'],
      ]);
      // Still due: looked up again at the run after.
      expect(await oneRun(new Date(at.getTime() + 7_200_000))).toEqual([
        [`${silentOwner.organisationId}/${silent}`, 'unreachable'],
      ]);
    } finally {
      suite.dns.silence(`_interlock-challenge.${silent}`, false);
    }
    expect(await shown(silentOwner, silent)).toMatchObject({
      lastCheckedAt: null,
      failedChecks: 0,
    });
  });
});
