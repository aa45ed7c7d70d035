import { Interlock } from '@interlock/sdk';
import type { Locator, Page } from '@playwright/test';
import { addMember, expect, test } from './support/fixtures';
import { api, baseURL, browserURL, unique, type Member } from './support/service';

type Permission = string;

/** Every page's actions, each with the permission it needs (SPEC §6). */
function controls(ids: {
  interrupt: string;
  session: string;
  webhook: string;
  rule: string;
  invitee: string;
}): { path: string; what: (page: Page) => Locator; needs: Permission }[] {
  const suggested = 'approve go from gating-agent';
  const priority = (p: Page) =>
    p
      .getByRole('region', { name: 'Priority and labels', exact: true })
      .getByRole('combobox', { name: 'Priority' });
  return [
    {
      path: '/inbox',
      what: (p) => p.getByRole('button', { name: /^Approve selected/ }),
      needs: 'interrupt.decide',
    },
    {
      path: '/inbox',
      what: (p) => p.getByRole('checkbox', { name: 'Select every interrupt that can be approved' }),
      needs: 'interrupt.decide',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: 'Approve go', exact: true }),
      needs: 'interrupt.decide',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: 'Always allow go…' }),
      needs: 'classification.manage',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: 'Edit go' }),
      needs: 'interrupt.decide',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: 'Reject go' }),
      needs: 'interrupt.decide',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: `Create rule: ${suggested}` }),
      needs: 'classification.manage',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: `Try in shadow: ${suggested}` }),
      needs: 'classification.manage',
    },
    { path: `/interrupts/${ids.interrupt}`, what: priority, needs: 'interrupt.assign' },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: 'Assign to me' }),
      needs: 'interrupt.assign',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: 'Escalate' }),
      needs: 'interrupt.escalate',
    },
    {
      path: `/sessions/${ids.session}`,
      what: (p) => p.getByRole('button', { name: 'Disconnect' }),
      needs: 'session.disconnect',
    },
    {
      path: '/audit-log',
      what: (p) => p.getByRole('link', { name: 'Export CSV' }),
      needs: 'auditLog.export',
    },
    {
      path: '/integrations/api-keys',
      what: (p) => p.getByRole('button', { name: 'Create API key' }),
      needs: 'apiKey.create',
    },
    {
      path: '/integrations/api-keys',
      what: (p) => p.getByRole('button', { name: /^Rename / }).first(),
      needs: 'apiKey.update',
    },
    {
      path: '/integrations/api-keys',
      what: (p) => p.getByRole('button', { name: /^Revoke / }).first(),
      needs: 'apiKey.delete',
    },
    {
      path: '/integrations/webhooks',
      what: (p) => p.getByRole('button', { name: 'Add webhook' }),
      needs: 'webhook.manage',
    },
    {
      path: `/integrations/webhooks/${ids.webhook}`,
      what: (p) => p.getByRole('button', { name: 'Send test event' }),
      needs: 'webhook.manage',
    },
    {
      path: '/members',
      what: (p) => p.getByRole('button', { name: /^Remove / }).first(),
      needs: 'member.manage',
    },
    {
      path: '/members',
      what: (p) => p.getByRole('combobox', { name: /^Role of / }).first(),
      needs: 'member.manage',
    },
    {
      path: '/invitations',
      what: (p) => p.getByRole('button', { name: 'Create invitation' }),
      needs: 'member.invite',
    },
    {
      path: '/invitations',
      what: (p) => p.getByRole('button', { name: `Withdraw the invitation to ${ids.invitee}` }),
      needs: 'member.invite',
    },
    {
      path: '/roles',
      what: (p) => p.getByRole('button', { name: 'Create custom role' }),
      needs: 'role.manage',
    },
    {
      path: '/teams',
      what: (p) => p.getByRole('button', { name: 'Create team' }),
      needs: 'team.manage',
    },
    {
      path: '/teams',
      what: (p) => p.getByRole('button', { name: /^Delete team / }).first(),
      needs: 'team.manage',
    },
    {
      path: '/settings/classification',
      what: (p) => p.getByRole('link', { name: 'New rule' }),
      needs: 'classification.manage',
    },
    {
      path: '/settings/classification',
      what: (p) => p.getByRole('button', { name: `Create rule: ${suggested}` }),
      needs: 'classification.manage',
    },
    {
      path: '/settings/classification',
      what: (p) => p.getByRole('button', { name: `Dismiss: ${suggested}` }),
      needs: 'classification.manage',
    },
    {
      path: '/settings/classification',
      what: (p) => p.getByRole('radiogroup', { name: 'Mode of Gating rule' }),
      needs: 'classification.manage',
    },
    {
      path: '/settings/classification',
      what: (p) => p.getByRole('button', { name: 'Delete Gating rule' }),
      needs: 'classification.manage',
    },
    {
      path: '/settings/classification',
      what: (p) => p.getByRole('button', { name: 'Set up classifier' }),
      needs: 'classification.manage',
    },
    {
      path: `/settings/classification/${ids.rule}`,
      what: (p) => p.getByRole('button', { name: 'Save rule' }),
      needs: 'classification.manage',
    },
    {
      path: `/settings/classification/${ids.rule}`,
      what: (p) => p.getByRole('button', { name: 'Add an argument condition' }),
      needs: 'classification.manage',
    },
    {
      path: `/settings/classification/${ids.rule}`,
      what: (p) => p.getByRole('textbox', { name: 'Name' }).and(p.locator(':enabled')),
      needs: 'classification.manage',
    },
    {
      path: '/settings/escalation',
      what: (p) => p.getByRole('button', { name: 'Add step' }).first(),
      needs: 'team.manage',
    },
    {
      path: '/settings/escalation',
      what: (p) => p.getByRole('button', { name: 'Remove step 1' }).first(),
      needs: 'team.manage',
    },
    {
      path: '/settings/escalation',
      what: (p) => p.getByRole('button', { name: 'Save organisation policy' }),
      needs: 'team.manage',
    },
    {
      path: '/settings/escalation',
      what: (p) => p.getByRole('combobox', { name: 'Step 1: do' }).and(p.locator(':enabled')),
      needs: 'team.manage',
    },
    {
      path: '/organisation/sso',
      what: (p) => p.getByRole('button', { name: 'Connect provider' }),
      needs: 'member.manage',
    },
    {
      path: '/settings/deadlines',
      what: (p) => p.getByRole('button', { name: 'Save deadline settings' }),
      needs: 'classification.manage',
    },
    {
      path: '/settings/notifications',
      what: (p) => p.getByRole('heading', { name: 'Organisation defaults' }),
      needs: 'member.manage',
    },
    {
      path: '/settings/notifications',
      what: (p) => p.getByLabel('Bot token'),
      needs: 'webhook.manage',
    },
    {
      path: '/organisation',
      what: (p) => p.getByRole('button', { name: 'Upgrade to Pro' }),
      needs: 'billing.manage',
    },
    {
      path: '/organisation',
      what: (p) => p.getByRole('switch', { name: 'Require two-factor sign-in for members' }),
      needs: 'member.manage',
    },
  ];
}

