import {
  addMember,
  expect,
  expectAccessible,
  screenshot,
  signUpOwner,
  test,
} from './support/fixtures';
import pg from 'pg';
import { api, baseURL, type Member, openInterrupt, unique } from './support/service';

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

/** A member whose role holds interrupt.read alone: reads interrupts, not the audit log. */
async function addReader(owner: Member, name: string): Promise<Member> {
  const as = { cookie: owner.cookie };
  const { body: role } = await api<{ id: string }>('POST', '/api/roles', {
    ...as,
    body: { name: unique('Reader'), permissions: ['interrupt.read'] },
  });
  const email = `${unique('reader')}@web-e2e.example.com`;
  const { body: invitation } = await api<{ token: string }>('POST', '/api/invitations', {
    ...as,
    body: { email, roleId: role.id },
  });
  const password = `correct horse ${unique('pw')}`;
  const response = await fetch(`${baseURL}/api/invitations/${invitation.token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  expect(response.status).toBe(201);
  const accepted = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((h) => h.split(';')[0])
    .find((p) => p.startsWith('session='));
  return {
    ...owner,
    name,
    email,
    password,
    cookie: cookie ?? '',
    memberId: accepted.user.id,
  };
}

/**
 * Moves an interrupt's escalation clock back (the service's own database, as with-service.mjs
 * offers it): its policy's steps then fall due as if that much time had passed, and the
 * service's escalation job (every 15 s) applies them — no test waits minutes, none sleeps.
 */
async function backdateEscalationClock(organisationId: string, id: string, minutes: number) {
  const db = new pg.Client({ connectionString: process.env.INTERLOCK_TEST_DATABASE_URL });
  await db.connect();
  try {
    const moved = await db.query(
      `UPDATE interrupts SET escalation_clock_at = created_at - make_interval(mins => $3)
        WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id, minutes],
    );
    expect(moved.rowCount).toBe(1);
  } finally {
    await db.end();
  }
}

test.describe('Escalation on the interrupt page', () => {
  test('a chain set in Settings reminds, then escalates to a team; a member who reads interrupts (not the audit log) sees each step and the next on the page', async ({
    pageFor,
  }) => {
    // The escalation job runs every 15 s: two of its runs, and a loaded machine.
    test.setTimeout(300_000);
    const owner = await signUpOwner(unique('escalation-flow'));
    await api('POST', '/api/teams', { cookie: owner.cookie, body: { name: 'Night shift' } });
    const page = await pageFor(owner);
    await page.goto('/settings/escalation');
    const organisation = page.getByRole('region', { name: 'Organisation policy' });
    await organisation.getByRole('button', { name: 'Add step' }).click();
    await organisation.getByRole('textbox', { name: 'Step 1: after', exact: true }).fill('10');
    await organisation.getByRole('button', { name: 'Add step' }).click();
    await organisation.getByRole('combobox', { name: 'Step 2: assign to' }).click();
    await page.getByRole('option', { name: 'Team Night shift' }).click();
    await organisation.getByRole('button', { name: 'Save organisation policy' }).click();
    await expect(page.getByText('Organisation policy saved')).toBeVisible();

    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'escalation-agent', expiry: 'never' },
    });
    const interrupt = await openInterrupt(key.key, 'Rotate the signing keys');
    const reader = await addReader(owner, 'Rosalind Franklin');
    const theirs = await pageFor(reader);
    await theirs.goto(`/interrupts/${interrupt.id}`);
    const panel = theirs.getByRole('region', { name: 'Reminders and escalations' });
    await expect(panel.getByText('None yet.')).toBeVisible();
    await expect(panel).toContainText(
      /organisation's policy\): Step 1, at .+: remind the assignee if still undecided\./,
    );
    // This member may not read the audit log: no History here, yet the steps show.
    await expect(theirs.getByRole('heading', { name: 'History' })).toHaveCount(0);

    /** Reloads the reader's page until the panel says `text` (the job acts within ~15 s). */
    const untilShown = (text: string) =>
      expect(async () => {
        await theirs.reload();
        await expect(panel.getByText(text)).toBeVisible({ timeout: 3_000 });
      }).toPass({ timeout: 120_000, intervals: [2_000] });

    await backdateEscalationClock(owner.organisationId, interrupt.id, 11);
    await untilShown('Step 1: reminded its readers (nobody was assigned)');
    await expect(panel).toContainText(
      /Step 2, due now: escalate to team Night shift if still undecided\.|Step 2, at .+: escalate to team Night shift if still undecided\./,
    );

    await backdateEscalationClock(owner.organisationId, interrupt.id, 41);
    await untilShown('Handed from nobody to team Night shift');
    await expect(
      panel.getByText('Escalated to level 1: Escalation policy, step 2: undecided after 40 min.'),
    ).toBeVisible();
    await expect(panel).not.toContainText('Next');
    await expectAccessible(
      theirs,
      'an escalated interrupt, read by a member without the audit log',
    );
    await screenshot(theirs, 'interrupt-escalation');
  });
});
