import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures';

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
});
