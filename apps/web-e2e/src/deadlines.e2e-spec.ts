import {
  addMember,
  expect,
  expectAccessible,
  screenshot,
  signUpOwner,
  test,
} from './support/fixtures';
import { api, baseURL, type Member } from './support/service';

interface DeadlineSettings {
  defaultTimeoutSeconds: number | null;
  maxTimeoutSeconds: number;
  approveOnTimeoutAllowed: boolean;
}

async function keyFor(owner: Member): Promise<string> {
  const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: owner.cookie,
    body: { name: 'deadline-agent', expiry: 'never' },
  });
  return body.key;
}

async function agentCall<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      'x-api-key': key,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

test.describe('Deadlines', () => {
  test('Settings → Deadlines: an owner sets a default and a maximum and allows approval at the deadline; a manager only reads them', async ({
    pageFor,
  }) => {
    // An organisation of its own: its settings change what every interrupt of it gets.
    const owner = await signUpOwner('deadlines');
    const page = await pageFor(owner);
    await page.goto('/');
    await page.getByRole('button', { name: `Account: ${owner.name}` }).click();
    await page.getByRole('menuitem', { name: 'Deadlines' }).click();
    await expect(page.getByRole('heading', { name: 'Deadlines', level: 1 })).toBeVisible();
    const withDefault = page.getByRole('switch', {
      name: 'Give interrupts a deadline when their agent sets none',
    });
    await expect(withDefault).not.toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Maximum deadline', exact: true })).toHaveValue(
      '30',
    );
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

    const { body } = await api<DeadlineSettings>('GET', '/api/organisation/interrupt-deadlines', {
      cookie: owner.cookie,
    });
    expect(body).toEqual({
      defaultTimeoutSeconds: 4 * 3_600,
      maxTimeoutSeconds: 2 * 86_400,
      approveOnTimeoutAllowed: true,
    });

    // A default longer than the maximum cannot be saved.
    await page.getByRole('textbox', { name: 'Default deadline', exact: true }).fill('3');
    await page.getByRole('combobox', { name: 'Default deadline unit' }).click();
    await page.getByRole('option', { name: 'days' }).click();
    await expect(
      page.getByText('The default deadline must not be longer than the maximum.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save deadline settings' })).toBeDisabled();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByRole('textbox', { name: 'Default deadline', exact: true })).toHaveValue(
      '4',
    );

    // A manager (no classification.manage) sees them and cannot change them.
    const manager = await addMember(owner, 'manager', 'Katherine Johnson');
    const theirs = await pageFor(manager);
    await theirs.goto('/settings/deadlines');
    await expect(theirs.getByText('Read only')).toBeVisible();
    await expect(
      theirs.getByRole('switch', { name: /Let agents ask for approval at the deadline/ }),
    ).toBeChecked();
    await expect(
      theirs.getByRole('switch', { name: /Let agents ask for approval at the deadline/ }),
    ).toBeDisabled();
    await expect(theirs.getByRole('button', { name: 'Save deadline settings' })).toHaveCount(0);
  });

  test('the inbox counts down, sorts by deadline, and a member extends a deadline; expired and withdrawn interrupts say so', async ({
    pageFor,
  }) => {
    const owner = await signUpOwner('countdown');
    const key = await keyFor(owner);
    const open = (title: string, timeoutSeconds?: number) =>
      agentCall<{ id: string; expiresAt: string | null }>(key, 'POST', '/api/interrupts', {
        title,
        actionRequests: [{ name: 'refund' }],
        ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
      });
    const later = await open('Refund due in ten minutes', 600);
    const none = await open('Refund without a deadline');
    const soon = await open('Refund due in two minutes', 120);

    const page = await pageFor(owner);
    await page.goto('/inbox');
    await page.getByRole('combobox', { name: 'Order' }).selectOption({ label: 'Due soonest' });
    await expect(page).toHaveURL(/order=deadline/);
    const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
    await expect(rows.nth(1)).toContainText('Refund due in two minutes');
    await expect(rows.nth(2)).toContainText('Refund due in ten minutes');
    await expect(rows.nth(3)).toContainText('Refund without a deadline');
    await expect(rows.nth(3)).not.toContainText('Due in');
    // The countdown moves on by itself.
    const badge = rows.nth(1).getByText(/^Due in \dm \d\ds$/);
    await expect(badge).toBeVisible();
    const first = await badge.textContent();
    await expect(badge).not.toHaveText(first ?? '');
    await expectAccessible(page, 'the inbox by deadline');
    await screenshot(page, 'inbox-deadlines');

    // Extend the soonest by two hours on its page.
    await rows.nth(1).getByRole('link', { name: 'Refund due in two minutes' }).click();
    await expect(page.getByText('Time left')).toBeVisible();
    await page.getByRole('textbox', { name: 'New deadline in', exact: true }).fill('2');
    await page.getByRole('combobox', { name: 'New deadline in unit' }).click();
    await page.getByRole('option', { name: 'hours' }).click();
    await page.getByRole('button', { name: 'Extend deadline' }).click();
    await expect(page.getByText(/^Deadline moved to /)).toBeVisible();
    const extended = await agentCall<{ expiresAt: string }>(
      key,
      'GET',
      `/api/interrupts/${soon.id}`,
    );
    expect(Date.parse(extended.expiresAt) - Date.now()).toBeGreaterThan(7_000_000);
    await expect(page.getByText(/^(1h 5\dm|2h 00m)$/).first()).toBeVisible();
    await expectAccessible(page, 'an interrupt with a deadline');
    await screenshot(page, 'interrupt-deadline');
    // An earlier deadline is refused with the service's words.
    await page.getByRole('textbox', { name: 'New deadline in', exact: true }).fill('1');
    await page.getByRole('button', { name: 'Extend deadline' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'the new deadline must be later than the current one' }),
    ).toBeVisible();

    // Now the ten-minute one is due first.
    await page.goto('/inbox?order=deadline');
    await expect(rows.nth(1)).toContainText('Refund due in ten minutes');
    await expect(rows.nth(2)).toContainText('Refund due in two minutes');
    expect(later.expiresAt).not.toBeNull();
    expect(none.expiresAt).toBeNull();

    // Withdrawn by the agent, with its reason; expired at its deadline (the service's job, within seconds).
    await agentCall(key, 'POST', `/api/interrupts/${none.id}/cancel`, {
      reason: 'The customer cancelled the order',
    });
    const brief = await open('Refund with a one-second deadline', 1);
    await expect
      .poll(
        async () =>
          (
            await agentCall<{ status: string }>(
              key,
              'GET',
              `/api/interrupts/${brief.id}?waitSeconds=30`,
            )
          ).status,
        { timeout: 60_000 },
      )
      .toBe('expired');
    await page.goto('/inbox?tab=answered&closed=withdrawn');
    const withdrawn = page
      .getByRole('table', { name: 'Interrupts' })
      .getByRole('row')
      .filter({ hasText: 'Refund without a deadline' });
    await expect(withdrawn).toContainText('Withdrawn: The customer cancelled the order');
    await page.getByRole('combobox', { name: 'Closed as' }).selectOption({ label: 'Expired' });
    const expired = page
      .getByRole('table', { name: 'Interrupts' })
      .getByRole('row')
      .filter({ hasText: 'Refund with a one-second deadline' });
    await expect(expired).toContainText('Expired');
    await expired.getByRole('link', { name: 'Refund with a one-second deadline' }).click();
    await expect(
      page.getByText('No decision came before the deadline', { exact: false }),
    ).toBeVisible();
  });
});
