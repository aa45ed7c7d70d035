// Approvals made from the inbox are held in the browser for the undo window (SPEC §8e, the
// dashboard's held-approvals.ts). A page that goes away inside the window does not silently
// undo them: what is held is sent at once, and the service records it.
import { Interlock } from '@interlock/sdk';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { api, baseURL, unique, type Member } from './support/service';

async function agentFor(owner: Member): Promise<Interlock> {
  const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: owner.cookie,
    body: { name: unique('held').slice(0, 20), expiry: 'never' },
  });
  return new Interlock({ apiKey: body.key, baseURL });
}

/** Approves the interrupts in the inbox in bulk and leaves the approval held (the clock stands still). */
async function holdBulkApproval(page: Page, word: string, count: number): Promise<void> {
  // The page's clock does not move unless the test moves it: the window never ends by itself.
  await page.clock.install();
  await page.goto(`/inbox?q=${word}`);
  const rows = page.getByRole('table', { name: 'Interrupts' }).getByRole('row');
  // The first read waits up to a minute: the machine may be busy.
  await expect(rows.filter({ hasText: word })).toHaveCount(count, { timeout: 60_000 });
  await page.getByRole('checkbox', { name: 'Select every interrupt that can be approved' }).check();
  await page.getByRole('button', { name: `Approve selected (${count})` }).click();
  await page
    .getByRole('dialog', { name: `Approve ${count} interrupts?` })
    .getByRole('button', { name: 'Approve all' })
    .click();
  await expect(page.getByText(`Approving ${count} interrupts in`)).toBeVisible();
  await expect(rows.filter({ hasText: word })).toHaveCount(0);
}

/** Both actions of each interrupt approved, as the agent reads them. */
async function expectApproved(agent: Interlock, ids: string[]): Promise<void> {
  for (const id of ids)
    await expect
      .poll(async () => (await agent.interrupts.get(id)).decisions.map((d) => d.decision), {
        message: `the decisions of ${id}`,
        timeout: 30_000,
      })
      .toEqual(['approve', 'approve']);
}

/**
 * Two two-action interrupts opened by the owner's agent, bulk-approved in the owner's inbox and
 * held there inside the undo window: nothing is sent yet.
 */
async function heldApprovalsOfTwo(
  pageFor: (member: Member) => Promise<Page>,
  owner: Member,
  label: string,
) {
  const agent = await agentFor(owner);
  const word = unique(label.toLowerCase()).replace('-', '');
  const ids: string[] = [];
  for (const n of [1, 2])
    ids.push(
      (
        await agent.interrupts.create({
          title: `${label} ${word} ${n}`,
          actionRequests: [
            { name: 'pay', args: { n } },
            { name: 'notify', args: { n } },
          ],
        })
      ).id,
    );
  const page = await pageFor(owner);
  await holdBulkApproval(page, word, 2);
  for (const id of ids) expect((await agent.interrupts.get(id)).decisions).toEqual([]);
  return { agent, ids, page };
}

test.describe('Held approvals when the page goes away', () => {
  test('closing the tab inside the undo window sends what was held', async ({ pageFor, owner }) => {
    const { agent, ids, page } = await heldApprovalsOfTwo(pageFor, owner, 'Close');
    await page.close();
    await expectApproved(agent, ids);
  });

  test('leaving for another page inside the undo window sends what was held', async ({
    pageFor,
    owner,
  }) => {
    const { agent, ids, page } = await heldApprovalsOfTwo(pageFor, owner, 'Leave');
    await page.goto('about:blank');
    await expectApproved(agent, ids);
  });

  // A phone switching apps hides the page and may discard it without `pagehide`.
  test('hiding the page inside the undo window sends what was held, once', async ({
    pageFor,
    owner,
  }) => {
    const { agent, ids, page } = await heldApprovalsOfTwo(pageFor, owner, 'Hide');
    const decides: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/decisions')) decides.push(r.url());
    });
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => 'hidden',
      });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expectApproved(agent, ids);
    // Then the page goes away too: nothing is sent a second time.
    await page.evaluate(async () => {
      window.dispatchEvent(new Event('pagehide'));
      // A request after it: any second sending would have gone out before this answers.
      await fetch('/api/auth/session');
    });
    await page.close();
    expect(decides).toHaveLength(4);
  });
});
