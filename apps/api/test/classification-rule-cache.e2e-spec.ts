import { Client } from 'pg';
import request from 'supertest';
import { ClassificationClassifiersRepository } from '../src/classification/classification-classifiers.repository';
import { ClassificationRulesRepository } from '../src/classification/classification-rules.repository';
import { RuleCache } from '../src/classification/rule-cache';
import type { Queryable } from '../src/database/query-rows.util';
import { organisationWithKey, type OrganisationWithKey } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// SPEC §8d "The rule cache": a change applies to interrupts opened after it answers — and, when
// its announcement is missed, from the next version check on. The version must then tell every
// committed change apart, whatever order the writing transactions started in.
describe('the rule cache version on real Postgres', () => {
  let t: TestApp;
  let writer: Client;
  const http = () => request(t.app.getHttpServer());
  /** The second connection as the repositories take it (rows, as TypeORM answers). */
  const onWriter: Queryable = {
    query: async (sql, parameters) => (await writer.query(sql, parameters as unknown[])).rows,
  };
  /**
   * What an instance whose announcement was missed does at its next check (the bus untrusted, or
   * a minute on): each call a minute past the last, so each one checks the version.
   */
  let clock = Date.now();
  const checkVersion = (organisationId: string) =>
    t.app.get(RuleCache).snapshot(organisationId, (clock = Math.max(clock, Date.now()) + 61_000));
  const open = async (org: OrganisationWithKey, name: string) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', org.key)
      .send({ title: `Run ${name}`, actionRequests: [{ name }] });
    expect(res.status).toBe(201);
    return res.body.status as string;
  };
  const rule = async (org: OrganisationWithKey, body: Record<string, unknown>) => {
    const res = await http()
      .post('/api/classification/rules')
      .set('cookie', org.owner.cookie)
      .send({ outcome: { type: 'approve' }, ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  beforeEach(async () => {
    writer = new Client({ connectionString: t.database.url });
    await writer.connect();
  });
  afterEach(async () => {
    await writer.query('ROLLBACK').catch(() => undefined);
    await writer.end();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a change that began before another but commits after it, unannounced, is seen at the next check', async () => {
    const org = await organisationWithKey(t.app.getHttpServer(), 'Interleaved');
    const { organisationId } = org.owner;
    const deploys = await rule(org, {
      name: 'Deploys',
      mode: 'off',
      match: { actions: ['deploy'] },
    });
    const notices = await rule(org, {
      name: 'Notices',
      mode: 'shadow',
      match: { actions: ['notify'] },
    });
    const rules = t.app.get(ClassificationRulesRepository);

    // Transaction 1 begins (its now() is fixed here) and locks the rule it will change, as a PATCH does.
    await writer.query('BEGIN');
    const before = await rules.read(onWriter, organisationId, deploys, true);
    if (before === undefined) throw new Error('the rule was not read');
    expect(before.mode).toBe('off');

    // Transaction 2, begun later, changes another rule through the API: committed and announced.
    const renamed = await http()
      .patch(`/api/classification/rules/${notices}`)
      .set('cookie', org.owner.cookie)
      .send({ name: 'Notices, renamed' });
    expect(renamed.status).toBe(200);
    // The cache reads the rules again now, without transaction 1's change: a person decides.
    expect(await open(org, 'deploy')).toBe('open');

    // Transaction 1 enforces its rule and commits; its announcement never reaches this instance.
    const { name, priority, match, outcome, expiresAt } = before;
    await rules.update(onWriter, organisationId, deploys, {
      ...{ name, priority, match, outcome, expiresAt },
      mode: 'enforce',
    });
    await writer.query('COMMIT');

    // The next version check sees a change the cached rules lack (a timestamp of transaction 1's
    // start would be older than transaction 2's, and the version would look unchanged).
    await checkVersion(organisationId);
    expect(await open(org, 'deploy')).toBe('answered');
  });

  it('a classifier change raises the same version: switched off unannounced, argus stops asking at the next check', async () => {
    const org = await organisationWithKey(t.app.getHttpServer(), 'Classifier version');
    const { organisationId } = org.owner;
    const put = await http()
      .put('/api/classification/classifier')
      .set('cookie', org.owner.cookie)
      .send({ url: 'http://127.0.0.1:9/classify', timeoutMs: 500 });
    expect(put.status).toBe(200);
    expect((await checkVersion(organisationId)).classifier?.url).toBe(
      'http://127.0.0.1:9/classify',
    );

    await writer.query('BEGIN');
    await t.app.get(ClassificationClassifiersRepository).update(onWriter, organisationId, {
      url: 'http://127.0.0.1:9/classify',
      timeoutMs: 500,
      enabled: false,
    });
    await writer.query('COMMIT');

    expect((await checkVersion(organisationId)).classifier).toBeNull();
  });
});
