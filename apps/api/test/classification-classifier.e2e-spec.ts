import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { organisationWithKey, type OrganisationWithKey } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { type Answer, type ReceivedRequest, WebhookReceiver } from './support/webhook-receiver';

// Issue 29 §1.3 / SPEC §8d: an organisation's external classifier — a real HTTP endpoint on
// loopback here — is asked about every new action request, signed as webhooks are; rules match on
// its risk and labels; a timeout, an error, a redirect or a malformed answer fails closed (the
// action goes to a person and the receipts say why).
describe('the external classifier', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());
  /** One endpoint per test's organisation, each answering as its test says. */
  const receivers: WebhookReceiver[] = [];

  type Org = OrganisationWithKey;
  const newOrg = (name: string) => organisationWithKey(t.app.getHttpServer(), name);
  const classifierAt = async (answer: (req: ReceivedRequest) => Answer) => {
    const receiver = new WebhookReceiver(answer);
    await receiver.start();
    receivers.push(receiver);
    return receiver;
  };
  const answerJson = (body: unknown): Answer => ({ status: 200, body: JSON.stringify(body) });
  const put = (org: Org, body: Record<string, unknown>) =>
    http().put('/api/classification/classifier').set('cookie', org.owner.cookie).send(body);
  /** The longest time limit unless a test needs a short one: an answer must not miss it under load. */
  const setUp = async (org: Org, receiver: WebhookReceiver, timeoutMs = 10_000) => {
    const res = await put(org, { url: receiver.url, timeoutMs });
    expect(res.status).toBe(200);
    return res.body.secret as string;
  };
  const rule = async (org: Org, body: Record<string, unknown>) => {
    const res = await http()
      .post('/api/classification/rules')
      .set('cookie', org.owner.cookie)
      .send({ mode: 'enforce', ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const open = async (org: Org, name: string, args: Record<string, unknown> = {}) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', org.key)
      .send({ title: `Run ${name}`, actionRequests: [{ name, args }] });
    expect(res.status).toBe(201);
    return res.body as {
      id: string;
      status: string;
      risk: string | null;
      labels: string[];
      decisions: { decision: string; message: string | null; decidedBy: unknown }[];
    };
  };
  const audit = async (org: Org, action: string, interruptId?: string) => {
    const res = await http().get(`/api/audit-log?action=${action}`).set('cookie', org.owner.cookie);
    expect(res.status).toBe(200);
    return (res.body.entries as { targetId: string; metadata: Record<string, unknown> }[])
      .filter((e) => interruptId === undefined || e.targetId === interruptId)
      .map((e) => e.metadata);
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    for (const r of receivers) r.release(200);
    await Promise.all(receivers.map((r) => r.stop()));
    await t.close();
  });

  it('is set up by a member: the secret shown once, changes audited, and a key gets the exact 403', async () => {
    const org = await newOrg('Classifier setup');
    const receiver = await classifierAt(() => answerJson({ risk: 'low' }));
    expect(
      (await http().get('/api/classification/classifier').set('cookie', org.owner.cookie)).body,
    ).toEqual({
      classifier: null,
    });
    const created = await put(org, { url: receiver.url });
    expect(created.status).toBe(200);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.classifier).toEqual({
      url: receiver.url,
      timeoutMs: 2000,
      enabled: true,
      previousSecretExpiresAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const changed = await put(org, { url: receiver.url, timeoutMs: 500, enabled: false });
    expect(changed.status).toBe(200);
    expect(changed.body.secret).toBeUndefined();
    expect(changed.body.classifier).toMatchObject({ timeoutMs: 500, enabled: false });
    const read = await http().get('/api/classification/classifier').set('cookie', org.owner.cookie);
    expect(JSON.stringify(read.body)).not.toContain(created.body.secret);
    expect(read.body.classifier).toMatchObject({
      url: receiver.url,
      timeoutMs: 500,
      enabled: false,
    });
    // The same settings again change nothing and write nothing.
    await put(org, { url: receiver.url, timeoutMs: 500, enabled: false });
    expect(await audit(org, 'classification.classifier_configured')).toEqual([
      {
        classifier: { url: receiver.url, timeoutMs: 500, enabled: false },
        from: { url: receiver.url, timeoutMs: 2000, enabled: true },
      },
      { classifier: { url: receiver.url, timeoutMs: 2000, enabled: true } },
    ]);
    const bad = await put(org, { url: 'http://classifier.example.com/x' });
    expect({ status: bad.status, message: bad.body.message }).toEqual({
      status: 400,
      message:
        'url must use https (http is allowed only for loopback addresses, outside production).',
    });
    const slow = await put(org, { url: receiver.url, timeoutMs: 10_001 });
    expect(slow.status).toBe(400);
    for (const req of [
      http().get('/api/classification/classifier'),
      http().put('/api/classification/classifier').send({ url: receiver.url }),
      http().delete('/api/classification/classifier'),
      http().post('/api/classification/classifier/rotate-secret'),
      http().post('/api/classification/classifier/test').send({}),
    ]) {
      const res = await req.set('x-api-key', org.key);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 403,
        message: 'This endpoint is reserved for humans.',
      });
    }
    const removed = await http()
      .delete('/api/classification/classifier')
      .set('cookie', org.owner.cookie);
    expect(removed.status).toBe(204);
    expect(await audit(org, 'classification.classifier_deleted')).toEqual([
      { classifier: { url: receiver.url, timeoutMs: 500, enabled: false } },
    ]);
    const again = await http()
      .delete('/api/classification/classifier')
      .set('cookie', org.owner.cookie);
    expect(again.status).toBe(404);
    expect(receiver.requests).toHaveLength(0);
  });

  it('asks about each new action, signed as webhooks are; rules match its risk and labels; the record and receipts carry them', async () => {
    const org = await newOrg('Classifier risk');
    const receiver = await classifierAt((req) => {
      const action = (JSON.parse(req.body) as { data: { action: { name: string } } }).data.action;
      return action.name === 'deploy'
        ? answerJson({
            risk: 'high',
            labels: ['production', 'deploy'],
            reasons: ['Touches production.'],
            extra: 1,
          })
        : answerJson({ risk: 'low' });
    });
    const secret = await setUp(org, receiver);
    const reject = await rule(org, {
      name: 'No high-risk deploys',
      match: { risk: ['high', 'critical'], labels: ['production'] },
      outcome: { type: 'reject', message: 'High risk: ask the on-call team.' },
    });
    const approve = await rule(org, {
      name: 'Low risk passes',
      match: { risk: ['low'] },
      outcome: { type: 'approve' },
    });

    const deploy = await open(org, 'deploy', { service: 'api' });
    expect(deploy).toMatchObject({
      status: 'answered',
      risk: 'high',
      labels: ['production', 'deploy'],
    });
    expect(deploy.decisions).toEqual([
      expect.objectContaining({
        decision: 'reject',
        message: 'High risk: ask the on-call team.',
        decidedBy: { type: 'argus', ruleId: reject, name: 'argus' },
      }),
    ]);
    const lookup = await open(org, 'lookup');
    expect(lookup).toMatchObject({ status: 'answered', risk: 'low', labels: [] });
    expect(lookup.decisions[0]).toMatchObject({
      decision: 'approve',
      decidedBy: { type: 'argus', ruleId: approve, name: 'argus' },
    });

    // Signed exactly as a webhook delivery, checked with the reference implementation.
    expect(receiver.requests).toHaveLength(2);
    const asked = receiver.requests[0];
    expect(asked.method).toBe('POST');
    expect(new Webhook(secret).verify(asked.body, asked.headers)).toEqual({
      type: 'classification.requested',
      timestamp: expect.any(String),
      data: {
        title: 'Run deploy',
        description: null,
        sessionId: null,
        key: { id: org.keyId, name: 'billing-agent' },
        action: {
          name: 'deploy',
          args: { service: 'api' },
          allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
        },
      },
    });

    // The receipts: what the classifier said, and the rule with its risk and labels.
    const classified = await audit(org, 'classification.classified', deploy.id);
    expect(classified).toEqual([
      {
        actionName: 'deploy',
        risk: 'high',
        labels: ['production', 'deploy'],
        reasons: ['Touches production.'],
        classifierMs: expect.any(Number),
      },
    ]);
    expect(await audit(org, 'classification.applied', deploy.id)).toEqual([
      {
        actionName: 'deploy',
        ruleIds: [reject],
        policyVersion: 3,
        mode: 'enforce',
        outcome: 'reject',
        enforced: true,
        risk: 'high',
        labels: ['production', 'deploy'],
        classifierMs: classified[0].classifierMs,
      },
    ]);
    // Every read of the record carries them.
    const read = await http().get(`/api/interrupts/${deploy.id}`).set('x-api-key', org.key);
    expect(read.body).toMatchObject({ risk: 'high', labels: ['production', 'deploy'] });
  });

  it.each<[string, Answer, string]>([
    [
      'hangs past its time',
      { status: 200, delayMs: 5_000, body: '{"risk":"low"}' },
      'No answer within 0.3 s.',
    ],
    ['answers 500', { status: 500 }, 'The endpoint answered 500.'],
    [
      'answers something not JSON',
      { status: 200, body: '<html>ok</html>' },
      'The answer is not JSON.',
    ],
    [
      'answers a risk it does not know',
      { status: 200, body: '{"risk":"severe"}' },
      "The answer's risk must be one of low, medium, high, critical.",
    ],
    [
      'answers bad labels',
      { status: 200, body: '{"risk":"low","labels":"prod"}' },
      "The answer's labels must be an array of at most 20 strings of 1 to 50 characters.",
    ],
    [
      'redirects to a private address',
      { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      'The endpoint answered 302 (redirects are not followed).',
    ],
  ])(
    'fails closed when the classifier %s: a person decides, and the receipts say why',
    async (what, answer, reason) => {
      const org = await newOrg(`Classifier ${what}`);
      const receiver = await classifierAt(() => answer);
      await setUp(org, receiver, what.startsWith('hangs') ? 300 : 10_000);
      const approve = await rule(org, {
        name: 'Approve refunds',
        match: { actions: ['refund'] },
        outcome: { type: 'approve' },
      });
      const opened = await open(org, 'refund', { amount: 5 });
      expect(opened).toMatchObject({ status: 'open', risk: null, labels: [], decisions: [] });
      expect(receiver.requests).toHaveLength(1);
      const failed = await audit(org, 'classification.classifier_failed', opened.id);
      expect(failed).toEqual([{ actionName: 'refund', reason, classifierMs: expect.any(Number) }]);
      expect(await audit(org, 'classification.applied', opened.id)).toEqual([
        {
          actionName: 'refund',
          ruleIds: [approve],
          policyVersion: 2,
          mode: 'enforce',
          outcome: 'approve',
          enforced: false,
          skipped: 'classifier_failed',
          error: reason,
          classifierMs: failed[0].classifierMs,
        },
      ]);
    },
  );

  it('is not asked when switched off or removed, nor for another organisation; rules on risk then match nothing', async () => {
    const org = await newOrg('Classifier off');
    const other = await newOrg('Classifier elsewhere');
    const receiver = await classifierAt(() => answerJson({ risk: 'critical' }));
    await setUp(org, receiver);
    await rule(other, {
      name: 'Critical',
      match: { risk: ['critical'] },
      outcome: { type: 'approve' },
    });
    const elsewhere = await open(other, 'deploy');
    expect(elsewhere).toMatchObject({ status: 'open', risk: null, labels: [] });
    expect(receiver.requests).toHaveLength(0);

    expect((await open(org, 'deploy')).risk).toBe('critical');
    expect(receiver.requests).toHaveLength(1);
    await put(org, { url: receiver.url, enabled: false });
    expect((await open(org, 'deploy')).risk).toBeNull();
    await put(org, { url: receiver.url, enabled: true });
    expect((await open(org, 'deploy')).risk).toBe('critical');
    expect(receiver.requests).toHaveLength(2);
    await http()
      .delete('/api/classification/classifier')
      .set('cookie', org.owner.cookie)
      .expect(204);
    const after = await open(org, 'deploy');
    expect(after.risk).toBeNull();
    expect(receiver.requests).toHaveLength(2);
    expect(await audit(org, 'classification.classifier_failed')).toEqual([]);
  });

  it('rotates its secret: both sign for 24 hours; and a test asks the saved classifier, writing nothing', async () => {
    const org = await newOrg('Classifier rotation');
    const receiver = await classifierAt(() =>
      answerJson({ risk: 'medium', labels: ['money'], reasons: ['Moves money.'] }),
    );
    const first = await setUp(org, receiver);
    const rotated = await http()
      .post('/api/classification/classifier/rotate-secret')
      .set('cookie', org.owner.cookie);
    expect(rotated.status).toBe(200);
    const second = rotated.body.secret as string;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(
      Date.parse(rotated.body.classifier.previousSecretExpiresAt) - Date.now(),
    ).toBeGreaterThan(23 * 3600_000);
    expect(await audit(org, 'classification.classifier_secret_rotated')).toEqual([
      { previousSecretExpiresAt: rotated.body.classifier.previousSecretExpiresAt },
    ]);

    const tested = await http()
      .post('/api/classification/classifier/test')
      .set('cookie', org.owner.cookie)
      .send({ actionName: 'refund', args: { amount: 40 } });
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({
      ok: true,
      classifierMs: expect.any(Number),
      risk: 'medium',
      labels: ['money'],
      reasons: ['Moves money.'],
      error: null,
    });
    const asked = receiver.requests[0];
    expect(asked.headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [first, second])
      expect(new Webhook(secret).verify(asked.body, asked.headers)).toMatchObject({
        data: { key: null, action: { name: 'refund', args: { amount: 40 } } },
      });
    expect(await audit(org, 'classification.classified')).toEqual([]);

    receiver.answerWith(() => ({ status: 503 }));
    const failing = await http()
      .post('/api/classification/classifier/test')
      .set('cookie', org.owner.cookie)
      .send({});
    expect(failing.body).toMatchObject({
      ok: false,
      risk: null,
      error: 'The endpoint answered 503.',
    });
    const none = await newOrg('Classifier none');
    const missing = await http()
      .post('/api/classification/classifier/test')
      .set('cookie', none.owner.cookie)
      .send({});
    expect(missing.status).toBe(404);
  });

  it('the dry run says it did not ask, and with askClassifier asks it (writing nothing), so rules on risk preview truthfully', async () => {
    const org = await newOrg('Classifier dry run');
    const riskyRule = {
      name: 'High risk goes to a person',
      mode: 'enforce',
      match: { risk: ['high', 'critical'] },
      outcome: { type: 'reject', message: 'Too risky' },
    };
    const dryRun = (body: Record<string, unknown>) =>
      http().post('/api/classification/dry-run').set('cookie', org.owner.cookie).send(body);
    const sample = {
      title: 'Drop table',
      actionRequests: [{ name: 'sql', args: { statement: 'DROP TABLE users' } }],
    };

    // No classifier: each action says so.
    const none = await dryRun({ sample, rules: [riskyRule] });
    expect(none.status).toBe(200);
    expect(none.body.results[0].actions[0]).toEqual({
      actionName: 'sql',
      result: 'person',
      ruleId: null,
      message: null,
      shadowRuleIds: [],
      skipped: null,
      classifier: 'none',
      risk: null,
      labels: [],
      classifierError: null,
    });

    const receiver = await classifierAt((req) => {
      const action = (
        JSON.parse(req.body) as { data: { action: { args: { statement?: string } } } }
      ).data.action;
      return answerJson(
        action.args.statement?.startsWith('DROP') === true
          ? { risk: 'critical', labels: ['destructive'] }
          : { risk: 'low' },
      );
    });
    await setUp(org, receiver);

    // Not asked unless asked for: the rule on risk matches nothing, and the answer says why.
    const notAsked = await dryRun({ sample, rules: [riskyRule] });
    expect(notAsked.body.results[0].actions[0]).toMatchObject({
      result: 'person',
      classifier: 'not_asked',
      risk: null,
    });
    expect(receiver.requests).toHaveLength(0);

    const asked = await dryRun({ sample, rules: [riskyRule], askClassifier: true });
    expect(asked.status).toBe(200);
    expect(asked.body.results[0].actions[0]).toEqual({
      actionName: 'sql',
      result: 'reject',
      ruleId: '00000000-0000-4000-8000-000000000001',
      message: 'Too risky',
      shadowRuleIds: [],
      skipped: null,
      classifier: 'answered',
      risk: 'critical',
      labels: ['destructive'],
      classifierError: null,
    });
    // Asked as a new interrupt asks it: signed, the sample's action, no key.
    expect(receiver.requests).toHaveLength(1);
    const sent = JSON.parse(receiver.requests[0].body) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(sent.type).toBe('classification.requested');
    expect(sent.data).toMatchObject({
      title: 'Drop table',
      key: null,
      action: { name: 'sql', args: { statement: 'DROP TABLE users' } },
    });
    expect(receiver.requests[0].headers['webhook-signature']).toMatch(/^v1,/);

    // The latest interrupts, asked one request per action, with the key that opened each.
    const opened = await open(org, 'sql', { statement: 'SELECT 1' });
    const requestsBefore = receiver.requests.length;
    const latest = await dryRun({ lastInterrupts: 1, rules: [riskyRule], askClassifier: true });
    expect(latest.body.results).toEqual([
      {
        interruptId: opened.id,
        title: 'Run sql',
        actions: [
          expect.objectContaining({ result: 'person', classifier: 'answered', risk: 'low' }),
        ],
      },
    ]);
    expect(receiver.requests.length).toBe(requestsBefore + 1);
    const latestSent = JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as {
      data: { key: { id: string; name: string } };
    };
    expect(latestSent.data.key).toEqual({ id: org.keyId, name: expect.any(String) });

    // A failing classifier: argus would fail closed, and the dry run says so.
    receiver.answerWith(() => ({ status: 500 }));
    const failed = await dryRun({ sample, rules: [riskyRule], askClassifier: true });
    expect(failed.body.results[0].actions[0]).toMatchObject({
      result: 'person',
      classifier: 'failed',
      risk: null,
      classifierError: 'The endpoint answered 500.',
    });

    // Nothing written: no classified or failed entry for the dry runs.
    expect(await audit(org, 'classification.classifier_failed')).toEqual([]);
    expect(
      (await audit(org, 'classification.classified')).filter((m) => m.actionName !== 'sql'),
    ).toEqual([]);
    expect(await audit(org, 'classification.classified')).toHaveLength(1); // the interrupt opened above

    const tooMany = await dryRun({ lastInterrupts: 21, askClassifier: true });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(
      'lastInterrupts: at most 20 with askClassifier (the classifier is asked once per action)',
    );
  });
});
