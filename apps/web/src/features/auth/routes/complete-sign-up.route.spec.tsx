import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { CompleteSignUpRoute } from './complete-sign-up.route';
import { SignUpRoute } from './sign-up.route';

const TOKEN = 'sealed-sign-up-'.repeat(10);
const USED = 'This sign-up link was already used, or the address has an account now: sign in.';

describe('SignUpRoute where sign-ups are confirmed by email', () => {
  it('says to check the email (the same for every address) instead of signing in', async () => {
    const sent: unknown[] = [];
    server.use(
      http.get(`${API}/me`, () =>
        HttpResponse.json(
          { statusCode: 401, error: 'Unauthorized', code: 'SIGN_IN_REQUIRED', message: 'x' },
          { status: 401 },
        ),
      ),
      http.post(`${API}/auth/sign-up`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ email: 'ada@example.com' }, { status: 202 });
      }),
    );
    renderWithApp(<SignUpRoute />, { path: '/sign-up' });
    const user = userEvent.setup();
    const fill = async (field: HTMLElement, value: string) => {
      await user.click(field);
      await user.paste(value);
    };
    await fill(await screen.findByLabelText(/Your name/), 'Ada');
    await fill(screen.getByLabelText(/Work email/), 'Ada@Example.com');
    await fill(screen.getByLabelText(/^Password/), 'correct horse');
    await fill(screen.getByLabelText(/Organisation name/), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Create organisation' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        name: 'Ada',
        email: 'Ada@Example.com',
        password: 'correct horse',
        organisationName: 'Acme',
      },
    ]);
  });
});

describe('CompleteSignUpRoute', () => {
  it("sends the fragment's token once", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/auth/sign-up/complete`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            code: 'INVALID_TOKEN',
            message: USED,
          },
          { status: 400 },
        );
      }),
    );
    renderWithApp(<CompleteSignUpRoute />, { path: `/complete-sign-up#${TOKEN}` });
    expect(await screen.findByRole('alert')).toHaveTextContent(USED);
    expect(
      screen.getByRole('heading', { name: 'Your account was not created' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'sign up again' })).toHaveAttribute('href', '/sign-up');
    await waitFor(() => expect(sent).toEqual([{ token: TOKEN }]));
  });

  it('without a token, asks for the emailed link and sends nothing', async () => {
    let called = false;
    server.use(
      http.post(`${API}/auth/sign-up/complete`, () => {
        called = true;
        return new HttpResponse(null, { status: 500 });
      }),
    );
    renderWithApp(<CompleteSignUpRoute />, { path: '/complete-sign-up' });
    expect(await screen.findByRole('heading', { name: 'Finish signing up' })).toBeInTheDocument();
    expect(called).toBe(false);
  });
});
