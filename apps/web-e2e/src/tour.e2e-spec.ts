// The README's pictures: an organisation with a realistic day of work, each main page as a
// reviewer sees it. The assertions check the pages show what was set up.
import { Interlock } from '@interlock/sdk';
import { expect, expectAccessible, screenshot, signUpOwner, test } from './support/fixtures';
import { api, baseURL, storageStateFor } from './support/service';

test('a tour of the main pages (screenshots for docs/), and flow 8: axe-core on every page', async ({
  browser,
}) => {
  // Eleven pages, each with an axe-core scan: the longest test here, given room on a busy machine.
  test.setTimeout(240_000);
  const owner = await signUpOwner('tour', 'Ada Lovelace');
  const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: owner.cookie,
    body: { name: 'billing-agent', expiry: '90d' },
  });
  await api('POST', '/api/api-keys', {
    cookie: owner.cookie,
    body: { name: 'deploy-bot', expiry: 'never' },
  });
  const { body: team } = await api<{ id: string }>('POST', '/api/teams', {
    cookie: owner.cookie,
    body: { name: 'Payments' },
  });
  const agent = new Interlock({ apiKey: key.key, baseURL });

  const session = await agent.sessions.start({
    name: 'Refund queue — nightly run',
    externalId: 'run-2211',
  });
  await agent.sessions.append(session.id, [
    { role: 'system', content: 'Policy: refunds above 100 EUR need a human.' },
    { role: 'agent', content: 'Reading 14 refund requests from the queue.' },
    { role: 'tool', content: '{"order": "1042", "amount": 240, "reason": "damaged parcel"}' },
    { role: 'agent', content: 'Order 1042 is above the limit: asking for review.' },
  ]);
  const refund = await agent.interrupts.create({
    title: 'Refund 240 EUR for order #1042',
    description: 'Parcel arrived damaged; photos attached to the ticket.',
    sessionId: session.id,
    actionRequests: [
      {
        name: 'refund',
        args: { order: '1042', amount: 240, currency: 'EUR', method: 'original_payment' },
      },
      {
        name: 'notify_customer',
        args: { template: 'refund-issued', locale: 'en-GB' },
        allowedDecisions: ['approve', 'reject'],
      },
    ],
  });
  const deploy = await agent.interrupts.create({
    title: 'Deploy api 2.14.0 to production',
    actionRequests: [{ name: 'deploy', args: { service: 'api', version: '2.14.0' } }],
  });
  await agent.interrupts.create({
    title: 'Delete 3 stale customer records',
    actionRequests: [{ name: 'delete_records', args: { ids: ['c_81', 'c_97', 'c_102'] } }],
  });
  const vendor = await agent.interrupts.create({
    title: 'Pay invoice INV-5521 (Acme Hosting)',
    actionRequests: [{ name: 'pay', args: { invoice: 'INV-5521', amount: 1890 } }],
  });
  const done = await agent.interrupts.create({
    title: 'Send the weekly usage report',
    actionRequests: [{ name: 'send_report', args: { week: 47 } }],
  });
  await api(`POST`, `/api/interrupts/${vendor.id}/assign`, {
    cookie: owner.cookie,
    body: { teamId: team.id },
  });
  await api(`POST`, `/api/interrupts/${deploy.id}/escalate`, {
    cookie: owner.cookie,
    body: { reason: 'Change freeze until Monday' },
  });
  await api(`POST`, `/api/interrupts/${done.id}/decisions`, {
    cookie: owner.cookie,
    body: { actionName: 'send_report', decision: 'approve' },
  });

  const context = await browser.newContext({
    storageState: storageStateFor(owner),
    viewport: { width: 1360, height: 860 },
  });
  const page = await context.newPage();
  await page.goto('/inbox');
  const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
  await expect(rows).toHaveCount(5);
  await expect(page.getByRole('tab', { name: 'Open (4)' })).toBeVisible();
  await screenshot(page, 'tour-inbox');

  await page.goto(`/interrupts/${refund.id}`);
  await expect(page.getByRole('heading', { name: 'Refund 240 EUR for order #1042' })).toBeVisible();
  await page.getByRole('button', { name: 'Edit refund' }).click();
  await page
    .getByLabel('Edited arguments for refund')
    .fill(
      '{\n  "order": "1042",\n  "amount": 180,\n  "currency": "EUR",\n  "method": "original_payment"\n}',
    );
  await screenshot(page, 'tour-interrupt');

  await page.goto(`/sessions/${session.id}`);
  await expect(
    page.getByRole('log', { name: 'Session messages' }).getByText('asking for review'),
  ).toBeVisible();
  await screenshot(page, 'tour-live-view');

  await page.goto('/integrations/api-keys');
  await expect(page.getByRole('table', { name: 'API keys' }).getByRole('row')).toHaveCount(3);
  await screenshot(page, 'tour-api-keys');

  await page.goto('/audit-log');
  await expect(page.getByRole('table', { name: 'Audit entries' })).toContainText(
    'interrupt.escalated',
  );
  await screenshot(page, 'tour-audit-log');

  // Flow 8: every page of the dashboard, as it shows with this organisation's data, has no
  // serious or critical axe-core finding (the flows check dialogs and states on the way).
  const pages: [string, string][] = [
    ['/inbox', 'Inbox'],
    ['/inbox?tab=escalated', 'Inbox'],
    ['/inbox?tab=answered', 'Inbox'],
    [`/interrupts/${refund.id}`, 'Refund 240 EUR for order #1042'],
    [`/interrupts/${done.id}`, 'Send the weekly usage report'],
    ['/sessions', 'Sessions'],
    [`/sessions/${session.id}`, 'Refund queue — nightly run'],
    ['/audit-log', 'Audit log'],
    ['/integrations/api-keys', 'Integrations'],
    ['/members', 'Members'],
    ['/invitations', 'Invitations'],
    ['/roles', 'Roles'],
    ['/teams', 'Teams'],
    ['/organisation', 'Organisation & billing'],
    ['/settings', 'Settings'],
    ['/no-such-page', 'Page not found'],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectAccessible(page, path);
  }
  await screenshot(page, 'tour-not-found');
  await page.goto('/sessions');
  await expect(page.getByRole('table', { name: 'Sessions' })).toContainText(
    'Refund queue — nightly run',
  );
  await screenshot(page, 'tour-sessions');
  await context.close();

  const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await signedOut.newPage();
  for (const [path, heading] of [
    ['/sign-in', 'Sign in to Interlock'],
    ['/sign-up', 'Create your organisation'],
    // An unknown token: the page says so (since one person may join several organisations).
    ['/invitations/not-a-real-token', 'This invitation is no longer valid'],
  ]) {
    await visitor.goto(path);
    await expect(visitor.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectAccessible(visitor, path);
  }
  await signedOut.close();
});
