import { Interlock } from '@interlock/sdk';
import type { Page } from '@playwright/test';
import { expect, screenshot, signUpOwner, test } from './support/fixtures';
import {
  DESKTOP,
  expectHeadingClear,
  expectNoCutOffSelects,
  expectNoHorizontalOverflow,
  expectNoSidewaysScrolling,
  PHONE,
  TABLET,
} from './support/layout';
import { startOidcProvider } from './support/oidc-provider';
import { receivedMail } from './support/mail';
import { addMember, api, baseURL, unique } from './support/service';

/**
 * Opens each page at a phone's, a tablet's and a desktop's size, waits until it has settled,
 * saves a screenshot, and checks nothing widens it or has to be dragged sideways, no select cuts
 * its value off (and, on the signed-in pages, that the heading is clear of the header).
 */
async function visitAtEverySize(
  page: Page,
  pages: [name: string, path: string][],
  { header }: { header: boolean },
): Promise<void> {
  for (const viewport of [PHONE, TABLET, DESKTOP]) {
    await page.setViewportSize(viewport);
    for (const [name, path] of pages) {
      const what = `${name} (${path.slice(0, 60)}) at ${viewport.name} size`;
      await page.goto(path);
      // Up to a minute a page: at load 35 a page's read has taken longer than 15 s.
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, {
        timeout: 60_000,
      });
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await screenshot(page, `pages-${viewport.name}-${name}`);
      await expectNoHorizontalOverflow(page, what, { soft: true });
      await expectNoSidewaysScrolling(page, what, { soft: true });
      if (header) await expectHeadingClear(page, what, { soft: true });
      await expectNoCutOffSelects(page, what, { soft: true });
    }
  }
}

/**
 * Every page of the dashboard, filled with the content that broke it (issue 31): names and
 * values without spaces at the lengths the contract allows. At a phone's, a tablet's and a laptop's size
 * nothing widens the page, nothing has to be dragged sideways (tables become lists on a phone),
 * and the heading is clear of the header. Screenshots land in tmp/web-e2e/screenshots.
 */
