import { expect, test } from './support/fixtures';
import { storageStateFor } from './support/service';

/**
 * The first load of the inbox as the service sends it (tools:bench-web times it): the page's
 * inline script starts the first reads (the build puts apps/web/early-reads.js in index.html;
 * the Content-Security-Policy allows it by its hash), and the JS and CSS come as the build's
 * compressed copies.
 */
test.describe('The inbox’s first load', () => {
  test('the inline early reads run under the page’s CSP, and the assets come compressed', async ({
    browser,
    owner,
  }) => {
    const state = storageStateFor(owner);
    // A returning reviewer's browser: the organisation chosen last, as the early reads use it.
    state.origins[0].localStorage.push({
      name: 'interlock.lastOrganisation',
      value: owner.organisationId,
    });
    const context = await browser.newContext({ storageState: state });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        refused.push(message.text());
    });
    const assets: { url: string; encoding: string | undefined }[] = [];
    page.on('response', (response) => {
      if (/\/assets\/.*\.(js|css)$/.test(new URL(response.url()).pathname))
        assets.push({ url: response.url(), encoding: response.headers()['content-encoding'] });
    });

    await page.goto('/inbox');
    await expect(page.getByRole('tab', { name: /^Open \(\d+\+?\)$/ })).toBeVisible();

    // The script ran (a refused inline script leaves no reads behind, and logs the refusal).
    const early = await page.evaluate(
      () => (window as unknown as { __interlockEarlyReads?: unknown[] }).__interlockEarlyReads,
    );
    expect(Array.isArray(early)).toBe(true);
    expect(refused).toEqual([]);
    expect(assets.length).toBeGreaterThan(0);
    // Brotli where the browser offers it (Chromium does only over HTTPS), else gzip.
    for (const asset of assets) expect(asset.encoding, asset.url).toMatch(/^(br|gzip)$/);
    await context.close();
  });
});
