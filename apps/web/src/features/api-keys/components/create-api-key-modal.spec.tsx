import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { CreateApiKeyModal } from './create-api-key-modal';

const KEY = `ilk_AbCd${'x'.repeat(60)}`;

describe('CreateApiKeyModal', () => {
  it('creates the key, shows it this once, and opens empty again after Done', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/api-keys`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          {
            id: '5f0e7c1e-2222-4c1e-9a4e-0a0a0a0a0a02',
            name: 'ci',
            key: KEY,
            start: 'ilk_AbCd',
            createdAt: '2026-11-28T05:00:00.000Z',
            expiresAt: null,
            lastUsedAt: null,
          },
          { status: 201 },
        );
      }),
    );
    const onClose = vi.fn();
    const { rerender } = renderWithApp(<CreateApiKeyModal opened onClose={onClose} />);
    expect(await screen.findByRole('dialog', { name: 'Create an API key' })).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: /Name/ }), ' ci ');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('dialog', { name: 'Copy your new key' })).toBeInTheDocument();
    expect(screen.getByTestId('new-api-key')).toHaveTextContent(KEY);
    expect(sent).toEqual([{ name: 'ci', expiry: 'never' }]);

    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(<CreateApiKeyModal opened={false} onClose={onClose} />);
    rerender(<CreateApiKeyModal opened onClose={onClose} />);
    expect(await screen.findByRole('dialog', { name: 'Create an API key' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveValue('');
    expect(screen.queryByText(KEY)).toBeNull();
  });

  it("shows the API's refusal in the form, and forgets it on Cancel", async () => {
    const refusal = 'Missing permission: apiKey.create.';
    server.use(
      http.post(`${API}/api-keys`, () =>
        HttpResponse.json(
          { statusCode: 403, error: 'Forbidden', code: 'MISSING_PERMISSION', message: refusal },
          { status: 403 },
        ),
      ),
    );
    const onClose = vi.fn();
    const { rerender } = renderWithApp(<CreateApiKeyModal opened onClose={onClose} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /Name/ }), 'ci');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByRole('dialog', { name: 'Create an API key' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(<CreateApiKeyModal opened={false} onClose={onClose} />);
    rerender(<CreateApiKeyModal opened onClose={onClose} />);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveValue('');
  });
});
