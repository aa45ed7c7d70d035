import { addMember, expect, signUpOwner, test } from './support/fixtures';
import { api, baseURL } from './support/service';

/**
 * Several approvers (issue 37 §3): answered only after the second member approves, in another
 * browser, whose open page saw the first approval arrive live (interrupt.approval_added).
 */
test.describe('Several approvers', () => {
  test('a two-approval action: the first approver waits, the second (another browser context) answers it', async ({
    pageFor,
  }) => {
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

    // The second approver already has the interrupt open in another browser context.
    const second = await pageFor(manager);
    await second.goto(`/interrupts/${id}`);
    await expect(second.getByText('0 of 2 approvals').first()).toBeVisible();

    const first = await pageFor(owner);
    await first.goto(`/interrupts/${id}`);
    await expect(first.getByText('0 of 2 approvals').first()).toBeVisible();
    await first.getByRole('button', { name: 'Approve pay (1 of 2)' }).click();
    await expect(first.getByText('1 of 2 approvals').first()).toBeVisible();
    await first.goto(`/interrupts/${id}`);
    await expect(
      first.getByRole('button', { name: 'You approved: waiting for 1 more' }),
    ).toBeDisabled();

    // Live, without a reload: the interrupt.approval_added event refreshes the open page.
    await expect(second.getByText(/1 of 2 approvals/).first()).toBeVisible();
    await second.getByRole('button', { name: 'Approve pay (2 of 2)' }).click();

    const read = async () => {
      const res = await fetch(`${baseURL}/api/interrupts/${id}`, {
        headers: { 'x-api-key': created.key },
      });
      return (await res.json()) as { status: string; actionRequests: { approvals: unknown[] }[] };
    };
    await expect.poll(async () => (await read()).status).toBe('answered');
    expect((await read()).actionRequests[0].approvals).toHaveLength(2);
    await second.goto(`/interrupts/${id}`);
    await expect(second.getByText('2 of 2 approvals')).toBeVisible();
  });
});
