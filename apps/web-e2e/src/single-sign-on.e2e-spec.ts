import type { Page } from '@playwright/test';
import {
  expect as baseExpect,
  expectAccessible,
  screenshot,
  signUpOwner,
  test,
} from './support/fixtures';
import { publishTxt } from './support/dns';
import { receivedMail } from './support/mail';
import { startOidcProvider, type OidcProvider } from './support/oidc-provider';
import { addMember, api, browserURL, unique, type Member } from './support/service';

// Each flow crosses two services and three pages (the dashboard, the provider, the callback): a
// page's first load there waits for its chunks and session under the CI's load (the API e2e suite
// runs beside) — 15 s was seen to run out. Bounded waits on the real conditions, never sleeps.
const expect = baseExpect.configure({ timeout: 60_000 });

/**
 * Issue 33 §3: single sign-on with OpenID Connect, through a real provider (`oidc-provider`, its
 * own process) and its own sign-in page: an Owner connects it in Organisation → Single sign-on; a
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

  /**
   * Past the provider, which may remember the person from an earlier sign-in and send the
   * browser straight back to `back`, or ask again.
   */
  async function passRememberingProvider(page: Page, back: string) {
    const issuerHost = new URL((provider as OidcProvider).issuer).host;
    await page.waitForURL((url) => url.host === issuerHost || url.pathname === back);
    if (new URL(page.url()).host === issuerHost) {
      await page.locator('input[name=password]').fill('any password works here');
      await page.getByRole('button', { name: 'Sign-in' }).click();
    }
    await expect(page).toHaveURL((url) => url.pathname === back);
  }

  test('an Owner connects the provider; a new person signs in on its page and joins with the chosen role, again as the same member', async ({
    page,
    browser,
  }) => {
    // Many steps in three browsers: room for a loaded machine (CI runs the API e2e suite beside).
    test.setTimeout(300_000);
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

    // The Owner connects it from the navigation's Organisation → Single sign-on (issue 33 §4).
    await page
      .context()
      .addCookies([
        { name: 'session', value: owner.cookie.slice('session='.length), url: browserURL },
      ]);
    await page.goto('/inbox');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Single sign-on' }).click();
    await expect(page).toHaveURL(/\/organisation\/sso$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Single sign-on' })).toBeVisible();
    // The page's own item is the current one, not Organisation & billing's above it.
    await expect(nav.getByRole('link', { name: 'Single sign-on' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.getByRole('link', { name: 'Organisation & billing' })).not.toHaveAttribute(
      'aria-current',
      'page',
    );
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
    await expectAccessible(page, 'Organisation → Single sign-on, connected');
    await screenshot(page, 'single-sign-on-settings');
    // Verify before publishing: the API's refusal, word for word.
    await domainGroup.getByRole('button', { name: `Verify ${domain}` }).click();
    // The refusal's alert, not the "Connected" notification that may still be on the screen.
    await expect(
      page.getByRole('alert').filter({
        hasText: `No TXT record interlock-domain-verification=… was found at _interlock-challenge.${domain}`,
      }),
    ).toBeVisible();
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
    await passRememberingProvider(grace, '/inbox');
    await expect(grace.getByRole('button', { name: /^Account: SSO grace-/ })).toBeVisible();
    expect((await members()).map((m) => m.id)).toEqual([joined?.id]);
    await graceContext.close();
  });

  test('an address of another domain is refused: at once when no organisation signs its domain in, and on the callback page when the provider vouches for it', async ({
    page: mallory,
  }) => {
    test.setTimeout(300_000);
    const owner = await signUpOwner('sso-other-domain');
    const domain = await connectOverHttp(owner, 'sso-other-domain');
    // An address at a domain no organisation signs in with single sign-on: refused at once.
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
  });

  /**
   * Starts the provider and connects it to `owner`'s organisation over HTTP, for a new domain
   * (answered), new members joining as Developers.
   */
  async function connectOverHttp(owner: Member, label: string): Promise<string> {
    const domain = `${unique(label)}.example.com`;
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
    return domain;
  }

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
    test.setTimeout(300_000);
    const owner = await signUpOwner('require-sso');
    const member = await addMember(owner, 'developer', 'Pat Password');
    const domain = await connectOverHttp(owner, 'require-sso');

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

    // The Owner requires it in Organisation → Single sign-on, opened at its first address
    // (Settings → Single sign-on, `/settings/sso`), which leads there.
    await page
      .context()
      .addCookies([
        { name: 'session', value: owner.cookie.slice('session='.length), url: browserURL },
      ]);
    await page.goto('/settings/sso');
    await expect(page).toHaveURL(/\/organisation\/sso$/);
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
  test('a password account links its single sign-on from Settings → Security and keeps its password session, is emailed, then signs in with it; without the password session the callback refuses, word for word', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const owner = await signUpOwner('sso-link');
    const domain = await connectOverHttp(owner, 'sso-link');
    const issuer = (provider as OidcProvider).issuer;
    const pat = await addMember(owner, 'developer', 'Pat Link', `pat-${unique('l')}@${domain}`);

    // Single sign-on alone cannot take over the existing account (SPEC §8f).
    await signInThroughProvider(page, pat.email);
    await expectRefused(
      page,
      `An account with ${pat.email} exists already: to link it to single sign-on, sign in with its password in this browser first, then sign in with single sign-on again.`,
    );

    // With her password, Settings → Security offers the link for the organisation.
    await signInWithPassword(page, pat.email, pat.password);
    await expect(page).toHaveURL(/\/inbox/);
    await page.goto('/settings/security');
    const row = page.getByRole('group', { name: owner.organisationName });
    await expect(row.getByText(issuer)).toBeVisible();
    await row.getByRole('button', { name: 'Link single sign-on' }).click();
    await passRememberingProvider(page, '/settings/security');
    await expect(
      page.getByRole('status').filter({ hasText: 'Single sign-on is linked' }),
    ).toHaveText(
      `Single sign-on is linked: ${owner.organisationName}'s identity provider now signs you in to ${owner.organisationName}.`,
    );
    await expect(row.getByText('Linked', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Link single sign-on' })).toHaveCount(0);
    // Her password session stayed: it is still offered what a single sign-on session is not.
    await page.getByRole('button', { name: /^Organisation: / }).click();
    await expect(page.getByRole('menuitem', { name: 'Create organisation…' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expectAccessible(page, 'Settings → Security, single sign-on linked');
    await screenshot(page, 'single-sign-on-linked');
    const mail = await receivedMail(pat.email, `now signs in with ${owner.organisationName}`);
    expect(mail.text).toContain(
      `your Interlock account ${pat.email} was linked to the single sign-on of ${owner.organisationName} (${issuer})`,
    );

    // Signed out, single sign-on alone now reaches her account.
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto('/sign-in/sso');
    await page.getByRole('textbox', { name: 'Work email' }).fill(pat.email);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await passRememberingProvider(page, '/inbox');
    await expect(page.getByRole('button', { name: /^Account: Pat Link/ })).toBeVisible();
    const me = await page.request.get(`${browserURL}/api/me`);
    expect(((await me.json()) as { user: { id: string } }).user.id).toBe(pat.memberId);
  });

  /** The callback page's refusal, and that nobody is signed in after it. */
  async function expectRefused(page: Page, message: string | RegExp) {
    await expect(page).toHaveURL(/\/sso\/callback/);
    await expect(
      page.getByRole('heading', { name: 'Single sign-on did not sign you in' }),
    ).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(message);
    await page.goto('/inbox');
    await expect(page).toHaveURL(/\/sign-in/);
  }

  /** The members of `owner`'s organisation with this address (none, when nobody was provisioned). */
  async function membersWithEmail(owner: Member, email: string) {
    const { body } = await api<{ members: { id: string; email: string }[] }>(
      'GET',
      '/api/members',
      { cookie: owner.cookie },
    );
    return body.members.filter((m) => m.email === email);
  }

  // The provider's test knob changes its next ID token (re-signed with its own key): each check
  // openid-client makes refuses it on the callback page, naming the check (SPEC §8f).
  const refusedTokens: [string, Record<string, unknown>, string | RegExp][] = [
    [
      'an expired ID token',
      { expiresIn: -600 },
      'Your identity provider\'s answer did not pass the checks (JWT timestamp claim value failed validation: unexpected JWT "exp" (expiration time) claim value, expiration is past current timestamp): start again.',
    ],
    [
      'an ID token for another audience',
      { aud: 'someone-else' },
      /^Your identity provider's answer did not pass the checks \(.*unexpected JWT "aud" \(audience\) claim value.*\): start again\.$/,
    ],
    [
      'an ID token with another nonce',
      { nonce: 'not-the-one-sent' },
      /^Your identity provider's answer did not pass the checks \(.*unexpected ID Token "nonce" claim value.*\): start again\.$/,
    ],
  ];
  for (const [what, change, message] of refusedTokens) {
    test(`${what}, signed by the provider itself: the callback page shows the check that refused it, and nobody is signed in or provisioned`, async ({
      page,
    }) => {
      test.setTimeout(300_000);
      const owner = await signUpOwner('sso-token');
      const domain = await connectOverHttp(owner, 'sso-token');
      const issuer = (provider as OidcProvider).issuer;
      const knob = await fetch(`${issuer}/__test/next-id-token`, {
        method: 'POST',
        body: JSON.stringify(change),
      });
      expect(knob.status).toBe(204);
      const email = `tom-${unique('t')}@${domain}`;
      await signInThroughProvider(page, email);
      await expectRefused(page, message);
      expect(await membersWithEmail(owner, email)).toEqual([]);
    });
  }

  test("a callback link from another browser's sign-in is refused: without a flow of its own, and with another state; the browser that started it still signs in with it", async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    const owner = await signUpOwner('sso-forged');
    const domain = await connectOverHttp(owner, 'sso-forged');
    const issuer = new URL((provider as OidcProvider).issuer);

    // Eve passes the provider in her browser; her callback page's call to the API is held, so
    // the link the provider sent her back with stays unused.
    const eveContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const eve = await eveContext.newPage();
    const eveEmail = `eve-${unique('e')}@${domain}`;
    let held = false;
    await eve.route('**/api/auth/sso/callback', async (route) => {
      held = true;
      await route.fulfill({
        status: 503,
        json: { code: 'SERVICE_UNAVAILABLE', message: 'Held by the test.' },
      });
    });
    await signInThroughProvider(eve, eveEmail);
    await eve.waitForURL(/\/sso\/callback\?/);
    await expect.poll(() => held).toBe(true);
    const link = new URL(eve.url());
    expect(link.searchParams.get('code')).toBeTruthy();
    const callbackPath = `${link.pathname}${link.search}`;

    // Pat's browser never started a single sign-on: the link is refused before any code exchange.
    await page.goto(callbackPath);
    await expectRefused(
      page,
      'This single sign-on was not started in this browser, or took longer than 10 minutes: start again.',
    );

    // Pat starts one of her own (its state is not the link's): the state check refuses the link.
    await page.goto('/sign-in/sso');
    await page.getByRole('textbox', { name: 'Work email' }).fill(`pat-${unique('p')}@${domain}`);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await page.waitForURL((url) => url.host === issuer.host);
    await page.goto(callbackPath);
    await expectRefused(
      page,
      'Your identity provider\'s answer did not pass the checks (invalid response encountered: unexpected "state" response parameter value): start again.',
    );
    expect(await membersWithEmail(owner, eveEmail)).toEqual([]);

    // Neither refusal spent the code: in Eve's own browser the same link signs her in.
    await eve.unrouteAll();
    await eve.goto(callbackPath);
    await expect(eve).toHaveURL(/\/inbox/);
    expect(await membersWithEmail(owner, eveEmail)).toHaveLength(1);
    await eveContext.close();
  });
});