/** The page has finished loading: its heading is there and no loader is left. */
async function settled(page: Page): Promise<void> {
  // Three browsers load the dashboard side by side here: room for a loaded machine.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
}

/** What the gating tests read: the controls with their ids, the roles, and who signs in as each. */
interface Gating {
  all: ReturnType<typeof controls>;
  roles: { id: string; name: string; permissions: Permission[] }[];
  people: Record<'developer' | 'manager' | 'observer', Member>;
}

/**
 * One organisation with something behind every control: an open interrupt with a suggested rule
 * (five approvals of the same action by a person, SPEC §8d), a session, a webhook, a team, a
 * rule, an escalation step, a pending invitation; members in each built-in role and in a
 * read-only custom role (built-in roles all hold interrupt.*, so it shows the decision controls
 * gated).
 */
async function gatingOrganisation(owner: Member): Promise<Gating> {
  const as = { cookie: owner.cookie };
  const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
    ...as,
    body: { name: 'gating-agent', expiry: 'never' },
  });
  const agent = new Interlock({ apiKey: created.key, baseURL });
  for (let i = 0; i < 5; i++) {
    const done = await agent.interrupts.create({
      title: `Gating approved ${i}`,
      actionRequests: [{ name: 'go', args: { ticket: `T-${i}` } }],
    });
    await api('POST', `/api/interrupts/${done.id}/decisions`, {
      ...as,
      body: { actionName: 'go', decision: 'approve' },
    });
  }
  const interrupt = await agent.interrupts.create({
    title: `Gating ${unique('g')}`,
    actionRequests: [{ name: 'go', args: { ticket: 'T-open' } }],
  });
  const session = await agent.sessions.start({ name: 'Gating session' });
  const { body: webhook } = await api<{ id: string }>('POST', '/api/webhooks', {
    ...as,
    body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['interrupt.created'] },
  });
  await api('POST', '/api/teams', {
    ...as,
    body: { name: `Gating team ${unique('t')}`.slice(0, 50) },
  });
  const { body: rule } = await api<{ id: string }>('POST', '/api/classification/rules', {
    ...as,
    body: {
      name: 'Gating rule',
      mode: 'off',
      match: { actions: ['gating_never_asked'] },
      outcome: { type: 'approve' },
    },
  });
  await api('PUT', '/api/organisation/escalation-policy', {
    ...as,
    body: { steps: [{ afterMinutes: 600, action: 'remind', when: 'undecided' }] },
  });
  const { body: observer } = await api<{ id: string }>('POST', '/api/roles', {
    ...as,
    body: {
      name: unique('Observer'),
      permissions: [
        'interrupt.read',
        'session.read',
        'apiKey.read',
        'auditLog.read',
        'classification.read',
      ],
    },
  });
  const { body: roles } = await api<{ roles: Gating['roles'] }>('GET', '/api/roles', as);
  const invitee = `${unique('pending')}@web-e2e.example.com`;
  await api('POST', '/api/invitations', {
    ...as,
    body: { email: invitee, roleId: roles.roles.find((r) => r.name === 'Manager')?.id },
  });
  return {
    all: controls({
      interrupt: interrupt.id,
      session: session.id,
      webhook: webhook.id,
      rule: rule.id,
      invitee,
    }),
    roles: roles.roles,
    people: {
      developer: await addMember(owner, 'developer', 'Gating developer'),
      manager: await addMember(owner, 'manager', 'Gating manager'),
      observer: await addMember(owner, { customRoleId: observer.id }, 'Gating observer'),
    },
  };
}

