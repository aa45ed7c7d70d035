import { expect, expectAccessible, screenshot, signUpOwner, test } from './support/fixtures';
import {
  api,
  inviteAndJoin,
  openInterrupt,
  storageStateFor,
  unique,
  type Member,
} from './support/service';

async function keyOf(member: Member): Promise<string> {
  const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: member.cookie,
    organisationId: member.organisationId,
    body: { name: unique('agent').slice(0, 20), expiry: 'never' },
  });
  return body.key;
}

test.describe('One person, several organisations', () => {
  test('switching organisations in the header; each tab acts for its own', async ({ browser }) => {
    const ada = await signUpOwner(unique('switch-a'), 'Ada Lovelace');
    const babbage = await signUpOwner(unique('switch-b'), 'Charles Babbage');
    const [keyA, keyB] = [await keyOf(ada), await keyOf(babbage)];
    await inviteAndJoin(babbage, ada, 'developer');
    const onlyA = unique('Only in A');
    const onlyB = unique('Only in B');
    await openInterrupt(keyA, onlyA);
    await openInterrupt(keyB, onlyB);

    const context = await browser.newContext({ storageState: storageStateFor(ada) });
    const page = await context.newPage();
    await page.goto('/inbox');
    const switcher = page.getByRole('button', { name: /^Organisation: / });
    // A person with two organisations starts in the first they joined: A, as its Owner.
    await expect(switcher).toHaveAccessibleName(
      `Organisation: ${ada.organisationName} (Owner). Switch organisation`,
    );
    const inbox = page.getByRole('table', { name: 'Interrupts' });
    await expect(inbox.getByText(onlyA)).toBeVisible();
    await expect(inbox.getByText(onlyB)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Members' })).toBeVisible();

    await switcher.click();
    await expect(page.getByRole('menuitem', { name: ada.organisationName })).toBeVisible();
    await expectAccessible(page, 'the organisation switcher');
    await screenshot(page, 'organisation-switcher');
    await page.getByRole('menuitem', { name: babbage.organisationName }).click();

    // In B she is a Developer: B's inbox, B's navigation.
    await expect(switcher).toHaveAccessibleName(
      `Organisation: ${babbage.organisationName} (Developer). Switch organisation`,
    );
    await expect(inbox.getByText(onlyB)).toBeVisible();
    await expect(inbox.getByText(onlyA)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Members' })).toHaveCount(0);
    // Live updates follow the organisation the tab acts for.
    const liveB = unique('Live in B');
    await openInterrupt(keyB, liveB);
    await expect(inbox.getByText(liveB)).toBeVisible();

    // A second tab starts where she last was (B), and can act for A meanwhile.
    const second = await context.newPage();
    await second.goto('/inbox');
    const secondSwitcher = second.getByRole('button', { name: /^Organisation: / });
    await expect(secondSwitcher).toHaveAccessibleName(
      `Organisation: ${babbage.organisationName} (Developer). Switch organisation`,
    );
    await secondSwitcher.click();
    await second.getByRole('menuitem', { name: ada.organisationName }).click();
    await expect(second.getByRole('table', { name: 'Interrupts' }).getByText(onlyA)).toBeVisible();

    // The first tab still acts for B, even after a reload.
    await page.reload();
    await expect(switcher).toHaveAccessibleName(
      `Organisation: ${babbage.organisationName} (Developer). Switch organisation`,
    );
    await expect(inbox.getByText(onlyB)).toBeVisible();
    await expect(inbox.getByText(onlyA)).toHaveCount(0);
    await context.close();
  });

  test('accepting an invitation into a second organisation while signed in; creating a third', async ({
    browser,
  }) => {
    const grace = await signUpOwner(unique('accept-g'), 'Grace Hopper');
    const katherine = await signUpOwner(unique('accept-k'), 'Katherine Johnson');
    const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
      'GET',
      '/api/roles',
      { cookie: katherine.cookie },
    );
    const manager = roles.roles.find((r) => r.builtIn === 'manager')?.id;
    // Grace's address already has an account: the invitation is made exactly as for anyone.
    const { body: invitation } = await api<{ token: string }>('POST', '/api/invitations', {
      cookie: katherine.cookie,
      body: { email: grace.email, roleId: manager },
    });

    const context = await browser.newContext({ storageState: storageStateFor(grace) });
    const page = await context.newPage();
    await page.goto(`/invitations/${invitation.token}`);
    await expect(
      page.getByRole('heading', { name: `Join ${katherine.organisationName}` }),
    ).toBeVisible();
    await expect(page.getByText('You are invited as Manager')).toBeVisible();
    await expect(
      page.getByText(`You are signed in as Grace Hopper (${grace.email})`),
    ).toBeVisible();
    await expectAccessible(page, 'the invitation page, signed in');
    await page.getByRole('button', { name: 'Join the organisation' }).click();

    // She lands in the organisation she joined, as a Manager, and has both.
    const switcher = page.getByRole('button', { name: /^Organisation: / });
    await expect(switcher).toHaveAccessibleName(
      `Organisation: ${katherine.organisationName} (Manager). Switch organisation`,
    );
    await switcher.click();
    await expect(page.getByRole('menuitem', { name: grace.organisationName })).toContainText(
      'Owner',
    );
    await expect(page.getByRole('menuitem', { name: katherine.organisationName })).toContainText(
      'Manager',
    );

    // A third, her own.
    const third = unique('Compilers staging');
    await page.getByRole('menuitem', { name: 'Create organisation…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an organisation' });
    await dialog.getByLabel('Organisation name').fill(third);
    await dialog.getByRole('button', { name: 'Create organisation' }).click();
    await expect(switcher).toHaveAccessibleName(
      `Organisation: ${third} (Owner). Switch organisation`,
    );
    await expect(page.getByRole('button', { name: 'Create API key' })).toBeVisible();
    const { body: me } = await api<{ organisations: { name: string }[] }>('GET', '/api/me', {
      cookie: grace.cookie,
    });
    expect(me.organisations.map((o) => o.name)).toEqual([
      grace.organisationName,
      katherine.organisationName,
      third,
    ]);
    await context.close();
  });

  test('signed out with an account: sign in from the invitation, then join', async ({
    browser,
  }) => {
    const hedy = await signUpOwner(unique('signin-h'), 'Hedy Lamarr');
    const alan = await signUpOwner(unique('signin-a'), 'Alan Turing');
    const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
      'GET',
      '/api/roles',
      { cookie: alan.cookie },
    );
    const developer = roles.roles.find((r) => r.builtIn === 'developer')?.id;
    const { body: invitation } = await api<{ token: string }>('POST', '/api/invitations', {
      cookie: alan.cookie,
      body: { email: hedy.email, roleId: developer },
    });

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(`/invitations/${invitation.token}`);
    await expect(
      page.getByRole('heading', { name: `Join ${alan.organisationName}` }),
    ).toBeVisible();
    await expectAccessible(page, 'the invitation page, signed out');
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await page.getByLabel('Email').fill(hedy.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(hedy.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back on the invitation, now signed in.
    await expect(page.getByText(`You are signed in as Hedy Lamarr (${hedy.email})`)).toBeVisible();
    await page.getByRole('button', { name: 'Join the organisation' }).click();
    await expect(page.getByRole('button', { name: /^Organisation: / })).toHaveAccessibleName(
      `Organisation: ${alan.organisationName} (Developer). Switch organisation`,
    );
    await context.close();
  });
});
