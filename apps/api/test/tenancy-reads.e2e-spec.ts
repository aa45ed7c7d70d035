import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import request from 'supertest';
import { declaredRoutes, DeclaredRoute } from '../src/auth/route-declarations.util';
import {
  builtInRoleIds,
  createApiKey,
  createRole,
  joinWithAccount,
  openInterrupt,
  signUpOwner,
  SignedUpOwner,
  startSession,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

type Server = Parameters<typeof request>[0];

/** One organisation's data: a marker every name of it carries, and the ids of what it holds. */
interface Seeded {
  organisationId: string;
  marker: string;
  /** Ids that belong to this organisation only. */
  ids: string[];
  key: string;
}

/**
 * Fills an organisation with one of everything a read can show — key, role, team, invitation,
 * session with messages, interrupts assigned, decided and escalated, a webhook, the audit entries
 * of all of it — each named with `marker`. The owner must be a member of this organisation only.
 */
async function seed(server: Server, owner: SignedUpOwner, marker: string): Promise<Seeded> {
  const http = () => request(server);
  const ok = (res: request.Response, status: number) => {
    if (res.status !== status)
      throw new Error(`seeding answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as { id: string };
  };
  const key = await createApiKey(server, owner.cookie, { name: `${marker}-key` });
  const roleId = await createRole(server, owner.cookie, ['interrupt.read'], `${marker}-role`);
  const team = ok(
    await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: `${marker}-team` }),
    201,
  );
  ok(
    await http()
      .post(`/api/teams/${team.id}/members`)
      .set('cookie', owner.cookie)
      .send({ memberId: owner.memberId }),
    204,
  );
  const invitation = ok(
    await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email: `${marker}@example.test`, roleId }),
    201,
  );
  const session = await startSession(server, key.key, {
    name: `${marker}-session`,
    externalId: `${marker}-session-ext`,
  });
  ok(
    await http()
      .post(`/api/sessions/${session.id}/messages`)
      .set('x-api-key', key.key)
      .send({ messages: [{ role: 'agent', content: `${marker}-message` }] }),
    201,
  );
  // Ended, so its Live View stream replays and closes instead of staying open.
  ok(await http().post(`/api/sessions/${session.id}/end`).set('x-api-key', key.key), 200);
  const interrupt = await openInterrupt(server, key.key, {
    title: `${marker}-interrupt`,
    actions: ['first', 'second'],
    externalId: `${marker}-ext`,
    sessionId: session.id,
  });
  ok(
    await http()
      .post(`/api/interrupts/${interrupt.id}/assign`)
      .set('cookie', owner.cookie)
      .send({ teamId: team.id }),
    200,
  );
  ok(
    await http()
      .post(`/api/interrupts/${interrupt.id}/escalate`)
      .set('cookie', owner.cookie)
      .send({ reason: `${marker}-why` }),
    200,
  );
  const decided = ok(
    await http()
      .post(`/api/interrupts/${interrupt.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'first', decision: 'respond', message: `${marker}-answer` }),
    201,
  ) as unknown as { decisions: { id: string }[] };
  const answered = await openInterrupt(server, key.key, {
    title: `${marker}-answered`,
    actions: ['only'],
  });
  // A webhook (disabled: nothing is sent), so its reads have something of this organisation's.
  const webhook = ok(
    await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({
        url: `https://${marker}.example.test/hook`,
        description: `${marker}-webhook`,
        enabled: false,
      }),
    201,
  );
  ok(
    await http()
      .post(`/api/interrupts/${answered.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'only', decision: 'approve' }),
    201,
  );
  // A classification rule (off: it never acts), so the rules' reads have one of this organisation's.
  const rule = ok(
    await http()
      .post('/api/classification/rules')
      .set('cookie', owner.cookie)
      .send({
        name: `${marker}-rule`,
        mode: 'off',
        priority: 1,
        match: { actions: [`${marker}-action`] },
        outcome: { type: 'require_human' },
      }),
    201,
  );
  return {
    organisationId: owner.organisationId,
    marker,
    key: key.key,
    ids: [
      owner.organisationId,
      key.id,
      roleId,
      team.id,
      invitation.id,
      session.id,
      interrupt.id,
      answered.id,
      webhook.id,
      rule.id,
      ...decided.decisions.map((d) => d.id),
    ],
  };
}

interface Answer {
  status: number;
  body: string;
}

/**
 * A GET through the network, as a browser sends it (EventSource included): the whole body, or
 * — for an event stream that stays open — what arrived within `streamMs`.
 */
function fetchRaw(
  base: string,
  path: string,
  headers: Record<string, string>,
  streamMs = 700,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = get(`${base}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const done = () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body });
      };
      const timer = setTimeout(() => {
        req.destroy();
        done();
      }, streamMs);
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', reject);
  });
}

/** Every way to fill a route's path parameters from `ids` (one request per id and parameter). */
function pathsOf(route: DeclaredRoute, ids: string[]): string[] {
  const params = route.path.match(/:\w+/g) ?? [];
  if (params.length === 0) return [route.path];
  return params.flatMap((param) =>
    ids.map((id) => route.path.replace(/:\w+/g, (p) => (p === param ? id : ids[0]))),
  );
}

