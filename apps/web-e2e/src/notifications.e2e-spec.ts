import { expect, expectAccessible, screenshot, test } from './support/fixtures';
import { receivedMail } from './support/mail';
import { api, openInterrupt, storageStateFor, unique } from './support/service';

test.describe('Notifications', () => {
  test('an emailed Approve link opens the confirmation page; nothing is decided until the member confirms there', async ({
    page,
    owner,
  }) => {
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: unique('agent').slice(0, 20), expiry: 'never' },
    });
    const title = `Ship release ${unique('r')}`;
    const { id } = await openInterrupt(created.key, title);

    const mail = await receivedMail(owner.email, title);
    expect(mail.subject).toBe(`[${owner.organisationName}] Approval needed: ${title}`);
    const approve = [...(mail.html as string).matchAll(/href="([^"]+)"/g)]
      .map((m) => m[1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '='))
      .find((href) => href.includes('/confirm?') && href.includes('decision=approve'));
    expect(approve).toBeDefined();

    await page.goto(approve as string);
    await expect(page.getByRole('heading', { name: `Approve go for ${title}?` })).toBeVisible();
    await expect(page.getByText('Nothing is decided until you confirm.')).toBeVisible();
    // Opening the link decided nothing.
    expect(
      (await api<{ status: string }>('GET', `/api/interrupts/${id}`, { cookie: owner.cookie })).body
        .status,
    ).toBe('open');
    await expectAccessible(page, 'the confirmation page');
    await screenshot(page, 'notification-confirm');

    await page.getByRole('button', { name: 'Approve go' }).click();
    await expect(page.getByText('go is decided: approve')).toBeVisible();
    const after = await api<{
      status: string;
      decisions: { decision: string; decidedBy: { name: string } }[];
    }>('GET', `/api/interrupts/${id}`, { cookie: owner.cookie });
    expect(after.body.status).toBe('answered');
    expect(after.body.decisions).toMatchObject([
      { decision: 'approve', decidedBy: { name: owner.name } },
    ]);
  });

  test('where the organisation allows it, an emailed Approve link decides from a browser that is not signed in — once', async ({
    browser,
    owner,
  }) => {
    expect(
      (
        await api('PATCH', '/api/notifications/settings', {
          cookie: owner.cookie,
          body: { tokenActions: true },
        })
      ).status,
    ).toBe(200);
    try {
      const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
        cookie: owner.cookie,
        body: { name: unique('agent').slice(0, 20), expiry: 'never' },
      });
      const title = `Rotate keys ${unique('r')}`;
      const { id } = await openInterrupt(created.key, title);
      const mail = await receivedMail(owner.email, title);
      const approve = [...(mail.html as string).matchAll(/href="([^"]+)"/g)]
        .map((m) => m[1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '='))
        .find((href) => href.includes('/decide#al1.'));
      expect(approve).toBeDefined();

      // A phone's browser: no sign-in cookie.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(approve as string);
      await expect(page.getByRole('heading', { name: `Approve go for ${title}?` })).toBeVisible();
      await expect(
        page.getByText(`You decide as ${owner.name} in ${owner.organisationName}.`),
      ).toBeVisible();
      expect(
        (await api<{ status: string }>('GET', `/api/interrupts/${id}`, { cookie: owner.cookie }))
          .body.status,
      ).toBe('open');
      await expectAccessible(page, 'the single-use decision page');
      await screenshot(page, 'notification-decide-by-link');

      await page.getByRole('button', { name: 'Approve go' }).click();
      await expect(page.getByText('go is decided: approve')).toBeVisible();
      const after = await api<{
        status: string;
        decisions: { decision: string; decidedBy: { name: string } }[];
      }>('GET', `/api/interrupts/${id}`, { cookie: owner.cookie });
      expect(after.body.status).toBe('answered');
      expect(after.body.decisions).toMatchObject([
        { decision: 'approve', decidedBy: { name: owner.name } },
      ]);

      // The same link again: it shows what was decided and offers nothing to press.
      await page.reload();
      await expect(page.getByText('go is decided: approve')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Approve go' })).toHaveCount(0);
      await context.close();
    } finally {
      await api('PATCH', '/api/notifications/settings', {
        cookie: owner.cookie,
        body: { tokenActions: false },
      });
    }
  });

  test('Settings → Notifications: choose a daily digest and see what was sent', async ({
    page,
  }) => {
    await page.goto('/settings/notifications');
    await expect(page.getByRole('heading', { name: 'Your preferences' })).toBeVisible();
    await page.getByRole('combobox', { name: 'A new interrupt: email', exact: true }).click();
    await page.getByRole('option', { name: 'Daily digest' }).click();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await page.reload();
    await expect(
      page.getByRole('combobox', { name: 'A new interrupt: email', exact: true }),
    ).toHaveValue('Daily digest');
    await expect(page.getByRole('heading', { name: 'Recent' })).toBeVisible();
    // Slack: not connected; the owner (webhook.manage) sees the form to connect it.
    await expect(page.getByRole('heading', { name: 'Slack' })).toBeVisible();
    await expect(page.getByText('Not connected.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Connect Slack' })).toBeVisible();
    await expectAccessible(page, 'Settings → Notifications');
    await screenshot(page, 'notification-settings');
  });
});

