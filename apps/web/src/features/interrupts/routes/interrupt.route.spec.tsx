import { screen, within } from '@testing-library/react';
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
});
