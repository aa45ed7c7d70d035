import type { Page } from '@playwright/test';
import { addMember, expect, expectAccessible, signUpOwner, test } from './support/fixtures';
import { api, unique } from './support/service';

/** The message of expectAccessible's failure on `page` (it must fail). */
async function findings(page: Page, what: string): Promise<string> {
  const failure = await expectAccessible(page, what).then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failure, `the accessibility check fails on ${what}`).toBeInstanceOf(Error);
  return (failure as Error).message;
}

/**
 * The accessibility check itself (expectAccessible, support/fixtures.ts). Every page it scans
 * passes, so this is where it shows it can fail: it finds violations planted in a dashboard page,
 * and it refuses a page with a frame, which it would not scan whole.
 */
test.describe('The accessibility check', () => {
  test('finds an image without a text alternative, an unnamed button and faint text planted in a dashboard page', async ({
    page,
  }) => {
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, {
      timeout: 60_000,
    });
    await expectAccessible(page, '/settings as it is');

    // Through the DOM (the page's CSP refuses inline style attributes, not style properties).
    await page.evaluate(() => {
      const main = document.querySelector('main') ?? document.body;
      const image = document.createElement('img');
      image.src = '/favicon.svg';
      image.width = 32;
      image.height = 32;
      const button = document.createElement('button');
      button.type = 'button';
      const faint = document.createElement('p');
      faint.textContent = 'Words nobody can read';
      faint.style.color = '#e4e4e4';
      faint.style.backgroundColor = '#ffffff';
      main.prepend(image, button, faint);
    });
    expect(page.frames(), 'a page without frames').toHaveLength(1);
    const found = await findings(page, '/settings with planted violations');
    expect(found).toContain('critical: image-alt');
    expect(found).toContain('critical: button-name');
    expect(found).toContain('serious: color-contrast');
  });

  test('refuses a page with a frame instead of leaving the frame out', async ({ page }) => {
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>Framed</title></head><body><main>' +
        '<h1>Framed</h1>' +
        `<iframe title="Inside" srcdoc='<!doctype html><html lang="en"><title>Inside</title><main><img src="a.png" width="20" height="20"></main></html>'></iframe>` +
        '</main></body></html>',
    );
    expect(page.frames(), 'a page with a frame').toHaveLength(2);
    expect(await findings(page, 'a page with a frame')).toContain(
      'expectAccessible scans pages without frames; a page with a frame has 1',
    );
  });

  // Mantine draws a titled notification's message in gray 6 (3.3:1 on white): run S failed on a
  // "Could not find the next interrupt" toast. A real refusal, in both schemes.
  test('a refused change’s notification, its title and the API’s words, reads at AA in light and dark', async ({
    pageFor,
  }) => {
    const owner = await signUpOwner(unique('toast'));
    const colleague = await addMember(owner, 'developer', 'Grace Hopper');
    const { body: team } = await api<{ id: string }>('POST', '/api/teams', {
      cookie: owner.cookie,
      body: { name: 'Night shift' },
    });
    const page = await pageFor(owner);
    await page.goto('/teams');
    const add = page.getByRole('combobox', { name: 'Add a member to Night shift' });
    await expect(add).toBeVisible({ timeout: 60_000 });
    // The team goes while the page shows it: adding to it is refused.
    await api('DELETE', `/api/teams/${team.id}`, { cookie: owner.cookie });
    const { body: refusal } = await api<{ message: string }>(
      'POST',
      `/api/teams/${team.id}/members`,
      { cookie: owner.cookie, body: { memberId: colleague.memberId }, expect: [404] },
    );
    await add.click();
    await page.getByRole('option', { name: /^Grace Hopper/ }).click();
    await page.getByRole('button', { name: 'Add to Night shift' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Could not add the member' });
    await expect(toast).toContainText(refusal.message);
    // Read as a person reads it: the pointer on it holds it open past its 8 s.
    await toast.hover();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await expect(toast).toBeVisible();
      await expectAccessible(page, `the refusal's notification (${colorScheme})`);
    }
  });
});
