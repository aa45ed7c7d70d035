// The dashboard's main flows at a phone's size (390×844) and a tablet's (768×1024), where the
// layout differs (issue 31 §3): the navigation behind the burger at both, tables as lists on the
// phone and as tables on the tablet. Each flow is what a person does with a thumb, checked for
// sideways scrolling and for buttons that are on screen and big enough to hit. The pages have
// touch (hasTouch): the thumb's presses are taps.
import { Interlock } from '@interlock/sdk';
import type { Locator, Page } from '@playwright/test';
import { addMember, expect, expectAccessible, signUpOwner, test } from './support/fixtures';
import {
  expectHeadingClear,
  expectNoHorizontalOverflow,
  expectNoSidewaysScrolling,
  expectThumbSized,
  expectWhollyOnScreen,
  PHONE,
  TABLET,
} from './support/layout';
import { api, baseURL, unique, type Member } from './support/service';

/** Nothing to scroll sideways, on the page or inside it, and the heading clear of the header. */
async function expectFits(page: Page, what: string): Promise<void> {
  await expectNoHorizontalOverflow(page, what);
  await expectNoSidewaysScrolling(page, what);
}

/** Goes to a page of the main navigation the way a thumb does: the burger, then the link. */
async function navigateTo(page: Page, name: string): Promise<void> {
  const link = page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name, exact: true });
  await expect(link).not.toBeInViewport();
  const burger = page.getByRole('button', { name: 'Toggle navigation' });
  await expectThumbSized(burger, 'the navigation button');
  await burger.tap();
  await expect(link).toBeInViewport();
  await expectThumbSized(link, `the ${name} link`);
  await link.tap();
  await expect(link).not.toBeInViewport();
}

/**
 * A dialog (or form) that fits the phone: nothing sideways, on the page or inside it, and each
 * named button, once scrolled to (inside the dialog where it scrolls), wholly on screen and
 * big enough for a thumb.
 */
async function expectInReach(
  page: Page,
  within: Locator,
  buttons: string[],
  what: string,
): Promise<void> {
  await expect(within).toBeVisible();
  await expectFits(page, what);
  for (const name of buttons) {
    const button = within.getByRole('button', { name, exact: true });
    await button.scrollIntoViewIfNeeded();
    await expectWhollyOnScreen(button, `${what}: ${name}`);
    await expectThumbSized(button, `${what}: ${name}`);
  }
}

async function agentFor(owner: Member, name: string): Promise<Interlock> {
  const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: owner.cookie,
    body: { name, expiry: 'never' },
  });
  return new Interlock({ apiKey: body.key, baseURL });
}

