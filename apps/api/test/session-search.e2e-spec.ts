import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  createApiKey,
  memberWithPermissions,
  signUpOwner,
  SignedUpOwner,
  startSession,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { NAME_SEARCH_WINDOW } from '../src/sessions/session-search.util';

type Listed = { id: string; name: string; status: string };

// GET /api/sessions?q= (SPEC §5, issue 31 item 5): sessions found by words of their name or the
// beginning of their id, within the caller's organisation only.
describe('session search', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let other: SignedUpOwner;
  let otherKey: string;
  const http = () => request(t.app.getHttpServer());
  const list = (query: Record<string, string>, apiKey = key) =>
    http().get('/api/sessions').query(query).set('x-api-key', apiKey);
  const names = (res: request.Response) => (res.body.sessions as Listed[]).map((s) => s.name);

  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    owner = await signUpOwner(server, { name: 'Ada Lovelace' });
    key = (await createApiKey(server, owner.cookie, { name: 'runner' })).key;
    other = await signUpOwner(server, { name: 'Charles Babbage', organisationName: 'Engines' });
    otherKey = (await createApiKey(server, other.cookie, { name: 'runner' })).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds sessions by word prefixes of the name, case and accents ignored, every word required, newest first', async () => {
    const server = t.app.getHttpServer();
    for (const name of [
      'Déploiement nightly-build',
      'Nightly tests',
      'Weekly report',
      'night shift',
    ])
      await startSession(server, key, { name });
    // The other organisation names its sessions alike: none of them is ever found here.
    for (const name of ['Déploiement nightly-build', 'Nightly secrets'])
      await startSession(server, otherKey, { name });

    expect(names(await list({ q: 'night' }))).toEqual([
      'night shift',
      'Nightly tests',
      'Déploiement nightly-build',
    ]);
    expect(names(await list({ q: 'NIGHTLY' }))).toEqual([
      'Nightly tests',
      'Déploiement nightly-build',
    ]);
    expect(names(await list({ q: 'deploiement' }))).toEqual(['Déploiement nightly-build']);
    expect(names(await list({ q: 'build   déplo' }))).toEqual(['Déploiement nightly-build']);
    expect(names(await list({ q: 'nightly weekly' }))).toEqual([]);
    expect(names(await list({ q: 'ightly' }))).toEqual([]);
    expect(names(await list({ q: 'secrets' }))).toEqual([]);
    expect(names(await list({ q: 'secrets' }, otherKey))).toEqual(['Nightly secrets']);

    // Members read it too (session.read), and it combines with the other filters.
    const reader = await memberWithPermissions(server, owner.cookie, ['session.read']);
    const byMember = await http()
      .get('/api/sessions')
      .query({ q: 'weekly' })
      .set('cookie', reader.cookie);
    expect(byMember.status).toBe(200);
    expect(names(byMember)).toEqual(['Weekly report']);
    const [tests] = (await list({ q: 'tests' })).body.sessions as Listed[];
    expect((await http().post(`/api/sessions/${tests.id}/end`).set('x-api-key', key)).status).toBe(
      200,
    );
    expect(names(await list({ q: 'nightly', status: 'active' }))).toEqual([
      'Déploiement nightly-build',
    ]);
    expect(names(await list({ q: 'nightly', status: 'ended' }))).toEqual(['Nightly tests']);
  });

  it("finds a session by the beginning of its id (8 characters or more), never another organisation's", async () => {
    const server = t.app.getHttpServer();
    const mine = await startSession(server, key, { name: 'by id' });
    const theirs = await startSession(server, otherKey, { name: 'by id' });
    for (const q of [mine.id, mine.id.slice(0, 8), ` ${mine.id.slice(0, 13).toUpperCase()} `]) {
      const res = await list({ q });
      expect({ q, status: res.status, ids: res.body.sessions.map((s: Listed) => s.id) }).toEqual({
        q,
        status: 200,
        ids: [mine.id],
      });
    }
    expect((await list({ q: theirs.id })).body.sessions).toEqual([]);
    expect((await list({ q: theirs.id.slice(0, 8) })).body.sessions).toEqual([]);
    // Shorter than 8 characters, it is only a word of the name.
    expect((await list({ q: mine.id.slice(0, 7) })).body.sessions).toEqual([]);
  });

  it('walks pages with cursors bound to the search, across the hand-over to the word index', async () => {
    // Sessions matching `rare`: one among the newest, three older than a window of others.
    const ds = t.app.get(DataSource);
    const insert = (name: string, words: string[], ageSeconds: number, count = 1) =>
      ds.query(
        `INSERT INTO sessions (organisation_id, id, name, name_search, status, started_at, ended_at)
         SELECT $1, gen_random_uuid(), $2 || CASE WHEN $5::int > 1 THEN ' ' || i ELSE '' END,
                array_to_tsvector($3::text[] || CASE WHEN $5::int > 1 THEN ARRAY[i::text] ELSE ARRAY[]::text[] END),
                'ended', now() - ($4::int + i) * interval '1 second', now()
           FROM generate_series(1, $5::int) i`,
        [owner.organisationId, name, words, ageSeconds, count],
      );
    await insert('Rare newest', ['rare', 'newest'], 10_000);
    await insert('filler', ['filler'], 10_001, NAME_SEARCH_WINDOW + 200);
    for (const [i, name] of ['Rare one', 'Rare two', 'Rare three'].entries())
      await insert(name, ['rare', name.split(' ')[1].toLowerCase()], 20_000 + i);
    // The other organisation's rare sessions sit among them in time.
    await ds.query(
      `INSERT INTO sessions (organisation_id, id, name, name_search, status, started_at, ended_at)
       VALUES ($1, gen_random_uuid(), 'Rare theirs', array_to_tsvector(ARRAY['rare', 'theirs']), 'ended',
               now() - interval '20000 seconds', now())`,
      [other.organisationId],
    );

    const walked: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await list({ q: 'rare', limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      walked.push(...names(res));
      cursor = res.body.nextCursor ?? undefined;
      if (cursor === undefined) break;
    }
    expect(walked).toEqual(['Rare newest', 'Rare one', 'Rare two', 'Rare three']);

    // Common words fill a page from the walk; the next page starts where it ended.
    const first = await list({ q: 'fil', limit: '3' });
    expect(names(first)).toEqual(['filler 1', 'filler 2', 'filler 3']);
    const second = await list({ q: 'fil', limit: '3', cursor: first.body.nextCursor });
    expect(names(second)).toEqual(['filler 4', 'filler 5', 'filler 6']);

    // A cursor is good for the search it came from only.
    for (const q of ['rar', 'filler', first.body.sessions[0].id]) {
      const res = await list({ q, limit: '3', cursor: first.body.nextCursor });
      expect({ q, status: res.status, message: res.body.message }).toEqual({
        q,
        status: 400,
        message:
          'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
      });
    }
  });

  it('refuses more than 8 words, an empty or a 201-character q; text with no word or id lists every session', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ q: 'a b c d e f g h i' }, 'q: must have at most 8 words'],
      [{ q: 'x'.repeat(201) }, 'q must be shorter than or equal to 200 characters'],
      [{ q: '' }, 'q must be longer than or equal to 1 characters'],
    ];
    for (const [query, message] of cases) {
      const res = await list(query);
      expect({ query, status: res.status, code: res.body.code, message: res.body.message }).toEqual(
        { query, status: 400, code: 'VALIDATION_FAILED', message },
      );
    }
    expect((await list({ q: 'a a a a a a a a a a' })).status).toBe(200);
    expect((await list({ q: 'x'.repeat(200) })).body.sessions).toEqual([]);
    const all = await list({ limit: '5' });
    const punctuation = await list({ q: ' -- ', limit: '5' });
    expect(punctuation.status).toBe(200);
    expect(names(punctuation)).toEqual(names(all));
  });
});
