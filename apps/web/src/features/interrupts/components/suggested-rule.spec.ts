import type { ClassificationSuggestionResponse } from '@interlock/api-client';
import { suggestedConditions } from '@/shared/utils/suggested-conditions';
import { argumentShape, suggestionFor } from './suggested-rule';

const suggestion = (over: Partial<ClassificationSuggestionResponse> = {}) =>
  ({
    id: 's1',
    keyId: 'key-1',
    keyName: 'billing-agent',
    actionName: 'refund',
    shape: { amount: 'number', currency: 'string' },
    approvals: 5,
    lastApprovedAt: '2026-11-27T10:00:00.000Z',
    latestInterruptId: 'i1',
    rule: {
      name: 'Approve refund from billing-agent',
      priority: 1000,
      match: {
        actions: ['refund'],
        keyIds: ['key-1'],
        args: [
          { path: 'amount', op: 'lte', value: 50 },
          { path: 'currency', op: 'eq', value: 'EUR' },
        ],
      },
      outcome: { type: 'approve' },
    },
    ...over,
  }) as ClassificationSuggestionResponse;

const opened = { openedBy: { type: 'api_key' as const, id: 'key-1', name: 'billing-agent' } };

// SPEC §8d suggestions are grouped by key, action name and argument shape (each top-level
// argument's JSON type, as Postgres's jsonb_typeof names it): the interrupt page finds its own.
describe('suggestionFor', () => {
  it('names each top-level argument by its JSON type; arguments that are not an object have none', () => {
    expect(argumentShape({ a: 1, b: 'x', c: null, d: [1], e: { f: 1 }, g: true })).toEqual({
      a: 'number',
      b: 'string',
      c: 'null',
      d: 'array',
      e: 'object',
      g: 'boolean',
    });
    expect(argumentShape([1, 2])).toEqual({});
    expect(argumentShape(null)).toEqual({});
  });

  it('finds the suggestion of the same key, action and shape — whatever the values', () => {
    const list = [suggestion({ id: 'other', actionName: 'export' }), suggestion()];
    expect(
      suggestionFor(list, opened, { name: 'refund', args: { currency: 'USD', amount: 900 } })?.id,
    ).toBe('s1');
  });

  it('finds none for another key, another shape, or an interrupt no key opened', () => {
    const list = [suggestion()];
    const refund = { name: 'refund', args: { amount: 10, currency: 'EUR' } };
    expect(
      suggestionFor(list, { openedBy: { type: 'api_key', id: 'key-2', name: 'x' } }, refund),
    ).toBeUndefined();
    expect(
      suggestionFor(list, opened, { name: 'refund', args: { amount: '10', currency: 'EUR' } }),
    ).toBeUndefined();
    expect(
      suggestionFor(list, opened, { name: 'refund', args: { amount: 10, currency: 'EUR', x: 1 } }),
    ).toBeUndefined();
    expect(suggestionFor(list, { openedBy: null }, refund)).toBeUndefined();
  });

  it('says the rule in words', () => {
    expect(suggestedConditions(suggestion())).toBe('when amount lte 50 and currency eq "EUR"');
    expect(
      suggestedConditions(
        suggestion({ rule: { ...suggestion().rule, match: { actions: ['refund'] } } }),
      ),
    ).toBe('with any arguments');
  });
});