/** Every page, as `member`: each control is there exactly when they hold what it needs. */
async function expectGated(gating: Gating, role: string, member: Member, p: Page): Promise<void> {
  const { body: session } = await api<{ permissions: Permission[] }>('GET', '/api/auth/session', {
    cookie: member.cookie,
  });
  const held = session.permissions;
  for (const path of [...new Set(gating.all.map((c) => c.path))]) {
    await p.goto(path);
    await settled(p);
    for (const c of gating.all.filter((x) => x.path === path)) {
      const offered = c.what(p);
      // Soft: one run lists every control offered wrongly, not only the first.
      if (held.includes(c.needs))
        await expect.soft(offered, `${role} on ${path}: ${c.needs}`).toBeVisible();
      else await expect.soft(offered, `${role} on ${path} lacks ${c.needs}`).toHaveCount(0);
    }
  }
  // An invitation offers only the roles the inviter may grant (none holding more than they do).
  if (held.includes('member.invite')) {
    await p.goto('/invitations');
    await settled(p);
    await p.getByRole('combobox', { name: 'Role' }).click();
    const options = p.getByRole('option');
    await expect(options.first()).toBeVisible();
    const offered = (await options.allInnerTexts()).map((n) => n.trim()).sort();
    const grantable = gating.roles
      .filter((r) => r.permissions.every((x) => held.includes(x)))
      .map((r) => r.name)
      .sort();
    expect.soft(offered, `${role}: roles offered in an invitation`).toEqual(grantable);
    await p.keyboard.press('Escape');
  }
}

test.describe('UI gating by permission', () => {
  let gating: Gating;
  test.beforeAll(async ({ owner }) => {
    test.setTimeout(300_000);
    gating = await gatingOrganisation(owner);
  });
  // One role per test: every page at a loaded machine's pace takes minutes per role.
  test.describe.configure({ timeout: 420_000 });

  test('the Owner is offered every action, on every page', async ({ page, owner }) => {
    await expectGated(gating, 'Owner', owner, page);
  });

  for (const role of ['developer', 'manager', 'observer'] as const)
    test(`a ${role === 'observer' ? 'read-only custom role' : role} is offered exactly the actions it may take, on every page`, async ({
      pageFor,
    }) => {
      const g = gating;
      const p = await pageFor(g.people[role]);
      await expectGated(g, role, g.people[role], p);
      if (role === 'manager') {
        // The Manager's /roles says why there is nothing to do there.
        await p.goto('/roles');
        await expect(p.getByRole('heading', { name: 'Not available to your role' })).toBeVisible();
        await expect(p.getByText('This page needs the permission role.manage')).toBeVisible();
      }
    });
});

test.describe('Rough edges', () => {
  test('a missing interrupt says so, with no "Try again"', async ({ page }) => {
    await page.goto('/interrupts/00000000-0000-4000-8000-000000000000');
    const alert = page.getByRole('alert').filter({ hasText: 'Not found.' });
    await expect(alert).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  });

  test('signing in from another origin names the expected origin and the setting', async ({
    browser,
    owner,
  }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    // The service's loopback address: the browser's origin is http://127.0.0.1:<port>, not PUBLIC_ORIGIN.
    await page.goto(`${baseURL}/sign-in`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(
      `accepts browser requests from ${browserURL} (PUBLIC_ORIGIN), not from ${baseURL}.`,
    );
    await expect(alert).toContainText(
      `Open the dashboard at ${browserURL}, or add ${baseURL} to ALLOWED_ORIGINS`,
    );
    await context.close();
  });
});
