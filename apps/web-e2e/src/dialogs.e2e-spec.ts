import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures';
import { DESKTOP, expectNoCutOffSelects, PHONE, TABLET } from './support/layout';

/**
 * Where an element's middle is, what the page has on top there: the element itself (or inside
 * it), not the dialog's overlay or the dialog drawn over it.
 */
async function expectOnTop(locator: Locator, what: string): Promise<void> {
  const onTop = await locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && (el === hit || el.contains(hit));
  });
  expect(onTop, `${what} is drawn on top, where it can be clicked`).toBe(true);
}

/** The whole element is inside the window (nothing to scroll to, on a phone either). */
async function expectInWindow(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  expect(box, `${what} has a box`).not.toBeNull();
  if (box === null || size === null) return;
  expect(
    box.y >= 0 &&
      box.y + box.height <= size.height &&
      box.x >= 0 &&
      box.x + box.width <= size.width,
    `${what} (${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}) inside the ${size.width}×${size.height} window`,
  ).toBe(true);
}

/**
 * Selects inside dialogs (issue 31, the last session's note: every-page checks the selects of
 * pages, not those of dialogs). The create-key dialog's "Expires" at a phone's, a tablet's and a
 * laptop's size: its value whole, its choices drawn above the dialog and inside the window, worked
 * with the keyboard alone (arrows, Enter), Escape closing the choices and not the dialog, and the
 * key created with what was chosen.
 */
test.describe('Selects inside dialogs', () => {
  for (const viewport of [PHONE, TABLET, DESKTOP]) {
    test(`the create-key dialog's Expires at ${viewport.name} size: on top, in the window, by keyboard, Escape closes only the choices`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto('/integrations/api-keys');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an API key' });
      await dialog.getByLabel('Name').fill(`dialog-${viewport.name}`);
      const expires = dialog.getByRole('combobox', { name: 'Expires' });
      await expect(expires).toHaveValue('Never');
      await expectNoCutOffSelects(page, `the create-key dialog at ${viewport.name} size`);

      // Keyboard only: from the name to the select, open it, move down twice, pick.
      await dialog.getByLabel('Name').press('Tab');
      await expect(expires).toBeFocused();
      await expires.press('ArrowDown');
      const listbox = page.getByRole('listbox');
      await expect(listbox).toBeVisible();
      for (const name of ['Never', '7 days', '30 days', '90 days']) {
        const option = listbox.getByRole('option', { name });
        await expectInWindow(page, option, `the choice "${name}" at ${viewport.name} size`);
        await expectOnTop(option, `the choice "${name}" at ${viewport.name} size`);
      }

      // Escape closes the choices and leaves the dialog (and what was typed) as it was.
      await expires.press('Escape');
      await expect(listbox).toBeHidden();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel('Name')).toHaveValue(`dialog-${viewport.name}`);

      await expires.press('ArrowDown');
      await expect(listbox).toBeVisible();
      await expires.press('ArrowDown');
      await expires.press('ArrowDown');
      await expires.press('Enter');
      await expect(listbox).toBeHidden();
      await expect(dialog).toBeVisible();
      await expect(expires).toHaveValue('30 days');

      // A click picks too, and the dialog stays open (the choices are outside it in the page).
      await expires.click();
      await listbox.getByRole('option', { name: '7 days' }).click();
      await expect(dialog).toBeVisible();
      await expect(expires).toHaveValue('7 days');

      await dialog.getByRole('button', { name: 'Create key' }).click();
      await expect(page.getByRole('dialog', { name: 'Copy your new key' })).toBeVisible();
      await page.getByRole('button', { name: 'Done' }).click();
      const row = page
        .getByRole('table', { name: 'API keys' })
        .getByRole('row')
        .filter({ hasText: `dialog-${viewport.name}` });
      await expect(row).toContainText(/in 7 days|next week/);
    });
  }

  test('with its choices open over the dialog, axe passes in the light and the dark scheme, and Tab leaves the select with its choices closed', async ({
    page,
  }) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto('/integrations/api-keys');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an API key' });
      const expires = dialog.getByRole('combobox', { name: 'Expires' });
      await expires.focus();
      await expires.press('ArrowDown');
      await expect(page.getByRole('listbox')).toBeVisible();
      await expectAccessible(page, `the create-key dialog with its choices open (${colorScheme})`);
      await expires.press('Tab');
      await expect(page.getByRole('listbox')).toBeHidden();
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await expect(expires).toHaveValue('Never');
    }
  });
});
