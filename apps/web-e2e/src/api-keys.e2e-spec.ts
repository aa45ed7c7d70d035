import { AuthenticationError, Interlock } from '@interlock/sdk';
import { addMember, expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, baseURL, unique } from './support/service';

test.describe('Integrations → Api Keys', () => {
  test('flow 4: create a key (shown once, copied), rename it, revoke it: the SDK gets 401 Invalid API key.', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = unique('flow4').slice(0, 20);

    await page.goto('/integrations/api-keys');
    await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Api Keys', selected: true })).toBeVisible();

    await page.getByRole('button', { name: 'Create API key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    // Names are at most 32 characters: the field takes no more.
    await create.getByLabel('Name').fill('x'.repeat(40));
    await expect(create.getByLabel('Name')).toHaveValue('x'.repeat(32));
    await create.getByLabel('Name').fill(name);
    await create.getByRole('combobox', { name: 'Expires' }).click();
    await page.getByRole('option', { name: '30 days' }).click();
    await expectAccessible(page, 'the create-key dialog');
    await create.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Copy your new key' });
    await expect(shown.getByRole('alert')).toContainText('This is the only time the key is shown');
    const keyBlock = shown.getByLabel(`Key “${name}”`);
    await expect(keyBlock).toHaveText(/^ilk_[A-Za-z]{64}$/);
    const key = (await keyBlock.textContent()) ?? '';
    await screenshot(page, 'api-key-created');
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();

    // The table of the seed: name, first characters, created, expires, last used.
    const table = page.getByRole('table', { name: 'API keys' });
    for (const column of ['Name', 'Key', 'Created', 'Expires', 'Last used']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(`${key.slice(0, 8)}…`);
    await expect(row).toContainText(/in 30 days|next month|in 4 weeks/);
    await expect(row).toContainText('Never used');
    await expect(page.getByText(key)).toHaveCount(0);

    // The agent uses it.
    const agent = new Interlock({ apiKey: key, baseURL });
    await expect(agent.whoami()).resolves.toMatchObject({ apiKey: { name } });

    const renamed = `${name}-r`;
    await row.getByRole('button', { name: `Rename ${name}` }).click();
    const rename = page.getByRole('dialog', { name: /Rename key/ });
    await rename.getByLabel('Name').fill(renamed);
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(rename).toBeHidden();
    const renamedRow = table.getByRole('row').filter({ hasText: renamed });
    await expect(renamedRow).toBeVisible();
    await expectAccessible(page, 'the API keys page');
    await screenshot(page, 'api-keys');

    await renamedRow.getByRole('button', { name: `Revoke ${renamed}` }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke this key?' });
    await expect(revoke).toContainText('401 Invalid API key.');
    await revoke.getByRole('button', { name: 'Revoke key' }).click();
    await expect(revoke).toBeHidden();
    await expect(table.getByRole('row').filter({ hasText: renamed })).toHaveCount(0);

    const refused = await agent.whoami().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused).toMatchObject({
      status: 401,
      code: 'INVALID_API_KEY',
      message: 'Invalid API key.',
    });
  });

  test('flow 6: a Manager sees the keys without create, rename or revoke; a forged request is refused', async ({
    owner,
    pageFor,
  }) => {
    const keyName = unique('mgr').slice(0, 20);
    const { body: created } = await api<{ id: string; start: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: keyName, expiry: 'never' },
    });
    const manager = await addMember(owner, 'manager', 'Margaret Manager');
    const page = await pageFor(manager);

    await page.goto('/integrations/api-keys');
    const row = page
      .getByRole('table', { name: 'API keys' })
      .getByRole('row')
      .filter({ hasText: keyName });
    await expect(row).toContainText(`${created.start}…`);
    await expect(page.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
    await expect(row.getByRole('button')).toHaveCount(0);
    // Navigation shows what a Manager may use, and no more.
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Invitations' })).toBeVisible();
    for (const hidden of ['Members', 'Roles', 'Teams'])
      await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
    await expectAccessible(page, 'the API keys page for a Manager');

    // The server is the judge: the same requests forged from the Manager's page are refused.
    const forged = await page.evaluate(async (id) => {
      const post = await fetch('/api/api-keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'forged', expiry: 'never' }),
      });
      const del = await fetch(`/api/api-keys/${id}`, { method: 'DELETE' });
      const patch = await fetch(`/api/api-keys/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'forged' }),
      });
      return Promise.all(
        [post, del, patch].map(async (r) => ({ status: r.status, body: await r.json() })),
      );
    }, created.id);
    expect(forged).toEqual([
      {
        status: 403,
        body: expect.objectContaining({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: apiKey.create.',
        }),
      },
      {
        status: 403,
        body: expect.objectContaining({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: apiKey.delete.',
        }),
      },
      {
        status: 403,
        body: expect.objectContaining({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: apiKey.update.',
        }),
      },
    ]);
    const { body: still } = await api<{ apiKeys: { id: string; name: string }[] }>(
      'GET',
      '/api/api-keys',
      { cookie: owner.cookie },
    );
    expect(still.apiKeys.find((k) => k.id === created.id)?.name).toBe(keyName);
  });
});