test.describe('Notifications in the browser', () => {
  test('the tab shows what waits for you; an opted-in browser notification appears when something is assigned while the tab is hidden', async ({
    browser,
    owner,
  }) => {
    const context = await browser.newContext({ storageState: storageStateFor(owner) });
    await context.grantPermissions(['notifications']);
    // Chromium's own Notification, watched: every one the page shows is recorded (and still shown).
    await context.addInitScript(() => {
      const Real = window.Notification;
      const shown: string[] = [];
      (window as unknown as { __shown: string[] }).__shown = shown;
      class Watched extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push(title);
        }
      }
      Object.defineProperty(window, 'Notification', { value: Watched });
    });
    const page = await context.newPage();
    await page.goto('/settings/notifications');
    await page.getByRole('button', { name: 'Turn on in this browser' }).click();
    await expect(page.getByText('Browser notifications are on in this browser')).toBeVisible();

    await page.goto('/inbox');
    await expect(page).toHaveTitle(/^Inbox · Interlock$/);
    // The tab goes to the background.
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: unique('agent').slice(0, 20), expiry: 'never' },
    });
    const { id } = await openInterrupt(created.key, `Assigned ${unique('a')}`);
    await api('POST', `/api/interrupts/${id}/assign`, {
      cookie: owner.cookie,
      body: { memberId: owner.memberId },
    });

    await expect(page).toHaveTitle(/^\(1\) Inbox · Interlock$/);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute(
      'href',
      /^data:image\/svg\+xml,.*%3E1%3C%2Ftext%3E/,
    );
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __shown: string[] }).__shown))
      .toEqual(['1 interrupt waits for you']);

    // Work assigned to a team of theirs waits for them too.
    const { body: team } = await api<{ id: string }>('POST', '/api/teams', {
      cookie: owner.cookie,
      body: { name: unique('Release desk').slice(0, 40) },
    });
    await api('POST', `/api/teams/${team.id}/members`, {
      cookie: owner.cookie,
      body: { memberId: owner.memberId },
    });
    const second = await openInterrupt(created.key, `Team's ${unique('a')}`);
    await api('POST', `/api/interrupts/${second.id}/assign`, {
      cookie: owner.cookie,
      body: { teamId: team.id },
    });
    await expect(page).toHaveTitle(/^\(2\) Inbox · Interlock$/);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __shown: string[] }).__shown))
      .toEqual(['1 interrupt waits for you', '2 interrupts wait for you']);
    await context.close();
  });
});
