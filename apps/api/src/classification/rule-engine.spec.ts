import {
  type ActionFacts,
  type ArgPredicate,
  compileRule,
  evaluateAction,
  globToRegExp,
  parseRuleMatch,
  parseRuleOutcome,
  sortRules,
  type StoredRule,
} from './rule-engine';

const facts = (over: Partial<ActionFacts> = {}): ActionFacts => ({
  actionName: 'refund',
  args: { amount: 50, currency: 'EUR', customer: { tier: 'gold' } },
  keyId: 'a1b2c3d4-0000-4000-8000-000000000001',
  sessionId: null,
  titleWords: ['refund', 'order', '42'],
  ...over,
});

let n = 0;
const rule = (over: Partial<StoredRule>): StoredRule => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  name: `rule ${n}`,
  mode: 'enforce',
  priority: 100,
  match: {},
  outcome: { type: 'approve' },
  expiresAt: null,
  createdAt: `2026-11-26T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
  ...over,
});
const run = (rules: StoredRule[], f = facts(), now = Date.parse('2026-11-26T12:00:00Z')) =>
  evaluateAction(sortRules(rules.map(compileRule)), f, now);

describe('rule matching', () => {
  it.each([
    [{ actions: ['refund'] }, true],
    [{ actions: ['ref*'] }, true],
    [{ actions: ['refun?'] }, true],
    [{ actions: ['Refund'] }, false],
    [{ actions: ['deploy', 'refund.*'] }, false],
    [{ keyIds: ['a1b2c3d4-0000-4000-8000-000000000001'] }, true],
    [{ keyIds: ['a1b2c3d4-0000-4000-8000-000000000002'] }, false],
    [{ sessionIds: ['a1b2c3d4-0000-4000-8000-000000000003'] }, false],
    [{ titleWords: ['ORDER', 'refund'] }, true],
    [{ titleWords: ['order', 'cancel'] }, false],
    [{ args: [{ path: 'amount', op: 'lte', value: 50 }] }, true],
    [{ args: [{ path: 'amount', op: 'lt', value: 50 }] }, false],
    [
      {
        args: [
          { path: 'amount', op: 'gt', value: 10 },
          { path: 'currency', op: 'in', value: ['EUR', 'USD'] },
        ],
      },
      true,
    ],
    [{ args: [{ path: 'customer.tier', op: 'eq', value: 'gold' }] }, true],
    [{ args: [{ path: 'customer.tier', op: 'matches', value: 'g*d' }] }, true],
    [{ args: [{ path: 'customer', op: 'eq', value: { tier: 'gold' } }] }, true],
    [{ args: [{ path: 'missing', op: 'ne', value: 1 }] }, true],
    [{ args: [{ path: 'missing', op: 'eq', value: null }] }, false],
    [{ args: [{ path: 'currency', op: 'lte', value: 100 }] }, false],
    [{ risk: ['low'] }, false],
  ] as const)('%j matches: %s', (match, expected) => {
    const parsed = parseRuleMatch(match);
    expect(run([rule({ match: parsed })]).enforced !== undefined).toBe(expected);
  });

  it('compares numbers only: a quoted number does not pass a numeric limit', () => {
    const limit = rule({
      match: parseRuleMatch({ args: [{ path: 'amount', op: 'lte', value: 100 }] }),
    });
    expect(run([limit], facts({ args: { amount: '50' } })).enforced).toBeUndefined();
  });

  it('globs are literal but for * and ?', () => {
    expect(globToRegExp('a.b*').test('a.bc')).toBe(true);
    expect(globToRegExp('a.b*').test('axbc')).toBe(false);
    expect(globToRegExp('(x)+').test('(x)+')).toBe(true);
  });
});

describe('rule ordering', () => {
  it('runs by priority, then creation; the first matching enforce rule decides', () => {
    const later = rule({ priority: 5, outcome: { type: 'reject', message: 'no' } });
    const first = rule({ priority: 1, outcome: { type: 'approve' } });
    expect(run([later, first]).enforced?.id).toBe(first.id);
    const sameA = rule({ priority: 7, createdAt: '2026-11-26T09:00:00.000Z' });
    const sameB = rule({ priority: 7, createdAt: '2026-11-26T08:00:00.000Z' });
    expect(run([sameA, sameB]).enforced?.id).toBe(sameB.id);
  });

  it('records shadow matches and goes on; off and expired rules are skipped; require_human stops', () => {
    const shadow = rule({
      priority: 1,
      mode: 'shadow',
      outcome: { type: 'reject', message: 'would' },
    });
    const off = rule({ priority: 2, mode: 'off' });
    const expired = rule({ priority: 3, expiresAt: '2026-11-26T11:00:00.000Z' });
    const human = rule({ priority: 4, outcome: { type: 'require_human' } });
    const approve = rule({ priority: 5 });
    const result = run([approve, human, expired, off, shadow]);
    expect(result.shadowed.map((r) => r.id)).toEqual([shadow.id]);
    expect(result.enforced?.id).toBe(human.id);
  });

  it('keeps the order across exact names, globs, leading wildcards and rules naming no action', () => {
    const rules = [
      rule({ priority: 5, mode: 'shadow', match: { actions: ['refund'] } }),
      rule({ priority: 4, mode: 'shadow', match: {} }),
      rule({ priority: 3, mode: 'shadow', match: { actions: ['re*'] } }),
      rule({ priority: 2, mode: 'shadow', match: { actions: ['*und', 'deploy'] } }),
      rule({ priority: 1, mode: 'shadow', match: { actions: ['refund', 'ref*'] } }),
      rule({ priority: 0, mode: 'shadow', match: { actions: ['deploy', 'd*'] } }),
      rule({ priority: 6, match: { actions: ['rEfund', 'refund'] } }),
      rule({ priority: 7, match: {} }),
    ];
    const result = run(rules);
    expect(result.shadowed.map((r) => r.priority)).toEqual([1, 2, 3, 4, 5]);
    expect(result.enforced?.priority).toBe(6);
    expect(run(rules, facts({ actionName: 'deploy' })).shadowed.map((r) => r.priority)).toEqual([
      0, 2, 4,
    ]);
    expect(run(rules, facts({ actionName: 'x' })).enforced?.priority).toBe(7);
  });

  it("a rule naming keys is tested only for those keys; the order holds, and one key's candidates never serve another", () => {
    const k1 = 'a1b2c3d4-0000-4000-8000-000000000011';
    const k2 = 'a1b2c3d4-0000-4000-8000-000000000022';
    const compiled = sortRules(
      [
        rule({ priority: 1, mode: 'shadow', match: { keyIds: [k1], actions: ['refund'] } }),
        rule({ priority: 2, mode: 'shadow', match: { actions: ['re*'] } }),
        rule({ priority: 3, match: { keyIds: [k2, k1], actions: ['refund'] } }),
        rule({ priority: 4, match: { keyIds: [k2] } }),
        rule({ priority: 5, match: {} }),
      ].map(compileRule),
    );
    const now = Date.parse('2026-11-26T12:00:00Z');
    const of = (keyId: string, actionName = 'refund') => {
      const r = evaluateAction(compiled, facts({ keyId, actionName }), now);
      return [r.shadowed.map((x) => x.priority), r.enforced?.priority];
    };
    // The same compiled rules (one index, its kept candidates) asked in turn for each key.
    for (let round = 0; round < 2; round++) {
      expect(of(k1)).toEqual([[1, 2], 3]);
      expect(of(k2)).toEqual([[2], 3]);
      expect(of('a1b2c3d4-0000-4000-8000-000000000033')).toEqual([[2], 5]);
      expect(of(k1, 'deploy')).toEqual([[], 5]);
      expect(of(k2, 'deploy')).toEqual([[], 4]);
    }
  });

  it('settles names and keys once per (key, action) but tests arguments, session and title on every request', () => {
    const k1 = 'a1b2c3d4-0000-4000-8000-000000000011';
    const s1 = 'a1b2c3d4-0000-4000-8000-0000000000a1';
    const compiled = sortRules(
      [
        rule({
          priority: 1,
          match: {
            keyIds: [k1],
            actions: ['*fund'],
            args: [{ path: 'amount', op: 'lte', value: 100 }],
          },
        }),
        rule({ priority: 2, match: { actions: ['refund'], sessionIds: [s1] } }),
        rule({ priority: 3, match: { actions: ['re?und'], titleWords: ['urgent'] } }),
        rule({ priority: 4, mode: 'off', match: {} }),
        rule({ priority: 5, outcome: { type: 'require_human' }, match: { actions: ['refund'] } }),
      ].map(compileRule),
    );
    const now = Date.parse('2026-11-26T12:00:00Z');
    const decider = (over: Partial<ActionFacts>) =>
      evaluateAction(compiled, facts({ keyId: k1, ...over }), now).enforced?.priority;
    for (let round = 0; round < 2; round++) {
      expect(decider({ args: { amount: 50 } })).toBe(1);
      expect(decider({ args: { amount: 500 } })).toBe(5);
      expect(decider({ args: {}, sessionId: s1 })).toBe(2);
      expect(decider({ args: {}, titleWords: ['urgent'] })).toBe(3);
      expect(decider({ args: {} })).toBe(5);
      expect(decider({ args: { amount: 50 }, actionName: 'deploy' })).toBeUndefined();
    }
    // More names than the index keeps: it starts over and still answers as before.
    for (let i = 0; i < 1100; i++)
      expect(decider({ args: { amount: 1 }, actionName: `x${i}fund` })).toBe(1);
    expect(decider({ args: { amount: 500 } })).toBe(5);
    // A rule tested on its own (rulesToPause) still checks its names and keys.
    expect(compiled[0].test(facts({ keyId: k1, args: { amount: 50 } }))).toBe(true);
    expect(compiled[0].test(facts({ args: { amount: 50 } }))).toBe(false);
    expect(compiled[0].apply(facts({ keyId: k1, actionName: 'deploy' }))).toBeNull();
  });

  it('answers as testing every rule in order would, over many random rules and requests (the indexes are only shortcuts)', () => {
    let seed = 29;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const keyIds = ['a1b2c3d4-0000-4000-8000-000000000011', 'a1b2c3d4-0000-4000-8000-000000000022'];
    const scalars = [0, 1, 5, 10, 100, -3, 2.5, 'gold', 'silver', '5', true, false, null];
    const values = [...scalars, { tier: 'gold' }, [1, 2]];
    const predicate = (): ArgPredicate => {
      const path = pick(['amount', 'tier', 'customer.tier', 'flag']);
      const op = pick(['eq', 'ne', 'in', 'lt', 'lte', 'gt', 'gte', 'matches'] as const);
      switch (op) {
        case 'eq':
        case 'ne':
          return { path, op, value: pick(values) };
        case 'in':
          return { path, op, value: [pick(values), pick(values), pick(scalars)] };
        case 'matches':
          return { path, op, value: pick(['gol*', '?', 'sil*']) };
        default:
          return { path, op, value: pick([0, 1, 5, 10, 100, -3, 2.5]) };
      }
    };
    const rules = Array.from({ length: 200 }, () =>
      rule({
        priority: Math.floor(random() * 50),
        mode: pick(['enforce', 'shadow', 'shadow', 'off'] as const),
        outcome: pick([{ type: 'approve' }, { type: 'require_human' }] as const),
        match: {
          ...(random() < 0.6
            ? { actions: [pick(['refund', 'ref*', '*und', 'deploy', '?efund'])] }
            : {}),
          ...(random() < 0.5 ? { keyIds: [pick(keyIds)] } : {}),
          ...(random() < 0.02
            ? {}
            : { args: Array.from({ length: 2 + Math.floor(random() * 2) }, predicate) }),
        },
      }),
    );
    const compiled = sortRules(rules.map(compileRule));
    const now = Date.parse('2026-11-26T12:00:00Z');
    const reference = (f: ActionFacts) => {
      const shadowed: string[] = [];
      for (const c of compiled) {
        if (c.rule.mode === 'off' || c.apply(f) === null) continue;
        if (c.rule.mode === 'shadow') shadowed.push(c.rule.id);
        else return { enforced: c.rule.id, shadowed };
      }
      return { enforced: undefined, shadowed };
    };
    const arg = () => (random() < 0.2 ? undefined : pick(values));
    let decided = 0;
    for (let n = 0; n < 1500; n++) {
      const args: Record<string, unknown> = {};
      for (const name of ['amount', 'tier', 'flag']) {
        const v = arg();
        if (v !== undefined) args[name] = v;
      }
      if (random() < 0.5) args.customer = { tier: pick(values) };
      const f = facts({ actionName: pick(['refund', 'deploy', 'x']), keyId: pick(keyIds), args });
      const got = evaluateAction(compiled, f, now);
      const want = reference(f);
      expect({ enforced: got.enforced?.id, shadowed: got.shadowed.map((r) => r.id) }).toEqual(want);
      if (want.enforced !== undefined) decided++;
    }
    // The run decides some and leaves some to a person: both sides were compared.
    expect(decided).toBeGreaterThan(100);
    expect(decided).toBeLessThan(1400);
  });

  it('with no matching rule, nothing decides (the action goes to a person)', () => {
    const result = run([rule({ match: parseRuleMatch({ actions: ['deploy'] }) })]);
    expect(result).toEqual({ shadowed: [] });
  });
});

describe('rule validation', () => {
  it.each([
    [
      { args: [{ path: 'a', op: 'in', value: [] }] },
      'match.args[0].value: must be an array of 1 to 100 values',
    ],
    [
      { args: [{ path: 'a', op: 'matches', value: 3 }] },
      'match.args[0].value: must be a glob of 1 to 1000 characters',
    ],
    [{ args: [{ path: 'a', op: 'eq' }] }, 'match.args[0].value: is required'],
    [{ titleWords: ['two words'] }, 'match.titleWords[0]: must be one word'],
    [{ risk: ['extreme'] }, 'match.risk[0]: must be one of low, medium, high, critical'],
    [{ actions: ['a', 'a'] }, 'match.actions: must not repeat a value'],
  ])('%j → %s', (match, message) => {
    expect(() => parseRuleMatch(match)).toThrow(message);
  });

  it('outcomes carry only their own fields', () => {
    expect(() => parseRuleOutcome({ type: 'approve', message: 'x' })).toThrow(
      'outcome.message: is not a known field',
    );
    expect(() => parseRuleOutcome({ type: 'route', assignTo: { memberId: 'x' } })).toThrow(
      'outcome.assignTo.memberId: must be a UUID',
    );
    expect(parseRuleOutcome({ type: 'route', escalate: true })).toEqual({
      type: 'route',
      escalate: true,
    });
  });
});
