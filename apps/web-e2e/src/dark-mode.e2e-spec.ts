import { Interlock } from '@interlock/sdk';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, baseURL, unique } from './support/service';

/** The scheme the dashboard is drawn in, and how dark its background is (0 black … 1 white). */
async function scheme(page: Page): Promise<{ attribute: string | null; luminance: number }> {
  return page.evaluate(() => {
    const [r, g, b] = (getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g) ?? [])
      .slice(0, 3)
      .map(Number);
    return {
      attribute: document.documentElement.getAttribute('data-mantine-color-scheme'),
      luminance: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255,
    };
  });
}

test.describe('Dark mode', () => {
  test("follows the browser's preference, Settings overrides it for this browser, and axe passes in both schemes", async ({
    page,
    owner,
  }) => {
    test.setTimeout(240_000);
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'dark-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: created.key, baseURL });
    const word = unique('dusk').replace('-', '');
    const interrupt = await agent.interrupts.create({
      title: `Rotate ${word} credentials`,
      description: 'Rotates the **staging** credentials.',
      actionRequests: [
        { name: 'rotate', args: { env: 'staging', keys: ['a', 'b'] } },
        { name: 'notify', args: { channel: '#ops' } },
      ],
    });
    await agent.sessions.start({ name: `Dark session ${word}` });

    const pages = [
      `/inbox?q=${word}`,
      `/interrupts/${interrupt.id}`,
      '/sessions',
      '/audit-log',
      '/integrations/api-keys',
      '/members',
      '/roles',
      '/settings',
      '/settings/notifications',
    ];
    // Each page is opened with a dark preference, then the preference turns light under it: the
    // page follows at once (no reload), and axe scans it in each scheme. (Opening in light is
    // what every other browser test does, the tour with an axe scan of these pages.)
    for (const path of pages) {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(path);
      // Up to a minute for the page's reads: at load 21 one took longer than 15 s.
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, {
        timeout: 60_000,
      });
      for (const colorScheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme });
        await expect
          .poll(async () => (await scheme(page)).attribute, {
            message: `${path} with a ${colorScheme} preference`,
          })
          .toBe(colorScheme);
        if (colorScheme === 'dark')
          await expect
            .poll(async () => (await scheme(page)).luminance, {
              message: `${path}: a dark background`,
            })
            .toBeLessThan(0.2);
        else
          await expect
            .poll(async () => (await scheme(page)).luminance, {
              message: `${path}: a light background`,
            })
            .toBeGreaterThan(0.9);
        await expectAccessible(page, `${path} in the ${colorScheme} scheme`);
      }
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/inbox?q=${word}`);
    await expect(page.getByRole('link', { name: `Rotate ${word} credentials` })).toBeVisible();
    await screenshot(page, 'dark-inbox');
    await page.goto(`/interrupts/${interrupt.id}`);
    await expect(page.getByRole('button', { name: 'Approve rotate' })).toBeVisible();
    await screenshot(page, 'dark-interrupt');

    // Settings → Appearance: Light wins over the dark preference, in this browser, after a reload.
    await page.goto('/settings');
    await expect(page.getByRole('radio', { name: 'Follow the system' })).toBeChecked();
    await page.getByText('Light', { exact: true }).click();
    await expect.poll(async () => (await scheme(page)).attribute).toBe('light');
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked();
    expect((await scheme(page)).attribute).toBe('light');
    await page.getByText('Follow the system', { exact: true }).click();
    await expect.poll(async () => (await scheme(page)).attribute).toBe('dark');
  });

  test('axe passes in the dark scheme on the pages the test above does not visit', async ({
    page,
    owner,
  }) => {
    test.setTimeout(480_000);
    const as = { cookie: owner.cookie };
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
      ...as,
      body: { name: 'dark-pages', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: created.key, baseURL });
    const word = unique('night').replace('-', '');
    const open = await agent.interrupts.create({
      title: `Night ${word} open`,
      actionRequests: [{ name: 'deploy', args: { env: 'production' } }],
    });
    const answered = await agent.interrupts.create({
      title: `Night ${word} answered`,
      actionRequests: [{ name: 'send', args: { to: 'ops' } }],
    });
    await api('POST', `/api/interrupts/${answered.id}/decisions`, {
      ...as,
      body: { actionName: 'send', decision: 'reject', message: 'Not tonight.' },
    });
    const session = await agent.sessions.start({ name: `Night ${word} session` });
    await agent.sessions.append(session.id, [
      { role: 'system', content: 'Policy: ask before deploying.' },
      { role: 'agent', content: 'Deploying **api** — see [notes](https://example.com/notes).' },
      { role: 'tool', content: '{"ok": true}' },
      { role: 'user', content: 'Go ahead.' },
    ]);
    const { body: webhook } = await api<{ id: string }>('POST', '/api/webhooks', {
      ...as,
      body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['interrupt.created'] },
    });

    await page.emulateMedia({ colorScheme: 'dark' });
    const pages = [
      `/inbox?tab=answered&q=${word}`,
      `/interrupts/${answered.id}`,
      `/interrupts/${open.id}/confirm?action=deploy&decision=approve`,
      `/sessions/${session.id}`,
      '/integrations/webhooks',
      `/integrations/webhooks/${webhook.id}`,
      '/invitations',
      '/teams',
      '/organisation',
      '/settings/profile',
      '/settings/security',
      '/settings/classification',
      '/settings/classification/new',
      '/settings/deadlines',
      '/settings/escalation',
      '/no-such-page',
    ];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, {
        timeout: 60_000,
      });
      expect((await scheme(page)).attribute, path).toBe('dark');
      await expectAccessible(page, `${path} in the dark scheme`);
    }
  });

  test('axe passes in the dark scheme signed out, on Organisation → Single sign-on and in open dialogs', async ({
    browser,
    page,
    owner,
  }) => {
    test.setTimeout(420_000);
    const settled = async (on: Page, path: string) => {
      await expect(on.getByRole('heading').first()).toBeVisible({ timeout: 60_000 });
      await expect(on.getByRole('status', { name: /^Loading/ })).toHaveCount(0, {
        timeout: 60_000,
      });
      expect((await scheme(on)).attribute, path).toBe('dark');
    };
    // Signed out: a browser of its own, without the owner's cookie.
    const signedOut = await browser.newContext({ colorScheme: 'dark' });
    try {
      const visitor = await signedOut.newPage();
      for (const path of [
        '/sign-in',
        '/sign-in/sso',
        '/sign-up',
        '/reset-password',
        '/invitations/not-a-real-token',
      ]) {
        await visitor.goto(path);
        await settled(visitor, path);
        await expectAccessible(visitor, `${path}, signed out, in the dark scheme`);
      }
    } finally {
      await signedOut.close();
    }

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/organisation/sso');
    await settled(page, '/organisation/sso');
    await expectAccessible(page, '/organisation/sso in the dark scheme');

    // Dialogs, open: creating an API key, then the new key shown once.
    await page.goto('/integrations/api-keys');
    await settled(page, '/integrations/api-keys');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill(unique('dark').slice(0, 20));
    await expectAccessible(page, 'the create-key dialog in the dark scheme');
    await create.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('dialog', { name: 'Copy your new key' })).toBeVisible();
    await expectAccessible(page, 'the new-key dialog in the dark scheme');

    // The triage dialogs, open: the inbox's approve confirmation (a), its reason for a rejection
    // (r), bulk approve; then an edit's diff on the interrupt's page.
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'dark-dialogs', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: key.key, baseURL });
    const word = unique('dusk').replace('-', '');
    const title = `Dusk ${word} release`;
    const release = await agent.interrupts.create({
      title,
      actionRequests: [
        { name: 'deploy', args: { version: '1.4.2', env: 'production' } },
        { name: 'announce', args: { channel: '#releases' } },
      ],
    });
    await page.goto(`/inbox?q=${word}`);
    const row = page.getByRole('link', { name: title });
    await expect(row).toBeVisible({ timeout: 60_000 });
    // (The shortcuts wait until a closing dialog has left the page: hidden is not yet gone.)
    const noDialog = () => expect(page.locator('[role="dialog"]')).toHaveCount(0);
    await page.keyboard.press('j');
    await expect(row).toBeFocused();
    await page.keyboard.press('a');
    const confirm = page.getByRole('dialog', { name: `Approve “${title}”?` });
    await expect(confirm.getByLabel('Arguments of deploy')).toContainText('"version": "1.4.2"');
    await expectAccessible(page, 'the approve confirmation in the dark scheme');
    await page.keyboard.press('Escape');
    await noDialog();
    await page.keyboard.press('r');
    const reject = page.getByRole('dialog', { name: `Reject “${title}”?` });
    await expect(reject.getByLabel('Reason')).toBeFocused();
    await expectAccessible(page, 'the reject dialog in the dark scheme');
    await page.keyboard.press('Escape');
    await noDialog();
    await page
      .getByRole('checkbox', { name: 'Select every interrupt that can be approved' })
      .check();
    await page.getByRole('button', { name: 'Approve selected (1)' }).click();
    const bulk = page.getByRole('dialog', { name: 'Approve 1 interrupt?' });
    await expect(bulk.getByRole('button', { name: 'Approve all' })).toBeVisible();
    await expectAccessible(page, 'the bulk-approve dialog in the dark scheme');
    await bulk.getByRole('button', { name: 'Cancel' }).click();
    await noDialog();

    await page.goto(`/interrupts/${release.id}`);
    await page.getByRole('button', { name: 'Edit deploy' }).click();
    await page
      .getByLabel('Edited arguments for deploy')
      .fill(JSON.stringify({ version: '1.4.3', env: 'production' }));
    const diff = page.getByLabel("Changes against the agent's arguments");
    await expect(diff.locator('[data-diff="added"]', { hasText: '"1.4.3"' })).toHaveCount(1);
    await expectAccessible(page, 'the edit with its diff in the dark scheme');
    expect((await agent.interrupts.get(release.id)).decisions).toEqual([]);
  });
});
