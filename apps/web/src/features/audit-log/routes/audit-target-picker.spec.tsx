import type {
  AuditLogPage,
  InterruptListResponse,
  SessionListResponse,
  SessionResponse,
} from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { anInterrupt, aSignInSession } from '@/test/fixtures';
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

/**
 * The audit log; `/api/sessions` answers by `q` as `found` says, `/api/sessions/:id` the sessions
 * `found` knows (each read by id is counted in `byId`).
 */
function serve(
  permissions: Parameters<typeof aSignInSession>[0],
  found: (q: string) => SessionResponse[],
) {
  const audit: URLSearchParams[] = [];
  const searches: URLSearchParams[] = [];
  const byId: string[] = [];
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
    http.get(`${API}/sessions/:id`, ({ params }) => {
      byId.push(String(params.id));
      const known = [TONIGHT, LAST_NIGHT].find((s) => s.id === params.id);
      return known === undefined
        ? HttpResponse.json({ statusCode: 404 }, { status: 404 })
        : HttpResponse.json(known);
    }),
  );
  return { audit, searches, byId };
}

/** Typing waits out the picker's 300 ms pause, and the machine may be loaded: wait generously. */
const WAIT = { timeout: 20_000 };

describe('the audit target picker, sessions', () => {
  it("finds sessions by name through the API's search and filters by the one picked", async () => {
    const { audit, searches, byId } = serve(['auditLog.read', 'session.read'], (q) =>
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
    // Picked from what was found: nothing to read by id.
    expect(byId).toEqual([]);
  });

  // A link filtered to one target names it by id: the picker reads it and shows its name.
  it('names the session a link filtered to by its name and start, not its id', async () => {
    const { audit, searches, byId } = serve(['auditLog.read', 'session.read'], () => []);
    renderWithApp(<AuditLogRoute />, {
      path: `/audit-log?targetType=session&targetId=${TONIGHT.id}`,
    });
    const target = await screen.findByRole('combobox', { name: 'Target' }, WAIT);
    const label = `nightly-build (started ${dateTime(TONIGHT.startedAt)})`;
    await waitFor(() => expect(target).toHaveValue(label), WAIT);
    expect(byId).toEqual([TONIGHT.id]);
    expect(audit.at(-1)?.get('targetId')).toBe(TONIGHT.id);
    // Its label in the field is not searched for. (Until it is read, the field holds the id, which
    // may be searched for on a slow machine: a session's id finds it too.)
    expect(searches.map((s) => s.get('q'))).not.toContain(label);
  });

  it('offers the id field to a reader who may not read sessions, and asks the API for none', async () => {
    const { audit, searches } = serve(['auditLog.read'], () => [TONIGHT]);
    renderWithApp(<AuditLogRoute />, { path: '/audit-log?targetType=session' });
    const id = await screen.findByLabelText('Target id', undefined, WAIT);
    await userEvent.click(id);
    await userEvent.paste(TONIGHT.id);
    await waitFor(() => expect(audit.at(-1)?.get('targetId')).toBe(TONIGHT.id), WAIT);
    expect(searches).toEqual([]);
  });
});

describe('the audit target picker, interrupts', () => {
  it('names the interrupt a link filtered to (from its page) by its title, not its id', async () => {
    const wanted = anInterrupt({ title: 'Refund order 1234' });
    const audit: URLSearchParams[] = [];
    server.use(
      http.get(`${API}/auth/session`, () =>
        HttpResponse.json(aSignInSession(['auditLog.read', 'interrupt.read'])),
      ),
      http.get(`${API}/audit-log`, ({ request }) => {
        audit.push(new URL(request.url).searchParams);
        const page: AuditLogPage = { entries: [], nextCursor: null };
        return HttpResponse.json(page);
      }),
      // The title search finds by words of the title (an id finds nothing); one by id.
      http.get(`${API}/interrupts`, ({ request }) => {
        const q = new URL(request.url).searchParams.get('q')?.toLowerCase() ?? '';
        const page: InterruptListResponse = {
          interrupts: wanted.title.toLowerCase().startsWith(q) ? [wanted] : [],
          nextCursor: null,
        };
        return HttpResponse.json(page);
      }),
      http.get(`${API}/interrupts/:id`, ({ params }) =>
        params.id === wanted.id
          ? HttpResponse.json(wanted)
          : HttpResponse.json({ statusCode: 404 }, { status: 404 }),
      ),
    );
    renderWithApp(<AuditLogRoute />, {
      path: `/audit-log?targetType=interrupt&targetId=${wanted.id}`,
    });
    const target = await screen.findByRole('combobox', { name: 'Target' }, WAIT);
    await waitFor(() => expect(target).toHaveValue('Refund order 1234'), WAIT);
    expect(audit.at(-1)?.get('targetId')).toBe(wanted.id);
  });
});
