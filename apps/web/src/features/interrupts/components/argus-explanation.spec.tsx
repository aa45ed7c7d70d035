import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { aHistoryEntry, anAction, anInterrupt, aRule, aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { ArgusExplanation, ArgusRowBadge } from './argus-explanation';

const SMALL_REFUNDS = aRule();
const AUDIT_RULE = aRule({
  id: '7a1d0c55-4444-4c1e-9a4e-0a0a0a0a0a04',
  name: 'Watch exports',
  mode: 'shadow',
  outcome: { type: 'reject', message: 'No exports' },
});
const CEDAR_RULE = aRule({
  id: '7a1d0c55-5555-4c1e-9a4e-0a0a0a0a0a05',
  name: 'Cedar: deploys',
  outcome: { type: 'policy', policy: 'permit (principal, action, resource);' },
});

/** A member who may read interrupts and the rules (their names), not the audit log. */
function signedInReader() {
  server.use(
    http.get(`${API}/auth/session`, () =>
      HttpResponse.json(
        aSignInSession(['interrupt.read', 'interrupt.decide', 'classification.read']),
      ),
    ),
    // Each name is read by its rule's id; the whole list is never asked for (an unhandled
    // request fails the test).
    http.get(`${API}/classification/rules/:id`, ({ params }) => {
      const rule = [SMALL_REFUNDS, AUDIT_RULE, CEDAR_RULE].find((r) => r.id === params.id);
      return rule
        ? HttpResponse.json(rule)
        : HttpResponse.json(
            { statusCode: 404, error: 'NOT_FOUND', message: 'Classification rule not found.' },
            { status: 404 },
          );
    }),
  );
}

const receipt = (
  actionName: string,
  ruleId: string,
  mode: 'shadow' | 'enforce',
  outcome: string,
  extra: Record<string, unknown> = {},
) => ({ actionName, ruleIds: [ruleId], mode, outcome, enforced: mode === 'enforce', ...extra });

describe('ArgusExplanation', () => {
  it('explains every rule that matched, per action: name linked, mode, outcome and why not', async () => {
    signedInReader();
    const interrupt = anInterrupt({
      actionRequests: [
        anAction({ name: 'refund' }),
        anAction({ name: 'export', allowedDecisions: ['approve', 'edit'] }),
        anAction({ name: 'deploy' }),
      ],
      decisions: [
        {
          id: 'd1',
          actionName: 'refund',
          decision: 'approve',
          decidedAt: '2026-11-26T19:00:00.100Z',
          decidedBy: { type: 'argus', ruleId: SMALL_REFUNDS.id, name: 'argus' },
          editedArgs: null,
          editedName: null,
          message: null,
        },
      ],
    });
    const history = [
      aHistoryEntry('interrupt.created', { externalId: null }, { actorType: 'api_key' }),
      aHistoryEntry(
        'classification.applied',
        receipt('refund', SMALL_REFUNDS.id, 'enforce', 'approve'),
      ),
      aHistoryEntry(
        'classification.shadowed',
        receipt('export', AUDIT_RULE.id, 'shadow', 'reject'),
      ),
      aHistoryEntry(
        'classification.applied',
        receipt('export', SMALL_REFUNDS.id, 'enforce', 'reject', {
          enforced: false,
          skipped: 'decision_not_allowed',
        }),
      ),
      aHistoryEntry(
        'classification.applied',
        receipt('deploy', CEDAR_RULE.id, 'enforce', 'approve', { policyIds: ['small-deploys'] }),
      ),
    ];
    renderWithApp(<ArgusExplanation interrupt={interrupt} entries={history} entriesLimit={100} />);

    const panel = screen.getByRole('region', { name: 'What argus did' });
    const lines = () =>
      [...panel.querySelectorAll('[data-argus-receipt]')].map((li) =>
        li.textContent?.replace(/\s+/g, ' ').trim(),
      );
    // The rule names arrive, one rule at a time.
    await within(panel).findByRole('link', { name: 'The rule that matched: Cedar: deploys' });
    expect(lines()).toEqual([
      'Rule Small refunds enforce approved it.',
      'Rule Watch exports shadow would reject — shadow mode: recorded only, a person decides.',
      'Rule Small refunds enforce would reject, but the action does not allow that decision, so a person decides.',
      'Rule Cedar: deploys enforce approved it. Determining Cedar policies: small-deploys.',
    ]);
    expect(
      within(panel).getAllByRole('link', { name: 'The rule that matched: Small refunds' })[0],
    ).toHaveAttribute('href', `/settings/classification/${SMALL_REFUNDS.id}`);
    // argus is explained where it appears.
    expect(panel).toHaveTextContent('argus applies your organisation’s classification rules');
  });

  it('says what quorum a route set, or would have set in shadow, and when its team was left out', async () => {
    signedInReader();
    const team = '6f1d7a52-3b1e-4c57-9d8e-4d2b6f2a1c02';
    const interrupt = anInterrupt({
      actionRequests: [
        anAction({
          name: 'pay',
          allowedDecisions: ['approve', 'reject', 'respond'],
          requiredApprovals: 2,
          approverTeam: { id: team, name: 'Finance' },
        }),
        anAction({ name: 'transfer' }),
        anAction({ name: 'sweep', requiredApprovals: 2 }),
      ],
    });
    const history = [
      aHistoryEntry(
        'classification.applied',
        receipt('pay', SMALL_REFUNDS.id, 'enforce', 'route', {
          requiredApprovals: 2,
          approverTeamId: team,
        }),
      ),
      aHistoryEntry(
        'classification.shadowed',
        receipt('transfer', AUDIT_RULE.id, 'shadow', 'route', { requiredApprovals: 3 }),
      ),
      aHistoryEntry(
        'classification.applied',
        receipt('sweep', SMALL_REFUNDS.id, 'enforce', 'route', {
          requiredApprovals: 2,
          approverTeamId: team,
          skipped: 'approver_team_unavailable',
        }),
      ),
    ];
    renderWithApp(<ArgusExplanation interrupt={interrupt} entries={history} entriesLimit={100} />);
    const panel = screen.getByRole('region', { name: 'What argus did' });
    await within(panel).findByRole('link', { name: 'The rule that matched: Watch exports' });
    expect(
      [...panel.querySelectorAll('[data-argus-receipt]')].map((li) =>
        li.textContent?.replace(/\s+/g, ' ').trim(),
      ),
    ).toEqual([
      'Rule Small refunds enforce routed the interrupt. Needs 2 approvals from Finance.',
      'Rule Watch exports shadow would route the interrupt — shadow mode: recorded only, a person decides. Would need 3 approvals.',
      'Rule Small refunds enforce routed the interrupt, but its approver team is gone or has fewer members than the approvals needed, so any member who may decide counts. Needs 2 approvals.',
    ]);
  });

  it('says why argus stood aside: a failure, the circuit breaker, a Cedar error', () => {
    signedInReader();
    const interrupt = anInterrupt();
    renderWithApp(
      <ArgusExplanation
        interrupt={interrupt}
        entriesLimit={100}
        entries={[
          aHistoryEntry('classification.breaker_tripped', {
            apiKeyId: 'k1',
            rejections: 10,
            windowSeconds: 600,
            actionNames: ['refund'],
          }),
          aHistoryEntry(
            'classification.applied',
            receipt('refund', CEDAR_RULE.id, 'enforce', 'require_human', {
              enforced: true,
              skipped: 'policy_error',
              error: 'integer overflow',
            }),
          ),
        ]}
      />,
    );
    const panel = screen.getByRole('region', { name: 'What argus did' });
    expect(panel.querySelector('[data-argus-breaker]')).toHaveTextContent(
      'Circuit breaker: argus had rejected 10 actions of this key within 600 seconds, so no rule decides its interrupts for now.',
    );
    expect(panel.querySelector('[data-argus-receipt]')).toHaveTextContent(
      /would leave it to a person, but its Cedar policy could not be evaluated.*The engine said: integer overflow/,
    );
  });

  it('without its entries, shows the decisions argus took; says so when no rule matched', async () => {
    signedInReader();
    const decided = anInterrupt({
      status: 'answered',
      decisions: [
        {
          id: 'd1',
          actionName: 'refund',
          decision: 'reject',
          decidedAt: '2026-11-26T19:00:00.100Z',
          decidedBy: { type: 'argus', ruleId: SMALL_REFUNDS.id, name: 'argus' },
          editedArgs: null,
          editedName: null,
          message: 'Too large',
        },
      ],
    });
    const { unmount } = renderWithApp(
      <ArgusExplanation interrupt={decided} entries={undefined} entriesLimit={100} />,
    );
    const panel = screen.getByRole('region', { name: 'What argus did' });
    await within(panel).findByRole('link', { name: 'The rule that matched: Small refunds' });
    expect(panel.querySelector('[data-argus-receipt]')).toHaveTextContent(
      'Rule Small refunds rejected it.',
    );
    unmount();

    // Nothing matched, and all argus wrote is known (nothing).
    const { unmount: unmount2 } = renderWithApp(
      <ArgusExplanation
        interrupt={anInterrupt()}
        entries={[aHistoryEntry('interrupt.created', null, { actorType: 'api_key' })]}
        entriesLimit={100}
      />,
    );
    expect(screen.getByRole('region', { name: 'What argus did' })).toHaveTextContent(
      'No classification rule matched these actions',
    );
    unmount2();

    // A full page of entries may have lost the receipts: nothing is claimed.
    const full = Array.from({ length: 100 }, () => aHistoryEntry('interrupt.decided', null));
    renderWithApp(<ArgusExplanation interrupt={anInterrupt()} entries={full} entriesLimit={100} />);
    expect(screen.queryByRole('region', { name: 'What argus did' })).toBeNull();
  });
});

describe('ArgusRowBadge', () => {
  it('says what argus decided in the row, and names the rules on hover, on focus and in its name', async () => {
    signedInReader();
    const byArgus = (actionName: string, decision: 'approve' | 'reject') => ({
      id: `d-${actionName}`,
      actionName,
      decision,
      decidedAt: '2026-11-26T19:00:00.100Z',
      decidedBy: { type: 'argus' as const, ruleId: SMALL_REFUNDS.id, name: 'argus' as const },
      editedArgs: null,
      editedName: null,
      message: null,
    });
    renderWithApp(
      <ArgusRowBadge
        interrupt={anInterrupt({
          decisions: [
            byArgus('refund', 'approve'),
            byArgus('notify', 'approve'),
            byArgus('wipe', 'reject'),
          ],
          escalationReason: 'Escalated by a classification rule',
        })}
      />,
    );
    const badge = screen.getByText('argus approved 2, rejected 1, escalated');
    await userEvent.hover(badge);
    expect(await screen.findByText('Approved refund by rule Small refunds')).toBeInTheDocument();
    expect(screen.getByText('Rejected wipe by rule Small refunds')).toBeInTheDocument();
    await userEvent.unhover(badge);
    await waitFor(() =>
      expect(screen.queryByText('Rejected wipe by rule Small refunds')).toBeNull(),
    );

    // By keyboard: the badge is a link to the page's "What argus did", named with the rules.
    await userEvent.tab();
    const link = screen.getByRole('link', {
      name: 'argus approved 2, rejected 1, escalated: Approved refund by rule Small refunds; Approved notify by rule Small refunds; Rejected wipe by rule Small refunds; Escalated by an enforced route rule',
    });
    expect(link).toHaveFocus();
    expect(link).toHaveAttribute('href', `/interrupts/${anInterrupt().id}#argus`);
    expect(await screen.findByText('Rejected wipe by rule Small refunds')).toBeVisible();
  });

  it('is absent when argus had no part', () => {
    renderWithApp(<ArgusRowBadge interrupt={anInterrupt()} />);
    expect(document.querySelector('[data-argus-row]')).toBeNull();
  });
});
