import { ArgusPipeline, matchesOf, planActions, withoutDecisions } from './argus-pipeline';
import type { RuleCache } from './rule-cache';
import { compileRule, sortRules, type StoredRule } from './rule-engine';

let n = 0;
const rule = (over: Partial<StoredRule>): StoredRule => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  name: `rule ${n}`,
  mode: 'enforce',
  priority: n,
  match: {},
  outcome: { type: 'approve' },
  expiresAt: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...over,
});
const action = (allowedDecisions: ('approve' | 'edit' | 'reject' | 'respond')[]) => ({
  actionName: 'refund',
  args: {},
  keyId: 'k',
  sessionId: null,
  titleWords: [],
  allowedDecisions,
});
const NOW = Date.parse('2026-11-26T12:00:00Z');

// What the statistics record per matching rule (SPEC §8d): does the rule decide the action?
describe('matchesOf', () => {
  const shadowApprove = rule({ mode: 'shadow' });
  const shadowRoute = rule({ mode: 'shadow', outcome: { type: 'route', escalate: true } });
  const shadowReject = rule({ mode: 'shadow', outcome: { type: 'reject', message: 'No.' } });
  const enforceApprove = rule({});
  const rules = sortRules(
    [shadowApprove, shadowRoute, shadowReject, enforceApprove].map(compileRule),
  );

  it('a shadow approve or reject decides when the action allows it; a route never; an applied enforce rule decides', () => {
    expect(matchesOf(planActions(rules, [action(['approve', 'reject'])], NOW, 1))).toEqual([
      {
        ruleId: shadowApprove.id,
        actionName: 'refund',
        mode: 'shadow',
        outcome: 'approve',
        decides: true,
      },
      {
        ruleId: shadowRoute.id,
        actionName: 'refund',
        mode: 'shadow',
        outcome: 'route',
        decides: false,
      },
      {
        ruleId: shadowReject.id,
        actionName: 'refund',
        mode: 'shadow',
        outcome: 'reject',
        decides: true,
      },
      {
        ruleId: enforceApprove.id,
        actionName: 'refund',
        mode: 'enforce',
        outcome: 'approve',
        decides: true,
      },
    ]);
  });

  it('a decision the action does not allow is not decided, in either mode', () => {
    expect(
      matchesOf(planActions(rules, [action(['reject', 'respond'])], NOW, 1)).map((m) => m.decides),
    ).toEqual([false, false, true, false]);
  });

  it('the circuit breaker: the enforced rule did not decide', () => {
    expect(
      matchesOf(withoutDecisions(planActions(rules, [action(['approve'])], NOW, 1))).map(
        (m) => m.decides,
      ),
    ).toEqual([true, false, false, false]);
  });
});

// A POST whose actions no rule matches costs what it costs without rules (issue 29 §4): the plan
// is empty, so nothing is recorded or read again; one match keeps every action's plan.
describe('ArgusPipeline.plan', () => {
  const pipelineWith = (rules: StoredRule[]) =>
    new ArgusPipeline(
      {
        snapshot: async () => ({
          rules: sortRules(rules.map(compileRule)),
          classifier: null,
          policyVersion: 7,
        }),
      } as unknown as RuleCache,
      undefined as never,
      undefined as never,
      undefined as never,
    );
  const interrupt = { title: 'Refund', description: null, keyName: 'agent' };
  const exportAction = { ...action(['approve']), actionName: 'export' };

  it('no rule matches any action: an empty plan', async () => {
    const plan = await pipelineWith([rule({ match: { actions: ['deploy'] } })]).plan(
      'org',
      [action(['approve']), exportAction],
      interrupt,
      NOW,
    );
    expect(plan).toEqual({ ok: true, actions: [], risk: null, labels: [] });
  });

  it('a rule matches one action: a plan for each action, in order, its receipt with the version the rules were read at', async () => {
    const plan = await pipelineWith([rule({ match: { actions: ['export'] } })]).plan(
      'org',
      [action(['approve']), exportAction],
      interrupt,
      NOW,
    );
    expect(plan.ok && plan.actions.map((a) => [a.actionName, a.decision?.decision])).toEqual([
      ['refund', undefined],
      ['export', 'approve'],
    ]);
    expect(plan.ok && plan.actions[1].receipts.map((r) => r.metadata.policyVersion)).toEqual([7]);
  });
});
