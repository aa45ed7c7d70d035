/**
 * Inbox benchmark driver (run by inbox.bench.mjs): seeds one organisation with 100,000
 * interrupts (and smaller neighbours), then times a page of every inbox tab and filter through
 * the service's own query path (InterruptsService.list / counts / get), reading what Postgres
 * spent from pg_stat_statements. Prints one JSON document.
 *
 * The seed is bulk SQL shaped like a busy inbox: most old interrupts answered, recent ones
 * mostly open; 40 % unassigned, 40 % assigned to one of 20 members, 20 % to one of 5 teams;
 * 5 % escalated; a third with an externalId; titles of two or three of 20 common words (each
 * in about 12 % of titles), "urgent" in 2 % and a rare word in one in 10,000. Every answered interrupt has its decision row.
 * The large organisation also holds as many agent sessions, named alike (two or three of the
 * same words, the rare word in one in 10,000), the newest 500 active: the sessions' name search
 * (`q`, SessionsService.list) is timed beside the inbox's.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { configFromEnvironment } from '../../apps/api/src/config/app-config';
import { DatabaseConnection } from '../../apps/api/src/database/database-connection';
import { PreparedReads } from '../../apps/api/src/database/prepared-reads';
import { InterruptsService } from '../../apps/api/src/interrupts/interrupts.service';
import type { InterruptListing } from '../../apps/api/src/interrupts/list-interrupts.command';
import { InterruptsRepository } from '../../apps/api/src/interrupts/interrupts.repository';
import { TeamsRepository } from '../../apps/api/src/teams/teams.repository';
import { TeamsService } from '../../apps/api/src/teams/teams.service';
import { SessionsService } from '../../apps/api/src/sessions/sessions.service';
import { SessionsRepository } from '../../apps/api/src/sessions/sessions.repository';
import type { SessionListing } from '../../apps/api/src/sessions/list-sessions.command';

const BIG = Number(process.argv[2] ?? 100_000);
const NEIGHBOURS = 9;
const ITERATIONS = Number(process.argv[3] ?? 300);

const WORDS = [
  'deploy',
  'database',
  'delete',
  'refund',
  'invoice',
  'customer',
  'rotate',
  'secret',
  'prod',
  'staging',
  'migration',
  'payment',
  'email',
  'export',
  'report',
  'billing',
  'account',
  'access',
  'review',
  'release',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const config = configFromEnvironment();
  const connection = await DatabaseConnection.open(config);
  const ds = connection.dataSource;
  const log = (m: string) => process.stderr.write(`[bench] ${new Date().toISOString()} ${m}\n`);
  // Only the read path is exercised: the collaborators of the write path are not needed.
  const teams = new TeamsService(ds, new TeamsRepository());
  const service = new InterruptsService(
    ds,
    new InterruptsRepository(),
    undefined as never,
    undefined as never,
    undefined as never,
    teams,
    undefined as never,
    undefined as never,
    // The held waits: the service registers its readers with them at construction; no wait runs.
    { whenStopping: () => undefined, readStatusesWith: () => undefined } as never,
    undefined as never,
    undefined as never,
    undefined as never,
    config,
    // The reads unnamed, as this bench has always measured them (the plans at 100,000 interrupts,
    // not the parse a named statement saves: tools:bench-pairs and tools:bench-cpu measure that).
    new PreparedReads(ds, false, 'the inbox bench measures the unnamed reads'),
  );

  const [existing] = await ds.query(
    `SELECT organisation_id AS id, count(*)::int AS n FROM interrupts GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
  );
  if (existing === undefined || existing.n < BIG) {
    log(
      `seeding ${BIG} interrupts in one organisation, ${NEIGHBOURS} neighbours with ${BIG / 10} each`,
    );
    // The lexicon's trigger counts one interrupt at a time; the seed fills it in one go below.
    await ds.query(`ALTER TABLE interrupts DISABLE TRIGGER interrupt_title_words_count`);
    for (let o = 0; o <= NEIGHBOURS; o++) {
      const org = randomUUID();
      const n = o === 0 ? BIG : BIG / 10;
      await ds.query(`INSERT INTO organisations (id, name, plan) VALUES ($1, $2, 'pro')`, [
        org,
        `Inbox ${o}`,
      ]);
      const role = randomUUID();
      await ds.query(
        `INSERT INTO roles (organisation_id, id, name, permissions) VALUES ($1, $2, 'Owner', $3)`,
        [org, role, ['interrupt.read']],
      );
      const members: string[] = [];
      for (let m = 0; m < 20; m++) {
        const id = randomUUID();
        members.push(id);
        await ds.query(
          `INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, 'x')`,
          [id, `m${m}-${org}@bench.test`, `Member ${m}`],
        );
        await ds.query(
          `INSERT INTO memberships (organisation_id, user_id, role_id) VALUES ($1, $2, $3)`,
          [org, id, role],
        );
      }
      const teams: string[] = [];
      for (let t = 0; t < 5; t++) {
        const id = randomUUID();
        teams.push(id);
        await ds.query(`INSERT INTO teams (organisation_id, id, name) VALUES ($1, $2, $3)`, [
          org,
          id,
          `Team ${t}`,
        ]);
      }
      // Member 0 ("me") is in teams 0 and 1.
      for (const t of teams.slice(0, 2))
        await ds.query(
          `INSERT INTO team_members (organisation_id, team_id, member_id) VALUES ($1, $2, $3)`,
          [org, t, members[0]],
        );
      await ds.query(
        `INSERT INTO interrupts (organisation_id, id, title, external_id, status, action_requests, assignee_type, assignee_id,
           assignee_name, escalation_level, escalation_reason, escalated_at, created_at, answered_at, title_search)
         SELECT $1, gen_random_uuid(), t.title,
                CASE WHEN h4 % 3 = 0 THEN 'run-' || (g % ($4::int / 6)) END,
                s.status,
                '[{"name": "deploy", "args": {}, "description": null, "allowedDecisions": ["approve", "edit", "reject", "respond"]}]'::jsonb,
                a.type, a.id, a.name,
                CASE WHEN h4 % 100 < 5 THEN 1 + h4 % 2 ELSE 0 END,
                CASE WHEN h4 % 100 < 5 THEN 'urgent' END,
                CASE WHEN h4 % 100 < 5 THEN c.at + interval '1 minute' END,
                c.at,
                CASE WHEN s.status = 'answered' THEN c.at + interval '10 minutes' END,
                array_to_tsvector(string_to_array(t.title, ' '))
           FROM generate_series(1, $4::int) g,
                LATERAL (SELECT abs(hashint4(g)) AS h1, abs(hashint4(g + 7919)) AS h2, abs(hashint4(g + 104729)) AS h3,
                                abs(hashint4(g + 1299709)) AS h4) h,
                LATERAL (SELECT timestamptz '2025-11-22' + (g::float8 / $4) * interval '365 days' AS at) c,
                -- The newest tenth mostly open, older ones mostly answered.
                LATERAL (SELECT CASE WHEN g > $4 * 0.9 THEN (CASE WHEN h1 % 100 < 70 THEN 'open' ELSE 'answered' END)
                                     ELSE (CASE WHEN h1 % 100 < 3 THEN 'open' ELSE 'answered' END) END AS status) s,
                LATERAL (SELECT CASE WHEN h2 % 100 < 40 THEN NULL WHEN h2 % 100 < 80 THEN 'member' ELSE 'team' END AS type) at,
                LATERAL (SELECT at.type,
                                CASE at.type WHEN 'member' THEN ($2::uuid[])[1 + h3 % 20] WHEN 'team' THEN ($3::uuid[])[1 + h3 % 5] END AS id,
                                CASE at.type WHEN 'member' THEN 'Member ' || (h3 % 20) WHEN 'team' THEN 'Team ' || (h3 % 5) END AS name) a,
                LATERAL (SELECT ($5::text[])[1 + h3 % 20] || ' ' || ($5::text[])[1 + (h3 / 20) % 20] ||
                                CASE WHEN h1 % 2 = 0 THEN ' ' || ($5::text[])[1 + (h3 / 400) % 20] ELSE '' END ||
                                CASE WHEN (h2 / 100) % 50 = 3 THEN ' urgent' ELSE '' END ||
                                CASE WHEN g % 10000 = 7 THEN ' zyzzyva' ELSE '' END AS title) t`,
        [org, members, teams, n, WORDS],
      );
      await ds.query(
        `INSERT INTO interrupt_decisions (organisation_id, id, interrupt_id, action_name, decision, decided_by_id, decided_by_name, decided_at)
         SELECT organisation_id, gen_random_uuid(), id, 'deploy', 'approve', $2, 'Member 0', answered_at
           FROM interrupts WHERE organisation_id = $1 AND status = 'answered'`,
        [org, members[0]],
      );
      if (o === 0) log('the large organisation is seeded');
    }
    await ds.query(
      `INSERT INTO interrupt_title_words (organisation_id, word, interrupts)
       SELECT organisation_id, w, count(*) FROM interrupts, unnest(array_prepend('', tsvector_to_array(title_search))) w GROUP BY 1, 2`,
    );
    await ds.query(`ALTER TABLE interrupts ENABLE TRIGGER interrupt_title_words_count`);
    log('analyze');
    await ds.query(`VACUUM ANALYZE interrupt_title_words`);
    await ds.query(`VACUUM ANALYZE interrupts`);
    await ds.query(`VACUUM ANALYZE interrupt_decisions`);
    await ds.query(`VACUUM ANALYZE team_members`);
    await ds.query(`CHECKPOINT`);
  }
  const [big] = await ds.query(
    `SELECT organisation_id AS id, count(*)::int AS n FROM interrupts GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
  );
  const org: string = big.id;
  const [{ sessions: seeded }] = await ds.query(
    `SELECT count(*)::int AS sessions FROM sessions WHERE organisation_id = $1`,
    [org],
  );
  if (seeded < BIG) {
    log(`seeding ${BIG} sessions in the large organisation`);
    await ds.query(
      `INSERT INTO sessions (organisation_id, id, name, status, started_at, ended_at, name_search)
       SELECT $1, gen_random_uuid(), t.name, CASE WHEN g > $2 - 500 THEN 'active' ELSE 'ended' END, c.at,
              CASE WHEN g > $2 - 500 THEN NULL ELSE c.at + interval '20 minutes' END,
              array_to_tsvector(string_to_array(t.name, ' '))
         FROM generate_series(1, $2::int) g,
              LATERAL (SELECT abs(hashint4(g + 31)) AS h1, abs(hashint4(g + 7907)) AS h3) h,
              LATERAL (SELECT timestamptz '2025-11-22' + (g::float8 / $2) * interval '365 days' AS at) c,
              LATERAL (SELECT ($3::text[])[1 + h3 % 20] || ' ' || ($3::text[])[1 + (h3 / 20) % 20] ||
                              CASE WHEN h1 % 2 = 0 THEN ' ' || ($3::text[])[1 + (h3 / 400) % 20] ELSE '' END ||
                              CASE WHEN g % 10000 = 7 THEN ' zyzzyva' ELSE '' END AS name) t`,
      [org, BIG - seeded, WORDS],
    );
    await ds.query(`VACUUM ANALYZE sessions`);
    await ds.query(`CHECKPOINT`);
  }
  // Only the listing is exercised: the collaborators of the writes are not needed.
  const sessions = new SessionsService(
    ds,
    new SessionsRepository(),
    undefined as never,
    undefined as never,
    undefined as never,
    undefined as never,
    undefined as never,
    undefined as never,
    config,
  );
  const [someSession] = await ds.query(
    `SELECT id FROM sessions WHERE organisation_id = $1 ORDER BY started_at LIMIT 1`,
    [org],
  );
  const sessionPage = (query: SessionListing) => async () =>
    (await sessions.list({ organisationId: org, listing: { limit: 50, ...query } })).sessions
      .length;
  const sessionSecond = async (query: SessionListing) => {
    const first = await sessions.list({ organisationId: org, listing: { limit: 50, ...query } });
    return sessionPage({ ...query, cursor: first.nextCursor ?? undefined });
  };

  const [me]: { id: string }[] = await ds.query(
    `SELECT ms.user_id AS id FROM memberships ms JOIN team_members tm ON tm.organisation_id = ms.organisation_id AND tm.member_id = ms.user_id
      WHERE ms.organisation_id = $1 LIMIT 1`,
    [org],
  );
  const [stats] = await ds.query(
    `SELECT count(*) FILTER (WHERE status = 'open')::int AS open,
            count(*) FILTER (WHERE status = 'open' AND assignee_id = $2)::int AS open_mine,
            count(*) FILTER (WHERE assignee_id = $2)::int AS mine,
            count(*) FILTER (WHERE status = 'open' AND escalation_level > 0)::int AS open_escalated,
            count(*) FILTER (WHERE assignee_id IS NULL)::int AS unassigned
       FROM interrupts WHERE organisation_id = $1`,
    [org, me.id],
  );

  const dbTimed = await ds
    .query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`)
    .then(() => ds.query(`SELECT pg_stat_statements_reset()`))
    .then(
      () => true,
      () => false,
    );
  const dbTime = async (): Promise<number> => {
    const [{ ms }] = await ds.query(
      `SELECT coalesce(sum(total_plan_time + total_exec_time), 0)::float8 AS ms FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'`,
    );
    return ms;
  };
  const summary = (samples: number[]) => {
    samples.sort((a, b) => a - b);
    return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
  };
  /** One timed call: its wall time, the DB time of its statements, and the rows it returned. */
  const sample = async (call: () => Promise<number>) => {
    if (dbTimed) await ds.query(`SELECT pg_stat_statements_reset()`);
    const t0 = process.hrtime.bigint();
    const rows = await call();
    const client = Number(process.hrtime.bigint() - t0) / 1e6;
    return { client, db: dbTimed ? await dbTime() : 0, rows };
  };
  /**
   * Times every call `ITERATIONS` times after 3 warm-ups, round-robin (one sample of each, then
   * the next round), so a burst of load on this shared machine lands on every row alike rather
   * than on the few rows that happened to run during it.
   */
  const timeAll = async (calls: (() => Promise<number>)[]) => {
    const samples = calls.map(() => ({ client: [] as number[], db: [] as number[], rows: 0 }));
    for (let i = 0; i < ITERATIONS + 3; i++) {
      for (let k = 0; k < calls.length; k++) {
        const s = await sample(calls[k]);
        samples[k].rows = s.rows;
        if (i >= 3) {
          samples[k].client.push(s.client);
          samples[k].db.push(s.db);
        }
      }
    }
    return samples.map((s) => ({
      client: summary(s.client),
      db: dbTimed ? summary(s.db) : null,
      rows: s.rows,
    }));
  };

  const list = (query: InterruptListing) =>
    service.list({
      organisationId: org,
      caller: { memberId: me.id },
      listing: { limit: 50, ...query },
    });
  const page = (query: InterruptListing) => async () => (await list(query)).interrupts.length;
  /** The second page: the cursor is taken once, outside the timing. */
  const second = async (query: InterruptListing) => {
    const first = await list(query);
    return page({ ...query, cursor: first.nextCursor ?? undefined });
  };
  const recent = new Date(Date.parse('2026-11-22T00:00:00Z') - 7 * 86_400_000).toISOString();
  const midYear = '2026-05-01T00:00:00Z';
  const scenarios: [string, string, () => Promise<() => Promise<number>>][] = [
    ['tab', 'Open', async () => page({ status: 'open' })],
    ['tab', 'Open, page 2', async () => second({ status: 'open' })],
    ['tab', 'Open, oldest first', async () => page({ status: 'open', order: 'oldest' })],
    ['tab', 'Assigned to me (open)', async () => page({ status: 'open', assignee: 'me' })],
    [
      'tab',
      'Assigned to me, oldest first',
      async () => page({ status: 'open', assignee: 'me', order: 'oldest' }),
    ],
    ['tab', 'Assigned to me, page 2', async () => second({ status: 'open', assignee: 'me' })],
    ['tab', 'Escalated (open)', async () => page({ status: 'open', escalated: true })],
    [
      'tab',
      'Escalated, oldest first',
      async () => page({ status: 'open', escalated: true, order: 'oldest' }),
    ],
    ['tab', 'Answered', async () => page({ status: 'answered' })],
    ['tab', 'Answered, oldest first', async () => page({ status: 'answered', order: 'oldest' })],
    ['tab', 'Answered, page 2', async () => second({ status: 'answered' })],
    [
      'counts',
      'the four tabs, capped at 1,000',
      async () => async () => {
        await service.counts(org, me.id);
        return 4;
      },
    ],
    ['none', 'all statuses, newest first', async () => page({})],
    ['none', 'all statuses, oldest first', async () => page({ order: 'oldest' })],
    ['none', 'all statuses, page 2', async () => second({})],
    ['assignee', 'me, any status', async () => page({ assignee: 'me' })],
    ['assignee', 'my_teams, open', async () => page({ status: 'open', assignee: 'my_teams' })],
    ['assignee', 'my_teams, any status', async () => page({ assignee: 'my_teams' })],
    [
      'assignee',
      'my_teams, oldest first, page 2',
      async () => second({ assignee: 'my_teams', order: 'oldest' }),
    ],
    ['assignee', 'unassigned, open', async () => page({ status: 'open', assignee: 'unassigned' })],
    ['assignee', 'unassigned, any status', async () => page({ assignee: 'unassigned' })],
    [
      'assignee',
      'unassigned, open, oldest first',
      async () => page({ status: 'open', assignee: 'unassigned', order: 'oldest' }),
    ],
    ['escalated', 'true, any status', async () => page({ escalated: true })],
    ['escalated', 'false, open', async () => page({ status: 'open', escalated: false })],
    [
      'escalated',
      'false, open, oldest first',
      async () => page({ status: 'open', escalated: false, order: 'oldest' }),
    ],
    ['externalId', 'one run (2 interrupts)', async () => page({ externalId: 'run-42' })],
    ['externalId', 'no match', async () => page({ externalId: 'nothing' })],
    ['from/to', 'last 7 days, open', async () => page({ status: 'open', from: recent })],
    [
      'from/to',
      'one day mid-year, answered',
      async () => page({ status: 'answered', from: midYear, to: '2026-05-02T00:00:00Z' }),
    ],
    [
      'from/to',
      'before mid-year, open, oldest first',
      async () => page({ status: 'open', to: midYear, order: 'oldest' }),
    ],
    ['from/to', 'empty range', async () => page({ from: '2027-01-01T00:00:00Z' })],
    ['q', '1-letter prefix, open', async () => page({ status: 'open', q: 'd' })],
    ['q', 'a word in 12 % of titles, open', async () => page({ status: 'open', q: 'deploy' })],
    ['q', 'a word, answered', async () => page({ status: 'answered', q: 'refund' })],
    ['q', 'two words, open', async () => page({ status: 'open', q: 'deploy prod' })],
    ['q', 'three words, any status', async () => page({ q: 'deploy prod refund' })],
    ['q', 'a word in 2 % of titles, open', async () => page({ status: 'open', q: 'urgent' })],
    ['q', 'a word in 2 % of titles, answered', async () => page({ status: 'answered', q: 'urg' })],
    ['q', 'a word in 2 %, page 2', async () => second({ status: 'answered', q: 'urgent' })],
    ['q', 'rare word (1 in 10,000)', async () => page({ q: 'zyzzyva' })],
    ['q', 'rare word, open', async () => page({ status: 'open', q: 'zyzzyva' })],
    ['q', 'no match', async () => page({ status: 'open', q: 'xylophone' })],
    [
      'q',
      'a word, oldest first, open',
      async () => page({ status: 'open', q: 'invoice', order: 'oldest' }),
    ],
    [
      'q',
      'a word, assigned to me',
      async () => page({ status: 'open', assignee: 'me', q: 'deploy' }),
    ],
    [
      'combined',
      'open, unassigned, escalated',
      async () => page({ status: 'open', assignee: 'unassigned', escalated: true }),
    ],
    [
      'combined',
      'open, my_teams, escalated, oldest',
      async () => page({ status: 'open', assignee: 'my_teams', escalated: true, order: 'oldest' }),
    ],
    ['sessions', 'no q, newest first', async () => sessionPage({})],
    ['sessions q', 'a word in 12 % of names', async () => sessionPage({ q: 'deploy' })],
    ['sessions q', 'a word, page 2', async () => sessionSecond({ q: 'deploy' })],
    ['sessions q', '1-letter prefix', async () => sessionPage({ q: 'd' })],
    ['sessions q', 'two words', async () => sessionPage({ q: 'deploy prod' })],
    ['sessions q', 'three words', async () => sessionPage({ q: 'deploy prod refund' })],
    ['sessions q', 'a word, active', async () => sessionPage({ status: 'active', q: 'deploy' })],
    ['sessions q', 'rare word (1 in 10,000)', async () => sessionPage({ q: 'zyzzyva' })],
    ['sessions q', 'no match', async () => sessionPage({ q: 'xylophone' })],
    [
      'sessions q',
      "an id's first 8 characters (the oldest session)",
      async () => sessionPage({ q: (someSession.id as string).slice(0, 8) }),
    ],
  ];
  // One interrupt as the detail page reads it (include=history,session), and as agents read it.
  const [one] = await ds.query(
    `SELECT id FROM interrupts WHERE organisation_id = $1 AND status = 'answered' LIMIT 1`,
    [org],
  );
  const detailCall = async () => {
    await service.get(org, one.id, new Set(['history', 'session'] as const));
    return 1;
  };
  const recordCall = async () => {
    await service.get(org, one.id);
    return 1;
  };
  const calls = await Promise.all(scenarios.map(([, , prepare]) => prepare()));
  log(`timing ${calls.length + 2} calls, ${ITERATIONS} rounds`);
  const timed = await timeAll([...calls, detailCall, recordCall]);
  const results = scenarios.map(([filter, shape], k) => ({ filter, shape, ...timed[k] }));
  for (const r of results) {
    const db = r.db ? `DB p50 ${r.db.p50.toFixed(2)} ms, p99 ${r.db.p99.toFixed(2)} ms; ` : '';
    log(
      `${r.filter} ${r.shape}: ${db}client p50 ${r.client.p50.toFixed(2)} ms, p99 ${r.client.p99.toFixed(2)} ms (${r.rows} rows)`,
    );
  }
  const [detail, record] = timed.slice(calls.length);

  process.stdout.write(
    JSON.stringify({ big: big.n, iterations: ITERATIONS, stats, results, detail, record }),
  );
  await connection.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
