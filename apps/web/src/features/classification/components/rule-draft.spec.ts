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

  it('sets sessions, risk, labels and a route’s member or team', () => {
    const built = draftOf({
      ...EMPTY_FORM,
      name: 'Risky',
      sessionIds: ['00000000-0000-4000-8000-000000000001'],
      risk: ['high', 'critical'],
      labels: ['pii'],
      outcome: 'route',
      assignTo: 'member:00000000-0000-4000-8000-000000000003',
    });
    expect(built.ok && built.draft.match).toEqual({
      sessionIds: ['00000000-0000-4000-8000-000000000001'],
      risk: ['high', 'critical'],
      labels: ['pii'],
    });
    expect(built.ok && built.draft.outcome).toEqual({
      type: 'route',
      assignTo: { memberId: '00000000-0000-4000-8000-000000000003' },
    });
    const toTeam = draftOf({
      ...EMPTY_FORM,
      outcome: 'route',
      assignTo: 'team:t-1',
      escalate: true,
    });
    expect(toTeam.ok && toTeam.draft.outcome).toEqual({
      type: 'route',
      assignTo: { teamId: 't-1' },
      escalate: true,
    });
  });

  it('a route’s quorum: approvals above 1 and an approver team, round-tripped; 1 and no team set nothing', () => {
    const team = '00000000-0000-4000-8000-000000000002';
    const built = draftOf({
      ...EMPTY_FORM,
      outcome: 'route',
      requiredApprovals: 2,
      approverTeamId: team,
    });
    expect(built.ok && built.draft.outcome).toEqual({
      type: 'route',
      requiredApprovals: 2,
      approverTeam: { teamId: team },
    });
    const plain = draftOf({ ...EMPTY_FORM, outcome: 'route', requiredApprovals: 1 });
    expect(plain.ok && plain.draft.outcome).toEqual({ type: 'route' });
    const rule = {
      id: 'r',
      name: 'Large payments',
      mode: 'enforce',
      priority: 100,
      match: { actions: ['pay'] },
      outcome: { type: 'route', requiredApprovals: 3, approverTeam: { teamId: team } },
      expiresAt: null,
      createdAt: '',
      updatedAt: '',
    } as ClassificationRuleResponse;
    expect(formOf(rule)).toMatchObject({ requiredApprovals: 3, approverTeamId: team });
    const again = draftOf(formOf(rule));
    expect(again.ok && again.draft.outcome).toEqual(rule.outcome);
  });

  it('a saved rule round-trips: sessions, risk, labels, a route’s assignee', () => {
    const rule = {
      id: 'r',
      name: 'Prod',
      mode: 'enforce',
      priority: 5,
      match: {
        sessionIds: ['00000000-0000-4000-8000-000000000001'],
        args: [{ path: 'env', op: 'in', value: ['prod', 'production'] }],
        risk: ['critical'],
        labels: ['production'],
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
