import type { ClassificationSuggestionResponse } from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { aRule } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { SuggestionCards } from './suggestion-cards';

const KEY_ID = '9c1d0c55-1111-4c1e-9a4e-0a0a0a0a0a11';
const REFUNDS: ClassificationSuggestionResponse = {
  id: '0f1e2d3c-4b5a-5968-8776-655443322110',
  keyId: KEY_ID,
  keyName: 'billing-agent',
  actionName: 'refund',
  shape: { amount: 'number', currency: 'string' },
  approvals: 7,
  lastApprovedAt: '2026-11-26T20:00:00.000Z',
  latestInterruptId: '1b2c3d4e-0000-4c1e-9a4e-0a0a0a0a0a99',
  rule: {
    name: 'Approve refund from billing-agent',
    priority: 1000,
    match: {
      actions: ['refund'],
      keyIds: [KEY_ID],
      args: [
        { path: 'amount', op: 'lte', value: 50 },
        { path: 'currency', op: 'eq', value: 'EUR' },
      ],
    },
    outcome: { type: 'approve' },
  },
};

/** The service's suggestions, as a list a test can empty; what was posted, in order. */
function service(initial: ClassificationSuggestionResponse[]) {
  let suggestions = initial;
  const posted: { path: string; body: unknown }[] = [];
  server.use(
    http.get(`${API}/classification/suggestions`, () => HttpResponse.json({ suggestions })),
    http.post(`${API}/classification/suggestions/:id/apply`, async ({ request, params }) => {
      posted.push({ path: `apply ${String(params.id)}`, body: await request.json() });
      suggestions = suggestions.filter((x) => x.id !== params.id);
      return HttpResponse.json(aRule({ origin: 'suggestion', name: REFUNDS.rule.name }), {
        status: 201,
      });
    }),
    http.post(`${API}/classification/suggestions/:id/dismiss`, ({ params }) => {
      posted.push({ path: `dismiss ${String(params.id)}`, body: null });
      suggestions = suggestions.filter((x) => x.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.post(`${API}/classification/suggestions/:id/restore`, ({ params }) => {
      posted.push({ path: `restore ${String(params.id)}`, body: null });
      suggestions = [...suggestions, ...initial.filter((x) => x.id === params.id)];
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return posted;
}

describe('SuggestionCards', () => {
  it('shows the evidence and the rule in words; without classification.manage, no buttons', async () => {
    service([REFUNDS]);
    renderWithApp(<SuggestionCards canManage={false} />);
    const card = await screen.findByLabelText('Suggestion: Approve refund from billing-agent');
    expect(card).toHaveTextContent(
      'People approved refund from key billing-agent 7 times in the last 30 days and rejected it never',
    );
    expect(card).toHaveTextContent(
      'Rule: approve refund from billing-agent when amount lte 50 and currency eq "EUR", after the organisation\'s own rules.',
    );
    expect(within(card).getByRole('link', { name: 'this interrupt' })).toHaveAttribute(
      'href',
      `/interrupts/${REFUNDS.latestInterruptId}`,
    );
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('Create rule applies it enforced; Try in shadow applies it in shadow', async () => {
    const posted = service([REFUNDS, { ...REFUNDS, id: '0f1e2d3c-4b5a-5968-8776-655443322111' }]);
    renderWithApp(<SuggestionCards canManage />);
    const [first] = await screen.findAllByLabelText(
      'Suggestion: Approve refund from billing-agent',
    );
    await userEvent.click(
      within(first).getByRole('button', { name: 'Create rule: approve refund from billing-agent' }),
    );
    await waitFor(() =>
      expect(posted).toEqual([{ path: `apply ${REFUNDS.id}`, body: { mode: 'enforce' } }]),
    );
    // The applied one leaves the list; the other stays.
    await waitFor(() =>
      expect(
        screen.getAllByLabelText('Suggestion: Approve refund from billing-agent'),
      ).toHaveLength(1),
    );
    const [second] = screen.getAllByLabelText('Suggestion: Approve refund from billing-agent');
    await userEvent.click(
      within(second).getByRole('button', {
        name: 'Try in shadow: approve refund from billing-agent',
      }),
    );
    await waitFor(() =>
      expect(posted[1]).toEqual({
        path: 'apply 0f1e2d3c-4b5a-5968-8776-655443322111',
        body: { mode: 'shadow' },
      }),
    );
  });

  it('Dismiss asks first, then dismisses; the suggestion is gone until Undo restores it', async () => {
    const posted = service([REFUNDS]);
    renderWithApp(<SuggestionCards canManage />);
    const card = await screen.findByLabelText('Suggestion: Approve refund from billing-agent');
    await userEvent.click(
      within(card).getByRole('button', { name: 'Dismiss: approve refund from billing-agent' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Dismiss the suggestion Approve refund from billing-agent?',
    });
    expect(posted).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss suggestion' }));
    await waitFor(() => expect(posted).toEqual([{ path: `dismiss ${REFUNDS.id}`, body: null }]));
    await waitFor(() =>
      expect(screen.queryByLabelText('Suggestion: Approve refund from billing-agent')).toBeNull(),
    );
    // Undo, right there: the dismissal is forgotten and the suggestion is back.
    const notice = await screen.findByRole('status', { name: 'Dismissed suggestion' });
    expect(notice).toHaveTextContent(
      'Dismissed Approve refund from billing-agent: argus will not suggest it again.',
    );
    await userEvent.click(
      within(notice).getByRole('button', {
        name: 'Undo dismissing Approve refund from billing-agent',
      }),
    );
    await waitFor(() =>
      expect(posted).toEqual([
        { path: `dismiss ${REFUNDS.id}`, body: null },
        { path: `restore ${REFUNDS.id}`, body: null },
      ]),
    );
    expect(
      await screen.findByLabelText('Suggestion: Approve refund from billing-agent'),
    ).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole('status', { name: 'Dismissed suggestion' })).toBeNull(),
    );
  });
});
