import { expect, expectAccessible, screenshot, signUpOwner, test } from './support/fixtures';
import { api, baseURL } from './support/service';
import { authenticatorCode } from './support/totp';

/** Issue 33 §2: two-factor sign-in — set up in Settings → Security, sign in with a code, turn off. */
test.describe('Two-factor sign-in', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('set up with an authenticator app, sign in with its code, turn off with a recovery code', async ({
    page,
  }) => {
    const ada = await signUpOwner('two-factor');
    await page.context().addCookies([
      {
        name: 'session',
        value: ada.cookie.slice('session='.length),
        url: baseURL.replace('//127.0.0.1:', '//localhost:'),
      },
    ]);
    await page.goto('/settings/security');
    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await expect(section.getByText('Off', { exact: true })).toBeVisible();
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await section.getByRole('textbox', { name: 'Current password' }).fill(ada.password);
    await section.getByRole('button', { name: 'Continue' }).click();

    await expect(
      section.getByRole('img', { name: 'QR code of your new two-factor key' }),
    ).toBeVisible();
    const key = ((await section.getByLabel('Two-factor key').textContent()) ?? '').replace(
      /\s/g,
      '',
    );
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page, 'Settings → Security, setting up two-factor sign-in');

    await section
      .getByRole('textbox', { name: '2. Enter the code the app shows' })
      .fill(authenticatorCode(key, Date.now() + 5 * 60_000));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await expect(section.getByRole('alert')).toHaveText(
      'The code is not correct: enter the 6-digit code your authenticator app shows now for the key you added.',
    );
    await section
      .getByRole('textbox', { name: '2. Enter the code the app shows' })
      .fill(authenticatorCode(key));
    await section.getByRole('button', { name: 'Turn on' }).click();
    const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recoveryCode = (await codes.first().textContent()) ?? '';
    expect(recoveryCode).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await expect(section.getByText('On', { exact: true })).toBeVisible();
    await screenshot(page, 'two-factor-recovery-codes');
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await expect(section.getByText('10 of 10 recovery codes left', { exact: false })).toBeVisible();

    // Signing in now takes the password and then a code.
    await page.context().clearCookies();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(ada.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ada.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeBox = page.getByRole('textbox', { name: 'Two-factor code' });
    await expect(codeBox).toBeVisible();
    await expectAccessible(page, 'the sign-in page asking for a two-factor code');
    await codeBox.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The code is not correct: enter the 6-digit code your authenticator app shows now, or an unused recovery code.',
    );
    // The next step's code: set-up took this step's, and each code works once.
    await codeBox.fill(authenticatorCode(key, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/inbox/);

    // Turning it off takes the password and a code: here a recovery code.
    await page.goto('/settings/security');
    await section.getByRole('button', { name: 'Turn off' }).click();
    await section.getByRole('textbox', { name: 'Current password' }).fill(ada.password);
    await section
      .getByRole('textbox', { name: 'Code from your app, or a recovery code' })
      .fill(recoveryCode);
    await section.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await expect(section.getByText('Off', { exact: true })).toBeVisible();
    await api('POST', '/api/auth/sign-in', {
      body: { email: ada.email, password: ada.password },
      expect: [200],
    });
  });
});
