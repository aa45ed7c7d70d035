import { Interlock } from '@interlock/sdk';
import {
  addMember,
  expect as baseExpect,
  expectAccessible,
  signUpOwner,
  test,
} from './support/fixtures';
import { api, baseURL, unique } from './support/service';

// Each page waits for its inbox read: on a loaded machine that alone took more than the default 15 s.
const expect = baseExpect.configure({ timeout: 45_000 });

/**
 * Routing at creation (issue 37 §1): an agent, with the TypeScript SDK, opens interrupts for a
 * member (by email) and for a team (by name) with a priority and labels; the people they are for
 * find them, the inbox filters by priority from its address, and a priority changed on the
 * interrupt's page shows in the inbox.
 */
test.describe('Routing at creation', () => {
  test('assignTo by email and by team name, priority and labels: Assigned to me, My teams, the priority filter and a change of priority', async ({
    pageFor,
  }) => {
    // Three members' pages, an accessibility scan and five inbox reads: more than the default 90 s
    // on a loaded machine.
    test.setTimeout(360_000);
    const owner = await signUpOwner('routing');
    const grace = await addMember(owner, 'manager', 'Grace Hopper');
    const alan = await addMember(owner, 'manager', 'Alan Turing');
    const teamName = unique('Payments');
    const { body: team } = await api<{ id: string }>('POST', '/api/teams', {
      cookie: owner.cookie,
      body: { name: teamName },
    });
    await api('POST', `/api/teams/${team.id}/members`, {
      cookie: owner.cookie,
      body: { memberId: alan.memberId },
    });
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'routing-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: key.key, baseURL });
    const refund = await agent.interrupts.create({
      title: 'Refund order 1182',
      actionRequests: [{ name: 'refund', args: { order: 1182, amount: 40 } }],
      assignTo: { email: grace.email },
      priority: 'high',
      labels: ['billing', 'eu'],
    });
    await agent.interrupts.create({
      title: 'Raise the card limit of account 77',
      actionRequests: [{ name: 'raise_limit', args: { account: 77, to: 5_000 } }],
      assignTo: { teamName },
      priority: 'low',
      labels: ['team:payments'],
    });
    expect(refund.assignee).toMatchObject({ type: 'member', id: grace.memberId });

    // The member it was assigned to finds it under "Assigned to me", with its badge and chips.
    const page = await pageFor(grace);
    await page.goto('/inbox');
    await page.getByRole('tab', { name: /^Assigned to me/ }).click();
    await expect(page).toHaveURL(/[?&]tab=mine/);
    const table = page.getByRole('table', { name: 'Interrupts' });
    const refundRow = table.getByRole('row').filter({ hasText: 'Refund order 1182' });
    await expect(refundRow.getByText('High priority')).toBeVisible();
    await expect(refundRow.getByRole('list', { name: 'Labels: billing, eu' })).toBeVisible();
    await expect(refundRow.getByLabel('Assigned to Grace Hopper')).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Raise the card limit' })).toHaveCount(0);

    // A member of the team finds the team's under "My teams".
    const teammate = await pageFor(alan);
    await teammate.goto('/inbox?assignee=my_teams');
    const limitRow = teammate
      .getByRole('table', { name: 'Interrupts' })
      .getByRole('row')
      .filter({ hasText: 'Raise the card limit of account 77' });
    await expect(limitRow.getByText('Low priority')).toBeVisible();
    await expect(limitRow.getByLabel(`Assigned to team ${teamName}`)).toBeVisible();
    await expect(limitRow.getByRole('list', { name: 'Labels: team:payments' })).toBeVisible();

    // The priority filter, from the address.
    await page.goto('/inbox?priority=high,urgent');
    await expect(page.getByRole('combobox', { name: 'Priority' })).toHaveValue('high,urgent');
    await expect(refundRow).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Raise the card limit' })).toHaveCount(0);
    await page.goto('/inbox?priority=low');
    await expect(table.getByRole('row').filter({ hasText: 'Raise the card limit' })).toBeVisible();
    await expect(refundRow).toHaveCount(0);

    // Grace makes it urgent on its page; back in the inbox (no reload) the row says so.
    await page.goto('/inbox?priority=high,urgent');
    await refundRow.getByRole('link', { name: 'Refund order 1182' }).click();
    const panel = page.getByRole('region', { name: 'Priority and labels' });
    await expect(panel.getByRole('list', { name: 'Labels: billing, eu' })).toBeVisible();
    const priority = panel.getByRole('combobox', { name: 'Priority' });
    await expect(priority).toHaveValue('High');
    await expectAccessible(page, 'the interrupt page with its priority and labels');
    await priority.click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await expect(page.getByText('Priority set to urgent')).toBeVisible();
    await expect(priority).toHaveValue('Urgent');
    await page.getByRole('link', { name: '← Inbox' }).click();
    await expect(page).toHaveURL(/\/inbox$/);
    await expect(refundRow.getByText('Urgent', { exact: true })).toBeVisible();
    await expect(refundRow.getByText('High priority')).toHaveCount(0);

    const { body: changed } = await api<{ priority: string }>(
      'GET',
      `/api/interrupts/${refund.id}`,
      { cookie: owner.cookie },
    );
    expect(changed.priority).toBe('urgent');
  });
});
