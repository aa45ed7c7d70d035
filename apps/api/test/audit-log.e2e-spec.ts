import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  AUDIT_COLUMNS,
  AUDIT_RENDER_VERSION,
  verifyAuditChain,
  writeAuditRecord,
} from '@interlock/audit';
import type { AuditRecordInput } from '@interlock/audit';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  setPlan,
  signUpOwner,
  SignedUpOwner,
  signUpProWithKey,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { cursorInstantOf, isoMillis } from '../src/audit-log/audit-entry.response';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'apps', 'api', 'cli.js');

/** An entry's columns (`AUDIT_COLUMNS`). */
interface EntryRow {
  id: string;
  created_at: Date;
  seq: string;
  action: string;
  category: string;
  actor_type: string;
  actor_id: string | null;
  actor_name: string;
  target_type: string | null;
  target_id: string | null;
  target_name: string | null;
  summary: string;
  metadata: Record<string, unknown> | null;
  ip_address: string | null;
}

/**
 * SPEC §7's entry, made here from the columns to check the service's one renderer (the
 * database's audit_log_entry_json) against: the fields in the contract's order, absent ones
 * left out, a target only with its type and id.
 */
function expectedJson(row: EntryRow): string {
  const entry: Record<string, unknown> = {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    action: row.action,
    category: row.category,
    actorType: row.actor_type,
    actorName: row.actor_name,
    summary: row.summary,
    metadata: row.metadata,
  };
  if (row.actor_id !== null) entry.actorId = row.actor_id;
  if (row.target_type !== null && row.target_id !== null) {
    entry.targetType = row.target_type;
    entry.targetId = row.target_id;
    entry.targetName = row.target_name ?? '';
  }
  if (row.ip_address !== null) entry.ipAddress = row.ip_address;
  return JSON.stringify(entry);
}

interface Entry {
  id: string;
  createdAt: string;
  action: string;
  category: string;
  actorType: string;
  actorId?: string;
  actorName: string;
  targetType?: string;
  targetId?: string;
  targetName?: string;
  summary: string;
  metadata: Record<string, unknown> | null;
  ipAddress?: string;
}

