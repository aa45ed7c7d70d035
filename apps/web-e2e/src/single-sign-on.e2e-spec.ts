import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signUpOwner, test } from './support/fixtures';
import { publishTxt } from './support/dns';
import { startOidcProvider, type OidcProvider } from './support/oidc-provider';
import { addMember, api, browserURL, unique } from './support/service';

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
    // The domain is proven by DNS before anyone signs in with it: its TXT record is shown.
    const domainGroup = page.getByRole('group', { name: domain });
    await expect(domainGroup.getByText('Not verified')).toBeVisible();
    await expect(domainGroup.getByText(`_interlock-challenge.${domain}`)).toBeVisible();
    const value = await domainGroup.getByText(/^interlock-domain-verification=/).textContent();
    await expectAccessible(page, 'Settings → Single sign-on, connected');
    await screenshot(page, 'single-sign-on-settings');
    // Verify before publishing: the API's refusal, word for word.
    await domainGroup.getByRole('button', { name: `Verify ${domain}` }).click();
    await expect(page.getByRole('alert')).toContainText(
      `No TXT record interlock-domain-verification=… was found at _interlock-challenge.${domain}`,
    );
    publishTxt(`_interlock-challenge.${domain}`, value ?? '');
    await domainGroup.getByRole('button', { name: `Verify ${domain}` }).click();
    await expect(domainGroup.getByText('Verified', { exact: true })).toBeVisible();

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

  /** Signs in on the dashboard's password sign-in page. */
  async function signInWithPassword(page: Page, email: string, password: string) {
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  test('require single sign-on: a member’s password is refused with the exact text, the Owner’s break-glass password works, a single sign-on session is not offered "Create organisation"', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const owner = await signUpOwner('require-sso');
    const member = await addMember(owner, 'developer', 'Pat Password');
    const domain = `${unique('require-sso')}.example.com`;
    const { body: settings } = await api<{ redirectUri: string }>('GET', '/api/organisation/sso', {
      cookie: owner.cookie,
    });
    provider = await startOidcProvider({
      clientId: 'interlock-dashboard',
      clientSecret: 'dashboard-client-secret',
      redirectUri: settings.redirectUri,
    });
    const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
      'GET',
      '/api/roles',
      { cookie: owner.cookie },
    );
    await api('PUT', '/api/organisation/sso', {
      cookie: owner.cookie,
      body: {
        issuer: provider.issuer,
        clientId: 'interlock-dashboard',
        clientSecret: 'dashboard-client-secret',
        allowedDomains: [domain],
        defaultRoleId: roles.roles.find((r) => r.builtIn === 'developer')?.id,
      },
    });
    // The domain proven by DNS (SPEC §8f): its record published at the test's name server.
    const { body: connected } = await api<{
      connection: { domains: { recordName: string; recordValue: string }[] };
    }>('GET', '/api/organisation/sso', { cookie: owner.cookie });
    for (const d of connected.connection.domains) publishTxt(d.recordName, d.recordValue);
    const verified = await api('POST', '/api/organisation/sso/domains/verify', {
      cookie: owner.cookie,
      body: { domain },
    });
    expect(verified.status).toBe(200);

    // Someone signs in through the provider first (so it is known to work); their session acts
    // for this organisation only and is not offered "Create organisation".
    const ssoContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const sso = await ssoContext.newPage();
    await signInThroughProvider(sso, `sam-${unique('s')}@${domain}`);
    await expect(sso).toHaveURL(/\/inbox/);
    await sso.getByRole('button', { name: /^Organisation: / }).click();
    await expect(sso.getByRole('menuitem', { name: owner.organisationName })).toBeVisible();
    await expect(sso.getByRole('menuitem', { name: 'Create organisation…' })).toHaveCount(0);
    await ssoContext.close();

    // The Owner requires it in Settings → Single sign-on.
    await page
      .context()
      .addCookies([
        { name: 'session', value: owner.cookie.slice('session='.length), url: browserURL },
      ]);
    await page.goto('/settings/sso');
    await page.getByRole('switch', { name: 'Members sign in with single sign-on only' }).click();
    await page.getByRole('button', { name: 'Require single sign-on' }).click();
    await expect(
      page.getByRole('switch', { name: 'Members sign in with single sign-on only' }),
    ).toBeChecked();
    // A password session is offered "Create organisation".
    await page.getByRole('button', { name: /^Organisation: / }).click();
    await expect(page.getByRole('menuitem', { name: 'Create organisation…' })).toBeVisible();
    await page.keyboard.press('Escape');

    // The member's password: refused, with the exact text, and no session.
    await page.context().clearCookies();
    await signInWithPassword(page, member.email, member.password);
    await expect(page.getByRole('alert')).toHaveText(
      `${owner.organisationName} signs its members in with single sign-on: choose "Sign in with single sign-on" on the sign-in page instead of your password.`,
    );
    await expect(page).toHaveURL(/\/sign-in/);
    await expectAccessible(
      page,
      'the sign-in page refusing a password where single sign-on is required',
    );
    await screenshot(page, 'single-sign-on-required');

    // The Owner's password is the break-glass path, written in the audit log.
    await signInWithPassword(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/inbox/);
    const { body: log } = await api<{ entries: { action: string }[] }>(
      'GET',
      '/api/audit-log?action=member.break_glass_sign_in',
      { cookie: owner.cookie },
    );
    expect(log.entries.map((e) => e.action)).toEqual(['member.break_glass_sign_in']);
  });
});
