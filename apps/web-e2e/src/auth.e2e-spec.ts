import { expect, expectAccessible, screenshot, test } from './support/fixtures';
import { unique } from './support/service';

test.describe('Signing up, in and out', () => {
  // A person arriving for the first time has no session.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a new person creates an organisation, signs out and signs in again', async ({ page }) => {
    const id = unique('founder');
    const email = `${id}@web-e2e.example.com`;
    const password = `correct horse ${id}`;

    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByRole('heading', { name: 'Sign in to Interlock' })).toBeVisible();
    await expectAccessible(page, 'the sign-in page');
    await screenshot(page, 'sign-in');

    await page.getByRole('link', { name: 'Create an organisation' }).click();
    await expect(page.getByRole('heading', { name: 'Create your organisation' })).toBeVisible();
    await expectAccessible(page, 'the sign-up page');
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Work email').fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill(password);
    await page.getByLabel('Organisation name').fill(`Compilers ${id}`);
    await page.getByRole('button', { name: 'Create organisation' }).click();

    await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
    await expect(page.getByText('Welcome to Interlock')).toBeVisible();
    await expect(page.getByText(`Compilers ${id}`)).toBeVisible();
    await expect(page.getByLabel('Plan: free')).toBeVisible();

    await page.getByRole('button', { name: 'Account: Grace Hopper' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Interlock' })).toBeVisible();

    // Signed out means signed out: the app sends the person back to sign in.
    await page.goto('/organisation');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Forganisation$/);

    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');

    await page.getByRole('textbox', { name: 'Password' }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Organisation & billing' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account: Grace Hopper' })).toBeVisible();
  });
});