for (const viewport of [PHONE, TABLET]) {
  const size = `${viewport.width}×${viewport.height}`;
  // A table at the tablet's size, a list of cards at the phone's.
  const asList = viewport.width < 768;

  test.describe(`Main flows on a ${viewport.name} (${size})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('sign up, create a key, the agent opens an interrupt, decide it with the thumb; the SDK gets the decisions', async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({
        storageState: { cookies: [], origins: [] },
        viewport,
        hasTouch: true,
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      const id = unique(`thumb-${viewport.name}`);

      await page.goto('/sign-up');
      await expectFits(page, 'the sign-up page');
      await page.getByLabel('Your name').fill('Ada Lovelace');
      await page.getByLabel('Work email').fill(`${id}@web-e2e.example.com`);
      await page.getByRole('textbox', { name: 'Password' }).fill(`correct horse ${id}`);
      await page.getByLabel('Organisation name').fill(`Analytical Engines ${id}`);
      const create = page.getByRole('button', { name: 'Create organisation' });
      await expectThumbSized(create, 'Create organisation');
      await create.tap();
      const welcome = page.getByRole('region', { name: 'Welcome to Interlock' });
      await expect(welcome).toHaveAttribute('data-getting-started', 'key');
      await expectFits(page, 'the welcome');
      await expectHeadingClear(page, 'the welcome');

      // A key, from the welcome: the dialog and its buttons fit the screen.
      await page.getByRole('button', { name: 'Create API key' }).tap();
      const dialog = page.getByRole('dialog', { name: 'Create an API key' });
      await dialog.getByLabel('Name').fill(`${viewport.name}-agent`);
      const createKey = dialog.getByRole('button', { name: 'Create key' });
      await expectWhollyOnScreen(createKey, 'Create key');
      await expectThumbSized(createKey, 'Create key');
      await createKey.tap();
      const shown = page.getByRole('dialog', { name: 'Copy your new key' });
      const copy = shown.getByRole('button', { name: 'Copy key' });
      await expectWhollyOnScreen(copy, 'Copy key');
      await copy.tap();
      await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
      await expectFits(page, 'the new key shown once');
      const key = await page.evaluate(() => navigator.clipboard.readText());
      expect(key).toMatch(/^ilk_[A-Za-z]{64}$/);
      await shown.getByRole('button', { name: 'Done' }).tap();
      await expect(welcome).toHaveAttribute('data-getting-started', 'agent');
      // The commands to run the agent wrap rather than widen the page.
      await expect(page.getByLabel('Commands to run the agent').first()).toContainText(
        'INTERLOCK_BASE_URL',
      );
      await expectFits(page, 'the agent commands');

      await navigateTo(page, 'Inbox');
      await expect(page.getByText('Nothing waits for a decision')).toBeVisible({ timeout: 60_000 });

      // The agent, with the copied key, asks; the row appears without a reload.
      const agent = new Interlock({ apiKey: key, baseURL });
      const created = await agent.interrupts.create({
        title: `Refund order #${viewport.width}`,
        description: 'The parcel arrived **damaged**; photos in the ticket.',
        actionRequests: [
          { name: 'refund', args: { amount: 40, currency: 'EUR' } },
          {
            name: 'notify_customer',
            args: { template: 'refund-issued' },
            allowedDecisions: ['approve', 'reject'],
          },
        ],
      });
      const answered = agent.interrupts.waitForAnswer(created.id, {
        pollInterval: 500,
        timeout: 150_000,
      });
      const table = page.getByRole('table', { name: 'Interrupts' });
      const row = table.getByRole('row').filter({ hasText: `Refund order #${viewport.width}` });
      await expect(row).toContainText('refund, notify_customer');
      await expect(row.locator('[data-agent-context]')).toHaveText(`by ${viewport.name}-agent`);
      // A card on the phone (no column headings to read across), a table row on the tablet.
      await expect(table.getByRole('columnheader', { name: 'Interrupt', exact: true })).toBeVisible(
        {
          visible: !asList,
        },
      );
      await expectFits(page, 'the inbox with a row');
      await expectAccessible(page, `the inbox at ${size}`);

      const link = row.getByRole('link', { name: `Refund order #${viewport.width}` });
      await expectThumbSized(link, 'the row’s link');
      await link.tap();
      await expect(page.getByText('damaged', { exact: true })).toBeVisible();
      await expectFits(page, 'the interrupt page');
      await expectHeadingClear(page, 'the interrupt page');

      // One button approves both actions; it is reached without scrolling and sized for a thumb.
      const approveAll = page.getByRole('button', { name: 'Approve all 2 actions' });
      await expectWhollyOnScreen(approveAll, 'Approve all');
      await expectThumbSized(approveAll, 'Approve all');
      await approveAll.tap();
      await expect(page.getByText('Answered', { exact: true })).toBeVisible();
      // (axe once the notification has gone: it measures a fading one's colours half-drawn.)
      await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 30_000 });
      await expectFits(page, 'the answered interrupt');
      await expectAccessible(page, `the answered interrupt at ${size}`);

      const result = await answered;
      expect(result.status).toBe('answered');
      expect(result.decisions.map((d) => [d.actionName, d.decision])).toEqual([
        ['refund', 'approve'],
        ['notify_customer', 'approve'],
      ]);
      await context.close();
    });

    test('bulk approve with Undo: the selection, the dialog and the Undo button are in reach; undone sends nothing, let run it is sent', async ({
      pageFor,
    }) => {
      test.setTimeout(150_000);
      const owner = await signUpOwner(`bulk-${viewport.name}`);
      const agent = await agentFor(owner, 'bulk-agent');
      const word = unique('thumb').replace('-', '');
      const titles = [1, 2, 3].map((n) => `Bulk ${word} ${'item'.repeat(n)}`);
      for (const title of titles)
        await agent.interrupts.create({ title, actionRequests: [{ name: 'pay', args: {} }] });

      const page = await pageFor(owner, { viewport, hasTouch: true });
      // The page's timers run on a clock the test moves: the undo window without waiting.
      await page.clock.install();
      await page.goto(`/inbox?q=${word}`);
      const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
      // The first read waits up to a minute: the machine may be busy.
      await expect(rows.filter({ hasText: `Bulk ${word}` })).toHaveCount(3, { timeout: 60_000 });
      await expectFits(page, 'the inbox');

      const all = page.getByRole('checkbox', {
        name: 'Select every interrupt that can be approved',
      });
      await expect(all).toBeVisible();
      await all.tap();
      await expect(all).toBeChecked();
      const approveSelected = page.getByRole('button', { name: 'Approve selected (3)' });
      await expectWhollyOnScreen(approveSelected, 'Approve selected');
      await expectThumbSized(approveSelected, 'Approve selected');
      if (asList) {
        // On the phone it waits in a bar at the bottom of the screen, where the thumb is.
        const bar = page.getByRole('region', { name: 'Selected interrupts' });
        await expect(bar.getByRole('button', { name: 'Approve selected (3)' })).toBeVisible();
        const box = await bar.boundingBox();
        expect(box && box.y + box.height, 'the bar’s bottom edge').toBeCloseTo(viewport.height, 0);
        // The last card can still be scrolled clear of the bar.
        const last = rows.last();
        await last.scrollIntoViewIfNeeded();
        await page.mouse.wheel(0, 2_000);
        const [lastBox, barBox] = [await last.boundingBox(), await bar.boundingBox()];
        expect(
          lastBox && barBox && lastBox.y + lastBox.height <= barBox.y,
          'the last card clears the bar',
        ).toBe(true);
      }
      await approveSelected.tap();
      const dialog = page.getByRole('dialog', { name: 'Approve 3 interrupts?' });
      for (const name of ['Approve all', 'Cancel']) {
        const button = dialog.getByRole('button', { name });
        await expectWhollyOnScreen(button, `the dialog's ${name}`);
        await expectThumbSized(button, `the dialog's ${name}`);
      }
      await expectFits(page, 'the bulk dialog');
      await dialog.getByRole('button', { name: 'Approve all' }).tap();
      await expect(dialog).toBeHidden();
      await expect(rows.filter({ hasText: `Bulk ${word}` })).toHaveCount(0);

      // The Undo button of the held approval: on screen, big enough, and it sends nothing.
      await expect(page.getByText('Approving 3 interrupts in')).toBeVisible();
      const undoButton = page.getByRole('button', { name: 'Undo' });
      await expectWhollyOnScreen(undoButton, 'Undo');
      await expectThumbSized(undoButton, 'Undo');
      await expectFits(page, 'the held approval');
      await undoButton.tap();
      await expect(page.getByText('Undone: 3 interrupts was not sent.')).toBeVisible();
      await expect(rows.filter({ hasText: `Bulk ${word}` })).toHaveCount(3);
      await page.clock.runFor(10_000);
      for (const it of (await agent.interrupts.list({ status: 'open' })).data)
        expect(it.decisions, it.title).toEqual([]);

      // Again, and this time the window runs out: all three are approved.
      await all.check();
      await page.getByRole('button', { name: 'Approve selected (3)' }).tap();
      await dialog.getByRole('button', { name: 'Approve all' }).tap();
      await expect(page.getByText('Approving 3 interrupts in')).toBeVisible();
      await page.clock.runFor(10_000);
      await expect(page.getByText('Approved 3 interrupts')).toBeVisible();
      const answered = (await agent.interrupts.list({ status: 'answered' })).data;
      expect(answered.map((i) => i.title).sort()).toEqual([...titles].sort());
      expect(answered.flatMap((i) => i.decisions.map((d) => d.decision))).toEqual([
        'approve',
        'approve',
        'approve',
      ]);
    });

    test('audit log: pick the actor and the target by name, read the result and an entry', async ({
      pageFor,
    }) => {
      test.setTimeout(150_000);
      const owner = await signUpOwner(`audit-${viewport.name}`);
      const colleague = await addMember(owner, 'developer', 'Grace Hopper');
      const agent = await agentFor(owner, 'pager-agent');
      const { body: quiet } = await api<{ id: string }>('POST', '/api/api-keys', {
        cookie: owner.cookie,
        body: { name: 'quiet-agent', expiry: 'never' },
      });
      const created = await agent.interrupts.create({
        title: 'Restart the billing worker',
        actionRequests: [{ name: 'restart', args: { service: 'billing' } }],
      });
      await api('POST', `/api/interrupts/${created.id}/decisions`, {
        cookie: colleague.cookie,
        body: { actionName: 'restart', decision: 'approve' },
      });

      const page = await pageFor(owner, { viewport, hasTouch: true });
      await page.goto('/inbox');
      await navigateTo(page, 'Audit log');
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
      const table = page.getByRole('table', { name: 'Audit entries' });
      await expect(table).toContainText('interrupt.decided', { timeout: 60_000 });
      await expectFits(page, 'the audit log');
      await expectHeadingClear(page, 'the audit log');

      // The actor, by a part of the name: the colleague's entries only.
      const actor = page.getByRole('combobox', { name: 'Actor', exact: true });
      await actor.scrollIntoViewIfNeeded();
      await actor.fill('Grace');
      const grace = page.getByRole('option', { name: `Grace Hopper (${colleague.email})` });
      await expectWhollyOnScreen(grace, 'the colleague in the actor list');
      await grace.tap();
      await expect(page).toHaveURL(new RegExp(`actorId=${colleague.memberId}`));
      const entries = table.getByRole('row').filter({ has: page.getByRole('cell') });
      // As many as the API has for them (joining, the decision).
      const { body: theirs } = await api<{ entries: { action: string }[] }>(
        'GET',
        `/api/audit-log?actorId=${colleague.memberId}`,
        { cookie: owner.cookie },
      );
      expect(theirs.entries.map((e) => e.action)).toContain('interrupt.decided');
      await expect(entries).toHaveCount(theirs.entries.length);
      await expect(table).toContainText('interrupt.decided');
      await expect(table).not.toContainText('interrupt.created');
      await expectFits(page, 'the audit log filtered by actor');

      // Afresh ("Clear every filter"), the target: the quiet key, by name. The cleared actor
      // stays cleared (it came back when the target was picked before the router showed the
      // cleared address), and the dropdown opened meanwhile stays open.
      const clear = page.getByRole('button', { name: 'Clear every filter' });
      await clear.scrollIntoViewIfNeeded();
      await clear.tap();
      await expect(actor).toHaveValue('');
      await page.getByRole('combobox', { name: 'Target type' }).tap();
      await page.getByRole('option', { name: 'api_key', exact: true }).tap();
      const target = page.getByRole('combobox', { name: 'Target', exact: true });
      await target.fill('quiet');
      await page.getByRole('option', { name: /^quiet-agent/ }).tap();
      await expect(page).toHaveURL(new RegExp(`targetId=${quiet.id}`));
      expect(new URL(page.url()).searchParams.get('actorId')).toBeNull();
      await expect(actor).toHaveValue('');
      await expect(entries).toHaveCount(1);
      await expect(table).toContainText('api_key.created');
      await expectFits(page, 'the audit log filtered by target');

      // The entry itself, in a drawer that fits the screen.
      const details = table.getByRole('button', { name: /^Details of api_key.created/ });
      await details.scrollIntoViewIfNeeded();
      await expectThumbSized(details, 'Details');
      await details.tap();
      const drawer = page.getByRole('dialog', { name: 'Audit entry' });
      await expect(drawer.getByLabel('Metadata')).toContainText('"expiry": "never"');
      const close = drawer.getByRole('button', { name: 'Close the entry' });
      await expectWhollyOnScreen(close, 'the drawer’s close button');
      await expectFits(page, 'an audit entry');
      await expectAccessible(page, `an audit entry at ${size}`);
      await close.tap();
      await expect(drawer).toBeHidden();
    });

    test('Live View: a streaming session follows the newest message and fits the screen', async ({
      pageFor,
    }) => {
      test.setTimeout(120_000);
      const owner = await signUpOwner(`live-${viewport.name}`);
      const agent = await agentFor(owner, 'stream-agent');
      const session = await agent.sessions.start({ name: `Nightly reconciliation ${size}` });
      await agent.sessions.append(session.id, [
        { role: 'agent', content: 'Starting: **14** refunds in the queue.' },
      ]);

      const page = await pageFor(owner, { viewport, hasTouch: true });
      await page.goto('/inbox');
      await navigateTo(page, 'Sessions');
      const sessions = page.getByRole('table', { name: 'Sessions' });
      await sessions.getByRole('link', { name: `Nightly reconciliation ${size}` }).tap();
      await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
      const log = page.getByRole('log', { name: 'Session messages' });
      await expect(log.locator('strong')).toHaveText('14');
      await expectFits(page, 'the Live View');
      await expectHeadingClear(page, 'the Live View');

      // The agent goes on, with a line no phone is wide enough for: it streams in and wraps.
      await agent.sessions.append(session.id, [
        { role: 'tool', content: `{"path": "/var/${'q'.repeat(300)}"}` },
        ...Array.from({ length: 30 }, (_, i) => ({
          role: 'agent' as const,
          content: `Refund ${i + 1} checked`,
        })),
      ]);
      await expect(log.getByText('Refund 30 checked', { exact: true })).toBeInViewport();
      await expect(page.getByText('32 of 32 messages received')).toBeVisible();
      await expectFits(page, 'the Live View with a long line');

      await agent.sessions.end(session.id);
      await expect(page.getByText('The session has finished.')).toBeVisible();
      await expectAccessible(page, `the Live View at ${size}`);
    });
  });
}

