import { conditionsOf, defaultChoices } from './always-allow';

describe('Always allow this: the argument conditions', () => {
  const args = { amount: 40, currency: 'EUR', customer: { tier: 'gold' } };

  it('keeps every argument exactly by default', () => {
    expect(conditionsOf(args, defaultChoices(args))).toEqual({
      ok: true,
      args: [
        { path: 'amount', op: 'eq', value: 40 },
        { path: 'currency', op: 'eq', value: 'EUR' },
        { path: 'customer', op: 'eq', value: { tier: 'gold' } },
      ],
    });
  });

  it('turns a bound into a range, drops "any value", and refuses a bound that excludes this action', () => {
    expect(
      conditionsOf(args, {
        amount: { kind: 'at_most', bound: 100 },
        currency: { kind: 'any' },
        customer: { kind: 'exactly' },
      }),
    ).toEqual({
      ok: true,
      args: [
        { path: 'amount', op: 'lte', value: 100 },
        { path: 'customer', op: 'eq', value: { tier: 'gold' } },
      ],
    });
    expect(conditionsOf(args, { amount: { kind: 'at_most', bound: 10 } })).toEqual({
      ok: false,
      problem: 'amount is 40 here: the bound must be at least that.',
    });
    expect(conditionsOf(args, { currency: { kind: 'at_least', bound: 1 } })).toEqual({
      ok: false,
      problem: 'currency is not a number: it cannot take a bound.',
    });
  });

  it('asks for "any value" on an argument a rule cannot name', () => {
    expect(conditionsOf({ 'first name': 'x' }, {})).toEqual({
      ok: false,
      problem: 'Argument “first name” cannot be named in a rule: choose any value.',
    });
    expect(conditionsOf({ 'first name': 'x' }, { 'first name': { kind: 'any' } })).toEqual({
      ok: true,
      args: [],
    });
  });
});
