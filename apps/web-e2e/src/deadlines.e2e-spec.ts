import { addMember, expect, expectAccessible, screenshot, signUpOwner, test } from './support/fixtures';
import { api } from './support/service';

interface DeadlineSettings {
  defaultTimeoutSeconds: number | null;
  maxTimeoutSeconds: number;
  approveOnTimeoutAllowed: boolean;
}

test.describe('Deadlines', () => {
  test('Settings → Deadlines: an owner sets a default and a maximum and allows approval at the deadline; a manager only reads them', async ({ pageFor }) => {
    // An organisation of its own: its settings change what every interrupt of it gets.
    const owner = await signUpOwner('deadlines');
    const page = await pageFor(owner);
    await page.goto('/');
    await page.getByRole('button', { name: `Account: ${owner.name}` }).click();
    await page.getByRole('menuitem', { name: 'Deadlines' }).click();
    await expect(page.getByRole('heading', { name: 'Deadlines', level: 1 })).toBeVisible();
    const withDefault = page.getByRole('switch', { name: 'Give interrupts a deadline when their agent sets none' });
    await expect(withDefault).not.toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Maximum deadline', exact: true })).toHaveValue('30');
    await expect(page.getByRole('button', { name: 'Save deadline settings' })).toBeDisabled();

    await withDefault.check();
    await page.getByRole('textbox', { name: 'Default deadline', exact: true }).fill('4');
    await page.getByRole('combobox', { name: 'Default deadline unit' }).click();
    await page.getByRole('option', { name: 'hours' }).click();
    await page.getByRole('textbox', { name: 'Maximum deadline', exact: true }).fill('2');
    await page.getByRole('switch', { name: /Let agents ask for approval at the deadline/ }).check();
    await expectAccessible(page, 'the deadline settings');
    await page.getByRole('button', { name: 'Save deadline settings' }).click();
    await expect(page.getByText('Deadline settings saved')).toBeVisible();
    await screenshot(page, 'deadline-settings');

    const { body } = await api<DeadlineSettings>('GET', '/api/organisation/interrupt-deadlines', { cookie: owner.cookie });
    expect(body).toEqual({ defaultTimeoutSeconds: 4 * 3_600, maxTimeoutSeconds: 2 * 86_400, approveOnTimeoutAllowed: true });

    // A default longer than the maximum cannot be saved.
    await page.getByRole('textbox', { name: 'Default deadline', exact: true }).fill('3');
    await page.getByRole('combobox', { name: 'Default deadline unit' }).click();
    await page.getByRole('option', { name: 'days' }).click();
    await expect(page.getByText('The default deadline must not be longer than the maximum.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save deadline settings' })).toBeDisabled();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByRole('textbox', { name: 'Default deadline', exact: true })).toHaveValue('4');

    // A manager (no classification.manage) sees them and cannot change them.
    const manager = await addMember(owner, 'manager', 'Katherine Johnson');
    const theirs = await pageFor(manager);
    await theirs.goto('/settings/deadlines');
    await expect(theirs.getByText('Read only')).toBeVisible();
    await expect(theirs.getByRole('switch', { name: /Let agents ask for approval at the deadline/ })).toBeChecked();
    await expect(theirs.getByRole('switch', { name: /Let agents ask for approval at the deadline/ })).toBeDisabled();
    await expect(theirs.getByRole('button', { name: 'Save deadline settings' })).toHaveCount(0);
  });
});
