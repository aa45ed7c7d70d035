import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import {
  readSsoLink,
  rememberSsoLink,
  rememberSsoNext,
  takeSsoNext,
} from '@/shared/sign-in/sso-next';
import { SsoCallbackRoute } from './sso-callback.route';

const QUERY = '?code=abc&state=xyz&iss=https%3A%2F%2Flogin.acme.example';
const ORGANISATION = { id: '5f0e7c1e-2222-4c1e-9a4e-0a0a0a0a0a02', name: 'Acme', plan: 'free' };

/** Settings → Security as the callback reaches it: the outcome it was sent back with. */
function SecurityStandIn() {
  const { state } = useLocation();
  return <h1>Security page: {String((state as { ssoLinked?: string } | null)?.ssoLinked)}</h1>;
}

function page() {
  return (
    <Routes>
      <Route path="/sso/callback" element={<SsoCallbackRoute />} />
      <Route path="/inbox" element={<h1>Inbox page</h1>} />
      <Route path="/settings/security" element={<SecurityStandIn />} />
      <Route path="/" element={<h1>Start page</h1>} />
    </Routes>
  );
}

describe('SsoCallbackRoute', () => {
  afterEach(() => sessionStorage.clear());

  it('posts the query string as received, once, and goes on to the page the sign-in was for', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/auth/sso/callback`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({
          user: { id: 'u1', name: 'Ada', email: 'ada@acme.example', emailVerified: true },
          organisation: ORGANISATION,
          organisations: [ORGANISATION],
          role: { id: 'r1', name: 'Developer' },
        });
      }),
      http.get(`${API}/me`, () => HttpResponse.json({ user: {}, organisations: [ORGANISATION] })),
    );
    rememberSsoNext('/inbox');
    renderWithApp(page(), { path: `/sso/callback${QUERY}` });
    expect(await screen.findByRole('heading', { name: 'Inbox page' })).toBeInTheDocument();
    expect(sent).toEqual([{ callbackQuery: QUERY }]);
    // The kept path is used once.
    expect(takeSsoNext()).toBe('/');
  });

  it("shows the API's refusal word for word, with the ways on", async () => {
    const refusal =
      'This single sign-on was not started in this browser, or took longer than 10 minutes: start again.';
    let calls = 0;
    server.use(
      http.post(`${API}/auth/sso/callback`, () => {
        calls += 1;
        return HttpResponse.json(
          { statusCode: 401, error: 'Unauthorized', code: 'SSO_SIGN_IN_FAILED', message: refusal },
          { status: 401 },
        );
      }),
    );
    renderWithApp(page(), { path: `/sso/callback${QUERY}` });
    expect(
      await screen.findByRole('heading', { name: 'Single sign-on did not sign you in' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByRole('link', { name: 'Start single sign-on again' })).toHaveAttribute(
      'href',
      '/sign-in/sso',
    );
    expect(screen.getByRole('link', { name: 'Sign in with a password' })).toHaveAttribute(
      'href',
      '/sign-in',
    );
    await waitFor(() => expect(calls).toBe(1));
  });

  it('a single sign-on started from Settings → Security to link goes back there, saying so; refused, it says it was not linked, with the way back', async () => {
    let answer: 'ok' | 'refused' = 'ok';
    const refusal =
      'An account with ada@acme.example exists already: to link it to single sign-on, sign in with its password in this browser first, then sign in with single sign-on again.';
    server.use(
      http.post(`${API}/auth/sso/callback`, () =>
        answer === 'ok'
          ? HttpResponse.json({
              user: { id: 'u1', name: 'Ada', email: 'ada@acme.example', emailVerified: true },
              organisation: ORGANISATION,
              organisations: [ORGANISATION],
              role: { id: 'r1', name: 'Developer' },
            })
          : HttpResponse.json(
              {
                statusCode: 401,
                error: 'Unauthorized',
                code: 'SSO_SIGN_IN_FAILED',
                message: refusal,
              },
              { status: 401 },
            ),
      ),
      http.get(`${API}/me`, () => HttpResponse.json({ user: {}, organisations: [ORGANISATION] })),
    );
    rememberSsoNext('/settings/security');
    rememberSsoLink('Acme');
    const linked = renderWithApp(page(), { path: `/sso/callback${QUERY}` });
    expect(await screen.findByRole('heading', { name: 'Security page: Acme' })).toBeInTheDocument();
    expect(readSsoLink()).toBeNull();
    linked.unmount();

    answer = 'refused';
    rememberSsoNext('/settings/security');
    rememberSsoLink('Acme');
    renderWithApp(page(), { path: `/sso/callback${QUERY}` });
    expect(
      await screen.findByRole('heading', { name: 'Single sign-on was not linked to your account' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByRole('link', { name: 'Back to Settings → Security' })).toHaveAttribute(
      'href',
      '/settings/security',
    );
  });
});
