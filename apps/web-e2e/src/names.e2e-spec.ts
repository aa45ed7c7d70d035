import { Interlock } from '@interlock/sdk';
import { expect, test } from './support/fixtures';
import { api, baseURL, signUpOwner, unique } from './support/service';

/** What the dashboard says argus is, wherever argus appears (argus-in-words.ts). */
const ARGUS_SENTENCE =
  /argus applies your organisation’s classification rules \(Settings → Classification\)/;

/**
 * Names people understand (issue 31 §5): permissions in words, grouped and described, with their
 * internal names only beside them; "argus" and "classification" explained where they appear.
 */
test.describe('Names people understand', () => {
  test('Roles: every role’s permissions in words, grouped; the editor describes each one', async ({
    page,
  }) => {
    await page.goto('/roles');
    const table = page.getByRole('table', { name: 'Roles' });
    const row = (name: string) => table.getByRole('row').filter({ hasText: name });
    await expect(row('Owner')).toContainText('Every permission');
    // The built-in Manager (SPEC §6): apiKey.read, interrupt.*, session.read, member.invite,
    // auditLog.read, classification.read — in words, group by group.
    const manager = row('Manager');
    await expect(manager).toContainText(
      'Interrupts: See the inbox and interrupts, Decide interrupts, Assign interrupts, Escalate interrupts',
    );
    await expect(manager).toContainText('Sessions: Watch sessions (Live View)');
    await expect(manager).toContainText('API keys: See API keys');
    await expect(manager).toContainText('Organisation: Invite members');
    await expect(manager).toContainText('Audit log: Read the audit log');
    await expect(manager).toContainText('Classification (argus): See classification rules');
    // No internal name is shown as text; each is in its words' tooltip with what it allows.
    await expect(table).not.toContainText(/\b(apiKey|interrupt|session|auditLog)\.[a-z]+/i);
    await expect(manager.getByText('See API keys')).toHaveAttribute(
      'title',
      'See the organisation’s API keys (their names and first characters, never a whole key). (apiKey.read)',
    );

    await page.getByRole('button', { name: 'Create custom role' }).click();
    const dialog = page.getByRole('dialog', { name: /custom role/i });
    for (const group of [
      'Interrupts',
      'Sessions',
      'API keys',
      'Organisation',
      'Audit log',
      'Classification (argus)',
    ]) {
      await expect(dialog.getByRole('group', { name: group })).toBeVisible();
    }
    await expect(
      dialog.getByRole('group', { name: 'Interrupts' }).getByRole('checkbox', {
        name: 'Decide interrupts',
      }),
    ).toHaveAccessibleDescription(
      'Approve, edit, reject or answer the actions agents ask about. (interrupt.decide)',
    );
    await expect(
      dialog.getByRole('checkbox', { name: 'Manage classification rules' }),
    ).toHaveAccessibleDescription(
      /^Create, change and remove argus’s rules.*\(classification\.manage\)$/,
    );
  });

  test('argus and classification: explained on the rules page, the interrupt page, its decision card, the inbox row and the audit log', async ({
    pageFor,
  }) => {
    const owner = await signUpOwner(unique('argus-words'));
    const as = { cookie: owner.cookie };
    const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
      ...as,
      body: { name: 'refund-agent', expiry: 'never' },
    });
    const { body: rule } = await api<{ id: string }>('POST', '/api/classification/rules', {
      ...as,
      body: {
        name: 'Small refunds',
        mode: 'enforce',
        match: { actions: ['refund'], args: [{ path: 'amount', op: 'lte', value: 50 }] },
        outcome: { type: 'approve' },
      },
    });
    expect(rule.id).toMatch(/^[0-9a-f-]{36}$/);
    const agent = new Interlock({ apiKey: key.key, baseURL });
    const title = `Refund ${unique('words')}`;
    const interrupt = await agent.interrupts.create({
      title,
      actionRequests: [{ name: 'refund', args: { amount: 20 } }],
    });
    expect(interrupt.status).toBe('answered');

    const page = await pageFor(owner);
    // Settings → Classification says what argus does with the rules.
    await page.goto('/settings/classification');
    await expect(page.getByRole('main')).toContainText(
      'Argus runs these rules on every interrupt before it reaches the inbox',
    );

    // The interrupt page: what argus did, with argus in a sentence, and the decision card's badge.
    await page.goto(`/interrupts/${interrupt.id}`);
    const region = page.getByRole('region', { name: 'What argus did' });
    await expect(region).toContainText(ARGUS_SENTENCE);
    await expect(region.locator('[data-argus-receipt]')).toHaveText([
      'Rule Small refunds enforce approved it.',
    ]);
    // Reached by the keyboard, not only by a pointer (a `title` reaches the mouse alone).
    const badge = page.locator('[data-action-card="refund"]').locator('[data-argus-decider]');
    await expect(badge).toHaveText('argus');
    await badge.focus();
    await expect(badge).toBeFocused();
    await expect(page.getByRole('tooltip')).toContainText('Decided automatically by argus.');
    await expect(page.getByRole('tooltip')).toContainText(ARGUS_SENTENCE);
    await expect(badge).toHaveAccessibleDescription(ARGUS_SENTENCE);
    await badge.blur();

    // The inbox row: what argus did as a badge, its rule by name on hover.
    await page.goto('/inbox?tab=answered');
    const row = page.getByRole('row', { name: new RegExp(title) });
    await row.getByText('argus approved 1').hover();
    await expect(page.getByRole('tooltip')).toContainText('Approved refund by rule Small refunds');
    await expect(page.getByRole('tooltip')).toContainText(
      'The interrupt’s page shows every rule that matched.',
    );

    // The audit log: argus's entries say who argus is.
    await page.goto('/audit-log?actorType=argus');
    const entries = page.getByRole('table').first();
    await expect(entries).toContainText('classification.applied');
    const actor = entries.locator('[data-argus-actor]').first();
    await expect(actor).toHaveText('argus: your classification rules');
    await actor.focus();
    await expect(actor).toBeFocused();
    await expect(page.getByRole('tooltip')).toContainText(ARGUS_SENTENCE);
  });
});
