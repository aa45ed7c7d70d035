import type { AuditLogPage, SessionListResponse, SessionResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { dateTime } from '@/shared/utils/format';
import { AuditLogRoute } from './audit-log.route';

const session = (id: string, name: string, startedAt: string): SessionResponse => ({
  id,
  name,
  externalId: null,
  status: 'ended',
  metadata: null,
  messageCount: 3,
  startedAt,
  endedAt: startedAt,
});
const TONIGHT = session(
  '5e55e55e-0000-4000-8000-000000000001',
  'nightly-build',
  '2026-11-27T22:00:00.000Z',
);
const LAST_NIGHT = session(
  '5e55e55e-0000-4000-8000-000000000002',
  'nightly-build',
  '2026-11-26T22:00:00.000Z',
);

/** The audit log with its target type set to session; `/api/sessions` answers by `q` as `found` says. */
function serve(
  permissions: Parameters<typeof aSignInSession>[0],
  found: (q: string) => SessionResponse[],
) {
  const audit: URLSearchParams[] = [];
  const searches: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/auth/session`, () => HttpResponse.json(aSignInSession(permissions))),
    http.get(`${API}/audit-log`, ({ request }) => {
      audit.push(new URL(request.url).searchParams);
      const page: AuditLogPage = { entries: [], nextCursor: null };
      return HttpResponse.json(page);
    }),
    http.get(`${API}/sessions`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      searches.push(params);
      const page: SessionListResponse = {
        sessions: found(params.get('q') ?? ''),
        nextCursor: null,
      };
      return HttpResponse.json(page);
    }),
  );
  return { audit, searches };
}

/** Typing waits out the picker's 300 ms pause, and the machine may be loaded: wait generously. */
const WAIT = { timeout: 20_000 };

describe('the audit target picker, sessions', () => {
  it("finds sessions by name through the API's search and filters by the one picked", async () => {
    const { audit, searches } = serve(['auditLog.read', 'session.read'], (q) =>
      q === 'nigh' ? [TONIGHT, LAST_NIGHT] : [],
    );
    renderWithApp(<AuditLogRoute />, { path: '/audit-log?targetType=session' });
    const target = await screen.findByRole('combobox', { name: 'Target' }, WAIT);
    expect(screen.getByText('Search by name or id; any when empty')).toBeInTheDocument();

    await userEvent.click(target);
    await userEvent.type(target, 'zz');
    expect(
      await screen.findByText('No session with that name or id', undefined, WAIT),
    ).toBeInTheDocument();
    await userEvent.clear(target);
    await userEvent.type(target, 'nigh');
    // Both runs share the name: their start tells them apart.
    const last = await screen.findByRole(
      'option',
      { name: `nightly-build (started ${dateTime(LAST_NIGHT.startedAt)})` },
      WAIT,
    );
    expect(
      screen.getByRole('option', {
        name: `nightly-build (started ${dateTime(TONIGHT.startedAt)})`,
      }),
    ).toBeInTheDocument();
    expect(searches.at(-1)?.get('limit')).toBe('20');
    await userEvent.click(last);
    await waitFor(() => expect(audit.at(-1)?.get('targetId')).toBe(LAST_NIGHT.id), WAIT);
    expect(audit.at(-1)?.get('targetType')).toBe('session');
    // The field shows the pick, which is not searched for (its label holds more than 8 words).
    const label = `nightly-build (started ${dateTime(LAST_NIGHT.startedAt)})`;
    await waitFor(() => expect(target).toHaveValue(label), WAIT);
    const asked = searches.map((s) => s.get('q'));
    expect(asked).toContain('nigh');
    expect(asked).not.toContain(label);
    expect(asked).not.toContain('');
  }, 120_000);

  it('offers the id field to a reader who may not read sessions, and asks the API for none', async () => {
    const { audit, searches } = serve(['auditLog.read'], () => [TONIGHT]);
    renderWithApp(<AuditLogRoute />, { path: '/audit-log?targetType=session' });
    const id = await screen.findByLabelText('Target id', undefined, WAIT);
    await userEvent.click(id);
    await userEvent.paste(TONIGHT.id);
    await waitFor(() => expect(audit.at(-1)?.get('targetId')).toBe(TONIGHT.id), WAIT);
    expect(searches).toEqual([]);
  }, 60_000);
});
