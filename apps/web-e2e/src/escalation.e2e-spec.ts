import {
  addMember,
  expect,
  expectAccessible,
  screenshot,
  signUpOwner,
  test,
} from './support/fixtures';
import { api } from './support/service';

interface Policy {
  steps: {
    afterMinutes: number;
    action: string;
    when: string;
    assignTo: { memberId: string } | { teamId: string } | null;
  }[];
}

test.describe('Escalation', () => {
  test("Settings → Escalation: an owner sets the organisation's chain and a team's; a manager only reads them", async ({
    pageFor,
  }) => {
    // Two members' pages and several saves: room for a loaded machine.
    test.setTimeout(240_000);
    // An organisation of its own: its policy governs every interrupt of it.
    const owner = await signUpOwner('escalation-settings');
    const { body: team } = await api<{ id: string }>('POST', '/api/teams', {
      cookie: owner.cookie,
      body: { name: 'Night shift' },
    });
    const page = await pageFor(owner);
    await page.goto('/');
    await page.getByRole('button', { name: `Account: ${owner.name}` }).click();
    await page.getByRole('menuitem', { name: 'Escalation' }).click();
    await expect(page.getByRole('heading', { name: 'Escalation', level: 1 })).toBeVisible();

    const organisation = page.getByRole('region', { name: 'Organisation policy' });
    await expect(
      organisation.getByText('No steps: open interrupts wait without reminders or escalations.'),
    ).toBeVisible();
    await organisation.getByRole('button', { name: 'Add step' }).click();
    await organisation.getByRole('textbox', { name: 'Step 1: after', exact: true }).fill('10');
    await organisation.getByRole('button', { name: 'Add step' }).click();
    await organisation.getByRole('combobox', { name: 'Step 2: assign to' }).click();
    await page.getByRole('option', { name: 'Team Night shift' }).click();
    await expectAccessible(page, 'Settings → Escalation');
    await organisation.getByRole('button', { name: 'Save organisation policy' }).click();
    await expect(page.getByText('Organisation policy saved')).toBeVisible();
    await expect(
      organisation.getByRole('button', { name: 'Save organisation policy' }),
    ).toBeDisabled();
    await screenshot(page, 'escalation-settings');
    const { body: saved } = await api<Policy>('GET', '/api/organisation/escalation-policy', {
      cookie: owner.cookie,
    });
    expect(saved).toEqual({
      steps: [
        { afterMinutes: 10, action: 'remind', when: 'undecided', assignTo: null },
        { afterMinutes: 40, action: 'escalate', when: 'undecided', assignTo: { teamId: team.id } },
      ],
    });

    // The team's own chain: a reminder an hour after the team got an interrupt.
    const nightShift = page.getByRole('region', { name: 'Policy of team Night shift' });
    await nightShift.getByRole('button', { name: 'Add step' }).click();
    await nightShift.getByRole('textbox', { name: 'Step 1: after', exact: true }).fill('1');
    await nightShift.getByRole('combobox', { name: 'Step 1: after unit' }).click();
    await page.getByRole('option', { name: 'hours' }).click();
    await nightShift.getByRole('button', { name: 'Save policy of team Night shift' }).click();
    await expect(page.getByText('Policy of team Night shift saved')).toBeVisible();
    const { body: teamPolicy } = await api<Policy>(
      'GET',
      `/api/teams/${team.id}/escalation-policy`,
      { cookie: owner.cookie },
    );
    expect(teamPolicy).toEqual({
      steps: [{ afterMinutes: 60, action: 'remind', when: 'undecided', assignTo: null }],
    });

    // A manager (interrupt.assign, no team.manage) reads both, names included, and changes nothing.
    const manager = await addMember(owner, 'manager', 'Katherine Johnson');
    const theirs = await pageFor(manager);
    await theirs.goto('/settings/escalation');
    await expect(theirs.getByText('Read only')).toBeVisible();
    const theirOrganisation = theirs.getByRole('region', { name: 'Organisation policy' });
    await expect(
      theirOrganisation.getByRole('combobox', { name: 'Step 2: assign to' }),
    ).toHaveValue('Team Night shift');
    await expect(
      theirOrganisation.getByRole('textbox', { name: 'Step 1: after', exact: true }),
    ).toBeDisabled();
    await expect(theirs.getByRole('button', { name: /^Save / })).toHaveCount(0);
    await expect(
      theirs
        .getByRole('region', { name: 'Policy of team Night shift' })
        .getByRole('textbox', { name: 'Step 1: after', exact: true }),
    ).toHaveValue('1');
    await expectAccessible(theirs, 'Settings → Escalation, read only');
  });
});
