import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Interlock, Webhooks, type WebhookEvent } from '@interlock/sdk';
import { addMember, expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, baseURL, unique } from './support/service';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real endpoint on loopback: records every delivery the service sends it and answers 204. */
async function receiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/interlock/${unique('hooks')}`, received, server };
}

test.describe('Integrations → Webhooks', () => {
  test('add a webhook (secret shown once), send a test, see it delivered and retry it, rotate, disable, delete', async ({
    page,
    context,
    owner,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const endpoint = await receiver();
    try {
      await page.goto('/integrations/webhooks');
      await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Webhooks', selected: true })).toBeVisible();

      // Add it, for the decisions only.
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const add = page.getByRole('dialog', { name: 'Add a webhook' });
      await add.getByLabel('URL').fill(endpoint.url);
      await add.getByLabel('Description').fill('The refund agent');
      await add.getByRole('radio', { name: 'Only these events' }).check();
      await add.getByRole('checkbox', { name: /\(interrupt\.decided\)/ }).check();
      await add.getByRole('checkbox', { name: /\(interrupt\.answered\)/ }).check();
      await expectAccessible(page, 'the add-webhook dialog');
      await add.getByRole('button', { name: 'Add webhook' }).click();

      // The secret, this once.
      const shown = page.getByRole('dialog', { name: 'Copy the signing secret' });
      await expect(shown.getByRole('alert')).toContainText(
        'This is the only time the secret is shown',
      );
      const block = shown.getByLabel(`Signing secret of ${endpoint.url}`);
      await expect(block).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const secret = (await block.textContent()) ?? '';
      await shown.getByRole('button', { name: 'Copy secret' }).click();
      await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await shown.getByRole('button', { name: 'Done' }).click();
      await expect(shown).toBeHidden();
      await expect(page.getByText(secret)).toHaveCount(0);

      const table = page.getByRole('table', { name: 'Webhooks' });
      const row = table.getByRole('row').filter({ hasText: endpoint.url });
      await expect(row).toContainText('interrupt.decided, interrupt.answered');
      await expect(row).toContainText('Enabled');
      await expectAccessible(page, 'the webhooks page');
      await screenshot(page, 'webhooks');

      // Its page: send a test; the receiver gets it, signed; the table shows it delivered.
      await row.getByRole('link', { name: endpoint.url }).click();
      await expect(page.getByRole('heading', { name: 'Webhook' })).toBeVisible();
      await page.getByRole('button', { name: 'Send test event' }).click();
      const deliveries = page.getByRole('table', { name: 'Deliveries' });
      const testRow = deliveries.getByRole('row').filter({ hasText: 'webhook.test' });
      await expect(testRow).toContainText('succeeded');
      await expect(testRow).toContainText('204');
      const verifier = new Webhooks({ secret });
      const ping = await verifier.unwrap(endpoint.received[0].body, endpoint.received[0].headers);
      expect(ping).toMatchObject({ type: 'webhook.test', organisationId: expect.any(String) });

      // An agent's interrupt, decided by a member: decided then answered arrive, and are listed.
      const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
        cookie: owner.cookie,
        body: { name: unique('hook-agent').slice(0, 20), expiry: 'never' },
      });
      const agent = new Interlock({ apiKey: key.key, baseURL });
      const interrupt = await agent.interrupts.create({
        title: 'Refund order 1138?',
        actionRequests: [{ name: 'refund' }],
      });
      await api('POST', `/api/interrupts/${interrupt.id}/decisions`, {
        cookie: owner.cookie,
        body: { actionName: 'refund', decision: 'approve' },
      });
      await expect(
        deliveries.getByRole('row').filter({ hasText: 'interrupt.answered' }),
      ).toContainText('succeeded');
      await expect(
        deliveries.getByRole('row').filter({ hasText: 'interrupt.decided' }),
      ).toContainText('succeeded');
      const events: WebhookEvent[] = [];
      for (const delivery of endpoint.received.slice(1))
        events.push(await verifier.unwrap(delivery.body, delivery.headers));
      expect(events.map((e) => e.type)).toEqual(['interrupt.decided', 'interrupt.answered']);
      expect(events[1].data).toMatchObject({ id: interrupt.id, status: 'answered' });
      await screenshot(page, 'webhook-deliveries');

      // Retry the test: the same event (webhook-id) again, a second attempt.
      await testRow.getByRole('button', { name: /^Retry the webhook\.test delivery/ }).click();
      await expect(testRow.getByRole('cell').nth(4)).toHaveText('2');
      expect(endpoint.received.filter((r) => r.headers['webhook-id'] === ping.id)).toHaveLength(2);

      // Rotate: a new secret, once; for 24 hours both sign.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page
        .getByRole('dialog', { name: 'Rotate the signing secret?' })
        .getByRole('button', { name: 'Rotate secret' })
        .click();
      const rotated = page.getByRole('dialog', { name: 'Copy the new signing secret' });
      const newSecret =
        (await rotated.getByLabel(`New signing secret of ${endpoint.url}`).textContent()) ?? '';
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(secret);
      await rotated.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByText('Previous secret signs until')).toBeVisible();
      const before = endpoint.received.length;
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect.poll(() => endpoint.received.length).toBe(before + 1);
      const last = endpoint.received[before];
      expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(2);
      await new Webhooks({ secret: newSecret }).verify(last.body, last.headers);
      await new Webhooks({ secret }).verify(last.body, last.headers);

      // Disable, then delete.
      await page.getByRole('switch', { name: 'Enabled' }).click();
      await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('dialog', { name: 'Delete this webhook?' })
        .getByRole('button', { name: 'Delete webhook' })
        .click();
      await expect(page.getByRole('tab', { name: 'Webhooks', selected: true })).toBeVisible();
      await expect(
        page
          .getByRole('table', { name: 'Webhooks' })
          .getByRole('row')
          .filter({ hasText: endpoint.url }),
      ).toHaveCount(0);
    } finally {
      await new Promise<void>((resolve) => endpoint.server.close(() => resolve()));
    }
  });

  test('a Manager (no webhook.manage) sees no Webhooks tab, and the API refuses the page’s calls', async ({
    owner,
    pageFor,
  }) => {
    const manager = await addMember(owner, 'manager', 'Margaret Manager');
    const page = await pageFor(manager);
    await page.goto('/integrations/api-keys');
    await expect(page.getByRole('tab', { name: 'Api Keys', selected: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveCount(0);
    const status = await page.evaluate(async () => (await fetch('/api/webhooks')).status);
    expect(status).toBe(403);
  });
});
