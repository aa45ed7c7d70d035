import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signUpOwner, test } from './support/fixtures';
import { receivedMail } from './support/mail';
import { api, baseURL, unique, type Member } from './support/service';

/** Signs `page` in as `member` (their session cookie, for the dashboard's origin). */
async function signIn(page: Page, member: Member): Promise<void> {
  await page.context().addCookies([
    {
      name: 'session',
      value: member.cookie.slice('session='.length),
      url: baseURL.replace('//127.0.0.1:', '//localhost:'),
    },
  ]);
}

/** Signs in on the sign-in page (open already) and lands in the inbox. */
async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/inbox/);
}

/** The path and fragment of the `<page>#<token>` link in the newest email of `subject` to `to`. */
async function emailedLink(to: string, subject: string, page: string): Promise<string> {
  const mail = await receivedMail(to, subject);
  const link = new RegExp(`https?://\\S+/${page}#[A-Za-z0-9_-]{43}`).exec(mail.text ?? '')?.[0];
  expect(link, `a ${page} link in "${subject}"`).toBeDefined();
  const url = new URL(link as string);
  return `${url.pathname}${url.hash}`;
}

/** Issue 33: passwords — forgotten (reset by an emailed link) and changed in Settings → Security. */
test.describe('Accounts', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('forgot password: ask on the sign-in page, follow the emailed link, set a new one, sign in with it', async ({
    page,
  }) => {
    const ada = await signUpOwner('forgot');
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await page.getByLabel('Email').fill(ada.email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expectAccessible(page, 'the reset request page');

    const mail = await receivedMail(ada.email, 'Reset your Interlock password');
    const link = /https?:\/\/\S+\/reset-password#[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    await page.goto(`${url.pathname}${url.hash}`);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    // The token leaves the address bar (and so the history) as soon as the page has it.
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    await page
      .getByRole('textbox', { name: 'New password', exact: true })
      .fill('a brand new passphrase');
    await page.getByRole('textbox', { name: 'New password again' }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('heading', { name: 'Your password is changed' })).toBeVisible();
    await screenshot(page, 'accounts-reset-done');

    // The old cookie is gone with every other session.
    await api('GET', '/api/me', { cookie: ada.cookie, expect: [401] });
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signInOnPage(page, ada.email, 'a brand new passphrase');

    // The link worked once.
    await page.context().clearCookies();
    await page.goto(`${url.pathname}${url.hash}`);
    await page
      .getByRole('textbox', { name: 'New password', exact: true })
      .fill('another passphrase');
    await page.getByRole('textbox', { name: 'New password again' }).fill('another passphrase');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This password reset link is not valid: it was already used, it expired (links work for 30 minutes), or it is not one we sent. Ask for a new one.',
    );
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  });

  test('Settings → Security: change the password with the current one; other devices are signed out', async ({
    page,
  }) => {
    const ada = await signUpOwner('change');
    await signIn(page, ada);
    const otherDevice = await fetch(`${baseURL}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ada.email, password: ada.password }),
    });
    const otherCookie = (otherDevice.headers.get('set-cookie') ?? '').split(';')[0];

    await page.goto('/inbox');
    await page.getByRole('button', { name: `Account: ${ada.name}` }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
    await expectAccessible(page, 'Settings → Security');

    await page.getByRole('textbox', { name: 'Current password' }).fill('not my password');
    await page
      .getByRole('textbox', { name: 'New password', exact: true })
      .fill('a brand new passphrase');
    await page.getByRole('textbox', { name: 'New password again' }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toHaveText('The current password is not correct.');

    await page.getByRole('textbox', { name: 'Current password' }).fill(ada.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Your password is changed.' }),
    ).toBeVisible();
    await screenshot(page, 'accounts-security-changed');

    // This tab stays signed in; the other device does not.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
    await api('GET', '/api/me', { cookie: otherCookie, expect: [401] });
    await api('POST', '/api/auth/sign-in', {
      body: { email: ada.email, password: 'a brand new passphrase' },
      expect: [200],
    });
  });

  test('Settings → Security lists where I am signed in, and ends another session', async ({
    page,
  }) => {
    const ada = await signUpOwner('sessions');
    await signIn(page, ada);
    const phone = await fetch(`${baseURL}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Safari on the phone' },
      body: JSON.stringify({ email: ada.email, password: ada.password }),
    });
    const phoneCookie = (phone.headers.get('set-cookie') ?? '').split(';')[0];
    await fetch(`${baseURL}/api/me`, {
      headers: { cookie: phoneCookie, 'user-agent': 'Safari on the phone' },
    });

    await page.goto('/settings/security');
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await expect(sessions.getByText('This browser')).toBeVisible();
    const phoneRow = sessions.getByRole('row').filter({ hasText: 'Safari on the phone' });
    await expect(phoneRow).toBeVisible();
    await expectAccessible(page, 'Settings → Security with sessions');
    await phoneRow.getByRole('button', { name: 'End' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
    await expect(phoneRow).toHaveCount(0);
    await api('GET', '/api/me', { cookie: phoneCookie, expect: [401] });
  });

  test('Settings → Security: "Sign out everywhere else" signs the other browser out at its next request', async ({
    page,
    browser,
  }) => {
    const ada = await signUpOwner('everywhere');
    await signIn(page, ada);
    // The same person signed in on the sign-in page of a second browser.
    const laptop = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const other = await laptop.newPage();
      await other.goto('/sign-in');
      await signInOnPage(other, ada.email, ada.password);

      await page.goto('/settings/security');
      const sessions = page.getByRole('region', { name: 'Where you are signed in' });
      // A header row, this browser and the other one.
      await expect(sessions.getByRole('row')).toHaveCount(3);
      await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText('Your other session ends; you stay signed in here.');
      await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await expect(sessions.getByRole('row')).toHaveCount(2);
      await expect(sessions.getByText('This browser')).toBeVisible();
      await expect(
        sessions.getByRole('button', { name: 'Sign out everywhere else' }),
      ).toBeDisabled();

      // The other browser's next request (opening Settings → Security in the page it has) is
      // refused, and it is sent to sign in.
      await other.getByRole('button', { name: `Account: ${ada.name}` }).click();
      await other.getByRole('menuitem', { name: 'Security' }).click();
      await expect(other).toHaveURL(/\/sign-in/);
      await expect(other.getByRole('button', { name: 'Sign in' })).toBeVisible();

      // This one is still signed in.
      await page.reload();
      await expect(sessions.getByText('This browser')).toBeVisible();
    } finally {
      await laptop.close();
    }
  });

  test('verify my email address: Settings → Security says it is not, emails a link, and the link verifies', async ({
    page,
  }) => {
    const ada = await signUpOwner('verify');
    await signIn(page, ada);
    await page.goto('/settings/security');
    const address = page.getByRole('region', { name: 'Email address' });
    await expect(address).toContainText(ada.email);
    await expect(address.getByText('Not verified')).toBeVisible();
    await expectAccessible(page, 'Settings → Security, address not verified');
    await address.getByRole('button', { name: 'Email me a verification link' }).click();
    await expect(address.getByRole('status')).toHaveText(
      `A verification link is on its way to ${ada.email}.`,
    );

    const mail = await receivedMail(ada.email, 'Verify your email address for Interlock');
    const link = /https?:\/\/\S+\/verify-email#[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    await page.goto(`${url.pathname}${url.hash}`);
    await expect(
      page.getByRole('heading', { name: 'Your email address is verified' }),
    ).toBeVisible();
    // The token leaves the address bar (and so the history) as soon as the page has it.
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    await expectAccessible(page, 'the verified page');
    await screenshot(page, 'accounts-email-verified');
    const me = await api<{ user: { emailVerified: boolean } }>('GET', '/api/me', {
      cookie: ada.cookie,
    });
    expect(me.body.user.emailVerified).toBe(true);
    await page.goto('/settings/security');
    await expect(address.getByText('Verified', { exact: true })).toBeVisible();
    await expect(address.getByRole('button', { name: 'Email me a verification link' })).toHaveCount(
      0,
    );

    // The link worked once.
    await page.goto(`${url.pathname}${url.hash}`);
    await expect(page.getByRole('alert')).toHaveText(
      'This verification link is not valid: it was already used, it expired (links work for 24 hours), or it is not one we sent. Sign in to ask for a new one.',
    );
  });
  test('Settings → Profile: rename, move my email to an address proven by its link, and undo it from the old one', async ({
    page,
  }) => {
    const ada = await signUpOwner('profile');
    await signIn(page, ada);
    await page.goto('/settings/profile');
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
    const name = page.getByRole('region', { name: 'Name' });
    await expect(name.getByRole('textbox', { name: 'Your name' })).toHaveValue('Ada Lovelace');
    await expectAccessible(page, 'Settings → Profile');
    await name.getByRole('textbox', { name: 'Your name' }).fill('Ada King');
    await name.getByRole('button', { name: 'Save name' }).click();
    await expect(name.getByRole('status')).toHaveText('Your name is saved.');
    await expect(page.getByRole('button', { name: 'Account: Ada King' })).toBeVisible();

    const next = `${unique('moved')}@web-e2e.example.com`;
    const address = page.getByRole('region', { name: 'Email address' });
    await address.getByRole('textbox', { name: 'New email address' }).fill(next);
    await address.getByLabel('Current password').fill(ada.password);
    await address.getByRole('button', { name: 'Email me a link' }).click();
    await expect(address.getByRole('status')).toHaveText(
      `Check ${next}: we emailed it a link that changes your address (it works once, for 24 hours). Until you open it, you keep ${ada.email}.`,
    );
    await screenshot(page, 'accounts-profile-email-asked');

    await page.goto(
      await emailedLink(
        next,
        'Confirm your new email address for Interlock',
        'confirm-email-change',
      ),
    );
    await expect(
      page.getByRole('heading', { name: 'Your email address is changed' }),
    ).toBeVisible();
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    await expectAccessible(page, 'the email changed page');
    await page.goto('/settings/profile');
    await expect(address).toContainText(next);
    await expect(address.getByText('Verified', { exact: true })).toBeVisible();

    // The old address is told, with a link that undoes the change.
    const undoLink = await emailedLink(
      ada.email,
      'Your Interlock email address was changed',
      'undo-email-change',
    );
    await page.context().clearCookies();
    await page.goto(undoLink);
    await expect(
      page.getByRole('heading', { name: "This wasn't me: undo the change" }),
    ).toBeVisible();
    await expectAccessible(page, 'the undo page');
    await page
      .getByRole('textbox', { name: 'New password', exact: true })
      .fill('a brand new passphrase');
    await page.getByRole('textbox', { name: 'New password again' }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Restore my address' }).click();
    await expect(page.getByRole('heading', { name: 'Your email address is back' })).toBeVisible();
    await api('GET', '/api/me', { cookie: ada.cookie, expect: [401] });

    await page.getByRole('link', { name: 'Sign in' }).click();
    await signInOnPage(page, ada.email, 'a brand new passphrase');
  });

  test("sign up by the invitation email's link: the invitee joins the organisation, their address verified", async ({
    page,
    browser,
  }) => {
    const alan = await signUpOwner('invite-mail', 'Alan Turing');
    const email = `${unique('invitee')}@web-e2e.example.com`;
    await signIn(page, alan);
    await page.goto('/invitations');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Developer' }).click();
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await expect(page.getByLabel('Invitation link')).toBeVisible();

    // The invitee opens the emailed link (the real SMTP server's copy) in a browser of their own.
    const link = await emailedLink(
      email,
      `Alan Turing invited you to ${alan.organisationName} on Interlock`,
      'invitations/[A-Za-z0-9_-]{43}',
    );
    const theirs = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const invitee = await theirs.newPage();
    await invitee.goto(link);
    await expect(
      invitee.getByRole('heading', { name: `Join ${alan.organisationName}` }),
    ).toBeVisible();
    await expect(invitee.getByText(`The invitation was sent to ${email}.`)).toBeVisible();
    // The proof leaves the address bar (and so the history) as soon as the page has it.
    await expect.poll(() => new URL(invitee.url()).hash).toBe('');
    await invitee.getByLabel('Your name').fill('Katherine Johnson');
    await invitee.getByRole('textbox', { name: 'Password' }).fill('orbital mechanics 1962');
    await invitee.getByRole('button', { name: 'Join the organisation' }).click();
    await expect(invitee.getByRole('button', { name: /^Organisation: / })).toHaveAccessibleName(
      `Organisation: ${alan.organisationName} (Developer). Switch organisation`,
    );
    // The link reached the mailbox: the new account's address is verified, no further link sent.
    await invitee.goto('/settings/security');
    const address = invitee.getByRole('region', { name: 'Email address' });
    await expect(address).toContainText(email);
    await expect(address.getByText('Verified', { exact: true })).toBeVisible();
    await screenshot(invitee, 'accounts-invitation-verified');
    await theirs.close();
  });

  test("an account signs in from the invitation email's link and joins: the link verifies its address", async ({
    page,
  }) => {
    const alan = await signUpOwner('invite-join', 'Alan Turing');
    const hedy = await signUpOwner('invite-join-h', 'Hedy Lamarr');
    const me = () =>
      api<{ user: { emailVerified: boolean } }>('GET', '/api/me', { cookie: hedy.cookie });
    expect((await me()).body.user.emailVerified).toBe(false);
    const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
      'GET',
      '/api/roles',
      { cookie: alan.cookie },
    );
    await api('POST', '/api/invitations', {
      cookie: alan.cookie,
      body: { email: hedy.email, roleId: roles.roles.find((r) => r.builtIn === 'manager')?.id },
    });
    const link = await emailedLink(
      hedy.email,
      `Alan Turing invited you to ${alan.organisationName} on Interlock`,
      'invitations/[A-Za-z0-9_-]{43}',
    );

    // Signed out: sign in from the invitation (the tab keeps the link's proof meanwhile), then join.
    await page.goto(link);
    await expect(
      page.getByRole('heading', { name: `Join ${alan.organisationName}` }),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await page.getByLabel('Email').fill(hedy.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(hedy.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText(`You are signed in as Hedy Lamarr (${hedy.email})`)).toBeVisible();
    await page.getByRole('button', { name: 'Join the organisation' }).click();
    await expect(page.getByRole('button', { name: /^Organisation: / })).toHaveAccessibleName(
      `Organisation: ${alan.organisationName} (Manager). Switch organisation`,
    );
    expect((await me()).body.user.emailVerified).toBe(true);
  });
});
