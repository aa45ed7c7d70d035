import type { ApiKeyListResponse, AuditLogPage, MemberListResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { anInterrupt, aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { AuditLogRoute } from './audit-log.route';

const GRACE = '7d1c2a8e-0000-4000-8000-00000000a002';
const MEMBERS: MemberListResponse = {
  members: [
    {
      id: '7d1c2a8e-0000-4000-8000-00000000a001',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      roleId: 'owner',
      roleName: 'Owner',
      createdAt: '2026-11-01T00:00:00.000Z',
    },
    {
      id: GRACE,
      name: 'Grace Hopper',
      email: 'grace@example.com',
      roleId: 'developer',
      roleName: 'Developer',
      createdAt: '2026-11-02T00:00:00.000Z',
    },
  ],
};
const KEYS: ApiKeyListResponse = {
  apiKeys: [
    {
      id: '7d1c2a8e-0000-4000-8000-00000000b001',
      name: 'billing-agent',
      start: 'il_live_ab',
      createdAt: '2026-11-03T00:00:00.000Z',
      expiresAt: null,
      lastUsedAt: null,
    },
  ],
};

function serveAuditLog(permissions: Parameters<typeof aSignInSession>[0]) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/auth/session`, () => HttpResponse.json(aSignInSession(permissions))),
    http.get(`${API}/audit-log`, ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      const page: AuditLogPage = { entries: [], nextCursor: null };
      return HttpResponse.json(page);
    }),
    http.get(`${API}/members`, () => HttpResponse.json(MEMBERS)),
    http.get(`${API}/api-keys`, () => HttpResponse.json(KEYS)),
  );
  return queries;
}

describe('AuditLogRoute', () => {
  it('picks the actor by name, and filters by their id', async () => {
    const queries = serveAuditLog(['auditLog.read', 'member.manage', 'apiKey.read']);
    renderWithApp(<AuditLogRoute />, { path: '/audit-log' });
    const actor = await screen.findByRole('combobox', { name: 'Actor' });
    await userEvent.click(actor);
    await userEvent.type(actor, 'grace');
    await userEvent.click(
      await screen.findByRole('option', { name: 'Grace Hopper (grace@example.com)' }),
    );
    await waitFor(() => expect(queries.at(-1)?.get('actorId')).toBe(GRACE));
    // Keys are offered too, by name.
    await userEvent.clear(actor);
    await userEvent.type(actor, 'billing');
    expect(
      await screen.findByRole('option', { name: 'billing-agent (il_live_ab…)' }),
    ).toBeInTheDocument();
  });

  it('offers the id field to a reader who may not list members or keys', async () => {
    const queries = serveAuditLog(['auditLog.read']);
    renderWithApp(<AuditLogRoute />, { path: '/audit-log' });
    const id = await screen.findByLabelText('Actor id', undefined);
    await userEvent.type(id, GRACE);
    await waitFor(() => expect(queries.at(-1)?.get('actorId')).toBe(GRACE));
  });

  it('names the interrupt a link filtered to by its title, not its id', async () => {
    const queries = serveAuditLog(['auditLog.read', 'interrupt.read']);
    const wanted = anInterrupt({ title: 'Refund order 1234' });
    server.use(
      http.get(`${API}/interrupts/:id`, ({ params }) =>
        params.id === wanted.id
          ? HttpResponse.json(wanted)
          : HttpResponse.json({ statusCode: 404 }, { status: 404 }),
      ),
    );
    renderWithApp(<AuditLogRoute />, {
      path: `/audit-log?targetType=interrupt&targetId=${wanted.id}`,
    });
    const target = await screen.findByRole('combobox', { name: 'Target' });
    await waitFor(() => expect(target).toHaveValue('Refund order 1234'));
    expect(queries.at(-1)?.get('targetId')).toBe(wanted.id);
  });

  // The router applies an address change as a React transition: until it renders, the page still
  // holds the old address. Here the target type is picked inside that window (native clicks, no act(): act would
  // render the transition at once), as a person on a busy phone did after "Clear every filter" —
  // the picked filter must not bring the cleared actor back.
  it('clears every filter for good, even when the next filter is picked before the page has redrawn', async () => {
    const queries = serveAuditLog(['auditLog.read', 'member.manage', 'apiKey.read']);
    renderWithApp(<AuditLogRoute />, { path: `/audit-log?q=refund&actorId=${GRACE}` });
    const actor = await screen.findByRole('combobox', { name: 'Actor' });
    await waitFor(() => expect(actor).toHaveValue('Grace Hopper (grace@example.com)'));
    const clear = screen.getByRole('button', { name: 'Clear every filter' });
    const microtasks = async () => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
    };
    const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean })
      .IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    try {
      clear.click();
      await microtasks();
      // Not redrawn yet: the page still shows the old address.
      expect(screen.getByRole('combobox', { name: 'Actor' })).toHaveValue(
        'Grace Hopper (grace@example.com)',
      );
      screen.getByRole('combobox', { name: 'Target type' }).click();
      await microtasks();
      screen.getByRole('option', { name: 'api_key' }).click();
      await microtasks();
    } finally {
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT =
        actEnvironment;
    }
    await waitFor(() => expect(queries.at(-1)?.get('targetType')).toBe('api_key'));
    expect(queries.at(-1)?.get('actorId')).toBeNull();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Actor' })).toHaveValue(''));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  });
});
