import {
  argumentTags,
  checkPolicy,
  compilePolicy,
  evaluatePolicy,
  type PolicyFacts,
} from './cedar-policy';

// Cedar through the official engine (@cedar-policy/cedar-wasm, pinned): validation against the
// schema with exact texts, and what permit / forbid / neither / an error do to an action.
const facts = (over: Partial<PolicyFacts> = {}): PolicyFacts => ({
  actionName: 'refund',
  title: 'Refund order 42',
  args: { amount: 50, currency: 'EUR', customer: { tier: 'gold', vip: true }, ratio: 0.5 },
  keyId: 'a1b2c3d4-0000-4000-8000-000000000001',
  sessionId: null,
  ...over,
});

const POLICY = `@id("small-refunds")
permit(principal, action == Action::"run", resource)
when { resource.name == "refund" && resource.numbers.hasTag("amount") && resource.numbers.getTag("amount") <= 100 };

@id("no-wires")
@message("Wire transfers always need a person.")
forbid(principal, action, resource) when { resource.name == "wire" };

forbid(principal, action, resource) when { resource.strings.hasTag("customer.tier") && resource.strings.getTag("customer.tier") == "blocked" };`;

describe('Cedar policies', () => {
  it('offers the arguments as tags by type, by dotted path', () => {
    expect(argumentTags(facts().args)).toEqual({
      numbers: { amount: 50 },
      strings: { currency: 'EUR', 'customer.tier': 'gold' },
      flags: { 'customer.vip': true },
    });
  });

  it('permit approves, a forbid rejects with its @message (or names itself), neither decides nothing', () => {
    const policy = compilePolicy('spec-1', POLICY);
    expect(policy.ids).toEqual(['small-refunds', 'no-wires', 'policy2']);
    expect(evaluatePolicy(policy, facts())).toEqual({
      decision: 'approve',
      policyIds: ['small-refunds'],
    });
    expect(evaluatePolicy(policy, facts({ actionName: 'wire' }))).toEqual({
      decision: 'reject',
      policyIds: ['no-wires'],
      message: 'Wire transfers always need a person.',
    });
    // forbid wins over permit.
    expect(
      evaluatePolicy(policy, facts({ args: { amount: 10, customer: { tier: 'blocked' } } })),
    ).toEqual({
      decision: 'reject',
      policyIds: ['policy2'],
      message: 'Forbidden by policy policy2.',
    });
    expect(evaluatePolicy(policy, facts({ args: { amount: 500 } }))).toEqual({ decision: null });
    expect(evaluatePolicy(policy, facts({ actionName: 'deploy' }))).toEqual({ decision: null });
  });

  it('reads the key, the session, the title, risk and labels', () => {
    const policy = compilePolicy(
      'spec-2',
      `permit(principal == Key::"a1b2c3d4-0000-4000-8000-000000000001", action, resource)
       when { resource has session && resource.title like "*order*" && resource.labels.contains("billing") && resource has risk && resource.risk == "low" };`,
    );
    const session = 'a1b2c3d4-0000-4000-8000-000000000009';
    expect(
      evaluatePolicy(policy, facts({ sessionId: session, labels: ['billing'], risk: 'low' }))
        .decision,
    ).toBe('approve');
    expect(evaluatePolicy(policy, facts({ labels: ['billing'], risk: 'low' })).decision).toBeNull();
    expect(
      evaluatePolicy(
        policy,
        facts({ sessionId: session, labels: ['billing'], risk: 'low', keyId: 'other' }),
      ).decision,
    ).toBeNull();
  });

  it('refuses what does not parse or does not validate, with the line, column and the engine’s words', () => {
    expect(() => checkPolicy('permit(principal, action, resource) when { 1 + };')).toThrow(
      'outcome.policy: line 1, column 48: unexpected token `}` (expected `!`, `(`, `-`, `[`, `{`, `false`, identifier, `if`, number, `?principal`, `?resource`, string literal, or `true`)',
    );
    expect(() =>
      checkPolicy(
        'permit(principal, action, resource);\npermit(principal, action, resource) when { resource.nme == "refund" };',
      ),
    ).toThrow(
      'outcome.policy: line 2, column 44: for policy `policy1`, attribute `nme` on entity type `ActionRequest` not found — did you mean `name`?',
    );
    expect(() =>
      checkPolicy(
        'permit(principal, action, resource) when { resource.numbers.getTag("amount") < 5 };',
      ),
    ).toThrow(
      'outcome.policy: line 1, column 44: for policy `policy0`, unable to guarantee safety of access to tag `"amount"` on entity type `Numbers` — try testing for the tag\'s presence with `.hasTag("amount") && ..`',
    );
    expect(() => checkPolicy('// nothing')).toThrow(
      'outcome.policy: must hold at least one permit or forbid policy',
    );
  });
});
