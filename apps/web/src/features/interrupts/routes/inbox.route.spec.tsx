import type { InterruptCountsResponse, InterruptListResponse } from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { anAction, anInterrupt, aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { InboxRoute } from './inbox.route';

const count = (n: number) => ({ count: n, capped: false });
const COUNTS: InterruptCountsResponse = {
  open: count(2),
  assignedToMe: count(0),
  escalated: count(0),
  answered: count(0),
  waitingForMe: count(0),
  cap: 1000,
};

/** Two open interrupts: one only approvable as a whole, one with an action that must be opened. */
const REFUND = anInterrupt({ id: '00000000-0000-4000-8000-000000000001', title: 'Refund #1' });
const DEPLOY = anInterrupt({
  id: '00000000-0000-4000-8000-000000000002',
  title: 'Deploy to production',
  openedBy: { type: 'api_key', id: '00000000-0000-4000-8000-0000000000aa', name: 'release-bot' },
  sessionId: '00000000-0000-4000-8000-0000000000bb',
  risk: 'high',
  labels: ['production', 'irreversible'],
  actionRequests: [anAction({ name: 'deploy', allowedDecisions: ['edit', 'reject'] })],
});

function serveInbox() {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/interrupts`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      const q = params.get('q');
      const page: InterruptListResponse = {
        interrupts: [REFUND, DEPLOY].filter((i) => q === null || i.title.startsWith(q)),
        nextCursor: null,
      };
      return HttpResponse.json(page);
    }),
    http.get(`${API}/interrupts/counts`, () => HttpResponse.json(COUNTS)),
  );
  return queries;
}

describe('InboxRoute', () => {
  it('lists what waits, with counts, and keeps the search in the address', async () => {
    const queries = serveInbox();
    renderWithApp(<InboxRoute />, { path: '/inbox' });
    const table = await screen.findByRole('table', { name: 'Interrupts' });
    expect(within(table).getByRole('link', { name: 'Refund #1' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Deploy to production' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Open (2)' })).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Search titles'), 'Deploy');
    // The search reaches the API after the typing stops, and the list narrows.
    await waitFor(() => expect(queries.at(-1)?.get('q')).toBe('Deploy'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Refund #1' })).toBeNull());
    expect(await screen.findByRole('link', { name: 'Deploy to production' })).toBeInTheDocument();
  });

  it('selects only what can be approved as a whole, and bulk approve lists it', async () => {
    serveInbox();
    renderWithApp(<InboxRoute />, { path: '/inbox' });
    const table = await screen.findByRole('table', { name: 'Interrupts' });
    const approveSelected = screen.getByRole('button', { name: 'Approve selected (0)' });
    expect(approveSelected).toBeDisabled();

    await userEvent.click(within(table).getAllByRole('checkbox')[0]);
    // "All" ticks the refund only: the deploy has an action that cannot be approved.
    await userEvent.click(screen.getByRole('button', { name: 'Approve selected (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve 1 interrupt?' });
    expect(within(dialog).getByText('Refund #1 (refund)')).toBeInTheDocument();
    expect(within(dialog).queryByText(/Deploy to production/)).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Approve all' })).toBeEnabled();
  });

  it('says which agent opened each row, and links its session for a member who may watch it', async () => {
    serveInbox();
    const { unmount } = renderWithApp(<InboxRoute />, { path: '/inbox' });
    const table = await screen.findByRole('table', { name: 'Interrupts' });
    const contexts = () =>
      [...table.querySelectorAll('[data-agent-context]')].map((line) => line.textContent);
    expect(contexts()).toEqual(['by billing-agent', 'by release-bot · in a session']);
    unmount();

    server.use(
      http.get(`${API}/auth/session`, () =>
        HttpResponse.json(aSignInSession(['interrupt.read', 'session.read'])),
      ),
    );
    renderWithApp(<InboxRoute />, { path: '/inbox' });
    const row = (await screen.findAllByRole('row')).find((r) =>
      r.textContent?.includes('Deploy to production'),
    );
    expect(
      await within(row as HTMLElement).findByRole('link', { name: 'its session' }),
    ).toHaveAttribute('href', '/sessions/00000000-0000-4000-8000-0000000000bb');
  });

  it('shows the classifier’s risk in the rows that have one (argus, SPEC §8d)', async () => {
    serveInbox();
    renderWithApp(<InboxRoute />, { path: '/inbox' });
    const table = await screen.findByRole('table', { name: 'Interrupts' });
    const rowOf = (title: string) =>
      within(table)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(title)) as HTMLElement;
    expect(rowOf('Deploy to production').querySelector('[data-risk="high"]')).toHaveTextContent(
      'High risk',
    );
    // No classifier answered for the refund: no risk is claimed.
    expect(rowOf('Refund #1').querySelector('[data-risk]')).toBeNull();
    await userEvent.hover(within(rowOf('Deploy to production')).getByText('High risk'));
    expect(
      await screen.findByText('The classifier’s labels: production, irreversible'),
    ).toBeInTheDocument();
  });

  it('marks a row’s priority unless normal, and shows its labels as chips (SPEC §8e routing)', async () => {
    const labelled = (i: number, overrides: Parameters<typeof anInterrupt>[0]) =>
      anInterrupt({ id: `00000000-0000-4000-8000-00000000010${i}`, ...overrides });
    server.use(
      http.get(`${API}/interrupts`, () =>
        HttpResponse.json({
          interrupts: [
            labelled(1, { title: 'Urgent one', priority: 'urgent', labels: ['billing'] }),
            labelled(2, { title: 'High one', priority: 'high', labels: [] }),
            labelled(3, { title: 'Low one', priority: 'low' }),
            labelled(4, {
              title: 'Normal one',
              priority: 'normal',
              labels: ['a', 'team:payments', 'eu/west', 'ticket+42', 'pii'],
            }),
          ],
          nextCursor: null,
        }),
      ),
      http.get(`${API}/interrupts/counts`, () => HttpResponse.json(COUNTS)),
    );
    renderWithApp(<InboxRoute />, { path: '/inbox' });
    const table = await screen.findByRole('table', { name: 'Interrupts' });
    const rowOf = (title: string) =>
      within(table)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(title)) as HTMLElement;
    const priority = (title: string) =>
      rowOf(title).querySelector('[data-priority]')?.textContent ?? null;
    expect(
      ['Urgent one', 'High one', 'Low one', 'Normal one'].map((title) => priority(title)),
    ).toEqual(['Urgent', 'High priority', 'Low priority', null]);

    const chips = (title: string) =>
      within(rowOf(title))
        .queryAllByRole('listitem')
        .map((chip) => chip.textContent);
    expect(chips('Urgent one')).toEqual(['billing']);
    expect(chips('High one')).toEqual([]);
    expect(chips('Low one')).toEqual([]);
    // The first three, then how many more (all of them named for assistive technology).
    expect(chips('Normal one')).toEqual(['a', 'team:payments', 'eu/west', '+2']);
    expect(
      within(rowOf('Normal one')).getByRole('list', {
        name: 'Labels: a, team:payments, eu/west, ticket+42, pii',
      }),
    ).toBeInTheDocument();
    expect(within(rowOf('Normal one')).getByText('+2')).toHaveAttribute('title', 'ticket+42, pii');
  });

  it('narrows by priority and by label, both kept in the address', async () => {
    const queries = serveInbox();
    renderWithApp(<InboxRoute />, { path: '/inbox' });
    await screen.findByRole('table', { name: 'Interrupts' });
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Priority' }),
      screen.getByRole('option', { name: 'High or urgent' }),
    );
    await waitFor(() => expect(queries.at(-1)?.get('priority')).toBe('high,urgent'));

    await userEvent.type(screen.getByRole('textbox', { name: 'Label' }), 'team:payments{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('label')).toBe('team:payments'));
    expect(queries.at(-1)?.get('priority')).toBe('high,urgent');
  });
});

describe('InboxRoute: the focus after a decision', () => {
  const PAY = [1, 2, 3].map((n) =>
    anInterrupt({ id: `00000000-0000-4000-8000-00000000020${n}`, title: `Pay ${n}` }),
  );
  /** The three interrupts, each leaving the list once it has a decision. */
  function serveThree() {
    let left = [...PAY];
    server.use(
      http.get(`${API}/interrupts`, () =>
        HttpResponse.json({ interrupts: left, nextCursor: null }),
      ),
      http.get(`${API}/interrupts/counts`, () => HttpResponse.json(COUNTS)),
      http.post(`${API}/interrupts/:id/decisions`, ({ params }) => {
        left = left.filter((i) => i.id !== params.id);
        return HttpResponse.json(
          { ...PAY.find((i) => i.id === params.id), status: 'answered' },
          { status: 201 },
        );
      }),
    );
  }
  const row = (title: string) => screen.getByRole('link', { name: title });
  const rejectWithReason = async () => {
    await userEvent.keyboard('r');
    expect(await screen.findByLabelText('Reason')).toHaveFocus();
    await userEvent.keyboard('No.{Control>}{Enter}{/Control}');
  };
  const approveConfirmed = async () => {
    await userEvent.keyboard('a');
    expect(await screen.findByRole('button', { name: 'Approve' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
  };
  const emptyHeading = () => screen.getByRole('heading', { name: 'Nothing waits for a decision' });
  /** The focus reaches `target` and is still there once the dialog has left the page. */
  const focusEndsOn = async (target: () => HTMLElement) => {
    await waitFor(() => expect(target()).toHaveFocus());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(target()).toHaveFocus();
  };
  /** The inbox of three, with the keyboard cursor on row `at` (1 to 3), or on none (0). */
  const inboxAt = async (at: number) => {
    serveThree();
    renderWithApp(<InboxRoute />, { path: '/inbox' });
    await screen.findByRole('link', { name: 'Pay 1' });
    if (at === 0) return;
    await userEvent.keyboard('j'.repeat(at));
    expect(row(`Pay ${at}`)).toHaveFocus();
  };

  it.each([
    ['rejected from the dialog (r)', rejectWithReason],
    ['approved with a (held for undo)', approveConfirmed],
  ])(
    '%s: the row now at the cursor’s place takes the focus, the one before it when the last row left, the empty state’s heading when none is left; j/k go on from there',
    async (_, decide) => {
      await inboxAt(2);
      await decide();
      await focusEndsOn(() => row('Pay 3'));
      expect(screen.queryByRole('link', { name: 'Pay 2' })).toBeNull();
      // The last row: the one before it.
      await decide();
      await focusEndsOn(() => row('Pay 1'));
      expect(screen.queryByRole('link', { name: 'Pay 3' })).toBeNull();
      // The cursor is where the focus is: j stays on the only row (not past a third one).
      await userEvent.keyboard('j');
      expect(row('Pay 1')).toHaveFocus();
      await decide();
      await focusEndsOn(emptyHeading);
      // What is held is taken back (z, nothing is sent), so no approval outlives the test.
      await userEvent.keyboard('zzz');
    },
  );

  it('z from the empty state: the row it brings back takes the focus, and the cursor is on it', async () => {
    await inboxAt(1);
    for (const left of ['Pay 2', 'Pay 3']) {
      await approveConfirmed();
      await focusEndsOn(() => row(left));
    }
    await approveConfirmed();
    await focusEndsOn(emptyHeading);
    await userEvent.keyboard('z');
    await waitFor(() => expect(row('Pay 3')).toHaveFocus());
    await userEvent.keyboard('zz');
    // The two others return above it; j moves on from the cursor's row, not from the top.
    await waitFor(() => expect(screen.getAllByRole('link', { name: /^Pay / })).toHaveLength(3));
    await userEvent.keyboard('k');
    expect(row('Pay 2')).toHaveFocus();
  });

  it('bulk approve: the first row left takes the focus, or the empty state’s heading', async () => {
    await inboxAt(0);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Pay 1' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Pay 3' }));
    await userEvent.click(screen.getByRole('button', { name: 'Approve selected (2)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    await focusEndsOn(() => row('Pay 2'));

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Pay 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Approve selected (1)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    await focusEndsOn(emptyHeading);
    await userEvent.keyboard('zz');
    expect(await screen.findByRole('link', { name: 'Pay 3' })).toBeInTheDocument();
  });
});
