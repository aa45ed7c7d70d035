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
    // The target picker names the interrupt by its title, not its id.
    await expect(page.getByRole('combobox', { name: 'Target', exact: true })).toHaveValue(
      `${word} invoice run`,
    );
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

  test('the target picker finds interrupts by title, webhooks by address, rules and sessions by name', async ({
    page,
    owner,
  }) => {
    // Four target types, each searched and applied, then axe: at load 40+ three passed in 90 s.
    test.setTimeout(300_000);
    const as = { cookie: owner.cookie };
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      ...as,
      body: { name: unique('picker').slice(0, 20), expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: key.key, baseURL });
    const word = `Zeppelin${unique('x').slice(2)}`;
    const wanted = await agent.interrupts.create({
      title: `Refuel the ${word} hangar`,
      actionRequests: [{ name: 'refuel', args: {} }],
    });
    await agent.interrupts.create({
      title: `Paint the ${word}s`,
      actionRequests: [{ name: 'paint', args: {} }],
    });
    const run = await agent.sessions.start({ name: `${word} refuel run` });
    await agent.sessions.end(run.id);
    await agent.sessions.start({ name: `${word} paint run` });
    const hook = `http://127.0.0.1:9/${unique('hook')}`;
    const { body: webhook } = await api<{ id: string }>('POST', '/api/webhooks', {
      ...as,
      body: { url: hook, eventTypes: ['interrupt.created'] },
    });
    const ruleName = unique('Picker rule');
    const { body: rule } = await api<{ id: string }>('POST', '/api/classification/rules', {
      ...as,
      body: {
        name: ruleName,
        mode: 'off',
        match: { actions: ['picker_never_asked'] },
        outcome: { type: 'approve' },
      },
    });

    await page.goto('/audit-log');
    const table = page.getByRole('table', { name: 'Audit entries' });
    const pick = async (type: string) => {
      await page.getByRole('combobox', { name: 'Target type', exact: true }).click();
      await page.getByRole('option', { name: type, exact: true }).click();
    };

    // Interrupts: words of the title (prefixes, case ignored), answered by the API's title search.
    await pick('interrupt');
    const target = page.getByRole('combobox', { name: 'Target', exact: true });
    await target.fill(`${word}zz`);
    await expect(page.getByText('No interrupt with that title')).toBeVisible();
    await target.fill(`refuel ${word.slice(0, 6).toLowerCase()}`);
    await page.getByRole('option', { name: `Refuel the ${word} hangar` }).click();
    await expect(page).toHaveURL(new RegExp(`targetId=${wanted.id}`));
    await expect(table.getByRole('row')).toHaveCount(2); // the header and interrupt.created
    await expect(table).toContainText('interrupt.created');
    await page.getByRole('button', { name: 'Clear every filter' }).click();

    // Webhooks by address, rules by name: the lists the reader may read.
    await pick('webhook');
    await page.getByRole('combobox', { name: 'Target', exact: true }).fill(hook.slice(-10));
    await page.getByRole('option', { name: hook }).click();
    await expect(page).toHaveURL(new RegExp(`targetId=${webhook.id}`));
    await expect(table).toContainText('webhook.created');
    await page.getByRole('button', { name: 'Clear every filter' }).click();
    await pick('classification');
    await page.getByRole('combobox', { name: 'Target', exact: true }).fill(ruleName);
    await page.getByRole('option', { name: ruleName }).click();
    await expect(page).toHaveURL(new RegExp(`targetId=${rule.id}`));
    await expect(table.getByRole('row')).toHaveCount(2);
    await expectAccessible(page, 'the audit log filtered to a rule');
    await page.getByRole('button', { name: 'Clear every filter' }).click();

    // Sessions: words of the name (prefixes, case ignored), answered by the API's name search;
    // each option says when the run started.
    await pick('session');
    await target.fill(`${word}zz`);
    await expect(page.getByText('No session with that name or id')).toBeVisible();
    await target.fill(`refu ${word.slice(0, 6).toLowerCase()}`);
    await page.getByRole('option', { name: new RegExp(`^${word} refuel run \\(started `) }).click();
    await expect(page).toHaveURL(new RegExp(`targetId=${run.id}`));
    await expect(target).toHaveValue(new RegExp(`^${word} refuel run \\(started `));
    await expect(table.getByRole('row')).toHaveCount(3); // the header, session.started and .ended
    await expect(table).toContainText('session.ended');
  });
});