describe('GET /api/audit-log (SPEC §7)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let ds: DataSource;
  const http = () => request(t.app.getHttpServer());
  const get = (query: Record<string, string | number> = {}, apiKey = key) =>
    http().get('/api/audit-log').query(query).set('x-api-key', apiKey);

  /** Writes entries straight through the audit writer (the same path the features use). */
  async function write(
    organisationId: string,
    entries: Partial<AuditRecordInput>[],
  ): Promise<void> {
    for (const e of entries) {
      await ds.transaction((tx) =>
        writeAuditRecord(tx, {
          organisationId,
          action: 'session.started',
          actor: { type: 'system', id: null, name: 'Interlock' },
          summary: 'Session started',
          ...e,
        } as AuditRecordInput),
      );
    }
  }

  async function walk(query: Record<string, string | number>): Promise<Entry[]> {
    const all: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(cursor ? { ...query, cursor } : query);
      expect(res.status).toBe(200);
      all.push(...res.body.entries);
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    return all;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ds = t.app.get(DataSource);
    ({ org: owner, key } = await signUpProWithKey(
      t.app.getHttpServer(),
      { name: 'Ada Lovelace', organisationName: 'Engines' },
      'ci-runner',
    ));
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns SPEC §7 entries, newest first', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['entries', 'nextCursor']);
    const [newest] = res.body.entries as Entry[];
    expect(newest).toMatchObject({
      action: 'api_key.created',
      category: 'api_key',
      actorType: 'member',
      actorId: owner.memberId,
      actorName: 'Ada Lovelace',
      targetType: 'api_key',
      targetName: 'ci-runner',
      summary: 'Key ci-runner created by Ada Lovelace',
    });
    expect(newest.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(newest.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(typeof newest.ipAddress).toBe('string');
    const times = (res.body.entries as Entry[]).map((e) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((res.body.entries as Entry[]).map((e) => e.action)).toEqual(
      expect.arrayContaining(['organisation.created', 'billing.plan_changed', 'api_key.created']),
    );
  });

  it('omits actorId for the system and target fields when there is no target', async () => {
    await write(owner.organisationId, [
      { action: 'settings.updated', summary: 'Retention changed by the system' },
    ]);
    const res = await get({ action: 'settings.updated' });
    expect(res.body.entries).toHaveLength(1);
    const [entry] = res.body.entries as Entry[];
    expect(entry).not.toHaveProperty('actorId');
    expect(entry).not.toHaveProperty('targetType');
    expect(entry).not.toHaveProperty('targetId');
    expect(entry).not.toHaveProperty('targetName');
    expect(entry).not.toHaveProperty('ipAddress');
    expect(entry.metadata).toBeNull();
  });

  it('answers the bytes JSON.stringify gives of the entries, for a page read as text and for a search', async () => {
    // Pages answer each entry's JSON stored when it was appended (entry_json), through both
    // search plans as well: what JSON.stringify makes of the entry SPEC §7 describes, for metadata
    // of the catalogue's shapes (named keys; numbers JSON.stringify writes in digits).
    const { org, key: orgKey } = await signUpProWithKey(
      t.app.getHttpServer(),
      { name: 'Renderer', organisationName: 'Rendering' },
      'render',
    );
    const awkward =
      'zebra "quoted" back\\slash\ttab\nline\r\b\f \u0001\u001f\u007f é ✓ 😀 \u2028\u2029 </script>';
    await write(org.organisationId, [
      {
        action: 'interrupt.created',
        actor: { type: 'api_key', id: 'key "1"\n', name: awkward },
        target: { type: 'interrupt', id: 'int-\u0002', name: awkward },
        summary: awkward,
        metadata: {
          nested: {
            list: [1, 2.5, -0.001, 123456789012, null, true, false, 'x"y', '": ", "'],
            empty: {},
            none: [],
          },
          ключ: 'значение',
          awkward,
          b: null,
          'spaced key': 'a b',
        },
        ipAddress: '::1',
      },
      {
        action: 'session.started',
        summary: 'zebra no target, no metadata',
        metadata: null,
        ipAddress: null,
      },
      {
        action: 'session.started',
        summary: 'zebra target without a name',
        target: { type: 'session', id: 's-1', name: '' },
      },
      {
        action: 'session.started',
        summary: 'zebra empty metadata',
        metadata: {},
        ipAddress: '203.0.113.9',
      },
    ]);
    const stored: EntryRow[] = await ds.query(
      `SELECT ${AUDIT_COLUMNS} FROM audit_log_entries WHERE organisation_id = $1 ORDER BY created_at DESC, seq DESC`,
      [org.organisationId],
    );
    const expected = stored.map(expectedJson);
    const page = (entries: string[], nextCursor: string | null) =>
      `{"entries":[${entries.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;

    // The first page, whole.
    const whole = await get({ limit: 200 }, orgKey);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(whole.text).toBe(page(expected, null));
    // A walk two at a time: the first page and the pages after a cursor.
    let cursor: string | null = null;
    for (let i = 0; i < expected.length; i += 2) {
      const res = await get(cursor === null ? { limit: 2 } : { limit: 2, cursor }, orgKey);
      cursor = res.body.nextCursor;
      expect(res.text).toBe(page(expected.slice(i, i + 2), cursor));
    }
    expect(cursor).toBeNull();
    // A search finds the four entries holding "zebra".
    const search = await get({ q: 'zebra', limit: 200 }, orgKey);
    expect(search.status).toBe(200);
    const zebras = stored.filter((row) => row.summary.startsWith('zebra')).map(expectedJson);
    expect(zebras).toHaveLength(4);
    expect(search.text).toBe(page(zebras, null));
  });

  describe('the JSON stored with each entry (entry_json)', () => {
    /** Text Postgres can store (no NUL) and UTF-8 can carry (no lone surrogate). */
    const text = (maxLength: number) =>
      fc
        .string({ unit: 'binary', maxLength })
        .map((s) => Buffer.from(s.replace(/\0/g, ''), 'utf8').toString('utf8'));
    /** A metadata key whose place JSON.parse keeps: not an array index (JavaScript moves those first). */
    const metadataKey = text(8).filter((k) => !/^(0|[1-9]\d*)$/.test(k));
    /** Metadata whose JSON.stringify text jsonb keeps: no array-index keys, numbers without an exponent. */
    const metadata = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text(12),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !/e/.test(String(x))),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(metadataKey, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    const entryInput = fc.record({
      actorId: fc.option(text(20), { nil: null }),
      actorName: text(30),
      target: fc.option(
        fc.record({
          id: fc.option(text(20), { nil: null }),
          name: fc.option(text(30), { nil: null }),
        }),
        { nil: undefined },
      ),
      summary: text(60),
      metadata: fc.option(fc.dictionary(metadataKey, metadata, { maxKeys: 5 }), { nil: null }),
      ipAddress: fc.option(text(40), { nil: null }),
    });

    let org: SignedUpOwner;
    let orgKey: string;
    beforeAll(async () => {
      ({ org, key: orgKey } = await signUpProWithKey(
        t.app.getHttpServer(),
        { name: 'Stored', organisationName: 'Stored rendering' },
        'stored',
      ));
    });

    /** The newest entry of the organisation: its stored text and version, the database's rendering of it now, and its columns. */
    async function newest(): Promise<{
      stored: string | null;
      version: number | null;
      now: string;
      row: EntryRow;
    }> {
      const [row]: (EntryRow & {
        entry_json: string | null;
        entry_render_version: number | null;
        now: string;
      })[] = await ds.query(
        `SELECT ${AUDIT_COLUMNS}, entry_json, entry_render_version, audit_log_entry_json(audit_log_entries) AS now
           FROM audit_log_entries WHERE organisation_id = $1 ORDER BY seq DESC LIMIT 1`,
        [org.organisationId],
      );
      const { entry_json, entry_render_version, now, ...columns } = row;
      return { stored: entry_json, version: entry_render_version, now, row: columns };
    }

    /**
     * Appends `entry` with the JSON trigger's function replaced by `body` for the one write (an
     * entry as an older service stored it), and puts the function back as the migrations made it.
     */
    async function appendWithTrigger(
      body: string,
      entry: Partial<AuditRecordInput>,
    ): Promise<void> {
      const [{ def }]: { def: string }[] = await ds.query(
        `SELECT pg_get_functiondef('audit_log_entries_json'::regproc) AS def`,
      );
      await ds.query(
        `CREATE OR REPLACE FUNCTION audit_log_entries_json() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NEW; END $$`,
      );
      try {
        await write(org.organisationId, [entry]);
      } finally {
        await ds.query(def);
      }
    }

    it('is the renderer of the version the service reads, the one the migrations installed', async () => {
      const [{ version }]: { version: number }[] = await ds.query(
        'SELECT audit_log_render_version() AS version',
      );
      expect(version).toBe(AUDIT_RENDER_VERSION);
    });

    it("gives a cursor the instant of the entry's column: its createdAt is isoMillis of the column's UTC text, for any instant the column holds (property, on Postgres)", async () => {
      // The page reads leave the instant's text out (auditPageColumns): a next cursor takes its
      // instant from the page's last entry's rendering, and must say what isoMillis says of the
      // column. The renderer's to_char rounds to the millisecond where isoMillis truncates; they
      // agree because the column holds milliseconds only (a sub-millisecond instant is rounded
      // as it is stored) — the column's type is pinned here with the property.
      const [{ type }]: { type: string }[] = await ds.query(
        `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
          WHERE attrelid = 'audit_log_entries'::regclass AND attname = 'created_at'`,
      );
      expect(type).toBe('timestamp(3) with time zone');
      await write(org.organisationId, [{ summary: 'The instants' }]);
      const micros = fc.oneof(
        fc.integer({ min: 0, max: 999_999 }),
        fc.constantFrom(0, 1, 499, 500, 999, 1000, 83_501, 123_456, 999_499, 999_500, 999_999),
      );
      const instants = fc.array(
        fc
          .tuple(
            fc.date({
              min: new Date('1000-01-01T00:00:00Z'),
              max: new Date('9999-12-31T23:59:58Z'),
              // fast-check's default also draws an Invalid Date, which toISOString refuses.
              noInvalidDate: true,
            }),
            micros,
          )
          .map(
            ([date, us]) => `${date.toISOString().slice(0, 19)}.${String(us).padStart(6, '0')}+00`,
          ),
        { minLength: 1, maxLength: 50 },
      );
      await fc.assert(
        fc.asyncProperty(instants, async (given) => {
          // Each instant as the column stores it, in the newest entry's row, rendered.
          const rows: { utc: string; entry_json: string }[] = await ds.query(
            `SELECT (s AT TIME ZONE 'UTC')::text AS utc,
                    audit_log_entry_json(jsonb_populate_record(e, jsonb_build_object('created_at', s))) AS entry_json
               FROM unnest($2::timestamptz[]) AS i(t), LATERAL (SELECT t::timestamptz(3) AS s) AS stored,
                    (SELECT e FROM audit_log_entries e WHERE organisation_id = $1 ORDER BY seq DESC LIMIT 1) AS newest`,
            [org.organisationId, given],
          );
          expect(rows).toHaveLength(given.length);
          for (const row of rows) expect(cursorInstantOf(row.entry_json)).toBe(isoMillis(row.utc));
        }),
        { numRuns: 30 },
      );
    });

    it('is pinned to its version: a renderer replaced without raising the version fails here', async () => {
      // A migration that changes how an entry is rendered but not the version would leave every
      // stored rendering answered as it was (issue 36 §2): each version's installed body is pinned.
      // When this fails: raise audit_log_render_version() in that migration and
      // AUDIT_RENDER_VERSION (libs/audit/src/audit-query.ts), and pin the printed digest under it.
      const pinned: Record<number, string> = { 1: '8a1702a0732d612b' };
      const [{ body }]: { body: string }[] = await ds.query(
        `SELECT prosrc AS body FROM pg_proc WHERE oid = 'audit_log_entry_json'::regproc`,
      );
      const now = createHash('sha256').update(body.trim()).digest('hex').slice(0, 16);
      if (pinned[AUDIT_RENDER_VERSION] !== now)
        throw new Error(
          `audit_log_entry_json's body is ${now}, but version ${AUDIT_RENDER_VERSION} is pinned to ` +
            `${pinned[AUDIT_RENDER_VERSION] ?? '(nothing)'}: raise the render version with the new renderer.`,
        );
    });

    it('is the bytes JSON.stringify gives of the entry, for any text and metadata, stamped with its version (property, on Postgres)', async () => {
      await fc.assert(
        fc.asyncProperty(entryInput, async (input) => {
          await write(org.organisationId, [
            {
              action: 'interrupt.created',
              actor: { type: 'api_key', id: input.actorId, name: input.actorName },
              target: input.target && { type: 'interrupt', ...input.target },
              summary: input.summary,
              metadata: input.metadata,
              ipAddress: input.ipAddress,
            } as Partial<AuditRecordInput>,
          ]);
          const { stored, version, now, row } = await newest();
          expect(stored).toBe(expectedJson(row));
          expect(now).toBe(stored);
          expect(version).toBe(AUDIT_RENDER_VERSION);
        }),
        { numRuns: 150 },
      );
    });

    it('is rendered on read for an entry appended before it was stored, and for one stored by another version of the renderer', async () => {
      const awkward = 'legacy "entry" \\ \t\n ✓ 😀 zebu';
      const entry = {
        action: 'session.started',
        summary: awkward,
        metadata: { nested: [1, { k: awkward }], b: null },
        ipAddress: '::1',
      } as const;
      // As an entry appended before migration 1795400000000: no stored text, no version.
      await appendWithTrigger('', entry);
      const legacy = await newest();
      expect([legacy.stored, legacy.version]).toEqual([null, null]);
      // As an entry an older renderer stored: a text today's would not write.
      await appendWithTrigger(
        `NEW.entry_json := '{"stale":true}'; NEW.entry_render_version := ${AUDIT_RENDER_VERSION - 1};`,
        entry,
      );
      const stale = await newest();
      expect([stale.stored, stale.version]).toEqual(['{"stale":true}', AUDIT_RENDER_VERSION - 1]);
      await write(org.organisationId, [entry]);
      const current = await newest();
      expect(current.stored).toBe(expectedJson(current.row));

      const texts = [current, stale, legacy].map((e) => expectedJson(e.row));
      // A page, a page after a cursor, a search, and the CSV export all render the two again.
      const res = await get({ limit: 3 }, orgKey);
      expect(res.status).toBe(200);
      expect(res.text.startsWith(`{"entries":[${texts.join(',')}],`)).toBe(true);
      let cursor: string | undefined;
      for (const text of texts) {
        const one = await get(cursor === undefined ? { limit: 1 } : { limit: 1, cursor }, orgKey);
        expect(one.text.startsWith(`{"entries":[${text}],`)).toBe(true);
        cursor = one.body.nextCursor;
      }
      const search = await get({ q: 'zebu', limit: 3 }, orgKey);
      expect(search.text.startsWith(`{"entries":[${texts.join(',')}],`)).toBe(true);
      expect(res.body.entries.map((e: Entry) => e.summary)).toEqual([awkward, awkward, awkward]);
      const csv = await http()
        .get('/api/audit-log/export')
        .query({ q: 'zebu' })
        .set('cookie', org.cookie);
      expect(csv.status).toBe(200);
      for (const e of [current, stale, legacy]) expect(csv.text).toContain(e.row.id);
      expect(csv.text).not.toContain('stale');
      // The chain still verifies: a text of another version is not checked against today's renderer.
      expect(await verifyAuditChain(ds, org.organisationId)).toEqual({
        ok: true,
        entries: expect.any(Number),
      });
    });
  });

  describe('filters', () => {
    let org: SignedUpOwner;
    let orgKey: string;
    let marks: string[];

    beforeAll(async () => {
      ({ org, key: orgKey } = await signUpProWithKey(
        t.app.getHttpServer(),
        { name: 'Filter Owner', organisationName: 'Filters' },
        'filter-key',
      ));
      await write(org.organisationId, [
        {
          action: 'interrupt.created',
          actor: { type: 'api_key', id: 'k-1', name: 'agent one' },
          target: { type: 'interrupt', id: 'i-1', name: 'Deploy to prod' },
          summary: 'Interrupt Deploy to prod opened by key agent one',
        },
        {
          action: 'interrupt.decided',
          actor: { type: 'member', id: 'm-1', name: 'Zoë Çelik' },
          target: { type: 'interrupt', id: 'i-1', name: 'Deploy to prod' },
          summary: 'Zoë Çelik approved Deploy to prod',
        },
        {
          action: 'session.started',
          actor: { type: 'api_key', id: 'k-2', name: 'agent two' },
          target: { type: 'session', id: 's-1', name: 'Nightly run' },
          summary: 'Session Nightly run started by key agent two',
        },
        {
          action: 'classification.created',
          actor: { type: 'argus', id: null, name: 'Argus' },
          target: { type: 'classification', id: 'c-1', name: 'risky' },
          summary: 'Argus classified Deploy to prod as risky',
        },
      ]);
      const res = await http().get('/api/audit-log').set('x-api-key', orgKey);
      marks = (res.body.entries as Entry[]).map((e) => e.createdAt);
    });

    const actions = async (query: Record<string, string | number>) => {
      const res = await get(query, orgKey);
      expect(res.status).toBe(200);
      return (res.body.entries as Entry[]).map((e) => e.action);
    };

    it.each([
      [{ category: 'interrupt' }, ['interrupt.decided', 'interrupt.created']],
      [{ action: 'session.started' }, ['session.started']],
      [{ actorType: 'argus' }, ['classification.created']],
      [{ actorType: 'api_key' }, ['session.started', 'interrupt.created']],
      [{ actorId: 'm-1' }, ['interrupt.decided']],
      [{ targetType: 'session' }, ['session.started']],
      [{ targetId: 'i-1' }, ['interrupt.decided', 'interrupt.created']],
      [{ category: 'interrupt', actorType: 'member' }, ['interrupt.decided']],
      [{ targetId: 'i-1', actorId: 'k-1', category: 'interrupt' }, ['interrupt.created']],
      [{ category: 'webhook' }, []],
      [{ actorId: 'nobody' }, []],
    ])('%j', async (query, expected) => {
      expect(await actions(query)).toEqual(expected);
    });

    it('from is inclusive, to is exclusive', async () => {
      const all = (await get({}, orgKey)).body.entries as Entry[];
      const decided = all.find((e) => e.action === 'interrupt.decided') as Entry;
      const from = await get({ from: decided.createdAt, category: 'interrupt' }, orgKey);
      expect((from.body.entries as Entry[]).map((e) => e.id)).toContain(decided.id);
      const to = await get({ to: decided.createdAt, category: 'interrupt' }, orgKey);
      expect((to.body.entries as Entry[]).map((e) => e.id)).not.toContain(decided.id);
      const window = await get(
        { from: marks[marks.length - 1], to: '2999-01-01T00:00:00Z' },
        orgKey,
      );
      expect(window.body.entries).toHaveLength(marks.length);
      expect((await get({ from: '2999-01-01T00:00:00Z' }, orgKey)).body.entries).toEqual([]);
      expect((await get({ to: '2000-01-01' }, orgKey)).body.entries).toEqual([]);
    });

    it.each([
      ['deploy', ['classification.created', 'interrupt.decided', 'interrupt.created']],
      ['DEPLOY PROD', ['classification.created', 'interrupt.decided', 'interrupt.created']],
      ['dep pro', ['classification.created', 'interrupt.decided', 'interrupt.created']],
      ['zoe', ['interrupt.decided']],
      ['ZOË çel', ['interrupt.decided']],
      ['celik approved', ['interrupt.decided']],
      ['decided', ['interrupt.decided']],
      ['interrupt created', ['interrupt.created']],
      ['nightly agent', ['session.started']],
      ['n', ['session.started']],
      [
        'o',
        ['interrupt.created', 'api_key.created', 'billing.plan_changed', 'organisation.created'],
      ],
      ['risky argus', ['classification.created']],
      ['deploy nightly', []],
      ['xylophone', []],
    ])('q=%j', async (q, expected) => {
      expect(await actions({ q })).toEqual(expected);
    });

    it.each([
      "'",
      '&|!:*()',
      '\\',
      "a' OR '1'='1",
      ':*',
      '!!!',
      'a & b | c',
      '"quoted"',
      '%_',
      '\u0000',
    ])('a hostile q %j answers 200 or 400, never 500', async (q) => {
      const res = await get({ q }, orgKey);
      expect([200, 400]).toContain(res.status);
    });

    it('a 10 kB q answers 400 naming q', async () => {
      const res = await get({ q: 'a'.repeat(10_240) }, orgKey);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(res.body.message).toMatch(/^q: /);
    });
  });

  it.each([
    [{ category: 'nope' }, 'category'],
    [{ actorType: 'robot' }, 'actorType'],
    [{ targetType: 'planet' }, 'targetType'],
    [{ from: 'yesterday' }, 'from'],
    [{ from: '2026-02-30T00:00:00Z' }, 'from'],
    [{ to: '2026-13-01' }, 'to'],
    [{ to: '2026-01-01T25:00:00Z' }, 'to'],
    [{ from: '2026-01-01T10:00:00' }, 'from'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 201 }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ cursor: 'garbage' }, 'cursor'],
    [{ action: 'DROP TABLE' }, 'action'],
    [{ colour: 'red' }, 'colour'],
  ])('%j answers 400 VALIDATION_FAILED naming %s', async (query, name) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      code: 'VALIDATION_FAILED',
    });
    expect(res.body.message.startsWith(`${name}: `)).toBe(true);
  });

  it('a repeated parameter answers 400', async () => {
    const res = await http()
      .get('/api/audit-log?category=member&category=api_key')
      .set('x-api-key', key);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^category: /);
  });

  describe('walks', () => {
    let org: SignedUpOwner;
    let orgKey: string;

    beforeAll(async () => {
      ({ org, key: orgKey } = await signUpProWithKey(
        t.app.getHttpServer(),
        { name: 'Walker', organisationName: 'Walks' },
        'walker',
      ));
      await write(
        org.organisationId,
        Array.from({ length: 247 }, (_, i) => ({
          action: 'session.started' as const,
          summary: `Walk entry ${i}`,
        })),
      );
    });

    it('a 250-entry walk at limit 7: no duplicate, nothing missing, in order', async () => {
      const expected: { id: string }[] = await ds.query(
        `SELECT id FROM audit_log_entries WHERE organisation_id = $1 ORDER BY seq DESC`,
        [org.organisationId],
      );
      expect(expected).toHaveLength(250);
      const all: Entry[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(cursor ? { limit: 7, cursor } : { limit: 7 }, orgKey);
        expect(res.status).toBe(200);
        expect(res.body.entries.length).toBeLessThanOrEqual(7);
        all.push(...res.body.entries);
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(36);
      expect(all.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    });

    it('leaves entries written mid-walk out of that walk, and a new walk has them', async () => {
      const first = await get({ limit: 5 }, orgKey);
      await write(org.organisationId, [{ action: 'session.ended', summary: 'Written mid-walk' }]);
      const rest: Entry[] = [];
      let cursor: string | null = first.body.nextCursor;
      while (cursor !== null) {
        const res = await get({ limit: 5, cursor }, orgKey);
        rest.push(...res.body.entries);
        cursor = res.body.nextCursor;
      }
      const walked = [...first.body.entries, ...rest] as Entry[];
      expect(walked.map((e) => e.summary)).not.toContain('Written mid-walk');
      const fresh = await get({ limit: 5 }, orgKey);
      expect(fresh.body.entries[0].summary).toBe('Written mid-walk');
    });

    it('a cursor reused with other parameters answers 400; a tampered one too', async () => {
      const first = await get({ limit: 3, category: 'session' }, orgKey);
      const cursor = first.body.nextCursor as string;
      const other = await get({ limit: 3, category: 'api_key', cursor }, orgKey);
      expect(other.status).toBe(400);
      expect(other.body.message).toMatch(/^cursor: /);
      expect((await get({ limit: 4, category: 'session', cursor }, orgKey)).status).toBe(400);
      expect((await get({ limit: 3, category: 'session', cursor }, orgKey)).status).toBe(200);
      const [payload, signature] = cursor.split('.');
      const bytes = Buffer.from(payload, 'base64url');
      bytes[3] ^= 1;
      const tampered = `${bytes.toString('base64url')}.${signature}`;
      expect((await get({ limit: 3, category: 'session', cursor: tampered }, orgKey)).status).toBe(
        400,
      );
      // Another organisation's cursor is not valid here either.
      expect((await get({ limit: 3, category: 'session', cursor })).status).toBe(400);
    });
  });

  it('search finds rare words through the word index, dense ones by walking, and pages through them', async () => {
    const { org, key: hayKey } = await signUpProWithKey(
      t.app.getHttpServer(),
      { organisationName: 'Haystack' },
      'hay',
    );
    await write(org.organisationId, [
      { summary: 'Needle one in the haystack' },
      { summary: 'Needle two in the haystack' },
      { summary: 'Needle three in the haystack' },
    ]);
    await ds.query(
      `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_name, summary, search)
       SELECT $1, gen_random_uuid(), 'session.started', 'session', 'system', 'Interlock', 'Straw ' || g,
              array_to_tsvector(ARRAY['straw', 'bale', g::text, 'interlock', 'session', 'started'])
         FROM generate_series(1, 3200) g`,
      [org.organisationId],
    );
    const rare = await http()
      .get('/api/audit-log')
      .query({ q: 'needle', limit: 2 })
      .set('x-api-key', hayKey);
    expect(rare.status).toBe(200);
    expect((rare.body.entries as Entry[]).map((e) => e.summary)).toEqual([
      'Needle three in the haystack',
      'Needle two in the haystack',
    ]);
    const next = await http()
      .get('/api/audit-log')
      .query({ q: 'needle', limit: 2, cursor: rare.body.nextCursor })
      .set('x-api-key', hayKey);
    expect((next.body.entries as Entry[]).map((e) => e.summary)).toEqual([
      'Needle one in the haystack',
    ]);
    expect(next.body.nextCursor).toBeNull();
    // Several words beyond the window: the rarest drives the index, every word is checked.
    const rareAndCommon = await http()
      .get('/api/audit-log')
      .query({ q: 'hay needle the' })
      .set('x-api-key', hayKey);
    expect((rareAndCommon.body.entries as Entry[]).map((e) => e.summary)).toEqual([
      'Needle three in the haystack',
      'Needle two in the haystack',
      'Needle one in the haystack',
    ]);
    const disjoint = await http()
      .get('/api/audit-log')
      .query({ q: 'needle straw' })
      .set('x-api-key', hayKey);
    expect(disjoint.body.entries).toEqual([]);
    // Another organisation's needle stays out (the index's keys carry the organisation, and the
    // organisation's own condition applies besides).
    await write(owner.organisationId, [{ summary: 'Needle four, in another organisation' }]);
    const mine = await http().get('/api/audit-log').query({ q: 'needl' }).set('x-api-key', hayKey);
    expect((mine.body.entries as Entry[]).map((e) => e.summary)).toEqual([
      'Needle three in the haystack',
      'Needle two in the haystack',
      'Needle one in the haystack',
    ]);
    // Filters apply beside the word index (needle is rare).
    await write(org.organisationId, [
      { summary: 'Needle five, an interrupt', action: 'interrupt.created' },
    ]);
    const filtered = async (category: string) =>
      (await http().get('/api/audit-log').query({ q: 'needle', category }).set('x-api-key', hayKey))
        .body.entries as Entry[];
    expect((await filtered('session')).map((e) => e.summary)).toEqual([
      'Needle three in the haystack',
      'Needle two in the haystack',
      'Needle one in the haystack',
    ]);
    expect((await filtered('interrupt')).map((e) => e.summary)).toEqual([
      'Needle five, an interrupt',
    ]);
    // The append trigger counts each organisation's entries per word; a search plans by them.
    const counts: { word: string; entries: string }[] = await ds.query(
      `SELECT word, entries FROM audit_log_words WHERE organisation_id = $1 AND word IN ('needle', 'straw') ORDER BY word`,
      [org.organisationId],
    );
    expect(counts).toEqual([
      { word: 'needle', entries: '4' },
      { word: 'straw', entries: '3200' },
    ]);
    // A word in most entries: an ordered walk (search-plan.ts).
    const straws = async (q: string) =>
      (
        (await http().get('/api/audit-log').query({ q, limit: 3 }).set('x-api-key', hayKey)).body
          .entries as Entry[]
      ).map((e) => e.summary);
    expect(await straws('str')).toEqual(['Straw 3200', 'Straw 3199', 'Straw 3198']);
    // Two words that always go together, though their counts alone suggest they rarely meet.
    expect(await straws('straw bale')).toEqual(['Straw 3200', 'Straw 3199', 'Straw 3198']);
    // Newer entries without the words (a burst): one word walks on past them; two words fill
    // the walk's shorter window and the word index finishes the search.
    await ds.query(
      `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_name, summary, search)
       SELECT $1, gen_random_uuid(), 'session.started', 'session', 'system', 'Interlock', 'Chaff ' || g,
              array_to_tsvector(ARRAY['chaff', g::text, 'interlock', 'session', 'started'])
         FROM generate_series(1, 2100) g`,
      [org.organisationId],
    );
    expect(await straws('straw')).toEqual(['Straw 3200', 'Straw 3199', 'Straw 3198']);
    expect(await straws('straw interlock')).toEqual(['Straw 3200', 'Straw 3199', 'Straw 3198']);
    // Filters apply beside the walk: past the chaff to the straw, and a scope with no straw.
    const walkFiltered = async (category: string) =>
      (
        (
          await http()
            .get('/api/audit-log')
            .query({ q: 'straw', category, limit: 2 })
            .set('x-api-key', hayKey)
        ).body.entries as Entry[]
      ).map((e) => e.summary);
    expect(await walkFiltered('session')).toEqual(['Straw 3200', 'Straw 3199']);
    expect(await walkFiltered('interrupt')).toEqual([]);
  });

  it("never shows another organisation's entries, not even by actorId", async () => {
    const other = await signUpOwner(t.app.getHttpServer(), {
      name: 'Grace Hopper',
      organisationName: 'Compilers',
    });
    await setPlan(t.app.getHttpServer(), other.cookie, 'pro');
    const theirs = await createApiKey(t.app.getHttpServer(), other.cookie, { name: 'theirs' });
    const res = await walk({ actorId: other.memberId, limit: 200 });
    expect(res).toEqual([]);
    const byTarget = await walk({ targetId: theirs.id });
    expect(byTarget).toEqual([]);
    const mine = await walk({ limit: 200 });
    expect(mine.some((e) => e.actorName === 'Grace Hopper')).toBe(false);
    const seenByThem = await http()
      .get('/api/audit-log')
      .query({ q: 'ci runner' })
      .set('x-api-key', theirs.key);
    expect(seenByThem.body.entries).toEqual([]);
  });

  it('answers 402 PLAN_REQUIRED on Free, 401 for expired and revoked keys', async () => {
    const free = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Free Org' });
    const freeKey = await createApiKey(t.app.getHttpServer(), free.cookie);
    const res = await get({}, freeKey.key);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      code: 'PLAN_REQUIRED',
      message: 'The audit log API requires the Pro plan.',
    });

    const expiring = await createApiKey(t.app.getHttpServer(), owner.cookie, {
      name: 'expiring',
      expiry: '7d',
    });
    await ds.query(`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      expiring.id,
    ]);
    expect((await get({}, expiring.key)).body).toMatchObject({
      code: 'API_KEY_EXPIRED',
      message: 'API Key has expired',
    });
    const revoked = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'revoked' });
    await http().delete(`/api/api-keys/${revoked.id}`).set('cookie', owner.cookie).expect(204);
    expect((await get({}, revoked.key)).body).toMatchObject({
      code: 'INVALID_API_KEY',
      message: 'Invalid API key.',
    });
    expect((await get({ category: 'nope' }, 'garbage')).status).toBe(401);
  });

  it('keeps actorName as it was when the key is later renamed', async () => {
    const created = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'old-name' });
    await ds.transaction((tx) =>
      writeAuditRecord(tx, {
        organisationId: owner.organisationId,
        action: 'interrupt.created',
        actor: { type: 'api_key', id: created.id, name: 'old-name' },
        target: { type: 'interrupt', id: 'i-9', name: 'Rename check' },
        summary: 'Interrupt Rename check opened by key old-name',
        metadata: { externalId: null, actionRequests: ['deploy'] },
      }),
    );
    await http()
      .patch(`/api/api-keys/${created.id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'new-name' })
      .expect(200);
    const res = await get({ actorId: created.id });
    expect(res.body.entries).toHaveLength(1);
    expect(res.body.entries[0]).toMatchObject({
      actorName: 'old-name',
      metadata: { externalId: null, actionRequests: ['deploy'] },
    });
  });

  describe('immutability and the hash chain', () => {
    it('refuses UPDATE, DELETE and TRUNCATE in SQL, even for the owner', async () => {
      for (const sql of [
        `UPDATE audit_log_entries SET summary = 'forged'`,
        `DELETE FROM audit_log_entries`,
        `TRUNCATE audit_log_entries`,
        `TRUNCATE audit_log_entries CASCADE`,
      ]) {
        await expect(ds.query(sql)).rejects.toThrow(/append-only/);
      }
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM audit_log_entries`);
      expect(n).toBeGreaterThan(0);
    });

    /** A superuser disables the immutability trigger and rewrites history with `sql`. */
    async function forge(sql: string, params: unknown[]): Promise<void> {
      const admin = new Client({ connectionString: t.database.url });
      await admin.connect();
      try {
        await admin.query('BEGIN');
        await admin.query(
          `ALTER TABLE audit_log_entries DISABLE TRIGGER audit_log_entries_no_update_delete`,
        );
        await admin.query(sql, params);
        await admin.query(
          `ALTER TABLE audit_log_entries ENABLE TRIGGER audit_log_entries_no_update_delete`,
        );
        await admin.query('COMMIT');
      } finally {
        await admin.end();
      }
    }

    it('verifies a clean chain, and names the entry after a forged change', async () => {
      const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Chained' });
      await write(
        org.organisationId,
        Array.from({ length: 20 }, (_, i) => ({ summary: `Chained ${i}` })),
      );
      expect(await verifyAuditChain(ds, org.organisationId)).toEqual({ ok: true, entries: 21 });

      const [victim] = await ds.query(
        `SELECT id, seq::text AS seq FROM audit_log_entries WHERE organisation_id = $1 AND summary = 'Chained 7'`,
        [org.organisationId],
      );
      await forge(`UPDATE audit_log_entries SET summary = 'Nothing happened here' WHERE id = $1`, [
        victim.id,
      ]);
      expect(await verifyAuditChain(ds, org.organisationId)).toEqual({
        ok: false,
        entries: Number(victim.seq) - 1,
        brokenAt: { seq: victim.seq, id: victim.id, reason: 'content does not match its hash' },
      });
      const cli = spawnSync(
        process.execPath,
        [CLI, 'verify-audit-chain', '--organisation', org.organisationId],
        {
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.database.url },
        },
      );
      expect(cli.status).toBe(3);
      expect(cli.stdout).toContain(`BROKEN  ${org.organisationId}`);
      expect(cli.stdout).toContain(`entry ${victim.seq} (${victim.id})`);
    });

    it('names the entry whose stored JSON was forged, though its hashed content is intact', async () => {
      const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Shown' });
      await write(
        org.organisationId,
        Array.from({ length: 5 }, (_, i) => ({ summary: `Shown ${i}` })),
      );
      expect(await verifyAuditChain(ds, org.organisationId)).toEqual({ ok: true, entries: 6 });
      const [victim] = await ds.query(
        `SELECT id, seq::text AS seq FROM audit_log_entries WHERE organisation_id = $1 AND summary = 'Shown 2'`,
        [org.organisationId],
      );
      await forge(
        `UPDATE audit_log_entries SET entry_json = replace(entry_json, 'Shown 2', 'Nothing happened here') WHERE id = $1`,
        [victim.id],
      );
      expect(await verifyAuditChain(ds, org.organisationId)).toEqual({
        ok: false,
        entries: Number(victim.seq) - 1,
        brokenAt: {
          seq: victim.seq,
          id: victim.id,
          reason: 'its stored JSON does not match its content',
        },
      });
    });
  });

  it('mirroring by rule 5 misses nothing under 8 concurrent writers', async () => {
    const { org, key: mirrorKey } = await signUpProWithKey(
      t.app.getHttpServer(),
      { organisationName: 'Mirrored' },
      'mirror',
    );
    const PER_WRITER = 40;
    const mirror = new Map<string, string>();
    let newest: string | undefined;
    let writing = true;

    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < PER_WRITER; i++) {
        await ds.transaction(async (tx) => {
          await writeAuditRecord(tx, {
            organisationId: org.organisationId,
            action: 'session.started',
            actor: { type: 'system', id: null, name: 'Interlock' },
            summary: `writer ${w} entry ${i}`,
          });
          // Hold the transaction open a moment, as a real change would.
          if (i % 3 === 0) await tx.query('SELECT pg_sleep(0.002)');
        });
      }
    });
    const poll = async () => {
      const query: Record<string, string | number> = { limit: 200 };
      if (newest) query.from = newest;
      let cursor: string | null = null;
      do {
        const res: request.Response = await http()
          .get('/api/audit-log')
          .query(cursor ? { ...query, cursor } : query)
          .set('x-api-key', mirrorKey);
        expect(res.status).toBe(200);
        for (const e of res.body.entries as Entry[]) {
          mirror.set(e.id, e.createdAt);
          if (newest === undefined || e.createdAt > newest) newest = e.createdAt;
        }
        cursor = res.body.nextCursor;
      } while (cursor !== null);
    };
    const poller = (async () => {
      while (writing) await poll();
      await poll();
    })();
    await Promise.all(writers);
    writing = false;
    await poller;

    const stored: { id: string }[] = await ds.query(
      `SELECT id FROM audit_log_entries WHERE organisation_id = $1`,
      [org.organisationId],
    );
    expect(stored.length).toBeGreaterThanOrEqual(8 * PER_WRITER);
    expect(stored.filter((e) => !mirror.has(e.id))).toEqual([]);
  });

  describe('CSV export', () => {
    it('streams the most recent matching entries as CSV, formulas neutralised', async () => {
      await write(owner.organisationId, [
        { action: 'settings.updated', summary: '=HYPERLINK("http://evil")' },
        // Issue 34, item 9: split into a formula cell by a spreadsheet in a `;` locale when written bare.
        { action: 'settings.updated', summary: "Deploy;=cmd|' /C calc'!A0" },
      ]);
      const res = await http()
        .get('/api/audit-log/export')
        .query({ category: 'settings' })
        .set('cookie', owner.cookie);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = res.text.split('\r\n');
      expect(lines[0]).toBe(
        '"id","createdAt","action","category","actorType","actorId","actorName","targetType","targetId","targetName","summary","metadata","ipAddress"',
      );
      expect(res.text).toContain(`,"'=HYPERLINK(""http://evil"")",`);
      expect(res.text).toContain(`,"Deploy;'=cmd|' /C calc'!A0",`);
      // Every cell of every row is quoted.
      for (const line of lines.filter((l) => l !== ''))
        expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM audit_log_entries WHERE organisation_id = $1 AND category = 'settings'`,
        [owner.organisationId],
      );
      expect(lines.filter((l) => l !== '').length).toBe(n + 1);
    });

    it('needs auditLog.export (a Manager has only auditLog.read) and refuses keys', async () => {
      const manager = await joinOrganisation(
        t.app.getHttpServer(),
        owner.cookie,
        (await builtInRoleIds(t.app.getHttpServer(), owner.cookie)).manager,
      );
      const res = await http().get('/api/audit-log/export').set('cookie', manager.cookie);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Missing permission: auditLog.export.');
      expect((await http().get('/api/audit-log/export').set('x-api-key', key)).status).toBe(403);
    });

    it('holds at most 5,000 entries, the most recent', async () => {
      const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Big Export' });
      await ds.query(
        `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_name, summary)
         SELECT $1, gen_random_uuid(), 'session.started', 'session', 'system', 'Interlock', 'bulk ' || g FROM generate_series(1, 5100) g`,
        [org.organisationId],
      );
      const res = await http().get('/api/audit-log/export').set('cookie', org.cookie);
      const rows = res.text.split('\r\n').filter((l) => l !== '');
      expect(rows.length).toBe(5001);
      expect(rows[1]).toContain('bulk 5100');
    });
  });
});
