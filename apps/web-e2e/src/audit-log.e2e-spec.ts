import { readFileSync } from 'node:fs';
import { Interlock } from '@interlock/sdk';
import { expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, baseURL, unique } from './support/service';

test.describe('Audit log', () => {
  test('flow 5: filter to an interrupt, search a word prefix, see an entry’s metadata, export the filter as CSV', async ({
    page,
    owner,
  }) => {
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: unique('audit').slice(0, 20), expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: key.key, baseURL });
    const word = `Quarterly${unique('x').slice(2)}`;
    const created = await agent.interrupts.create({
      title: `${word} invoice run`,
      actionRequests: [{ name: 'send_invoices', args: { count: 312 } }],
    });
    await api('POST', `/api/interrupts/${created.id}/decisions`, {
      cookie: owner.cookie,
      body: { actionName: 'send_invoices', decision: 'approve' },
    });

    // From the interrupt's page to its entries.
    await page.goto(`/interrupts/${created.id}`);
    await page.getByRole('link', { name: 'Audit log entries' }).click();
    await expect(page).toHaveURL(new RegExp(`targetType=interrupt&targetId=${created.id}`));
    const table = page.getByRole('table', { name: 'Audit entries' });
    await expect(table.getByRole('row')).toHaveCount(3); // the header and two entries
    await expect(table).toContainText('interrupt.created');
    await expect(table).toContainText('interrupt.decided');
    await expectAccessible(page, 'the audit log');

    // A word prefix, case ignored.
    await page.getByLabel('Search').fill(word.slice(0, 8).toLowerCase());
    await expect(page).toHaveURL(/q=quarterl/);
    await expect(table.getByRole('row')).toHaveCount(3);
    await page.getByLabel('Search').fill(`${word.slice(0, 8)} zzzz`);
    await expect(page.getByText('No entry matches these filters')).toBeVisible();
    await page.getByLabel('Search').fill(word.slice(0, 8));
    await expect(table.getByRole('row')).toHaveCount(3);

    // The decision's metadata.
    await table
      .getByRole('row')
      .filter({ hasText: 'interrupt.decided' })
      .getByRole('button', { name: /Details of interrupt.decided/ })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Audit entry' });
    await expect(drawer.getByLabel('Metadata')).toContainText('"actionName": "send_invoices"');
    await expect(drawer.getByLabel('Metadata')).toContainText('"becameAnswered": true');
    await expectAccessible(page, 'an audit entry');
    await screenshot(page, 'audit-entry');
    await drawer.getByRole('button', { name: 'Close the entry' }).click();
    await screenshot(page, 'audit-log');

    // The export carries the same filter.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv).toHaveLength(3);
    expect(csv[0]).toMatch(/^"id","createdAt","action"/);
    expect(csv.slice(1).every((line) => line.includes(created.id))).toBe(true);
    expect(csv.some((line) => line.includes('interrupt.decided'))).toBe(true);
  });
});
