import { Interlock } from '@interlock/sdk';
import type { Route } from '@playwright/test';
import { addMember, expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, baseURL, unique, type Member } from './support/service';

async function agentFor(member: Member): Promise<Interlock> {
  const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: member.cookie,
    body: { name: unique('agent').slice(0, 20), expiry: 'never' },
  });
  return new Interlock({ apiKey: body.key, baseURL });
}

test.describe('Inbox and interrupts', () => {
  test('flow 1: sign up, create a key, the agent’s interrupt appears live, edit one action and approve the other; the SDK gets the decisions; a colleague sees it answered live', async ({
    browser,
    pageFor,
  }) => {
    // The longest flow (sign-up, a key, two browsers, four axe runs): room for a loaded machine.
    test.setTimeout(180_000);
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const id = unique('flow1');

    // Sign up.
    await page.goto('/sign-up');
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Work email').fill(`${id}@web-e2e.example.com`);
    await page.getByRole('textbox', { name: 'Password' }).fill(`correct horse ${id}`);
    await page.getByLabel('Organisation name').fill(`Analytical Engines ${id}`);
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.getByText('Welcome to Interlock')).toBeVisible();
    // The welcome's steps (issue 31 §7) move on by themselves: first, a key.
    const welcome = page.getByRole('region', { name: 'Welcome to Interlock' });
    await expect(welcome).toHaveAttribute('data-getting-started', 'key');

    // Create a key: shown once, copied.
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page
      .getByRole('dialog', { name: 'Create an API key' })
      .getByLabel('Name')
      .fill('refund-agent');
    await page
      .getByRole('dialog', { name: 'Create an API key' })
      .getByRole('button', { name: 'Create key' })
      .click();
    const shown = page.getByRole('dialog', { name: 'Copy your new key' });
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^ilk_[A-Za-z]{64}$/);
    await shown.getByRole('button', { name: 'Done' }).click();
    // Then the agent, with commands that name this server (install, key, base URL).
    await expect(welcome).toHaveAttribute('data-getting-started', 'agent');
    await expect(page.getByLabel('Commands to run the agent').first()).toContainText(
      `export INTERLOCK_BASE_URL=${new URL(page.url()).origin}`,
    );

    // A colleague, in a browser of their own, watches the Answered tab.
    const sessionCookie = (await context.cookies()).find((c) => c.name === 'session');
    const owner: Member = {
      name: 'Ada Lovelace',
      email: `${id}@web-e2e.example.com`,
      password: '',
      cookie: `session=${sessionCookie?.value}`,
      memberId: '',
      organisationName: '',
      organisationId: '',
    };
    const colleague = await addMember(owner, 'developer', 'Grace Hopper');
    const theirs = await pageFor(colleague);
    await theirs.goto('/inbox?tab=answered');
    await expect(theirs.getByText('Nothing answered yet')).toBeVisible();

    await page.getByRole('link', { name: 'Inbox' }).click();
    await expect(page.getByText('Nothing waits for a decision')).toBeVisible();
    await expectAccessible(page, 'the empty inbox');

    // The agent, with the copied key, asks.
    const agent = new Interlock({ apiKey: key, baseURL });
    const created = await agent.interrupts.create({
      title: 'Refund order #1042',
      description: 'The customer reports a damaged parcel.',
      actionRequests: [
        { name: 'refund', args: { amount: 40, currency: 'EUR', order: '1042' } },
        {
          name: 'notify_customer',
          args: { template: 'refund-issued' },
          allowedDecisions: ['approve', 'reject'],
        },
      ],
    });
    const answered = agent.interrupts.waitForAnswer(created.id, {
      pollInterval: 500,
      timeout: 120_000,
    });

    // It appears without a reload.
    const row = page
      .getByRole('table', { name: 'Interrupts' })
      .getByRole('row')
      .filter({ hasText: 'Refund order #1042' });
    await expect(row).toBeVisible();
    await expect(row).toContainText('refund, notify_customer');
    // Which agent asked: the key's name.
    await expect(row.locator('[data-agent-context]')).toHaveText('by refund-agent');
    await expect(page.getByRole('tab', { name: 'Open (1)' })).toBeVisible();
    // The welcome moved on: decide it here.
    await expect(welcome.getByRole('link', { name: 'Decide it here' })).toHaveAttribute(
      'href',
      `/interrupts/${created.id}`,
    );
    await expectAccessible(page, 'the inbox');
    await screenshot(page, 'inbox');

    await row.getByRole('link', { name: 'Refund order #1042' }).click();
    await expect(page.getByRole('heading', { name: 'Refund order #1042' })).toBeVisible();
    await expect(page.getByLabel('Arguments of refund')).toContainText('"amount":40');
    // Only the decisions each action allows.
    await expect(page.getByRole('button', { name: 'Edit notify_customer' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Respond to notify_customer' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Respond to refund' })).toBeVisible();
    await expectAccessible(page, 'the interrupt page');
    await screenshot(page, 'interrupt');

    // Edit: the JSON is checked before anything is sent.
    await page.getByRole('button', { name: 'Edit refund' }).click();
    const editor = page.getByLabel('Edited arguments for refund');
    await editor.fill('{"amount": 35, "currency": "EUR"');
    await page.getByRole('button', { name: 'Send edit' }).click();
    await expect(page.getByText(/Not valid JSON/)).toBeVisible();
    await editor.fill('[35]');
    await page.getByRole('button', { name: 'Send edit' }).click();
    await expect(
      page.getByText('The edited arguments must be a JSON object ({…}), not an array.'),
    ).toBeVisible();
    await editor.fill('{"amount": 35, "currency": "EUR", "order": "1042"}');
    await page.getByLabel('Run a different action instead (optional)').fill('partial_refund');
    await expectAccessible(page, 'the edit editor');
    await page.getByRole('button', { name: 'Send edit' }).click();
    await expect(page.getByText(/^Edited by Ada Lovelace/)).toBeVisible();
    await expect(page.getByText('Runs partial_refund instead')).toBeVisible();

    await page.getByRole('button', { name: 'Approve notify_customer' }).click();
    await expect(page.getByText(/^Approved by Ada Lovelace/)).toBeVisible();
    await expect(page.getByText('Answered', { exact: true })).toBeVisible();

    const result = await answered;
    expect(result.status).toBe('answered');
    expect(result.decisions.find((d) => d.actionName === 'refund')?.editedName).toBe(
      'partial_refund',
    );
    expect(
      result.decisions.map((d) => ({
        actionName: d.actionName,
        decision: d.decision,
        editedArgs: d.editedArgs,
      })),
    ).toEqual([
      {
        actionName: 'refund',
        decision: 'edit',
        editedArgs: { amount: 35, currency: 'EUR', order: '1042' },
      },
      { actionName: 'notify_customer', decision: 'approve', editedArgs: null },
    ]);

    // The colleague's Answered tab shows it, live.
    await expect(
      theirs
        .getByRole('table', { name: 'Interrupts' })
        .getByRole('row')
        .filter({ hasText: 'Refund order #1042' }),
    ).toBeVisible();
    // Answered: the welcome has done its job.
    await page.goto('/inbox');
    await expect(page.getByRole('table', { name: 'Interrupts' })).toHaveCount(0);
    await expect(page.getByText('Nothing waits for a decision')).toBeVisible();
    await expect(welcome).toHaveCount(0);
    await context.close();
  });

  test('flow 2: the same decisions with the keyboard only; r asks for a reason; shortcuts can be turned off', async ({
    page,
    owner,
  }) => {
    const agent = await agentFor(owner);
    const word = unique('kbd').replace('-', '');
    const release = await agent.interrupts.create({
      title: `Release ${word} to production`,
      actionRequests: [
        { name: 'deploy', args: { version: '1.4.2' } },
        { name: 'announce', args: { channel: '#releases' } },
      ],
    });
    const cleanup = await agent.interrupts.create({
      title: `Drop ${word} staging database`,
      actionRequests: [{ name: 'drop_database', args: { name: 'staging' } }],
    });

    await page.goto(`/inbox?q=${word}&order=oldest`);
    const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
    await expect(rows.filter({ hasText: `Release ${word}` })).toBeVisible();

    // j moves to the first row; e opens the editor of its first editable action.
    await page.keyboard.press('j');
    await expect(page.getByRole('link', { name: `Release ${word} to production` })).toBeFocused();
    await page.keyboard.press('e');
    const editor = page.getByLabel('Edited arguments for deploy');
    await expect(editor).toBeFocused();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"version": "1.4.3"}');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByText(/^Edited by Ada Lovelace/)).toBeVisible();

    // Back to the inbox (the browser's Back: headless Chromium has no Alt+Left). a shows what
    // would be approved — the action left and its arguments — and approves nothing yet.
    await page.goBack();
    await expect(rows.filter({ hasText: `Release ${word}` })).toContainText(
      '1 of 2 still to decide',
    );
    await page.keyboard.press('j');
    await expect(page.getByRole('link', { name: `Release ${word} to production` })).toBeFocused();
    await page.keyboard.press('a');
    const confirm = page.getByRole('dialog', { name: `Approve “Release ${word} to production”?` });
    await expect(confirm.getByLabel('Arguments of announce')).toContainText(
      '"channel": "#releases"',
    );
    await expect(confirm.getByLabel('Arguments of deploy')).toHaveCount(0);
    await expectAccessible(page, 'the approve confirmation');
    // Escape: nothing happened, the cursor is back on the row.
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('link', { name: `Release ${word} to production` })).toBeFocused();
    expect((await agent.interrupts.get(release.id)).decisions).toHaveLength(1);
    // The shortcuts wait until a closing dialog has left the page (use-inbox-shortcuts.ts):
    // hidden is not yet gone.
    await expect(page.locator('[role="dialog"]')).toHaveCount(0);
    // a, then Enter: the row leaves at once, the approval is sent when the undo window ends.
    await page.keyboard.press('a');
    await expect(confirm.getByRole('button', { name: 'Approve' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(rows.filter({ hasText: `Release ${word}` })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
    await expect.poll(async () => (await agent.interrupts.get(release.id)).status).toBe('answered');
    await expect(page.getByText(`Approved “Release ${word} to production”`)).toBeVisible();
    // The row now at the cursor's place has the focus (not the page's body), and the cursor with
    // it: j stays there (it is the last row).
    await expect(page.getByRole('link', { name: `Drop ${word} staging database` })).toBeFocused();

    // r on the next one asks for the reason.
    await page.keyboard.press('j');
    await expect(page.getByRole('link', { name: `Drop ${word} staging database` })).toBeFocused();
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: `Reject “Drop ${word} staging database”?` });
    await expect(dialog.getByLabel('Reason')).toBeFocused();
    // Escape closes it and gives focus back to the row (the dialog mounts only while open:
    // dialog-mount.ts), and r opens it again.
    await page.keyboard.press('Escape');
    await expect(page.locator('[role="dialog"]')).toHaveCount(0);
    await expect(page.getByRole('link', { name: `Drop ${word} staging database` })).toBeFocused();
    await page.keyboard.press('r');
    await expect(dialog.getByLabel('Reason')).toBeFocused();
    await page.keyboard.type('Staging is in use by the QA team today.');
    await page.keyboard.press('Control+Enter');
    await expect(dialog).toBeHidden();
    await expect(rows.filter({ hasText: `Drop ${word}` })).toHaveCount(0);
    // No row left: the empty state's heading has the focus, not the page's body.
    await expect(page.getByRole('heading', { name: 'No interrupt matches' })).toBeFocused();

    const decided = await agent.interrupts.get(release.id);
    expect(decided.decisions.map((d) => [d.actionName, d.decision, d.editedArgs])).toEqual([
      ['deploy', 'edit', { version: '1.4.3' }],
      ['announce', 'approve', null],
    ]);
    const rejected = await agent.interrupts.get(cleanup.id);
    expect(rejected.decisions).toMatchObject([
      {
        actionName: 'drop_database',
        decision: 'reject',
        message: 'Staging is in use by the QA team today.',
      },
    ]);

    // A person who relies on speech input turns single-key shortcuts off.
    await agent.interrupts.create({
      title: `Rotate ${word} credentials`,
      actionRequests: [{ name: 'rotate', args: {} }],
    });
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Single-key keyboard shortcuts' }).uncheck();
    await expectAccessible(page, 'the settings page');
    await page.goto(`/inbox?q=${word}`);
    await expect(rows.filter({ hasText: `Rotate ${word}` })).toBeVisible();
    await page.keyboard.press('j');
    await page.keyboard.press('a');
    await expect(page.getByRole('link', { name: `Rotate ${word} credentials` })).not.toBeFocused();
    await expect(rows.filter({ hasText: `Rotate ${word}` })).toBeVisible();
    expect(
      (await agent.interrupts.list({ status: 'open' })).data.some(
        (i) => i.title === `Rotate ${word} credentials`,
      ),
    ).toBe(true);
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Single-key keyboard shortcuts' }).check();
  });

  test('flow 3: two members decide the same action at once: one wins, the other sees who decided', async ({
    page,
    owner,
    pageFor,
  }) => {
    const agent = await agentFor(owner);
    const colleague = await addMember(owner, 'developer', 'Grace Hopper');
    const theirs = await pageFor(colleague);
    const created = await agent.interrupts.create({
      title: `Pay invoice ${unique('inv')}`,
      actionRequests: [{ name: 'pay', args: { amount: 1200 } }],
    });

    await Promise.all([
      page.goto(`/interrupts/${created.id}`),
      theirs.goto(`/interrupts/${created.id}`),
    ]);
    await expect(page.getByRole('button', { name: 'Approve pay' })).toBeVisible();
    await expect(theirs.getByRole('button', { name: 'Approve pay' })).toBeVisible();
    // "At once": each page's decision request is held in its browser until both have been sent,
    // then both go. Without it, one decision could land (and reach the other page live, replacing
    // its button) before the other page's click was dispatched.
    let sent = 0;
    let bothSent!: () => void;
    const both = new Promise<void>((resolve) => (bothSent = resolve));
    const holdUntilBoth = async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      if (++sent === 2) bothSent();
      await Promise.race([both, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await route.continue();
    };
    for (const p of [page, theirs]) await p.route('**/api/interrupts/*/decisions', holdUntilBoth);
    await Promise.all([
      page.getByRole('button', { name: 'Approve pay' }).click(),
      theirs.getByRole('button', { name: 'Approve pay' }).click(),
    ]);

    // A click returns once dispatched, not when its request is answered: wait for the decision.
    await expect
      .poll(async () => (await agent.interrupts.get(created.id)).decisions.length, {
        timeout: 15_000,
      })
      .toBe(1);
    const final = await agent.interrupts.get(created.id);
    expect(final.decisions).toHaveLength(1);
    const winner = final.decisions[0].decidedBy.name;
    const [winnerPage, loserPage] = winner === 'Ada Lovelace' ? [page, theirs] : [theirs, page];
    for (const p of [winnerPage, loserPage])
      await expect(p.getByText(new RegExp(`^Approved by ${winner}`))).toBeVisible();
    await expect(
      loserPage.getByRole('alert').filter({ hasText: `${winner} decided this first` }),
    ).toContainText('Action pay of this interrupt has already been decided.');
    await expect(winnerPage.getByText('decided this first')).toHaveCount(0);
  });

  test('bulk approve only where every action allows it; assign and escalate show as badges', async ({
    page,
    owner,
  }) => {
    const agent = await agentFor(owner);
    const word = unique('bulk').replace('-', '');
    await agent.interrupts.create({
      title: `Bulk ${word} one`,
      actionRequests: [{ name: 'a', args: {} }],
    });
    await agent.interrupts.create({
      title: `Bulk ${word} two`,
      actionRequests: [
        { name: 'b', args: {} },
        { name: 'c', args: {} },
      ],
    });
    const respondOnly = await agent.interrupts.create({
      title: `Bulk ${word} question`,
      actionRequests: [{ name: 'ask', args: {}, allowedDecisions: ['respond'] }],
    });

    await page.goto(`/inbox?q=${word}`);
    await expect(
      page.getByRole('checkbox', { name: `Bulk ${word} question cannot be approved in bulk` }),
    ).toBeDisabled();
    await page
      .getByRole('checkbox', { name: 'Select every interrupt that can be approved' })
      .check();
    await page.getByRole('button', { name: 'Approve selected (2)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve 2 interrupts?' });
    await expect(dialog).toContainText(`Bulk ${word} two (b, c)`);
    await dialog.getByRole('button', { name: 'Approve all' }).click();
    await expect(dialog).toBeHidden();
    const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
    await expect(rows.filter({ hasText: `Bulk ${word}` })).toHaveCount(1);
    // The button that opened the dialog is disabled (nothing selected): the first row left has
    // the focus, not the page's body.
    await expect(rows.getByRole('link', { name: `Bulk ${word} question` })).toBeFocused();
    await expect(page.getByText('Approved 2 interrupts')).toBeVisible();
    expect(
      (await agent.interrupts.list({ status: 'open' })).data
        .filter((i) => i.title.startsWith(`Bulk ${word}`))
        .map((i) => i.title),
    ).toEqual([`Bulk ${word} question`]);

    // Assign to me, escalate with a reason: the inbox shows both.
    await rows.getByRole('link', { name: `Bulk ${word} question` }).click();
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await expect(page.getByLabel('Assigned to Ada Lovelace').first()).toBeVisible();
    // The button left with its answer: the panel's heading has the focus, not the page's body.
    const assigneeHeading = page.getByRole('heading', { name: 'Assignee' });
    await expect(assigneeHeading).toBeFocused();
    // Unassign, then take it again.
    await page.getByRole('button', { name: 'Unassign' }).click();
    await expect(page.getByText('Nobody yet')).toBeVisible();
    await expect(assigneeHeading).toBeFocused();
    expect((await agent.interrupts.get(respondOnly.id)).assignee).toBeNull();
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await expect(page.getByLabel('Assigned to Ada Lovelace').first()).toBeVisible();
    await page.getByLabel('Reason for escalating (optional)').fill('Needs legal review');
    await page.getByRole('button', { name: 'Escalate' }).click();
    await expect(page.getByText('Level 1: Needs legal review')).toBeVisible();
    // The focus stays in the panel (its button, or its heading), not the page's body — also a
    // frame after the answer is shown, when a focus move made on its arrival would have run.
    await expect(page.locator(':focus')).toHaveText(/^Escalat(e|ion)$/);
    const focusedAfterAFrame = await page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve(document.activeElement?.textContent ?? '')),
          ),
        ),
    );
    expect(focusedAfterAFrame).toMatch(/^Escalat(e|ion)$/);
    await expect(page.getByText('Escalated', { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Respond to ask' }).click();
    await page.getByLabel('Response to ask').fill('Yes, go ahead after legal signs off.');
    await page.getByRole('button', { name: 'Send response' }).click();
    await expect(page.getByText(/^Responded by Ada Lovelace/)).toBeVisible();
    const final = await agent.interrupts.get(respondOnly.id);
    expect(final.decisions).toMatchObject([
      { decision: 'respond', message: 'Yes, go ahead after legal signs off.' },
    ]);
    await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
  });

  test('undo: an approval from the inbox is held for five seconds; Undo (or z) sends nothing, and the audit log has no trace of it', async ({
    page,
    owner,
  }) => {
    const agent = await agentFor(owner);
    const word = unique('undo').replace('-', '');
    const one = await agent.interrupts.create({
      title: `Undo ${word} one`,
      actionRequests: [{ name: 'pay', args: { amount: 10 } }],
    });
    const two = await agent.interrupts.create({
      title: `Undo ${word} two`,
      actionRequests: [{ name: 'pay', args: { amount: 20 } }],
    });
    // The page's timers run on a clock the test moves: past the window without waiting for it.
    await page.clock.install();
    await page.goto(`/inbox?q=${word}&order=oldest`);
    const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
    await expect(rows.filter({ hasText: `Undo ${word}` })).toHaveCount(2);

    // One, with the button.
    await page.keyboard.press('j');
    await page.keyboard.press('a');
    await page
      .getByRole('dialog', { name: `Approve “Undo ${word} one”?` })
      .getByRole('button', { name: 'Approve' })
      .click();
    await expect(rows.filter({ hasText: `Undo ${word} one` })).toHaveCount(0);
    await expect(page.getByText(`Approving “Undo ${word} one” in`)).toBeVisible();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText(`Undone: “Undo ${word} one” was not sent.`)).toBeVisible();
    await expect(rows.filter({ hasText: `Undo ${word} one` })).toBeVisible();

    // The other, with z (the cursor is back on a row after the dialog).
    await page.getByRole('link', { name: `Undo ${word} two` }).focus();
    await page.keyboard.press('a');
    await expect(
      page
        .getByRole('dialog', { name: `Approve “Undo ${word} two”?` })
        .getByRole('button', { name: 'Approve' }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(rows.filter({ hasText: `Undo ${word} two` })).toHaveCount(0);
    await page.keyboard.press('z');
    await expect(page.getByText(`Undone: “Undo ${word} two” was not sent.`)).toBeVisible();
    await expect(rows.filter({ hasText: `Undo ${word}` })).toHaveCount(2);

    await page.clock.runFor(10_000);
    for (const it of [one, two]) expect((await agent.interrupts.get(it.id)).decisions).toEqual([]);
    const { body: audit } = await api<{ entries: { action: string }[] }>(
      'GET',
      `/api/audit-log?targetType=interrupt&targetId=${one.id}`,
      { cookie: owner.cookie },
    );
    expect(audit.entries.map((e) => e.action)).toEqual(['interrupt.created']);
  });

  test('the bulk dialog keeps its buttons in view with 50 selected', async ({ page, owner }) => {
    const agent = await agentFor(owner);
    const word = unique('fifty').replace('-', '');
    for (let i = 1; i <= 50; i++) {
      await agent.interrupts.create({
        title: `Fifty ${word} number ${i} with a title long enough to take a line`,
        actionRequests: [{ name: 'go', args: { i } }],
      });
    }
    await page.clock.install();
    await page.goto(`/inbox?q=${word}`);
    await expect(
      page
        .getByRole('table', { name: 'Interrupts' })
        .getByRole('row')
        .filter({ hasText: `Fifty ${word}` }),
    ).toHaveCount(50);
    await page
      .getByRole('checkbox', { name: 'Select every interrupt that can be approved' })
      .check();
    await page.getByRole('button', { name: 'Approve selected (50)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve 50 interrupts?' });
    await expect(dialog.getByRole('button', { name: 'Approve all' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport();
    await dialog.getByRole('button', { name: 'Approve all' }).click();
    await expect(page.getByRole('table', { name: 'Interrupts' })).toBeHidden();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(
      page
        .getByRole('table', { name: 'Interrupts' })
        .getByRole('row')
        .filter({ hasText: `Fifty ${word}` }),
    ).toHaveCount(50);
    await page.clock.runFor(10_000);
    expect(
      (await agent.interrupts.list({ status: 'open', limit: 200 })).data.filter((i) =>
        i.title.startsWith(`Fifty ${word}`),
      ),
    ).toHaveLength(50);
  });

  test('interrupt page: a/e/r/s for the focused action, Approve all, and the next open interrupt after a decision (a setting turns it off)', async ({
    page,
    owner,
  }) => {
    const agent = await agentFor(owner);
    const word = unique('page').replace('-', '');
    const first = await agent.interrupts.create({
      title: `Page ${word} first`,
      actionRequests: [
        { name: 'x', args: { n: 1 } },
        { name: 'y', args: { n: 2 }, allowedDecisions: ['approve', 'reject'] },
        { name: 'z', args: { n: 3 } },
      ],
    });
    const second = await agent.interrupts.create({
      title: `Page ${word} second`,
      actionRequests: [
        { name: 'p', args: {} },
        { name: 'q', args: {} },
      ],
    });
    const third = await agent.interrupts.create({
      title: `Page ${word} third`,
      actionRequests: [{ name: 'w', args: {} }],
    });

    // Moving on is the app's default; the tests' browsers start with it off (support/service.ts).
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Open the next interrupt after deciding' }).check();
    await page.goto(`/inbox?q=${word}&order=oldest`);
    await page.getByRole('link', { name: `Page ${word} first` }).click();
    await expect(page.getByRole('button', { name: 'Approve all 3 actions' })).toBeVisible();
    // a: the first undecided action.
    await page.keyboard.press('a');
    await expect(page.getByRole('region', { name: 'x', exact: true })).toContainText(
      /Approved by Ada Lovelace/,
    );
    // s: y allows no response — said, nothing opened.
    await page.keyboard.press('s');
    await expect(page.getByText('y does not allow a response.')).toBeVisible();
    // r: y's reason, Ctrl+Enter sends.
    await page.keyboard.press('r');
    await expect(page.getByLabel('Reason for rejecting y (optional)')).toBeFocused();
    await page.keyboard.type('Not this one.');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByRole('region', { name: 'y', exact: true })).toContainText(
      /Rejected by Ada Lovelace/,
    );
    // The decided action's heading takes the focus once the decision is in (after the refresh
    // shows it), as the focus was still in y's form. (Had the reviewer opened z's editor first,
    // the focus would stay there: interrupt.route.spec.tsx.)
    await expect(page.getByRole('heading', { name: 'y', exact: true })).toBeFocused();
    // e on the last: its editor.
    await page.keyboard.press('e');
    await expect(page.getByLabel('Edited arguments for z')).toBeFocused();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"n": 4}');
    await page.keyboard.press('Control+Enter');
    // That answered it: the next open interrupt of the list opens.
    await expect(page).toHaveURL(new RegExp(`/interrupts/${second.id}$`));
    await expect(page.getByRole('heading', { name: `Page ${word} second` })).toBeVisible();
    expect(
      (await agent.interrupts.get(first.id)).decisions.map((d) => [
        d.actionName,
        d.decision,
        d.message,
        d.editedArgs,
      ]),
    ).toEqual([
      ['x', 'approve', null, null],
      ['y', 'reject', 'Not this one.', null],
      ['z', 'edit', null, { n: 4 }],
    ]);

    // Approve all: one click for every action.
    await page.getByRole('button', { name: 'Approve all 2 actions' }).click();
    await expect(page).toHaveURL(new RegExp(`/interrupts/${third.id}$`));
    expect((await agent.interrupts.get(second.id)).decisions.map((d) => d.decision)).toEqual([
      'approve',
      'approve',
    ]);

    // Turned off, the page stays.
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Open the next interrupt after deciding' }).uncheck();
    await page.goto(`/interrupts/${third.id}`);
    await page.getByRole('button', { name: 'Approve w' }).click();
    await expect(page.getByText(/^Approved by Ada Lovelace/)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/interrupts/${third.id}$`));
  });
});
