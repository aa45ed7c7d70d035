import { addMember, expect, signUpOwner, test } from './support/fixtures';
import { api, baseURL } from './support/service';

/** A page load (or a live update) on a machine the whole suite shares: generous, still bounded. */
const PAGE_LOAD = 60_000;

/**
 * Several approvers (issue 37 §3): answered only after the second member approves, in another
 * browser, whose open page saw the first approval arrive live (interrupt.approval_added).
 */
test.describe('Several approvers', () => {
  test('a two-approval action: the first approver waits, the second (another browser context) answers it', async ({
    pageFor,
  }) => {
    test.setTimeout(5 * PAGE_LOAD);
    const owner = await signUpOwner('approvers');
    const manager = await addMember(owner, 'manager', 'Mary Manager');
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'payments-agent', expiry: 'never' },
    });
    const opened = await fetch(`${baseURL}/api/interrupts`, {
      method: 'POST',
      headers: { 'x-api-key': created.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Pay invoice 117',
        actionRequests: [{ name: 'pay', args: { amount: 12000 }, requiredApprovals: 2 }],
      }),
    });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const read = async () => {
      const res = await fetch(`${baseURL}/api/interrupts/${id}`, {
        headers: { 'x-api-key': created.key },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        status: string;
        decisions: unknown[];
        actionRequests: { approvals: unknown[] }[];
      };
    };

    // The second approver already has the interrupt open in another browser context.
    const second = await pageFor(manager);
    await second.goto(`/interrupts/${id}`);
    await expect(second.getByText('0 of 2 approvals').first()).toBeVisible({ timeout: PAGE_LOAD });

    const first = await pageFor(owner);
    await first.goto(`/interrupts/${id}`);
    await expect(first.getByText('0 of 2 approvals').first()).toBeVisible({ timeout: PAGE_LOAD });
    await first.getByRole('button', { name: 'Approve pay (1 of 2)' }).click();
    await expect(first.getByText('1 of 2 approvals').first()).toBeVisible();
    // One approval of two decides nothing: the service still holds the interrupt open, with the
    // approval recorded and no decision (the page's text is not the only witness).
    const afterFirst = await read();
    expect(afterFirst.status).toBe('open');
    expect(afterFirst.actionRequests[0].approvals).toHaveLength(1);
    expect(afterFirst.decisions).toEqual([]);
    await first.goto(`/interrupts/${id}`);
    await expect(
      first.getByRole('button', { name: 'You approved: waiting for 1 more' }),
    ).toBeDisabled({ timeout: PAGE_LOAD });

    // Live, without a reload: the interrupt.approval_added event refreshes the open page.
    await expect(second.getByText(/1 of 2 approvals/).first()).toBeVisible({ timeout: PAGE_LOAD });
    await second.getByRole('button', { name: 'Approve pay (2 of 2)' }).click();

    await expect.poll(async () => (await read()).status, { timeout: PAGE_LOAD }).toBe('answered');
    expect((await read()).actionRequests[0].approvals).toHaveLength(2);
    await second.goto(`/interrupts/${id}`);
    await expect(second.getByText('2 of 2 approvals')).toBeVisible({ timeout: PAGE_LOAD });
  });
});
