import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { ConfirmEmailChangeRoute } from './confirm-email-change.route';
import { UndoEmailChangeRoute } from './undo-email-change.route';

const TOKEN = 'B'.repeat(43);
const INVALID =
  'This email change link is not valid: it was already used, it expired (links work for 24 hours), a later change replaced it, or it is not one we sent. Ask for the change again in Settings → Profile.';

describe('ConfirmEmailChangeRoute', () => {
  it("sends the fragment's token once and says the address is changed", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/auth/email-change/confirm`, async ({ request }) => {
        sent.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithApp(<ConfirmEmailChangeRoute />, { path: `/confirm-email-change#${TOKEN}` });
    expect(
      await screen.findByRole('heading', { name: 'Your email address is changed' }),
    ).toBeInTheDocument();
    expect(sent).toEqual([{ token: TOKEN }]);
  });

  it("shows the service's refusal and where to ask again", async () => {
    server.use(
      http.post(`${API}/auth/email-change/confirm`, () =>
        HttpResponse.json(
          { statusCode: 400, error: 'Bad Request', code: 'INVALID_TOKEN', message: INVALID },
          { status: 400 },
        ),
      ),
    );
    renderWithApp(<ConfirmEmailChangeRoute />, { path: `/confirm-email-change#${TOKEN}` });
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID);
    expect(screen.getByRole('link', { name: 'Ask again in Settings → Profile' })).toHaveAttribute(
      'href',
      '/settings/profile',
    );
  });
});

describe('UndoEmailChangeRoute', () => {
  it('sends the token with a new password, checked twice, and sends the person to sign in', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/auth/email-change/undo`, async ({ request }) => {
        sent.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithApp(<UndoEmailChangeRoute />, { path: `/undo-email-change#${TOKEN}` });
    await screen.findByRole('heading', { name: "This wasn't me: undo the change" });
    const [password, repeat] = screen.getAllByLabelText(/New password/);
    await userEvent.type(password, 'a brand new password');
    await userEvent.type(repeat, 'a brand new passwor');
    await userEvent.click(screen.getByRole('button', { name: 'Restore my address' }));
    expect(sent).toEqual([]);
    await userEvent.type(repeat, 'd');
    await userEvent.click(screen.getByRole('button', { name: 'Restore my address' }));
    expect(
      await screen.findByRole('heading', { name: 'Your email address is back' }),
    ).toBeInTheDocument();
    expect(sent).toEqual([{ token: TOKEN, password: 'a brand new password' }]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
  });

  it('without a token, sends nothing', async () => {
    renderWithApp(<UndoEmailChangeRoute />, { path: '/undo-email-change' });
    expect(
      await screen.findByRole('heading', { name: 'Undo an email address change' }),
    ).toBeInTheDocument();
  });
});
