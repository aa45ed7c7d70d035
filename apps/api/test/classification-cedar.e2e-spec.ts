import request from 'supertest';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 29 §1.2 / SPEC §8d: Cedar policies as a rule's outcome, through the official engine —
// validated on save with the line shown, shadow (log only) or enforce, forbid wins, default deny.
describe('Cedar policy rules', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());
  const POLICY = `@id("small-refunds")
permit(principal, action == Action::"run", resource)
when { resource.name == "refund" && resource.numbers.hasTag("amount") && resource.numbers.getTag("amount") <= 100 };

@id("no-wires")
@message("Wire transfers always need a person.")
forbid(principal, action, resource) when { resource.name == "wire" };`;
  const create = (body: Record<string, unknown>) =>
    http()
      .post('/api/classification/rules')
      .set('cookie', owner.cookie)
      .send({ name: 'Policies', mode: 'enforce', match: {}, ...body });
  const open = async (name: string, args: Record<string, unknown>) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: `Do ${name}`, actionRequests: [{ name, args }] });
    expect(res.status).toBe(201);
    return res.body as {
      id: string;
      status: string;
      decisions: { decision: string; message: string | null; decidedBy: unknown }[];
    };
  };
  const receipts = async (interruptId: string) => {
    const res = await http()
      .get(`/api/audit-log?targetId=${interruptId}&category=classification`)
      .set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    return (res.body.entries as { action: string; metadata: unknown }[]).map((e) => [
      e.action,
      e.metadata,
    ]);
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'agent' }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a policy that does not parse or validate with the exact text and line, and writes nothing', async () => {
    const before = (await http().get('/api/classification/rules').set('cookie', owner.cookie)).body
      .rules.length;
    const cases: [string, string][] = [
      [
        'permit(principal, action, resource)\nwhen { resource.nme == "refund" };',
        'outcome.policy: line 2, column 8: for policy `policy0`, attribute `nme` on entity type `ActionRequest` not found — did you mean `name`?',
      ],
      [
        'permit(principal, action, resource) when { resource.name == };',
        'outcome.policy: line 1, column 61: unexpected token `}` (expected `!`, `(`, `-`, `[`, `{`, `false`, identifier, `if`, number, `?principal`, `?resource`, string literal, or `true`)',
      ],
      ['   ', 'outcome.policy: is required with policy: the Cedar policies, as text'],
    ];
    for (const [policy, message] of cases) {
      const res = await create({ outcome: { type: 'policy', policy } });
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
    const after = (await http().get('/api/classification/rules').set('cookie', owner.cookie)).body
      .rules.length;
    expect(after).toBe(before);
  });

  it('shadow (log only) records what the policies would do and decides nothing', async () => {
    const res = await create({
      name: 'Shadow policies',
      mode: 'shadow',
      outcome: { type: 'policy', policy: POLICY },
    });
    expect(res.status).toBe(201);
    expect(res.body.outcome).toEqual({ type: 'policy', policy: POLICY });
    const opened = await open('refund', { amount: 50 });
    expect(opened.status).toBe('open');
    expect(await receipts(opened.id)).toEqual([
      [
        'classification.shadowed',
        {
          actionName: 'refund',
          ruleIds: [res.body.id],
          policyVersion: 1,
          mode: 'shadow',
          outcome: 'approve',
          enforced: false,
          policyIds: ['small-refunds'],
        },
      ],
    ]);
    await http()
      .delete(`/api/classification/rules/${res.body.id}`)
      .set('cookie', owner.cookie)
      .expect(204);
  });

  it('enforced: permit approves, forbid rejects with its @message, neither leaves it to a person', async () => {
    const res = await create({ outcome: { type: 'policy', policy: POLICY } });
    expect(res.status).toBe(201);
    const ruleId = res.body.id as string;
    const small = await open('refund', { amount: 50 });
    expect(small.status).toBe('answered');
    expect(small.decisions[0]).toMatchObject({
      decision: 'approve',
      decidedBy: { type: 'argus', ruleId, name: 'argus' },
    });
    expect(await receipts(small.id)).toEqual([
      [
        'classification.applied',
        {
          actionName: 'refund',
          ruleIds: [ruleId],
          policyVersion: 3,
          mode: 'enforce',
          outcome: 'approve',
          enforced: true,
          policyIds: ['small-refunds'],
        },
      ],
    ]);
    const wire = await open('wire', { amount: 5 });
    expect(wire.status).toBe('answered');
    expect(wire.decisions[0]).toMatchObject({
      decision: 'reject',
      message: 'Wire transfers always need a person.',
    });
    expect((await open('refund', { amount: 500 })).status).toBe('open');
    // A quoted number is a string: it is not offered as a number, so the limit does not hold.
    expect((await open('refund', { amount: '50' })).status).toBe('open');
    // Dry run with the same draft: the same outcomes, nothing written.
    const dry = await http()
      .post('/api/classification/dry-run')
      .set('cookie', owner.cookie)
      .send({
        sample: {
          title: 'x',
          actionRequests: [{ name: 'wire' }, { name: 'refund', args: { amount: 1 } }],
        },
        rules: [
          {
            name: 'draft',
            mode: 'enforce',
            match: {},
            outcome: { type: 'policy', policy: POLICY },
          },
        ],
      });
    expect(dry.status).toBe(200);
    expect(
      dry.body.results[0].actions.map((a: { result: string; message: string | null }) => [
        a.result,
        a.message,
      ]),
    ).toEqual([
      ['reject', 'Wire transfers always need a person.'],
      ['approve', null],
    ]);
  });

  it('fails closed when a valid policy fails at evaluation: a person decides, later rules do not, and the receipt says why', async () => {
    // A fresh organisation: the rule of the test above stays enforced in the first one.
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Grace Hopper' });
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'agent' }));
    // Valid for the schema (it passes strict validation on save), but the addition overflows a
    // 64-bit integer for any amount above 0: an error of the engine at evaluation time.
    const overflowing = `@id("overflowing")
permit(principal, action, resource)
when { resource.numbers.hasTag("amount") && resource.numbers.getTag("amount") + 9223372036854775807 > 0 };`;
    const policyRule = await create({
      name: 'Overflowing policy',
      priority: 1,
      outcome: { type: 'policy', policy: overflowing },
    });
    expect(policyRule.status).toBe(201);
    // A later rule that would approve the action: an evaluation error must not let it decide.
    const approveAll = await create({
      name: 'Approve refunds',
      priority: 2,
      outcome: { type: 'approve' },
    });
    expect(approveAll.status).toBe(201);

    const failing = await open('refund', { amount: 5 });
    expect(failing.status).toBe('open');
    expect(failing.decisions).toEqual([]);
    expect(await receipts(failing.id)).toEqual([
      [
        'classification.applied',
        {
          actionName: 'refund',
          ruleIds: [policyRule.body.id],
          policyVersion: 2,
          mode: 'enforce',
          outcome: 'require_human',
          enforced: true,
          skipped: 'policy_error',
          error:
            'policy overflowing: integer overflow while attempting to add the values `5` and `9223372036854775807`',
        },
      ],
    ]);
    // The same policy where it does not overflow decides as written: the error was the evaluation's.
    const fine = await open('refund', { amount: 0 });
    expect(fine.status).toBe('answered');
    expect(fine.decisions[0]).toMatchObject({
      decision: 'approve',
      decidedBy: { type: 'argus', ruleId: policyRule.body.id, name: 'argus' },
    });
  });
});
