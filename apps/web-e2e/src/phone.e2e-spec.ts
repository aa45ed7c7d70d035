import { Interlock } from '@interlock/sdk';
import { addMember, expect, expectAccessible, signUpOwner, test } from './support/fixtures';
import {
  expectHeadingClear,
  expectNoHorizontalOverflow,
  expectThumbSized,
  expectWhollyOnScreen,
  PHONE,
} from './support/layout';
import { api, baseURL } from './support/service';

test.describe('On a phone (390×844)', () => {
  test('a member finds an interrupt through the collapsed navigation, assigns it to a colleague, and decides both actions with the thumb; the agent gets the decisions', async ({
    pageFor,
  }) => {
    // An organisation of its own: its inbox holds only this test's interrupt.
    const owner = await signUpOwner('phone');
    const colleague = await addMember(owner, 'developer', 'Grace Hopper');
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'phone-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: key.key, baseURL });
    const created = await agent.interrupts.create({
      title: 'Refund order #2207',
      description: 'The parcel arrived **damaged**; the customer sent photos.',
      actionRequests: [
        { name: 'refund', args: { amount: 64, currency: 'EUR', order: '2207' } },
        {
          name: 'notify_customer',
          args: { template: 'refund-issued' },
          allowedDecisions: ['approve', 'reject'],
        },
      ],
    });

    const page = await pageFor(owner);
    await page.setViewportSize(PHONE);
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // The navigation is folded away behind the burger; it opens, and the Inbox link goes there.
    const inboxLink = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', {
      name: 'Inbox',
    });
    // (Folded away = moved off the screen.)
    await expect(inboxLink).not.toBeInViewport();
    const burger = page.getByRole('button', { name: 'Toggle navigation' });
    await expectThumbSized(burger, 'the navigation button');
    await burger.click();
    await expect(inboxLink).toBeInViewport();
    await inboxLink.click();
    await expect(page).toHaveURL(/\/inbox/);
    await expect(inboxLink).not.toBeInViewport();

    // The inbox is a list of cards: the row's title, its actions and who asked, in one column.
    const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
    const row = rows.filter({ hasText: 'Refund order #2207' });
    await expect(row).toContainText('refund, notify_customer');
    await expect(row.locator('[data-agent-context]')).toHaveText('by phone-agent');
    await expect(row).toContainText('Unassigned');
    await expectNoHorizontalOverflow(page, 'the inbox on a phone');
    await expectHeadingClear(page, 'the inbox on a phone');
    await expectAccessible(page, 'the inbox on a phone');

    await row.getByRole('link', { name: 'Refund order #2207' }).click();
    await expect(page.getByRole('heading', { name: 'Refund order #2207' })).toBeVisible();
    await expect(page.getByText('damaged', { exact: true })).toBeVisible();
    await expectNoHorizontalOverflow(page, 'the interrupt page on a phone');
    await expectHeadingClear(page, 'the interrupt page on a phone');

    // Assign it to the colleague: pick them by name from the list of members and teams.
    const assignTo = page.getByRole('combobox', { name: 'Assign to' });
    await assignTo.scrollIntoViewIfNeeded();
    await assignTo.click();
    const option = page.getByRole('option', { name: 'Grace Hopper' });
    await expectWhollyOnScreen(option, 'the colleague in the assignee list');
    await option.click();
    const assign = page.getByRole('button', { name: 'Assign', exact: true });
    await expectThumbSized(assign, 'the Assign button');
    await assign.click();
    await expect(page.getByLabel('Assigned to Grace Hopper').first()).toBeVisible();
    await expect
      .poll(async () => (await agent.interrupts.get(created.id)).assignee)
      .toEqual({
        type: 'member',
        id: colleague.memberId,
        name: 'Grace Hopper',
      });

    // Back in the inbox, the card says whose it is.
    await page.getByRole('link', { name: '← Inbox' }).click();
    await expect(row.getByLabel('Assigned to Grace Hopper')).toBeVisible();
    await row.getByRole('link', { name: 'Refund order #2207' }).click();

    // Deciding: each action's buttons are on screen and thumb-sized once its card is reached.
    const refundArgs = page.getByLabel('Arguments of refund');
    await refundArgs.scrollIntoViewIfNeeded();
    await expect(refundArgs).toContainText('"amount":64');
    const approve = page.getByRole('button', { name: 'Approve refund' });
    await expectWhollyOnScreen(approve, 'Approve refund');
    await expectThumbSized(approve, 'Approve refund');
    await approve.click();
    await expect(page.getByText(/^Approved by Ada Lovelace/)).toBeVisible();

    const reject = page.getByRole('button', { name: 'Reject notify_customer' });
    await reject.scrollIntoViewIfNeeded();
    await expectWhollyOnScreen(reject, 'Reject notify_customer');
    await expectThumbSized(reject, 'Reject notify_customer');
    await reject.click();
    // The reason opens in the card; its send button is on screen and thumb-sized too.
    const reason = page.getByLabel('Reason for rejecting notify_customer (optional)');
    await expect(reason).toBeFocused();
    await reason.fill('We call the customer ourselves.');
    const send = page.getByRole('button', { name: 'Reject notify_customer' });
    await send.scrollIntoViewIfNeeded();
    await expectWhollyOnScreen(send, 'the reason’s Reject button');
    await expectThumbSized(send, 'the reason’s Reject button');
    await expectNoHorizontalOverflow(page, 'the reason form on a phone');
    await send.click();
    await expect(page.getByText(/^Rejected by Ada Lovelace/)).toBeVisible();
    await expect(page.getByText('Answered', { exact: true })).toBeVisible();
    await expectNoHorizontalOverflow(page, 'the answered interrupt on a phone');
    await expectAccessible(page, 'the answered interrupt on a phone');

    // What the agent reads: both decisions, and the assignee the phone chose.
    const final = await agent.interrupts.get(created.id);
    expect(final.status).toBe('answered');
    expect(final.assignee).toEqual({
      type: 'member',
      id: colleague.memberId,
      name: 'Grace Hopper',
    });
    expect(
      final.decisions.map((d) => ({
        action: d.actionName,
        decision: d.decision,
        message: d.message,
      })),
    ).toEqual(
      expect.arrayContaining([
        { action: 'refund', decision: 'approve', message: null },
        {
          action: 'notify_customer',
          decision: 'reject',
          message: 'We call the customer ourselves.',
        },
      ]),
    );
    expect(final.decisions).toHaveLength(2);
  });
  test('a status badge keeps its whole word beside a title without spaces', async ({ pageFor }) => {
    const owner = await signUpOwner('badge');
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'badge-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: key.key, baseURL });
    // The inbox shows a status badge on the rows closed without a decision: withdrawn here.
    const withdrawn = await agent.interrupts.create({
      title: `withdrawn${'x'.repeat(180)}`,
      actionRequests: [
        { name: `deploy_${'y'.repeat(120)}`, args: { path: `/var/${'q'.repeat(400)}` } },
      ],
    });
    const cancelled = await fetch(`${baseURL}/api/interrupts/${withdrawn.id}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key },
      body: JSON.stringify({}),
    });
    expect(cancelled.status).toBeLessThan(300);

    const page = await pageFor(owner);
    await page.setViewportSize(PHONE);
    await page.goto('/inbox?tab=answered&closed=withdrawn');
    const badge = page
      .getByRole('table', { name: 'Interrupts' })
      .getByText('Withdrawn', { exact: true });
    await expect(badge).toBeVisible();
    // The overflow check skips text cut off with an ellipsis: measure the badge itself. The
    // word's own box and the badge around it each hold their whole text.
    const clipped = await badge.evaluate((label) =>
      [label, label.parentElement as HTMLElement]
        .filter((el) => el.scrollWidth > el.clientWidth)
        .map((el) => `${el.className}: ${el.scrollWidth} px of text in ${el.clientWidth} px`),
    );
    expect(clipped, `the Withdrawn badge at ${PHONE.width} px`).toEqual([]);
  });
});