// The settings' dialogs and forms at the phone's size only (the tablet's is wider than each).
test.describe(`Settings dialogs on a phone (${PHONE.width}×${PHONE.height})`, () => {
  test('create a key, add a webhook, invite a member: each dialog fits, its buttons in reach of the thumb', async ({
    pageFor,
  }) => {
    test.setTimeout(150_000);
    const owner = await signUpOwner('dialogs-phone');
    const page = await pageFor(owner, { viewport: PHONE, hasTouch: true });
    await page.goto('/inbox');
    await navigateTo(page, 'Integrations');

    // A key: the form, then the key shown once.
    await page.getByRole('button', { name: 'Create API key' }).tap();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('phone-agent');
    await expectInReach(page, create, ['Cancel', 'Create key'], 'the create-key dialog');
    await create.getByRole('button', { name: 'Create key' }).tap();
    const key = page.getByRole('dialog', { name: 'Copy your new key' });
    await expectInReach(page, key, ['Copy key', 'Done'], 'the new key');
    await key.getByRole('button', { name: 'Done' }).tap();
    await expect(key).toBeHidden();

    // A webhook: the longest form (every event type), then its secret shown once.
    await page.getByRole('tab', { name: 'Webhooks' }).tap();
    await page.getByRole('button', { name: 'Add webhook' }).tap();
    const add = page.getByRole('dialog', { name: 'Add a webhook' });
    const url = `http://127.0.0.1:9/${unique('phone-hook')}`;
    await add.getByLabel('URL').fill(url);
    await add.getByRole('radio', { name: 'Only these events' }).tap();
    await expectInReach(page, add, ['Cancel', 'Add webhook'], 'the add-webhook dialog');
    await add.getByRole('checkbox', { name: /\(interrupt\.decided\)/ }).tap();
    await add.getByRole('button', { name: 'Add webhook' }).tap();
    const secret = page.getByRole('dialog', { name: 'Copy the signing secret' });
    await expect(secret.getByLabel(`Signing secret of ${url}`)).toHaveText(/^whsec_/);
    await expectInReach(page, secret, ['Copy secret', 'Done'], 'the signing secret');
    await secret.getByRole('button', { name: 'Done' }).tap();
    await expect(secret).toBeHidden();
    await expect(page.getByRole('table', { name: 'Webhooks' })).toContainText(url);

    // A member: the invitation form, then its one-time link.
    await navigateTo(page, 'Invitations');
    const form = page.getByRole('form', { name: 'Invite a member' });
    await form.getByLabel('Email').fill(`${unique('invitee')}@web-e2e.example.com`);
    await expectInReach(page, form, ['Create invitation'], 'the invitation form');
    await form.getByRole('button', { name: 'Create invitation' }).tap();
    const invited = page.getByRole('alert').filter({ hasText: 'Send this link to' });
    await expect(invited.getByLabel('Invitation link')).toContainText('/invitations/');
    await expectInReach(page, invited, ['Copy link'], 'the invitation link');
  });
});
