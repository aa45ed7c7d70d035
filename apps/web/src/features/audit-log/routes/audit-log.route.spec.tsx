import type { ApiKeyListResponse, AuditLogPage, MemberListResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router';
import { aSignInSession } from '@/test/fixtures';
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

/** The address the router shows (it shows a change as a React transition, after the page asks). */
function ShownAddress() {
  return <output aria-label="Shown address">{useLocation().search}</output>;
}

/**
 * Runs `steps` as a person on a busy phone would: native clicks, outside act() (act would render
 * the router's transition at once), so the router has not shown the address asked for yet.
 */
async function beforeTheRouterCatchesUp(steps: (settle: () => Promise<void>) => Promise<void>) {
  const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const actEnvironment = scope.IS_REACT_ACT_ENVIRONMENT;
  scope.IS_REACT_ACT_ENVIRONMENT = false;
  // Urgent renders (a click's) run in microtasks; the router's transition waits for a later task.
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  try {
    await steps(settle);
  } finally {
    scope.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
  }
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

  // At 768 px, "Clear every filter" then a Target brought the cleared Actor back: the pick was
  // built on the address the router still showed. Redrawing the fields once the router caught up
  // closed the dropdown opened meanwhile (CI waited minutes for its option).
  it('clears every filter at the click: the next pick keeps them cleared, and the router catching up closes no dropdown', async () => {
    const queries = serveAuditLog(['auditLog.read', 'member.manage', 'apiKey.read']);
    renderWithApp(
      <>
        <AuditLogRoute />
        <ShownAddress />
      </>,
      { path: `/audit-log?q=refund&actorId=${GRACE}` },
    );
    const actor = await screen.findByRole('combobox', { name: 'Actor' });
    await waitFor(() => expect(actor).toHaveValue('Grace Hopper (grace@example.com)'));
    const shown = screen.getByRole('status', { name: 'Shown address' });
    await beforeTheRouterCatchesUp(async (settle) => {
      screen.getByRole('button', { name: 'Clear every filter' }).click();
      await settle();
      expect(shown).toHaveTextContent(`actorId=${GRACE}`); // the router has not caught up
      // The fields already show the cleared address.
      expect(screen.getByRole('combobox', { name: 'Actor' })).toHaveValue('');
      expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
      screen.getByRole('combobox', { name: 'Target type' }).click();
      await settle();
      screen.getByRole('option', { name: 'api_key' }).click();
      await settle();
      // The next dropdown, opened before the router shows either change.
      screen.getByRole('combobox', { name: 'Actor type' }).click();
      await settle();
      expect(shown).toHaveTextContent(`actorId=${GRACE}`);
    });
    await waitFor(() => expect(shown).toHaveTextContent(/^\?targetType=api_key$/));
    // Still open once the router has caught up.
    await userEvent.click(screen.getByRole('option', { name: 'member' }));
    await waitFor(() => expect(queries.at(-1)?.get('actorType')).toBe('member'));
    const last = queries.at(-1);
    expect(last?.get('targetType')).toBe('api_key');
    expect(last?.get('actorId')).toBeNull();
    expect(last?.get('q')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Actor' })).toHaveValue('');
  });
});
