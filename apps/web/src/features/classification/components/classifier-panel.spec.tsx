import type { ClassifierResponse } from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { ClassifierPanel } from './classifier-panel';

const SAVED: ClassifierResponse = {
  url: 'https://risk.example.com/classify',
  timeoutMs: 2000,
  enabled: true,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-27T02:00:00.000Z',
  updatedAt: '2026-11-27T02:00:00.000Z',
};
const SECRET = 'whsec_MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE=';

/** The service's classifier, which a test starts with; what was sent, in order. */
function service(initial: ClassifierResponse | null) {
  let classifier = initial;
  const sent: { what: string; body: unknown }[] = [];
  server.use(
    http.get(`${API}/classification/classifier`, () => HttpResponse.json({ classifier })),
    http.put(`${API}/classification/classifier`, async ({ request }) => {
      const body = (await request.json()) as Partial<ClassifierResponse>;
      sent.push({ what: 'put', body });
      const created = classifier === null;
      classifier = { ...SAVED, ...body };
      return HttpResponse.json({ classifier, ...(created ? { secret: SECRET } : {}) });
    }),
    http.post(`${API}/classification/classifier/test`, async ({ request }) => {
      sent.push({ what: 'test', body: await request.json() });
      return HttpResponse.json({
        ok: false,
        classifierMs: 300,
        risk: null,
        labels: [],
        reasons: [],
        error: 'No answer within 0.3 s.',
      });
    }),
    http.delete(`${API}/classification/classifier`, () => {
      sent.push({ what: 'delete', body: null });
      classifier = null;
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return sent;
}

describe('ClassifierPanel', () => {
  it('sets one up: the URL and time limit are sent, and the secret is shown once', async () => {
    const sent = service(null);
    const user = userEvent.setup();
    renderWithApp(<ClassifierPanel canManage />);
    const panel = await screen.findByRole('region', { name: 'External classifier' });
    await user.type(
      await within(panel).findByLabelText(/Endpoint URL/),
      '  https://risk.example.com/classify ',
    );
    const limit = within(panel).getByLabelText(/Time limit/);
    await user.clear(limit);
    await user.type(limit, '1500');
    await user.click(within(panel).getByRole('button', { name: 'Set up classifier' }));
    expect(
      await within(panel).findByLabelText('Signing secret of the classifier'),
    ).toHaveTextContent(SECRET);
    expect(sent).toEqual([
      {
        what: 'put',
        body: { url: 'https://risk.example.com/classify', timeoutMs: 1500, enabled: true },
      },
    ]);
    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(await within(panel).findByText('https://risk.example.com/classify')).toBeVisible();
    expect(within(panel).queryByText(SECRET)).toBeNull();
  });

  it('shows what a test brought back, and removes it after the confirmation', async () => {
    const sent = service(SAVED);
    const user = userEvent.setup();
    renderWithApp(<ClassifierPanel canManage />);
    const panel = await screen.findByRole('region', { name: 'External classifier' });
    await user.click(await within(panel).findByRole('button', { name: 'Send a test' }));
    expect(await within(panel).findByRole('status')).toHaveTextContent(
      'No answer within 0.3 s. A new interrupt would go to a person (after 300 ms).',
    );
    await user.click(within(panel).getByRole('button', { name: 'Remove' }));
    await user.click(await screen.findByRole('button', { name: 'Remove classifier' }));
    await waitFor(() => expect(within(panel).getByLabelText(/Endpoint URL/)).toBeVisible());
    expect(sent.map((s) => s.what)).toEqual(['test', 'delete']);
  });

  it('without classification.manage shows the setup and no buttons', async () => {
    service(SAVED);
    renderWithApp(<ClassifierPanel canManage={false} />);
    const panel = await screen.findByRole('region', { name: 'External classifier' });
    expect(await within(panel).findByText('https://risk.example.com/classify')).toBeVisible();
    expect(within(panel).queryByRole('button')).toBeNull();
  });
});
