import type { QueryClient } from '@tanstack/react-query';
import type { DecideInterruptDto, InterruptResponse } from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { aHistoryEntry, anAction, anInterrupt, aRule, aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { InterruptRoute } from './interrupt.route';

const WATCH_EXPORTS = aRule({
  id: '7a1d0c55-4444-4c1e-9a4e-0a0a0a0a0a04',
  name: 'Watch exports',
  mode: 'shadow',
  outcome: { type: 'reject', message: 'No exports' },
});

/** The decision the API records for `body`, the `n`th sent, by `member`. */
/**
 * Until every decision has settled (its refreshes in) and what it does then, a frame later, has
 * run: the next frame's callbacks run after those asked for earlier.
 */
async function decisionsSettled(queryClient: QueryClient): Promise<void> {
  await waitFor(() => expect(queryClient.isMutating()).toBe(0));
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => window.requestAnimationFrame(resolve));
}

function recorded(
  body: DecideInterruptDto,
  n: number,
  member: { id: string; name: string },
): InterruptResponse['decisions'][number] {
  return {
    id: `d${n}`,
    actionName: body.actionName,
    decision: body.decision,
    decidedAt: '2026-11-26T19:05:00.000Z',
    decidedBy: { type: 'member', id: member.id, name: member.name },
    editedArgs: null,
    editedName: null,
    message: body.decision === 'reject' ? (body.message ?? null) : null,
  };
}