// Issue 18: one user, Owner of A and Developer of B, never sees B's data while acting in A, nor
// A's while acting in B — on every read the service has. The reads come from the route table, so
// a read route added later is swept too. A second user, Owner of all three organisations, sweeps
// the same reads with every permission, where everything answers.
describe('every read acts for the chosen organisation only', () => {
  let t: TestApp;
  let base: string;
  let seeds: Record<'A' | 'B' | 'O', Seeded>;
  let ada: SignedUpOwner; // Owner of A, Developer of B
  let vera: SignedUpOwner; // Owner of O, and Owner in A and B
  let reads: DeclaredRoute[];

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    const server = t.app.getHttpServer();
    const mark = (org: string) => `mk${randomBytes(3).toString('hex')}${org}`;
    const markers = { A: mark('A'), B: mark('B'), O: mark('O') };
    ada = await signUpOwner(server, { name: 'Ada Lovelace', organisationName: `${markers.A} Org` });
    const babbage = await signUpOwner(server, {
      name: `Charles ${markers.B}`,
      organisationName: `${markers.B} Org`,
    });
    vera = await signUpOwner(server, { name: 'Vera Both', organisationName: `${markers.O} Org` });
    seeds = {
      A: await seed(server, ada, markers.A),
      B: await seed(server, babbage, markers.B),
      O: await seed(server, vera, markers.O),
    };
    seeds.B.ids.push(babbage.memberId);
    const aRoles = await builtInRoleIds(server, ada.cookie);
    const bRoles = await builtInRoleIds(server, babbage.cookie);
    // Vera joins A while Ada is a member of A only (her requests need not name it yet).
    await joinWithAccount(server, ada.cookie, aRoles.owner, vera);
    await joinWithAccount(server, babbage.cookie, bRoles.developer, ada);
    await joinWithAccount(server, babbage.cookie, bRoles.owner, vera);

    reads = declaredRoutes(t.app).filter(
      (r) =>
        r.method === 'GET' &&
        (r.access?.principal === 'member' || r.access?.principal === 'api_key_or_member'),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the reads in the route table', () => {
    // The list is not fixed here: a new read route is swept by the tests below as it is.
    expect(reads.length).toBeGreaterThanOrEqual(12);
    expect(reads.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/interrupts', '/api/members', '/api/events']),
    );
  });

  const sweep = async (
    who: () => SignedUpOwner,
    acting: 'A' | 'B',
  ): Promise<{ route: string; path: string; status: number; leaked: string[] }[]> => {
    const own = seeds[acting];
    const others = (['A', 'B', 'O'] as const).filter((o) => o !== acting).map((o) => seeds[o]);
    const forbidden = others.flatMap((o) => [o.marker, ...o.ids]);
    const allIds = [...own.ids, ...others.flatMap((o) => o.ids)];
    const results: { route: string; path: string; status: number; leaked: string[] }[] = [];
    for (const route of reads) {
      for (const path of pathsOf(route, allIds)) {
        const answer = await fetchRaw(base, path, {
          cookie: who().cookie,
          'x-organisation-id': own.organisationId,
          // Event streams replay from the start: everything the organisation ever did.
          'last-event-id': '0',
        });
        results.push({
          route: `${route.method} ${route.path}`,
          path,
          status: answer.status,
          leaked: forbidden.filter((f) => answer.body.includes(f)),
        });
      }
    }
    return results;
  };

  // Bounded work (every read route × every id), not a wait: its time grows with the machine's load.
  const SWEEP_TIMEOUT_MS = 240_000;
  for (const [label, who, acting] of [
    ['Ada (Owner) acting in A', () => ada, 'A'],
    ['Ada (Developer) acting in B', () => ada, 'B'],
    ['Vera (Owner of all three) acting in A', () => vera, 'A'],
    ['Vera (Owner of all three) acting in B', () => vera, 'B'],
  ] as const) {
    it(
      `${label}: no read shows another organisation's data`,
      async () => {
        const results = await sweep(who, acting);
        expect(results.filter((r) => r.leaked.length > 0)).toEqual([]);
        // Refusals are the contract's (404 for what is not this organisation's, 403 for a missing
        // permission), never an error.
        expect(results.filter((r) => ![200, 204, 403, 404].includes(r.status))).toEqual([]);
        // And the sweep read real data: every read answered at least once where the person holds
        // its permission (as an Owner), and the organisation's own entries are there.
        const owner = who() === vera || acting === 'A';
        if (owner) {
          const unanswered = reads
            .map((route) => `${route.method} ${route.path}`)
            .filter((route) => !results.some((r) => r.route === route && r.status === 200));
          expect(unanswered).toEqual([]);
          const log = await fetchRaw(base, '/api/audit-log?limit=200', {
            cookie: who().cookie,
            'x-organisation-id': seeds[acting].organisationId,
          });
          expect(log.body).toContain(seeds[acting].marker);
        }
        // Hundreds of reads, one after another: a minute went by on a loaded machine (load 36).
      },
      SWEEP_TIMEOUT_MS,
    );
  }

  it(
    "A's key reads only A's data on every read it may call",
    async () => {
      const others = [seeds.B, seeds.O].flatMap((o) => [o.marker, ...o.ids]);
      const allIds = [seeds.A, seeds.B, seeds.O].flatMap((o) => o.ids);
      for (const route of reads.filter((r) => r.access?.principal === 'api_key_or_member')) {
        for (const path of pathsOf(route, allIds)) {
          // A key acts for its own organisation: naming another one answers 404, never its data.
          const answer = await fetchRaw(base, path, {
            'x-api-key': seeds.A.key,
            'x-organisation-id': seeds.B.organisationId,
          });
          expect({
            path,
            status: answer.status,
            leaked: others.filter((f) => answer.body.includes(f)),
          }).toEqual({
            path,
            status: expect.any(Number),
            leaked: [],
          });
          expect([200, 402, 404]).toContain(answer.status);
        }
      }
    },
    SWEEP_TIMEOUT_MS,
  );
});
