import { Interlock } from '@interlock/sdk';
import { expect, expectAccessible, test } from './support/fixtures';
import { PHONE } from './support/layout';
import { api, baseURL, unique } from './support/service';

/** Markdown an agent might send to make a reviewer's browser run something. */
const HOSTILE = [
  '## Rotate the **staging** keys',
  '',
  'Follow [the runbook](https://example.com/runbook).',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '<iframe src="javascript:window.__pwned = \'iframe\'"></iframe>',
  '',
  '[open me](javascript:window.__pwned=%22link%22) · [data](data:text/html,<script>alert(1)</script>)',
  '',
  '![pixel](https://tracker.example/pixel.png)',
].join('\n');

test.describe('Payloads people can read', () => {
  test('a hostile Markdown description renders as text and links, and nothing in it runs', async ({
    page,
    owner,
  }) => {
    const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'payload-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: body.key, baseURL });
    const word = unique('md').replace('-', '');
    const created = await agent.interrupts.create({
      title: `Rotate ${word}`,
      description: HOSTILE,
      actionRequests: [
        {
          name: 'rotate',
          description: 'Rotates **every** key. <b onmouseover="window.__pwned=1">hover</b>',
          args: { env: 'staging', keys: ['a', 'b'] },
        },
      ],
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const remote: string[] = [];
    page.on('request', (request) => {
      const { hostname } = new URL(request.url());
      if (hostname !== 'localhost' && hostname !== '127.0.0.1') remote.push(request.url());
    });

    await page.goto(`/interrupts/${created.id}`);
    const description = page.getByRole('group', { name: 'Description', exact: true });
    await expect(
      description.getByRole('heading', { name: 'Rotate the staging keys' }),
    ).toBeVisible();
    const runbook = description.getByRole('link', { name: 'the runbook' });
    await expect(runbook).toHaveAttribute('href', 'https://example.com/runbook');
    await expect(runbook).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    // The HTML is shown as the text it is; the script: and data: links are plain text.
    await expect(description).toContainText('<script>window.__pwned = "script"</script>');
    await expect(description.getByRole('link', { name: 'open me' })).toHaveCount(0);
    await expect(description.getByRole('link', { name: 'data' })).toHaveCount(0);
    await expect(description.locator('script, img, iframe, [onerror], [onmouseover]')).toHaveCount(
      0,
    );
    await expect(
      page.getByRole('group', { name: 'Description of rotate' }).locator('strong'),
    ).toHaveText('every');
    await page.getByRole('group', { name: 'Description of rotate' }).hover();

    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(remote, 'requests leaving the service (a remote image would load)').toEqual([]);
    await expectAccessible(page, 'the interrupt page with Markdown');
  });

  test('arguments as a searchable tree, the edit as a diff, and the decision bar stays in view on a long payload', async ({
    page,
    owner,
  }) => {
    test.setTimeout(150_000);
    const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'tree-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: body.key, baseURL });
    const word = unique('tree').replace('-', '');
    const created = await agent.interrupts.create({
      title: `Import ${word}`,
      description: 'line\n\n'.repeat(80),
      actionRequests: [
        {
          name: 'import_rows',
          args: {
            table: 'customers',
            rows: Array.from({ length: 200 }, (_, i) => ({ id: i, email: `c${i}@example.com` })),
            note: 'n'.repeat(1_000),
          },
        },
      ],
    });

    for (const viewport of [PHONE, { name: 'desktop', width: 1360, height: 860 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`/interrupts/${created.id}`);
      const tree = page.getByRole('tree', { name: 'Arguments of import_rows' });
      await expect(tree).toContainText('"table":"customers"');
      const approve = page.getByRole('button', { name: 'Approve import_rows' });
      await page.getByRole('button', { name: 'Show the whole description' }).click();
      // Scrolled to the middle of the card, the decision buttons are still on screen.
      await tree.scrollIntoViewIfNeeded();
      await expect(approve).toBeInViewport();
      // The button's text sits in the middle of the button, not near its top.
      const [button, label] = await Promise.all([
        approve.boundingBox(),
        approve.getByText('Approve import_rows').boundingBox(),
      ]);
      if (button === null || label === null) throw new Error('the Approve button is not drawn');
      const offset = label.y + label.height / 2 - (button.y + button.height / 2);
      expect(Math.abs(offset), `label centre vs button centre at ${viewport.name}`).toBeLessThan(2);
    }

    // Search by value.
    await page.getByLabel('Search arguments of import_rows').fill('c117@');
    await expect(page.getByText('1 match for “c117@”.')).toBeVisible();
    const tree = page.getByRole('tree', { name: 'Arguments of import_rows' });
    await expect(tree).toContainText('"[117]"');
    await expect(tree).not.toContainText('c116@example.com');
    await expectAccessible(page, 'the argument tree while searching');

    // An edit shows what it changes before it is sent, and after.
    await page.getByRole('button', { name: 'Edit import_rows' }).click();
    await page
      .getByLabel('Edited arguments for import_rows')
      .fill(JSON.stringify({ table: 'customers_archive', rows: [], note: 'n'.repeat(1_000) }));
    const preview = page.getByLabel("Changes against the agent's arguments");
    // Only what changed is marked (the note is the same); lines follow the agent's key order.
    await expect(
      preview.locator('[data-diff="removed"]', { hasText: '"table": "customers"' }),
    ).toHaveCount(1);
    await expect(
      preview.locator('[data-diff="added"]', { hasText: '"table": "customers_archive"' }),
    ).toHaveCount(1);
    await expect(preview.locator('[data-diff]', { hasText: '"note"' })).toHaveAttribute(
      'data-diff',
      'same',
    );
    await expectAccessible(page, 'the edit with its diff');
    await page.getByRole('button', { name: 'Send edit' }).click();
    // Answered, the page may move on to the next open interrupt: come back to this one.
    await expect(page.getByText(/^Edited by /)).toBeVisible();
    await page.goto(`/interrupts/${created.id}`);
    await expect(
      page
        .getByLabel("What the edit changed in the agent's arguments")
        .locator('[data-diff="added"]', { hasText: '"table": "customers_archive"' }),
    ).toHaveCount(1);
    await expectAccessible(page, 'the decided edit with its diff');
  });
});
