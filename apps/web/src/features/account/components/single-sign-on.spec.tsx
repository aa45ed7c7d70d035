import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { providerPage, readSsoLink, takeSsoNext } from '@/shared/sign-in/sso-next';
import { SingleSignOn } from './single-sign-on';

const AUTHORIZE = 'https://login.acme.example/authorize?client_id=interlock&state=xyz';
const ACME = {
  organisationId: '5f0e7c1e-2222-4c1e-9a4e-0a0a0a0a0a02',
  organisationName: 'Acme',
  issuer: 'https://login.acme.example/realms/acme',
};

function serve(linkedAt: string | null | 'none') {
  server.use(
    http.get(`${API}/me`, () =>
      HttpResponse.json({
        user: { id: 'u1', name: 'Ada', email: 'ada@acme.example', emailVerified: true },
        organisations: [],
      }),
    ),
    http.get(`${API}/me/single-sign-on`, () =>
      HttpResponse.json({ organisations: linkedAt === 'none' ? [] : [{ ...ACME, linkedAt }] }),
    ),
  );
}

describe('Settings → Security: single sign-on', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it('is not shown when no organisation of the person signs their address in', async () => {
    serve('none');
    const { queryClient } = renderWithApp(<SingleSignOn />);
    await waitFor(() =>
      expect(queryClient.getQueryState(['me', 'single-sign-on'])?.status).toBe('success'),
    );
    expect(screen.queryByRole('heading', { name: 'Single sign-on' })).not.toBeInTheDocument();
  });

  it("links: the person's address starts single sign-on, the browser goes to the provider, and comes back here as a link", async () => {
    serve(null);
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/auth/sso`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ authorizationUrl: AUTHORIZE });
      }),
    );
    const open = vi.spyOn(providerPage, 'open').mockImplementation(() => undefined);
    renderWithApp(<SingleSignOn />);
    const acme = await screen.findByRole('group', { name: 'Acme' });
    expect(within(acme).getByText(ACME.issuer)).toBeInTheDocument();
    await userEvent.click(within(acme).getByRole('button', { name: 'Link single sign-on' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(AUTHORIZE));
    expect(sent).toEqual([{ email: 'ada@acme.example' }]);
    expect(takeSsoNext()).toBe('/settings/security');
    expect(readSsoLink()).toBe('Acme');
  });

  it('shows a link and since when, and the outcome the callback page came back with', async () => {
    serve('2026-11-27T08:00:00.000Z');
    renderWithApp(
      <Routes>
        <Route path="/settings/security" element={<SingleSignOn />} />
      </Routes>,
      { path: '/settings/security', state: { ssoLinked: 'Acme' } },
    );
    const acme = await screen.findByRole('group', { name: 'Acme' });
    expect(within(acme).getByText('Linked')).toBeInTheDocument();
    expect(acme.querySelector('time')).toHaveAttribute('datetime', '2026-11-27T08:00:00.000Z');
    expect(within(acme).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      "Single sign-on is linked: Acme's identity provider now signs you in to Acme.",
    );
  });
});
