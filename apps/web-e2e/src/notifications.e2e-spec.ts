import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, openInterrupt, unique } from './support/service';

/** The service's SMTP server writes each message it receives here (tools/scripts/with-service.mjs). */
const MAIL_DIR = process.env.INTERLOCK_MAIL_DIR as string;

async function receivedMail(to: string, subjectContains: string): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        for (const file of readdirSync(MAIL_DIR)) {
          const mail = await simpleParser(readFileSync(join(MAIL_DIR, file)));
          const recipients = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value ?? []).map((a) => a.address);
          if (recipients.includes(to) && (mail.subject ?? '').includes(subjectContains)) found = mail;
        }
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found as ParsedMail;
}

test.describe('Notifications', () => {
  test('an emailed Approve link opens the confirmation page; nothing is decided until the member confirms there', async ({ page, owner }) => {
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', { cookie: owner.cookie, body: { name: unique('agent').slice(0, 20), expiry: 'never' } });
    const title = `Ship release ${unique('r')}`;
    const { id } = await openInterrupt(created.key, title);

    const mail = await receivedMail(owner.email, title);
    expect(mail.subject).toBe(`[${owner.organisationName}] Approval needed: ${title}`);
    const approve = [...(mail.html as string).matchAll(/href="([^"]+)"/g)]
      .map((m) => m[1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '='))
      .find((href) => href.includes('/confirm?') && href.includes('decision=approve'));
    expect(approve).toBeDefined();

    await page.goto(approve as string);
    await expect(page.getByRole('heading', { name: `Approve go for ${title}?` })).toBeVisible();
    await expect(page.getByText('Nothing is decided until you confirm.')).toBeVisible();
    // Opening the link decided nothing.
    expect((await api<{ status: string }>('GET', `/api/interrupts/${id}`, { cookie: owner.cookie })).body.status).toBe('open');
    await expectAccessible(page, 'the confirmation page');
    await screenshot(page, 'notification-confirm');

    await page.getByRole('button', { name: 'Approve go' }).click();
    await expect(page.getByText('go is decided: approve')).toBeVisible();
    const after = await api<{ status: string; decisions: { decision: string; decidedBy: { name: string } }[] }>('GET', `/api/interrupts/${id}`, { cookie: owner.cookie });
    expect(after.body.status).toBe('answered');
    expect(after.body.decisions).toMatchObject([{ decision: 'approve', decidedBy: { name: owner.name } }]);
  });

  test('Settings → Notifications: choose a daily digest and see what was sent', async ({ page }) => {
    await page.goto('/settings/notifications');
    await expect(page.getByRole('heading', { name: 'Your preferences' })).toBeVisible();
    await page.getByRole('combobox', { name: 'A new interrupt: email', exact: true }).click();
    await page.getByRole('option', { name: 'Daily digest' }).click();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'A new interrupt: email', exact: true })).toHaveValue('Daily digest');
    await expect(page.getByRole('heading', { name: 'Recent' })).toBeVisible();
    await expectAccessible(page, 'Settings → Notifications');
    await screenshot(page, 'notification-settings');
  });
});
