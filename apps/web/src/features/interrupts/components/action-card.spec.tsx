import type { DecideInterruptDto, InterruptResponse } from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { aSignInSession, anAction, anInterrupt } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { ActionCard } from './action-card';

const DECISIONS = `${API}/interrupts/:id/decisions`;

/** Records the bodies the card sends to the decisions endpoint and answers like the API. */
function acceptDecisions(interrupt: InterruptResponse) {
  const sent: DecideInterruptDto[] = [];
  server.use(
    http.post(DECISIONS, async ({ request, params }) => {
      expect(params.id).toBe(interrupt.id);
      const body = (await request.json()) as DecideInterruptDto;
      sent.push(body);
      return HttpResponse.json({ ...interrupt, status: 'answered' }, { status: 201 });
    }),
    // The card's cache is refreshed after a decision.
    http.get(`${API}/interrupts/:id`, () => HttpResponse.json(interrupt)),
  );
  return sent;
}

describe('ActionCard', () => {
  it('shows the arguments as a tree and approves with one click', async () => {
    const interrupt = anInterrupt();
    const sent = acceptDecisions(interrupt);
    const decided = vi.fn();
    renderWithApp(
      <ActionCard
        interrupt={interrupt}
        action={interrupt.actionRequests[0]}
        canDecide
        onDecided={decided}
      />,
    );
    const tree = screen.getByRole('tree', { name: 'Arguments of refund' });
    expect(within(tree).getByText('"amount":')).toBeInTheDocument();
    expect(within(tree).getByText('"EUR"')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Approve refund' }));
    await waitFor(() => expect(decided).toHaveBeenCalled());
    expect(sent).toEqual([{ actionName: 'refund', decision: 'approve' }]);
  });

  it('an action needing two approvals: shows who approved (1 of 2), and refuses a second approval by the same member', async () => {
    const ada = aSignInSession().member;
    const grace = { memberId: '5f0e7c1e-3333-4c1e-9a4e-0a0a0a0a0a03', memberName: 'Grace Hopper' };
    const action = anAction({
      allowedDecisions: ['approve', 'reject', 'respond'],
      requiredApprovals: 2,
      approverTeam: { id: '5f0e7c1e-4444-4c1e-9a4e-0a0a0a0a0a04', name: 'Payments' },
      approvals: [{ ...grace, approvedAt: '2026-11-26T19:01:00.000Z' }],
    });
    const interrupt = anInterrupt({ actionRequests: [action] });
    const sent = acceptDecisions(interrupt);
    const { unmount } = renderWithApp(
      <ActionCard interrupt={interrupt} action={action} canDecide />,
    );
    expect(await screen.findByText('1 of 2 approvals')).toBeInTheDocument();
    expect(screen.getByText(/Grace Hopper/)).toBeInTheDocument();
    expect(
      screen.getByText(
        "Needs 2 different members' approvals; one rejection rejects it. Only members of team Payments may decide it.",
      ),
    ).toBeInTheDocument();
    // Always allow would let one rule pass the quorum by: not offered here.
    expect(screen.queryByRole('button', { name: /Always allow/ })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Approve refund (2 of 2)' }));
    await waitFor(() => expect(sent).toEqual([{ actionName: 'refund', decision: 'approve' }]));
    unmount();

    // Once the signed-in member approved, their Approve button is disabled and says why.
    const mine = anAction({
      ...action,
      approvals: [
        { memberId: ada.id, memberName: ada.name, approvedAt: '2026-11-26T19:02:00.000Z' },
      ],
    });
    renderWithApp(
      <ActionCard interrupt={anInterrupt({ actionRequests: [mine] })} action={mine} canDecide />,
    );
    const waiting = await screen.findByRole('button', { name: 'You approved: waiting for 1 more' });
    expect(waiting).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reject refund' })).toBeEnabled();
  });

  it('offers only the decisions the action allows, and none without the permission', () => {
    const interrupt = anInterrupt({
      actionRequests: [anAction({ name: 'notify', allowedDecisions: ['approve', 'reject'] })],
    });
    const { unmount } = renderWithApp(
      <ActionCard interrupt={interrupt} action={interrupt.actionRequests[0]} canDecide />,
    );
    expect(screen.getByRole('button', { name: 'Approve notify' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reject notify' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit notify' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Respond to notify' })).toBeNull();
    unmount();

    renderWithApp(
      <ActionCard interrupt={interrupt} action={interrupt.actionRequests[0]} canDecide={false} />,
    );
    expect(screen.queryByRole('button', { name: /notify$/ })).toBeNull();
  });

  it('shows what an edit changes before it is sent, in the agent’s key order, and sends the edit', async () => {
    const interrupt = anInterrupt();
    const sent = acceptDecisions(interrupt);
    renderWithApp(
      <ActionCard interrupt={interrupt} action={interrupt.actionRequests[0]} canDecide />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Edit refund' }));
    const editor = screen.getByLabelText('Edited arguments for refund');
    // The reviewer writes the keys in another order and changes one value.
    await userEvent.clear(editor);
    await userEvent.click(editor);
    await userEvent.paste('{"order": "1042", "currency": "EUR", "amount": 35}');

    const diff = screen.getByLabelText("Changes against the agent's arguments");
    const changed = [...diff.querySelectorAll('[data-diff]')].map((line) => [
      line.getAttribute('data-diff'),
      line.textContent?.replace(/^[-+ ] (added: |removed: )?/, ''),
    ]);
    expect(changed).toEqual([
      ['same', '{'],
      ['removed', '  "amount": 40,'],
      ['added', '  "amount": 35,'],
      ['same', '  "currency": "EUR",'],
      ['same', '  "order": "1042"'],
      ['same', '}'],
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Send edit' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      actionName: 'refund',
      decision: 'edit',
      editedArgs: { order: '1042', currency: 'EUR', amount: 35 },
    });
  });

  it('says who decided first when a colleague won the race', async () => {
    const interrupt = anInterrupt();
    const decidedByGrace = anInterrupt({
      status: 'answered',
      decisions: [
        {
          id: 'd1',
          actionName: 'refund',
          decision: 'reject',
          decidedAt: '2026-11-26T19:05:00.000Z',
          decidedBy: { type: 'member', id: 'm2', name: 'Grace Hopper' },
          editedArgs: null,
          editedName: null,
          message: null,
        },
      ],
    });
    server.use(
      http.post(DECISIONS, () =>
        HttpResponse.json(
          { statusCode: 409, error: 'Conflict', message: 'This action was already decided.' },
          { status: 409 },
        ),
      ),
    );
    const { rerender } = renderWithApp(
      <ActionCard interrupt={interrupt} action={interrupt.actionRequests[0]} canDecide />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Approve refund' }));
    // The refreshed interrupt arrives with the colleague's decision.
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Approve refund' })).not.toHaveAttribute(
        'data-loading',
      ),
    );
    rerender(
      <ActionCard interrupt={decidedByGrace} action={decidedByGrace.actionRequests[0]} canDecide />,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Grace Hopper decided this first');
    expect(alert).toHaveTextContent('your decision was not recorded');
  });
});
