import type { WebhookResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { EditWebhookModal } from './edit-webhook-modal';

const HOOK: WebhookResponse = {
  id: '0b6f2a52-2f8e-4a40-9a52-6c1f7e2b9d11',
  url: 'https://agents.example.com/hooks',
  description: 'The refund agent',
  eventTypes: null,
  enabled: true,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
};

describe('EditWebhookModal', () => {
  // Typing is slow at the shared machine's load: values are pasted, and the bound is generous.
  it('shows the fields with the create dialog’s help texts, and saves them trimmed', async () => {
    const user = userEvent.setup();
    const patches: unknown[] = [];
    server.use(
      http.patch(`${API}/webhooks/:id`, async ({ request, params }) => {
        const body = (await request.json()) as Partial<WebhookResponse>;
        patches.push({ id: params.id, body });
        return HttpResponse.json({ ...HOOK, ...body });
      }),
    );
    const onClose = vi.fn();
    renderWithApp(<EditWebhookModal webhook={HOOK} onClose={onClose} />);

    const url = await screen.findByRole('textbox', { name: 'URL' });
    expect(url).toHaveValue(HOOK.url);
    expect(url).toHaveAccessibleDescription(
      'Where Interlock POSTs each event: https (http only to this machine, outside production).',
    );
    const description = screen.getByRole('textbox', { name: 'Description' });
    expect(description).toHaveAccessibleDescription('What receives the events (optional).');

    await user.clear(url);
    await user.paste('  https://agents.example.com/v2/hooks ');
    await user.clear(description);
    await user.paste(' Refunds ');
    await user.click(screen.getByRole('radio', { name: 'Only these events' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // None chosen: refused before anything is sent.
    expect(await screen.findByText('Choose at least one event, or all')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user.click(screen.getByRole('checkbox', { name: 'Session started (session.started)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches).toEqual([
      {
        id: HOOK.id,
        body: {
          url: 'https://agents.example.com/v2/hooks',
          description: 'Refunds',
          eventTypes: ['session.started'],
        },
      },
    ]);
  });
});
