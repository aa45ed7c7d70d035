import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { VerifyEmailRoute } from './verify-email.route';

const TOKEN = 'A'.repeat(43);
const INVALID =
  'This verification link is not valid: it was already used, it expired (links work for 24 hours), or it is not one we sent. Sign in to ask for a new one.';

describe('VerifyEmailRoute', () => {
  it("sends the fragment's token once and says the address is verified", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/auth/verify-email`, async ({ request }) => {
        sent.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithApp(<VerifyEmailRoute />, { path: `/verify-email#${TOKEN}` });
    expect(
      await screen.findByRole('heading', { name: 'Your email address is verified' }),
    ).toBeInTheDocument();
    expect(sent).toEqual([{ token: TOKEN }]);
  });

  it("shows the service's refusal and where to ask for a new link", async () => {
    server.use(
      http.post(`${API}/auth/verify-email`, () =>
        HttpResponse.json(
          { statusCode: 400, error: 'Bad Request', code: 'INVALID_TOKEN', message: INVALID },
          { status: 400 },
        ),
      ),
    );
    renderWithApp(<VerifyEmailRoute />, { path: `/verify-email#${TOKEN}` });
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID);
    expect(
      screen.getByRole('link', { name: 'Ask for a new link in Settings → Security' }),
    ).toHaveAttribute('href', '/settings/security');
  });

  it('without a token, asks for the emailed link and sends nothing', async () => {
    let called = false;
    server.use(
      http.post(`${API}/auth/verify-email`, () => {
        called = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithApp(<VerifyEmailRoute />, { path: '/verify-email' });
    expect(
      await screen.findByRole('heading', { name: 'Verify your email address' }),
    ).toBeInTheDocument();
    expect(called).toBe(false);
  });
});
