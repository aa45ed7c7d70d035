import type { ClassificationRuleResponse } from '@interlock/api-client';
import { draftOf, EMPTY_FORM, formOf } from './rule-draft';

describe('the rule editor’s draft', () => {
  it('turns the fields into a rule body: numbers compare, lists split, JSON values parse, text stays text', () => {
    const built = draftOf({
      ...EMPTY_FORM,
      name: ' Small refunds ',
      actions: ['refund'],
      args: [
        { path: 'amount', op: 'lte', value: '100' },
        { path: 'currency', op: 'in', value: 'EUR, "USD"' },
        { path: 'customer.tier', op: 'eq', value: 'gold' },
        { path: 'urgent', op: 'eq', value: 'true' },
        { path: 'email', op: 'matches', value: '*@example.com' },
      ],
    });
    expect(built).toEqual({
      ok: true,
      draft: {
        name: 'Small refunds',
        mode: 'shadow',
        priority: 100,
        match: {
          actions: ['refund'],
          args: [
            { path: 'amount', op: 'lte', value: 100 },
            { path: 'currency', op: 'in', value: ['EUR', 'USD'] },
            { path: 'customer.tier', op: 'eq', value: 'gold' },
            { path: 'urgent', op: 'eq', value: true },
            { path: 'email', op: 'matches', value: '*@example.com' },
          ],
        },
        outcome: { type: 'approve' },
        expiresAt: null,
      },
    });
  });

  it('says what is missing', () => {
    expect(draftOf({ ...EMPTY_FORM, args: [{ path: 'amount', op: 'lt', value: 'ten' }] })).toEqual({
      ok: false,
      problem: 'amount <: the value must be a number.',
    });
    expect(draftOf({ ...EMPTY_FORM, outcome: 'reject', message: ' ' })).toEqual({
      ok: false,
      problem: 'A rejection needs the message the agent receives.',
    });
  });

  it('a saved rule round-trips, keeping what the editor does not show (sessions, a route’s assignee)', () => {
    const rule = {
      id: 'r',
      name: 'Prod',
      mode: 'enforce',
      priority: 5,
      match: {
        sessionIds: ['00000000-0000-4000-8000-000000000001'],
        args: [{ path: 'env', op: 'in', value: ['prod', 'production'] }],
      },
      outcome: {
        type: 'route',
        assignTo: { teamId: '00000000-0000-4000-8000-000000000002' },
        escalate: true,
      },
      expiresAt: null,
      createdAt: '',
      updatedAt: '',
    } as ClassificationRuleResponse;
    const built = draftOf(formOf(rule));
    expect(built.ok && built.draft).toEqual({
      name: 'Prod',
      mode: 'enforce',
      priority: 5,
      match: rule.match,
      outcome: rule.outcome,
      expiresAt: null,
    });
  });
});
