import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { ProfileRoute } from './profile.route';

const account = (name: string, email = 'ada@example.com') => ({
  user: { id: '5f0e7c1e-1111-4c1e-9a4e-0a0a0a0a0a01', email, name, emailVerified: true },
  organisations: [],
});

describe('ProfileRoute', () => {
  it('saves a new name and shows it', async () => {
    let name = 'Ada Lovelace';
    const sent: unknown[] = [];
    server.use(
      http.get(`${API}/me`, () => HttpResponse.json(account(name))),
      http.patch(`${API}/me`, async ({ request }) => {
        const body = (await request.json()) as { name: string };
        sent.push(body);
        name = body.name;
        return HttpResponse.json(account(name));
      }),
    );
    renderWithApp(<ProfileRoute />, { path: '/settings/profile' });
    const input = await screen.findByRole('textbox', { name: 'Your name' });
    expect(input).toHaveValue('Ada Lovelace');
    await userEvent.clear(input);
    await userEvent.type(input, 'Ada King');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Your name is saved.')).toBeInTheDocument();
    expect(sent).toEqual([{ name: 'Ada King' }]);
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveValue('Ada King'),
    );
  });

  it('asks for a link to the new address with the password, and says where it went', async () => {
    const sent: unknown[] = [];
    server.use(
      http.get(`${API}/me`, () => HttpResponse.json(account('Ada Lovelace'))),
      http.post(`${API}/me/email`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ email: 'ada@new.example' }, { status: 202 });
      }),
    );
    renderWithApp(<ProfileRoute />, { path: '/settings/profile' });
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    await userEvent.type(
      screen.getByRole('textbox', { name: 'New email address' }),
      'Ada@New.example',
    );
    await userEvent.type(screen.getByLabelText(/Current password/), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Check ada@new.example: we emailed it a link that changes your address (it works once, for 24 hours). Until you open it, you keep ada@example.com.',
    );
    expect(sent).toEqual([{ email: 'Ada@New.example', password: 'correct horse' }]);
  });

  it("shows the service's refusal of a wrong password, and links to Settings → Security", async () => {
    server.use(
      http.get(`${API}/me`, () => HttpResponse.json(account('Ada Lovelace'))),
      http.post(`${API}/me/email`, () =>
        HttpResponse.json(
          {
            statusCode: 403,
            error: 'Forbidden',
            code: 'WRONG_PASSWORD',
            message: 'The current password is not correct.',
          },
          { status: 403 },
        ),
      ),
    );
    renderWithApp(<ProfileRoute />, { path: '/settings/profile' });
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'New email address' }),
      'ada@new.example',
    );
    await userEvent.type(screen.getByLabelText(/Current password/), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByText('The current password is not correct.')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('link', { name: 'Change your password' })).toHaveAttribute(
      'href',
      '/settings/security#password-heading',
    );
  });
});