test.describe('Every page with stress content', () => {
  test('no page scrolls sideways at phone (390×844), tablet (768×1024) or desktop size, tables become lists on a phone, and no select cuts its value off', async ({
    page,
  }) => {
    // 28 pages at three sizes, each waited on until settled: room for a loaded machine (at load
    // 30–38 this test took 9.2 minutes).
    test.setTimeout(900_000);
    const long = (label: string, n: number) =>
      `${label}${'W'.repeat(Math.max(0, n - label.length))}`;
    // An organisation of its own, whose names are as long as sign-up allows.
    const owner = await signUpOwner('pages', long('Owner', 100));
    await page.context().addCookies([
      {
        name: 'session',
        value: owner.cookie.slice('session='.length),
        url: baseURL.replace('//127.0.0.1:', '//localhost:'),
      },
    ]);
    const as = { cookie: owner.cookie };
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      ...as,
      body: { name: long('key', 32), expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: key.key, baseURL });
    const word = unique('wide').replace('-', '');
    const interrupt = await agent.interrupts.create({
      title: `${word}${'x'.repeat(180)}`,
      description: `https://example.com/${'a'.repeat(2_000)}`,
      actionRequests: [
        { name: `deploy_${'y'.repeat(120)}`, args: { path: `/var/${'q'.repeat(400)}` } },
      ],
      metadata: { ticket: 't'.repeat(300) },
    });
    // 150 emoji, the third kind of unbroken text: in a title (200 characters are code
    // points, so they fit), a description and an argument's value.
    const emoji = '🚀'.repeat(150);
    const emojiInterrupt = await agent.interrupts.create({
      title: `${word}${emoji}`,
      description: emoji,
      actionRequests: [{ name: 'launch', args: { payload: emoji } }],
    });
    const answered = await agent.interrupts.create({
      title: `answered ${'z'.repeat(180)}`,
      actionRequests: [{ name: `go_${'g'.repeat(120)}` }],
    });
    await api('POST', `/api/interrupts/${answered.id}/decisions`, {
      ...as,
      body: { actionName: `go_${'g'.repeat(120)}`, decision: 'reject', message: 'm'.repeat(500) },
    });
    const session = await agent.sessions.start({ name: long('session', 200) });
    await agent.sessions.append(session.id, [
      { role: 'agent', content: `${'c'.repeat(3_000)} **bold** [link](https://example.com)` },
    ]);
    const { body: webhook } = await api<{ id: string }>('POST', '/api/webhooks', {
      ...as,
      body: {
        url: `http://127.0.0.1:9/${'h'.repeat(400)}`,
        eventTypes: ['interrupt.created'],
        description: 'd'.repeat(200),
      },
    });
    await api('POST', '/api/teams', { ...as, body: { name: long('team', 50) } });
    const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
      'GET',
      '/api/roles',
      as,
    );
    await api('POST', '/api/invitations', {
      ...as,
      body: {
        email: `${'i'.repeat(64)}@${'e'.repeat(60)}.example.com`,
        roleId: roles.roles.find((r) => r.builtIn === 'developer')?.id,
      },
    });
    await addMember(owner, 'manager', long('Manager', 100));
    const { body: rule } = await api<{ id: string }>('POST', '/api/classification/rules', {
      ...as,
      body: {
        name: long('rule', 100),
        mode: 'shadow',
        match: { actions: [`deploy_${'y'.repeat(120)}`] },
        outcome: { type: 'approve' },
      },
    });
    // Single sign-on against a real provider (the API reads its discovery document), with as
    // many domains as allowed, each as long as a DNS label allows.
    const { body: sso } = await api<{ redirectUri: string }>('GET', '/api/organisation/sso', as);
    const provider = await startOidcProvider({
      clientId: 'c'.repeat(255),
      clientSecret: 'every-page-secret',
      redirectUri: sso.redirectUri,
    });
    try {
      await api('PUT', '/api/organisation/sso', {
        ...as,
        body: {
          issuer: provider.issuer,
          clientId: 'c'.repeat(255),
          clientSecret: 'every-page-secret',
          allowedDomains: Array.from(
            { length: 20 },
            (_, i) => `${'d'.repeat(45)}${i}${word.toLowerCase()}.${'s'.repeat(40)}.example.com`,
          ),
          defaultRoleId: roles.roles.find((r) => r.builtIn === 'developer')?.id,
        },
      });
    } finally {
      await provider.stop();
    }

    const action = `deploy_${'y'.repeat(120)}`;
    const pages: [name: string, path: string][] = [
      ['inbox', '/inbox'],
      ['inbox-answered', '/inbox?status=answered'],
      ['interrupt', `/interrupts/${interrupt.id}`],
      ['interrupt-answered', `/interrupts/${answered.id}`],
      ['interrupt-emoji', `/interrupts/${emojiInterrupt.id}`],
      ['confirm', `/interrupts/${interrupt.id}/confirm?action=${action}&decision=approve`],
      ['sessions', '/sessions'],
      ['live-view', `/sessions/${session.id}`],
      ['audit-log', '/audit-log'],
      ['api-keys', '/integrations/api-keys'],
      ['webhooks', '/integrations/webhooks'],
      ['webhook', `/integrations/webhooks/${webhook.id}`],
      ['members', '/members'],
      ['invitations', '/invitations'],
      ['roles', '/roles'],
      ['teams', '/teams'],
      ['organisation', '/organisation'],
      ['settings', '/settings'],
      ['profile', '/settings/profile'],
      ['security', '/settings/security'],
      ['notifications', '/settings/notifications'],
      ['classification', '/settings/classification'],
      ['classification rule', '/settings/classification/new'],
      ['classification rule (existing)', `/settings/classification/${rule.id}`],
      ['deadlines', '/settings/deadlines'],
      ['single sign-on', '/organisation/sso'],
      ['escalation', '/settings/escalation'],
      ['not-found', '/no-such-page'],
    ];
    await visitAtEverySize(page, pages, { header: true });

    // On a phone a table is a list: a member's row is a card, each value under its column's name.
    await page.setViewportSize(PHONE);
    await page.goto('/members');
    const email = page.getByRole('cell', { name: owner.email });
    await expect(email).toHaveAttribute('data-label', 'Email');
    const [row, cell] = await Promise.all([
      email.locator('xpath=..').boundingBox(),
      email.boundingBox(),
    ]);
    expect(cell?.width, "the cell takes the card's width").toBeGreaterThan((row?.width ?? 0) - 40);
    expect(await page.getByRole('columnheader', { name: 'Email' }).isVisible()).toBe(false);
  });

  test.describe('signed out', () => {
    test.use({ storageState: { cookies: [], origins: [] } });

    test('the sign-in pages fit a phone, a tablet and a desktop', async ({ page }) => {
      // 12 pages at three sizes, and an emailed link to wait for.
      test.setTimeout(420_000);
      const word = unique('public').replace('-', '');
      // An invitation to an organisation whose owner's name is as long as sign-up allows, to an
      // address as long as the contract allows.
      const owner = await signUpOwner('public', `Owner${'W'.repeat(95)}`);
      const as = { cookie: owner.cookie };
      const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
        'GET',
        '/api/roles',
        as,
      );
      const { body: invitation } = await api<{ token: string }>('POST', '/api/invitations', {
        ...as,
        body: {
          email: `${'i'.repeat(64)}@${'e'.repeat(60)}.example.com`,
          roleId: roles.roles.find((r) => r.builtIn === 'developer')?.id,
        },
      });
      // The single-use decision link a notification carries (the page opened from an email on a
      // phone), for an interrupt whose title, action and args have no spaces.
      await api('PATCH', '/api/notifications/settings', { ...as, body: { tokenActions: true } });
      const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
        ...as,
        body: { name: 'public-pages', expiry: 'never' },
      });
      await new Interlock({ apiKey: key.key, baseURL }).interrupts.create({
        title: `${word}${'x'.repeat(180)}`,
        description: `https://example.com/${'a'.repeat(2_000)}`,
        actionRequests: [
          { name: `deploy_${'y'.repeat(120)}`, args: { path: `/var/${'q'.repeat(400)}` } },
        ],
      });
      const mail = await receivedMail(owner.email, word);
      const decide = [...(mail.html as string).matchAll(/href="([^"]+)"/g)]
        .map((m) => m[1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '='))
        .find((href) => href.includes('/decide#'));
      expect(decide, 'the notification carries a decision link').toBeDefined();
      const decideUrl = new URL(decide as string);
      const madeUp = 'A'.repeat(43);
      const pages: [name: string, path: string][] = [
        ['sign-in', '/sign-in'],
        ['sign-in-sso', '/sign-in/sso'],
        // The page the identity provider sends people back to, here with a made-up answer: refused.
        ['sso-callback', '/sso/callback?code=x&state=y'],
        // The email change links' pages, with a token the service never sent: refused / the form.
        ['confirm-email-change', `/confirm-email-change#${'A'.repeat(43)}`],
        ['undo-email-change', `/undo-email-change#${'A'.repeat(43)}`],
        ['sign-up', '/sign-up'],
        // The emailed links' pages with a token the service never sent: each says so. (A real
        // sign-up or verification link is used up by opening it; the reset form is the same page.)
        ['complete-sign-up', `/complete-sign-up#${madeUp}`],
        ['complete-sign-up-no-link', '/complete-sign-up'],
        ['reset-password', `/reset-password#${madeUp}`],
        ['verify-email', `/verify-email#${madeUp}`],
        ['invitation', `/invitations/${invitation.token}`],
        ['decide', `${decideUrl.pathname}${decideUrl.hash}`],
      ];
      // Public pages: a centred card, no header.
      await visitAtEverySize(page, pages, { header: false });
    });
  });
});
