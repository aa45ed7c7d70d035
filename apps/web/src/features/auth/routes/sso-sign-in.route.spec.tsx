import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { providerPage, takeSsoNext } from '@/shared/sign-in/sso-next';
import { SsoSignInRoute } from './sso-sign-in.route';

const AUTHORIZE = 'https://login.acme.example/authorize?client_id=interlock&state=xyz';

describe('SsoSignInRoute', () => {
  beforeEach(() => {
    // Nobody is signed in on the sign-in pages.
    server.use(http.get(`${API}/me`, () => HttpResponse.json({}, { status: 401 })));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it("sends the address, then the browser to the provider's page, keeping where to go after", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/auth/sso`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ authorizationUrl: AUTHORIZE });
      }),
    );
    const open = vi.spyOn(providerPage, 'open').mockImplementation(() => undefined);
    renderWithApp(<SsoSignInRoute />, { path: '/sign-in/sso?next=%2Finbox' });
    await userEvent.type(await screen.findByLabelText(/^Work email/), ' ada@acme.example ');
    await userEvent.click(
      screen.getByRole('button', { name: 'Continue to your identity provider' }),
    );
    await waitFor(() => expect(open).toHaveBeenCalledWith(AUTHORIZE));
    expect(sent).toEqual([{ email: 'ada@acme.example' }]);
    expect(takeSsoNext()).toBe('/inbox');
  });

  it("shows the API's answer for an address no organisation signs in, and stays", async () => {
    const refusal =
      'No organisation signs in addresses at example.org with single sign-on: sign in with your password.';
    server.use(
      http.post(`${API}/auth/sso`, () =>
        HttpResponse.json(
          { statusCode: 404, error: 'Not Found', code: 'SSO_NOT_CONFIGURED', message: refusal },
          { status: 404 },
        ),
      ),
    );
    const open = vi.spyOn(providerPage, 'open').mockImplementation(() => undefined);
    renderWithApp(<SsoSignInRoute />, { path: '/sign-in/sso' });
    await userEvent.type(await screen.findByLabelText(/^Work email/), 'bob@example.org');
    await userEvent.click(
      screen.getByRole('button', { name: 'Continue to your identity provider' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Sign in with a password instead' })).toHaveAttribute(
      'href',
      '/sign-in',
    );
  });
});
