import type { ApiKeyListResponse, AuditLogPage, MemberListResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
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
});