describe('InterruptRoute', () => {
  it('shows what argus did to a member who may read interrupts but not the audit log (include=argus)', async () => {
    const interrupt = anInterrupt({ actionRequests: [anAction({ name: 'export' })] });
    const asked: string[][] = [];
    server.use(
      http.get(`${API}/auth/session`, () =>
        HttpResponse.json(aSignInSession(['interrupt.read', 'classification.read'])),
      ),
      http.get(`${API}/interrupts/:id`, ({ request }) => {
        const include = new URL(request.url).searchParams.getAll('include');
        asked.push(include);
        // The history is the audit log's: this member would get 403 for it.
        if (include.includes('history'))
          return HttpResponse.json(
            {
              statusCode: 403,
              code: 'FORBIDDEN',
              message: 'Missing permission: auditLog.read.',
            },
            { status: 403 },
          );
        return HttpResponse.json({
          ...interrupt,
          session: null,
          ...(include.includes('argus')
            ? {
                argus: [
                  aHistoryEntry('classification.shadowed', {
                    actionName: 'export',
                    ruleIds: [WATCH_EXPORTS.id],
                    mode: 'shadow',
                    outcome: 'reject',
                    enforced: false,
                  }),
                ],
              }
            : {}),
        });
      }),
      http.get(`${API}/classification/rules/:id`, () => HttpResponse.json(WATCH_EXPORTS)),
    );

    renderWithApp(
      <Routes>
        <Route path="/interrupts/:id" element={<InterruptRoute />} />
      </Routes>,
      { path: `/interrupts/${interrupt.id}` },
    );

    const panel = await screen.findByRole('region', { name: 'What argus did' });
    await within(panel).findByRole('link', { name: 'The rule that matched: Watch exports' });
    expect(panel.querySelector('[data-argus-receipt]')).toHaveTextContent(
      'Rule Watch exports shadow would reject — shadow mode: recorded only, a person decides.',
    );
    expect(
      asked.every((include) => include.includes('argus') && !include.includes('history')),
    ).toBe(true);
    // No history for this member: no timeline, no link to the audit log.
    expect(screen.queryByRole('heading', { name: 'History' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Audit log entries' })).toBeNull();
  });

  it('shows the classifier’s risk beside the status, and none when it answered for no action', async () => {
    const risky = anInterrupt({ risk: 'critical', labels: ['payments'] });
    const plain = anInterrupt({
      id: '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c02',
      risk: null,
      labels: [],
    });
    server.use(
      http.get(`${API}/interrupts/:id`, ({ params }) =>
        HttpResponse.json({ ...(params.id === plain.id ? plain : risky), session: null }),
      ),
    );
    const page = (id: string) =>
      renderWithApp(
        <Routes>
          <Route path="/interrupts/:id" element={<InterruptRoute />} />
        </Routes>,
        { path: `/interrupts/${id}` },
      );
    const first = page(risky.id);
    await screen.findByText('Critical risk');
    expect(document.querySelector('[data-risk="critical"]')).toHaveTextContent('Critical risk');
    first.unmount();
    page(plain.id);
    await screen.findByRole('heading', { name: plain.title });
    expect(document.querySelector('[data-risk]')).toBeNull();
  });

  const page = (id: string) =>
    renderWithApp(
      <Routes>
        <Route path="/interrupts/:id" element={<InterruptRoute />} />
      </Routes>,
      { path: `/interrupts/${id}` },
    );

  it('shows the priority and every label; a member who may assign changes the priority', async () => {
    let stored = anInterrupt({
      priority: 'normal',
      labels: ['billing', 'eu', 'team:payments', 'ticket+42'],
    });
    const sent: unknown[] = [];
    server.use(
      http.get(`${API}/auth/session`, () =>
        HttpResponse.json(aSignInSession(['interrupt.read', 'interrupt.assign'])),
      ),
      http.get(`${API}/interrupts/:id`, () => HttpResponse.json({ ...stored, session: null })),
      // The assign panel beside it lists whom to assign to.
      http.get(`${API}/members`, () => HttpResponse.json({ members: [] })),
      http.get(`${API}/teams`, () => HttpResponse.json({ teams: [] })),
      http.post(`${API}/interrupts/:id/priority`, async ({ request }) => {
        const body = (await request.json()) as { priority: 'urgent' };
        sent.push(body);
        stored = { ...stored, priority: body.priority };
        return HttpResponse.json(stored);
      }),
    );
    page(stored.id);
    const panel = await screen.findByRole('region', { name: 'Priority and labels' });
    // Every label, not the first three as in an inbox row.
    expect(
      within(panel).getByRole('list', { name: 'Labels: billing, eu, team:payments, ticket+42' }),
    ).toBeInTheDocument();
    // Normal is quiet in the header.
    expect(document.querySelector('[data-priority]')).toBeNull();
    const priority = within(panel).getByRole('combobox', { name: 'Priority' });
    expect(priority).toHaveValue('Normal');
    await userEvent.click(priority);
    await userEvent.click(await screen.findByRole('option', { name: 'Urgent' }));
    await waitFor(() => expect(sent).toEqual([{ priority: 'urgent' }]));
    // The page reads the interrupt again: the header shows the new priority.
    await waitFor(() =>
      expect(document.querySelector('[data-priority="urgent"]')).toHaveTextContent('Urgent'),
    );
    expect(within(panel).getByRole('combobox', { name: 'Priority' })).toHaveValue('Urgent');
  });

  it('shows the priority without a control to a member who may not assign, and no labels as such', async () => {
    const it = anInterrupt({ priority: 'high', labels: [] });
    server.use(
      http.get(`${API}/interrupts/:id`, () => HttpResponse.json({ ...it, session: null })),
    );
    page(it.id);
    const panel = await screen.findByRole('region', { name: 'Priority and labels' });
    expect(panel).toHaveTextContent('Priority: High');
    expect(within(panel).getByText('No labels')).toBeInTheDocument();
    expect(within(panel).queryByRole('combobox', { name: 'Priority' })).toBeNull();
    expect(document.querySelector('[data-priority="high"]')).not.toBeNull();
  });
  it('offers no "Approve all" when one undecided action does not allow approve, and offers it when every one does', async () => {
    const mixed = anInterrupt({
      actionRequests: [
        anAction({ name: 'refund' }),
        anAction({ name: 'notify', allowedDecisions: ['reject', 'respond'] }),
        anAction({ name: 'close' }),
      ],
    });
    const approvable = anInterrupt({
      id: '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c03',
      actionRequests: [anAction({ name: 'refund' }), anAction({ name: 'close' })],
    });
    server.use(
      http.get(`${API}/interrupts/:id`, ({ params }) =>
        HttpResponse.json({ ...(params.id === mixed.id ? mixed : approvable), session: null }),
      ),
    );
    const first = page(mixed.id);
    // Every card is there, and so is the shortcut line of the bar the button would be in.
    expect(await screen.findAllByRole('region', { name: /^(refund|notify|close)$/ })).toHaveLength(
      3,
    );
    await screen.findByText(/Keyboard, for the focused action/);
    expect(screen.queryByRole('button', { name: /^Approve all/ })).toBeNull();
    first.unmount();
    page(approvable.id);
    expect(
      await screen.findByRole('button', { name: 'Approve all 2 actions' }),
    ).toBeInTheDocument();
  });

  it('a shortcut acts on the focused action card, not the first undecided one', async () => {
    const it = anInterrupt({
      actionRequests: [
        anAction({ name: 'refund' }),
        anAction({ name: 'notify' }),
        anAction({ name: 'close' }),
      ],
    });
    const sent: unknown[] = [];
    server.use(
      http.get(`${API}/interrupts/:id`, () => HttpResponse.json({ ...it, session: null })),
      http.post(`${API}/interrupts/:id/decisions`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(it);
      }),
    );
    page(it.id);
    const notify = await screen.findByRole('region', { name: 'notify' });
    // Focus inside the second card (its heading takes focus, as after a decision).
    within(notify).getByRole('heading', { name: 'notify' }).focus();
    await userEvent.keyboard('a');
    await waitFor(() => expect(sent).toEqual([{ actionName: 'notify', decision: 'approve' }]));
  });

  it('a decision whose refresh lands late leaves the focus in the form the reviewer opened since; its own form’s decision still moves the focus to its heading', async () => {
    const ada = aSignInSession().member;
    const it = anInterrupt({
      actionRequests: [anAction({ name: 'refund' }), anAction({ name: 'notify' })],
    });
    let decisions: InterruptResponse['decisions'] = [];
    const sent: DecideInterruptDto[] = [];
    // The refresh after the first decision waits until the test lets it answer.
    let held: Promise<void> | null = null;
    let release = () => undefined as void;
    let refreshHeld = () => undefined as void;
    const refreshAsked = new Promise<void>((resolve) => (refreshHeld = resolve));
    server.use(
      http.get(`${API}/interrupts/:id`, async () => {
        if (held !== null) {
          const wait = held;
          held = null;
          refreshHeld();
          await wait;
        }
        return HttpResponse.json({ ...it, decisions, session: null });
      }),
      http.post(`${API}/interrupts/:id/decisions`, async ({ request }) => {
        const body = (await request.json()) as DecideInterruptDto;
        sent.push(body);
        if (sent.length === 1) held = new Promise<void>((resolve) => (release = resolve));
        decisions = [...decisions, recorded(body, sent.length, ada)];
        return HttpResponse.json({ ...it, decisions }, { status: 201 });
      }),
    );
    const { queryClient } = page(it.id);
    const refund = await screen.findByRole('region', { name: 'refund' });
    const notify = screen.getByRole('region', { name: 'notify' });

    await userEvent.click(within(refund).getByRole('button', { name: 'Approve refund' }));
    await refreshAsked;
    // While refund's refresh is out, the reviewer opens notify's reason and starts typing.
    await userEvent.click(within(notify).getByRole('button', { name: 'Reject notify' }));
    const reason = within(notify).getByLabelText('Reason for rejecting notify (optional)');
    expect(reason).toHaveFocus();
    await userEvent.keyboard('Not');
    release();
    await within(refund).findByText(/Approved by/);
    await decisionsSettled(queryClient);
    expect(reason).toHaveFocus();
    await userEvent.keyboard(' this one.{Control>}{Enter}{/Control}');
    await within(notify).findByText(/Rejected by/);
    expect(sent).toEqual([
      { actionName: 'refund', decision: 'approve' },
      { actionName: 'notify', decision: 'reject', message: 'Not this one.' },
    ]);
    // Notify's own form had the focus: its heading takes it, so Tab goes on from there.
    await waitFor(() =>
      expect(within(notify).getByRole('heading', { name: 'notify' })).toHaveFocus(),
    );
  });

  it('"Always allow…" moves the focus to its action’s heading like the other decisions, unless the reviewer has moved on', async () => {
    const ada = aSignInSession(['interrupt.read', 'interrupt.decide', 'classification.manage']);
    const it = anInterrupt({
      actionRequests: [anAction({ name: 'refund' }), anAction({ name: 'notify' })],
    });
    let decisions: InterruptResponse['decisions'] = [];
    const sent: DecideInterruptDto[] = [];
    // Each always-allow answers when the test lets it (none held: at once).
    let hold: Promise<void> | null = null;
    server.use(
      http.get(`${API}/auth/session`, () => HttpResponse.json(ada)),
      http.get(`${API}/interrupts/:id`, () =>
        HttpResponse.json({ ...it, decisions, session: null }),
      ),
      http.post(`${API}/classification/always-allow`, async () => {
        if (hold !== null) await hold;
        return HttpResponse.json(
          aRule({ name: 'Always allow refund', origin: 'always_allow', expiresAt: null }),
          { status: 201 },
        );
      }),
      http.post(`${API}/interrupts/:id/decisions`, async ({ request }) => {
        const body = (await request.json()) as DecideInterruptDto;
        sent.push(body);
        decisions = [...decisions, recorded(body, sent.length, ada.member)];
        return HttpResponse.json({ ...it, decisions }, { status: 201 });
      }),
    );
    const { queryClient } = page(it.id);
    const refund = await screen.findByRole('region', { name: 'refund' });
    const notify = screen.getByRole('region', { name: 'notify' });

    await userEvent.click(
      await within(refund).findByRole('button', { name: 'Always allow refund…' }),
    );
    await userEvent.click(within(refund).getByRole('button', { name: 'Approve and always allow' }));
    await within(refund).findByText(/Approved by/);
    // The form that had the focus is gone: the heading takes it, so Tab goes on from there.
    await waitFor(() =>
      expect(within(refund).getByRole('heading', { name: 'refund' })).toHaveFocus(),
    );

    // Notify's: while its rule is on its way the reviewer moves on (anywhere outside notify's
    // card; here refund's heading): the focus stays there once notify's decision is in.
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    await userEvent.click(within(notify).getByRole('button', { name: 'Always allow notify…' }));
    await userEvent.click(within(notify).getByRole('button', { name: 'Approve and always allow' }));
    const elsewhere = within(refund).getByRole('heading', { name: 'refund' });
    elsewhere.focus();
    release();
    await within(notify).findByText(/Approved by/);
    await decisionsSettled(queryClient);
    expect(elsewhere).toHaveFocus();
    expect(sent).toEqual([
      { actionName: 'refund', decision: 'approve' },
      { actionName: 'notify', decision: 'approve' },
    ]);
  });

  it('"Assign to me" and "Unassign" leave with their answer: the Assignee heading takes the focus, not the page’s body', async () => {
    const ada = aSignInSession(['interrupt.read', 'interrupt.decide', 'interrupt.assign']);
    const it = anInterrupt();
    let assignee: InterruptResponse['assignee'] = null;
    const bodies: unknown[] = [];
    server.use(
      http.get(`${API}/auth/session`, () => HttpResponse.json(ada)),
      http.get(`${API}/members`, () => HttpResponse.json({ members: [] })),
      http.get(`${API}/teams`, () => HttpResponse.json({ teams: [] })),
      http.get(`${API}/interrupts/:id`, () =>
        HttpResponse.json({ ...it, assignee, session: null }),
      ),
      http.post(`${API}/interrupts/:id/assign`, async ({ request }) => {
        const body = (await request.json()) as { memberId: string | null };
        bodies.push(body);
        assignee =
          body.memberId === null
            ? null
            : { type: 'member', id: body.memberId, name: ada.member.name };
        return HttpResponse.json({ ...it, assignee });
      }),
    );
    page(it.id);
    const heading = await screen.findByRole('heading', { name: 'Assignee' });
    await userEvent.click(await screen.findByRole('button', { name: 'Assign to me' }));
    await screen.findByRole('button', { name: 'Unassign' });
    expect(screen.queryByRole('button', { name: 'Assign to me' })).toBeNull();
    await waitFor(() => expect(heading).toHaveFocus());

    await userEvent.click(screen.getByRole('button', { name: 'Unassign' }));
    await screen.findByRole('button', { name: 'Assign to me' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(bodies).toEqual([{ memberId: ada.member.id }, { memberId: null }]);
  });
});
