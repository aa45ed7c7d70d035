import type {
  NotificationDeliveryListResponse,
  NotificationDeliveryResponse,
  NotificationPreferencesResponse,
  NotificationSettingsResponse,
  SlackSettingsResponse,
} from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { NotificationsRoute } from './notifications.route';

const PREFERENCES: NotificationPreferencesResponse = {
  preferences: {},
  effective: { 'interrupt.opened': { email: 'immediately', browser: 'off' } },
  emailEnabled: true,
  timeZone: 'UTC',
};
const SETTINGS: NotificationSettingsResponse = {
  defaults: {},
  builtInDefaults: { 'interrupt.opened': { email: 'immediately', browser: 'off' } },
  emailEnabled: true,
  tokenActions: false,
};
const NO_SLACK: SlackSettingsResponse = { connection: null, messages: [] };

function aDelivery(n: number, overrides: Partial<NotificationDeliveryResponse> = {}) {
  const at = new Date(Date.UTC(2026, 10, 26, 12, 0, 0) - n * 60_000).toISOString();
  return {
    id: `9d0c1e2f-0000-4000-8000-${String(n).padStart(12, '0')}`,
    kind: 'interrupt.opened',
    channel: 'email',
    mode: 'immediately',
    status: 'sent',
    recipientEmail: `member-${n}@example.com`,
    subjectId: `9d0c1e2f-1111-4000-8000-${String(n).padStart(12, '0')}`,
    title: `Deploy number ${n}`,
    attempts: 1,
    lastError: null,
    createdAt: at,
    scheduledFor: at,
    sentAt: at,
    ...overrides,
  } satisfies NotificationDeliveryResponse;
}

/** Recent as the service pages it: two pages for each scope, the second after cursor `older`. */
function serveNotifications(permissions: Parameters<typeof aSignInSession>[0]) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/auth/session`, () => HttpResponse.json(aSignInSession(permissions))),
    http.get(`${API}/notifications/preferences`, () => HttpResponse.json(PREFERENCES)),
    http.get(`${API}/notifications/settings`, () => HttpResponse.json(SETTINGS)),
    http.get(`${API}/notifications/slack`, () => HttpResponse.json(NO_SLACK)),
    http.get(`${API}/teams`, () => HttpResponse.json({ teams: [] })),
    http.get(`${API}/notifications/deliveries`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      const base = query.get('scope') === 'organisation' ? 100 : 0;
      const page: NotificationDeliveryListResponse =
        query.get('cursor') === null
          ? { deliveries: [aDelivery(base + 1), aDelivery(base + 2)], nextCursor: 'older' }
          : {
              deliveries: [
                aDelivery(base + 3, {
                  status: 'failed',
                  attempts: 6,
                  lastError: 'Connection refused',
                }),
              ],
              nextCursor: null,
            };
      return HttpResponse.json(page);
    }),
  );
  return asked;
}

function recent() {
  return screen
    .getByRole('heading', { name: 'Recent' })
    .closest('div.mantine-Paper-root') as HTMLElement;
}

describe('NotificationsRoute → Recent', () => {
  it('"Load older" follows the cursor, adds the older page below, and goes when there is none', async () => {
    const asked = serveNotifications(['interrupt.read']);
    renderWithApp(<NotificationsRoute />, { path: '/settings/notifications' });
    expect(await screen.findByRole('link', { name: 'Deploy number 1' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Deploy number 2' })).toBeInTheDocument();
    expect(screen.queryByText('Deploy number 3')).not.toBeInTheDocument();
    expect(asked).toHaveLength(1);
    expect(asked[0].get('scope')).toBe('mine');
    expect(asked[0].get('cursor')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Load older' }));
    expect(await screen.findByRole('link', { name: 'Deploy number 3' })).toBeInTheDocument();
    expect(asked.at(-1)?.get('cursor')).toBe('older');
    expect(asked.at(-1)?.get('scope')).toBe('mine');
    // Newest first: the older page comes after the first one, and its failure shows.
    const links = within(recent())
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual(['Deploy number 1', 'Deploy number 2', 'Deploy number 3']);
    expect(within(recent()).getByText('Connection refused')).toBeInTheDocument();
    expect(within(recent()).getByText('6 attempts')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument(),
    );
    // A reader without member.manage sees only their own: no scope switch, no recipients.
    expect(within(recent()).queryByText('Everyone')).not.toBeInTheDocument();
    expect(within(recent()).queryByText('member-1@example.com')).not.toBeInTheDocument();
  });

  it("with member.manage, Everyone pages the organisation's deliveries with their recipients", async () => {
    const asked = serveNotifications(['interrupt.read', 'member.manage']);
    renderWithApp(<NotificationsRoute />, { path: '/settings/notifications' });
    expect(await screen.findByRole('link', { name: 'Deploy number 1' })).toBeInTheDocument();
    await userEvent.click(within(recent()).getByText('Everyone'));
    expect(await screen.findByRole('link', { name: 'Deploy number 101' })).toBeInTheDocument();
    expect(within(recent()).getByText('member-101@example.com')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load older' }));
    expect(await screen.findByRole('link', { name: 'Deploy number 103' })).toBeInTheDocument();
    expect(asked.at(-1)?.get('scope')).toBe('organisation');
    expect(asked.at(-1)?.get('cursor')).toBe('older');
  });
});
