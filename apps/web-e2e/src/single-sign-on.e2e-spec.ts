import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signUpOwner, test } from './support/fixtures';
import { startOidcProvider, type OidcProvider } from './support/oidc-provider';
import { api, browserURL, unique } from './support/service';

/**
 * Issue 33 §3: single sign-on with OpenID Connect, through a real provider (`oidc-provider`, its
 * own process) and its own sign-in page: an Owner connects it in Settings → Single sign-on; a
 * new person signs in through it and joins with the chosen role; a second sign-in is the same
 * member; an address of another domain is refused, before and after the provider.
 */
test.describe('Single sign-on', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  let provider: OidcProvider | undefined;
  test.afterEach(async () => {
    await provider?.stop();
    provider = undefined;
  });

  /** From the dashboard's SSO page to the provider's page, signing in there as `login`. */
  async function signInThroughProvider(page: Page, email: string, login = email) {
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in with single sign-on' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Work email' })).toHaveValue(email);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    const issuer = new URL((provider as OidcProvider).issuer);
    await page.waitForURL((url) => url.host === issuer.host);
    // The provider's own (development) sign-in page, the address given as login_hint.
    const loginBox = page.locator('input[name=login]');
    await expect(loginBox).toHaveValue(email);
    await loginBox.fill(login);
    await page.locator('input[name=password]').fill('any password works here');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  test('an Owner connects the provider; a new person signs in on its page and joins with the chosen role, again as the same member; other domains are refused', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const owner = await signUpOwner('sso');
    const domain = `${unique('sso')}.example.com`;
    const { body: before } = await api<{ redirectUri: string }>('GET', '/api/organisation/sso', {
      cookie: owner.cookie,
    });
    expect(before.redirectUri).toBe(`${browserURL}/sso/callback`);
    provider = await startOidcProvider({
      clientId: 'interlock-dashboard',
      clientSecret: 'dashboard-client-secret',
      redirectUri: before.redirectUri,
    });

    // The Owner connects it from the account menu's Settings → Single sign-on.
    await page
      .context()
      .addCookies([
        { name: 'session', value: owner.cookie.slice('session='.length), url: browserURL },
      ]);
    await page.goto('/inbox');
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('menuitem', { name: 'Single sign-on' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Single sign-on' })).toBeVisible();
    await expect(page.getByTestId('sso-redirect-uri')).toHaveText(before.redirectUri);
    await expect(page.getByText('Not connected')).toBeVisible();
    // A mistyped issuer: the provider's discovery document is read before saving.
    await page.getByRole('textbox', { name: 'Issuer URL' }).fill(`${provider.issuer}/typo`);
    await page.getByRole('textbox', { name: 'Client ID' }).fill('interlock-dashboard');
    await page.getByLabel('Client secret').fill('dashboard-client-secret');
    const domains = page.locator('input:not([type=hidden])').and(page.getByLabel('Email domains'));
    await domains.fill(domain);
    await domains.press('Enter');
    await page.getByRole('combobox', { name: 'Role for new members' }).click();
    await expect(page.getByRole('option', { name: 'Owner' })).toHaveCount(0);
    await page.getByRole('option', { name: 'Developer' }).click();
    await page.getByRole('button', { name: 'Connect provider' }).click();
    await expect(page.getByRole('alert')).toContainText(
      `Could not read the OpenID provider's configuration at ${provider.issuer}/typo/.well-known/openid-configuration: `,
    );
    await page.getByRole('textbox', { name: 'Issuer URL' }).fill(provider.issuer);
    await page.getByRole('button', { name: 'Connect provider' }).click();
    await expect(page.getByText('Connected', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
    await expect(page.getByLabel('Client secret')).toHaveValue('');
    await expectAccessible(page, 'Settings → Single sign-on, connected');
    await screenshot(page, 'single-sign-on-settings');

    // Grace has no account yet: her first sign-in through the provider makes her a member.
    const graceContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const grace = await graceContext.newPage();
    const email = `grace-${unique('h')}@${domain}`;
    await signInThroughProvider(grace, email);
    await expect(grace).toHaveURL(/\/inbox/);
    await expect(grace.getByRole('button', { name: /^Account: SSO grace-/ })).toBeVisible();
    const members = async () =>
      (
        await api<{ members: { id: string; email: string; roleName: string }[] }>(
          'GET',
          '/api/members',
          { cookie: owner.cookie },
        )
      ).body.members.filter((m) => m.email === email);
    const [joined] = await members();
    expect(joined?.roleName).toBe('Developer');

    // Signed out and in again: the same member, nobody new.
    await grace.getByRole('button', { name: /^Account: / }).click();
    await grace.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(grace).toHaveURL(/\/sign-in/);
    await grace.goto('/sign-in/sso');
    await grace.getByRole('textbox', { name: 'Work email' }).fill(email);
    await grace.getByRole('button', { name: 'Continue to your identity provider' }).click();
    // The provider remembers her: it may send her straight back, or ask again.
    const issuerHost = new URL(provider.issuer).host;
    await grace.waitForURL((url) => url.host === issuerHost || url.pathname === '/inbox');
    if (new URL(grace.url()).host === issuerHost) {
      await grace.locator('input[name=password]').fill('any password works here');
      await grace.getByRole('button', { name: 'Sign-in' }).click();
    }
    await expect(grace).toHaveURL(/\/inbox/);
    await expect(grace.getByRole('button', { name: /^Account: SSO grace-/ })).toBeVisible();
    expect((await members()).map((m) => m.id)).toEqual([joined?.id]);
    await graceContext.close();

    // An address at a domain no organisation signs in with single sign-on: refused at once.
    const malloryContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const mallory = await malloryContext.newPage();
    const elsewhere = `${unique('elsewhere')}.example.org`;
    await mallory.goto('/sign-in/sso');
    await mallory.getByRole('textbox', { name: 'Work email' }).fill(`mallory@${elsewhere}`);
    await mallory.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await expect(mallory.getByRole('alert')).toHaveText(
      `No organisation signs in addresses at ${elsewhere} with single sign-on: sign in with your password.`,
    );
    // Through the provider as someone of another domain: the callback page says why not.
    await signInThroughProvider(mallory, `mallory@${domain}`, `mallory@${elsewhere}`);
    await expect(mallory).toHaveURL(/\/sso\/callback/);
    await expect(
      mallory.getByRole('heading', { name: 'Single sign-on did not sign you in' }),
    ).toBeVisible();
    await expect(mallory.getByRole('alert')).toHaveText(
      `mallory@${elsewhere} is not at a domain this organisation signs in with single sign-on.`,
    );
    await expectAccessible(mallory, 'the single sign-on callback page, refused');
    await screenshot(mallory, 'single-sign-on-refused');
    // Nobody was signed in: the dashboard sends her to the sign-in page.
    await mallory.goto('/inbox');
    await expect(mallory).toHaveURL(/\/sign-in/);
    await malloryContext.close();
  });
});
