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
}): { path: string; what: (page: Page) => Locator; needs: Permission }[] {
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
      what: (p) => p.getByRole('button', { name: 'Approve go' }),
      needs: 'interrupt.decide',
    },
    {
      path: `/interrupts/${ids.interrupt}`,
      what: (p) => p.getByRole('button', { name: 'Always allow go…' }),
      needs: 'classification.manage',
    },
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
      path: '/invitations',
      what: (p) => p.getByRole('button', { name: 'Create invitation' }),
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
  ];
}

/** The page has finished loading: its heading is there and no loader is left. */
async function settled(page: Page): Promise<void> {
  // Three browsers load the dashboard side by side here: room for a loaded machine.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
}

test.describe('Rough edges', () => {
  test('each built-in role is offered exactly the actions it may take, on every page', async ({
    page,
    owner,
    pageFor,
  }) => {
    // Every built-in role on every page: at load 30 that took longer than 240 s.
    test.setTimeout(600_000);
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'gating-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: created.key, baseURL });
    const interrupt = await agent.interrupts.create({
      title: `Gating ${unique('g')}`,
      actionRequests: [{ name: 'go', args: {} }],
    });
    const session = await agent.sessions.start({ name: 'Gating session' });
    const { body: webhook } = await api<{ id: string }>('POST', '/api/webhooks', {
      cookie: owner.cookie,
      body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['interrupt.created'] },
    });
    await api('POST', '/api/teams', {
      cookie: owner.cookie,
      body: { name: `Gating team ${unique('t')}`.slice(0, 50) },
    });
    const all = controls({ interrupt: interrupt.id, session: session.id, webhook: webhook.id });

    const people: [string, Member, Page][] = [['Owner', owner, page]];
    for (const role of ['developer', 'manager'] as const) {
      const member = await addMember(owner, role, `Gating ${role}`);
      people.push([role, member, await pageFor(member)]);
    }
    for (const [role, member, p] of people) {
      const { body: session } = await api<{ permissions: Permission[] }>(
        'GET',
        '/api/auth/session',
        { cookie: member.cookie },
      );
      for (const path of [...new Set(all.map((c) => c.path))]) {
        await p.goto(path);
        await settled(p);
        for (const c of all.filter((x) => x.path === path)) {
          const offered = c.what(p);
          if (session.permissions.includes(c.needs))
            await expect(offered, `${role} on ${path}: ${c.needs}`).toBeVisible();
          else await expect(offered, `${role} on ${path} lacks ${c.needs}`).toHaveCount(0);
        }
      }
    }
    // The Manager's /roles says why there is nothing to do there.
    const manager = people[2][2];
    await manager.goto('/roles');
    await expect(
      manager.getByRole('heading', { name: 'Not available to your role' }),
    ).toBeVisible();
    await expect(manager.getByText('This page needs the permission role.manage')).toBeVisible();
  });

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
