import type {
  ClassificationRuleStatsResponse,
  CreateClassificationRuleDto,
  DryRunDto,
} from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { aRule, aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { RuleEditorRoute } from './rule-editor.route';

/** A member who manages rules, the lists the editor offers, the dry run and the create. */
const FINANCE = '6f1d7a52-3b1e-4c57-9d8e-4d2b6f2a1c02';

function serveEditor() {
  const dryRuns: DryRunDto[] = [];
  const created: CreateClassificationRuleDto[] = [];
  server.use(
    http.get(`${API}/auth/session`, () =>
      HttpResponse.json(
        aSignInSession(['interrupt.read', 'classification.read', 'classification.manage']),
      ),
    ),
    http.get(`${API}/api-keys`, () => HttpResponse.json({ apiKeys: [] })),
    http.get(`${API}/members`, () => HttpResponse.json({ members: [] })),
    http.get(`${API}/teams`, () =>
      HttpResponse.json({
        teams: [{ id: FINANCE, name: 'Finance', memberIds: [], createdAt: '2026-11-01T00:00:00Z' }],
      }),
    ),
    http.get(`${API}/sessions`, () => HttpResponse.json({ sessions: [], nextCursor: null })),
    http.post(`${API}/classification/dry-run`, async ({ request }) => {
      const body = (await request.json()) as DryRunDto;
      dryRuns.push(body);
      const amount = body.rules?.[0]?.match.args?.[0]?.value;
      const matches = typeof amount === 'number' && amount >= 40;
      return HttpResponse.json({
        results: [
          {
            interruptId: '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c01',
            title: 'Refund order 1',
            actions: [
              {
                actionName: 'refund',
                result: matches ? 'approve' : 'person',
                ruleId: null,
                message: null,
                shadowRuleIds: [],
                skipped: null,
                classifier: 'not_asked',
                risk: null,
                labels: [],
                classifierError: null,
              },
            ],
          },
        ],
      });
    }),
    http.post(`${API}/classification/rules`, async ({ request }) => {
      const body = (await request.json()) as CreateClassificationRuleDto;
      created.push(body);
      return HttpResponse.json(aRule({ name: body.name }), { status: 201 });
    }),
  );
  return { dryRuns, created };
}

/**
 * Types a whole value as one input event (a paste): typed key by key, every keystroke re-renders
 * the editor and its preview, which took the test past its time limit under load.
 */
async function fill(field: HTMLElement, text: string): Promise<void> {
  await userEvent.click(field);
  await userEvent.paste(text);
}

describe('RuleEditorRoute', () => {
  it('previews the draft on the latest interrupts as it is written, then creates it as written', async () => {
    const { dryRuns, created } = serveEditor();
    renderWithApp(<RuleEditorRoute />, { path: '/settings/classification/new' });
    // The fields open once the member's permissions are in.
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toBeEnabled());
    await fill(name, 'Small refunds');
    const actions = screen.getByRole('combobox', { name: 'Action names' });
    await userEvent.type(actions, 'refund{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Add an argument condition' }));
    await fill(screen.getByRole('textbox', { name: 'Argument 1 path' }), 'amount');
    await fill(screen.getByRole('textbox', { name: 'Argument 1 value' }), '100');

    // The preview runs the draft (enforced, so it shows what it would do), not a saved rule.
    const preview = screen.getByRole('region', { name: 'Preview' });
    await within(preview).findByText(/Matches 1 of 1 actions/);
    const last = dryRuns.at(-1);
    expect(last?.lastInterrupts).toBeGreaterThan(0);
    expect(last?.rules?.[0]).toMatchObject({
      mode: 'enforce',
      match: { actions: ['refund'], args: [{ path: 'amount', value: 100 }] },
      outcome: { type: 'approve' },
    });
    expect(within(preview).getByRole('table', { name: 'Matching actions' })).toHaveTextContent(
      'Refund order 1',
    );
    // The classifier was not asked, and the preview says what that means.
    expect(preview).toHaveTextContent(
      'The external classifier is not asked in this preview (it runs on every change), so conditions on risk and labels match nothing here.',
    );

    // A value below the sample's amount: the preview follows.
    await userEvent.clear(screen.getByRole('textbox', { name: 'Argument 1 value' }));
    await fill(screen.getByRole('textbox', { name: 'Argument 1 value' }), '10');
    await within(preview).findByText(/Matches 0 of 1 actions/);

    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Small refunds');
    const create = screen.getByRole('button', { name: 'Create rule' });
    expect(create).toBeEnabled();
    await userEvent.click(create);
    await waitFor(() => expect(created).toHaveLength(1));
    // Saved as written: in shadow (the default), not as the preview ran it.
    expect(created[0]).toMatchObject({
      name: 'Small refunds',
      mode: 'shadow',
      match: { actions: ['refund'], args: [{ path: 'amount', value: 10 }] },
      outcome: { type: 'approve' },
    });
    // The longest component test (a whole form and its live preview): room for a loaded machine.
  });

  it('a route sets the approvals needed and the approving team (issue 37 §3 quorum from rules)', async () => {
    const { created } = serveEditor();
    renderWithApp(<RuleEditorRoute />, { path: '/settings/classification/new' });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toBeEnabled());
    await fill(name, 'Large payments');
    const pick = async (label: RegExp, option: string) => {
      const input = screen
        .getAllByLabelText(label)
        .find((el) => el.tagName === 'INPUT') as HTMLElement;
      await userEvent.click(input);
      await userEvent.click(await screen.findByRole('option', { name: option }));
    };
    await pick(/^Outcome/, 'Route (assign, escalate, approvals), leave it for a person');
    await pick(/^Approvals needed/, '2 members');
    await pick(/^Approved by/, 'Finance');
    await userEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0].outcome).toEqual({
      type: 'route',
      requiredApprovals: 2,
      approverTeam: { teamId: FINANCE },
    });
  });

  it("a saved rule's page lists its shadow disagreements: each interrupt, action, what the rule would have done and what the person did", async () => {
    serveEditor();
    const rule = aRule({ name: 'Small refunds', mode: 'shadow' });
    const REFUND_7 = '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c07';
    const REFUND_9 = '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c09';
    const stats: ClassificationRuleStatsResponse = {
      ruleId: rule.id,
      shadow: { matched: 5, wouldDecide: 4, decidedByPeople: 3, agreed: 1 },
      enforce: { matched: 0, decided: 0 },
      lastMatchedAt: '2026-11-27T10:00:00.000Z',
      disagreements: [
        {
          interruptId: REFUND_9,
          title: 'Refund order 9',
          actionName: 'refund',
          outcome: 'approve',
          decision: 'reject',
          decidedByName: 'Ada Lovelace',
          decidedAt: '2026-11-27T09:00:00.000Z',
        },
        {
          interruptId: REFUND_7,
          title: 'Refund order 7',
          actionName: 'notify_customer',
          outcome: 'reject',
          decision: 'approve',
          decidedByName: null,
          decidedAt: '2026-11-26T09:00:00.000Z',
        },
      ],
    };
    server.use(
      http.get(`${API}/classification/rules/:id`, ({ params }) =>
        params.id === rule.id
          ? HttpResponse.json(rule)
          : HttpResponse.json({ statusCode: 404 }, { status: 404 }),
      ),
      http.get(`${API}/classification/rules/:id/stats`, ({ params }) =>
        params.id === rule.id
          ? HttpResponse.json(stats)
          : HttpResponse.json({ statusCode: 404 }, { status: 404 }),
      ),
    );
    renderWithApp(
      <Routes>
        <Route path="/settings/classification/:ruleId" element={<RuleEditorRoute />} />
      </Routes>,
      { path: `/settings/classification/${rule.id}` },
    );
    const evidence = await screen.findByRole('region', { name: 'Evidence' });
    const table = await within(evidence).findByRole('table', { name: 'Disagreements' });
    expect(within(evidence).getByTestId('shadow-stats')).toHaveTextContent(
      'In shadow mode: matched 5, would have decided 4; people decided 3 of those and agreed with the rule on 1 of 3.',
    );
    // The header, then one row per disagreement in the order the API gives (newest first).
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Interrupt', 'Action', 'Rule', 'Person']);
    expect(rows).toHaveLength(2);
    const cells = rows.map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
    expect(cells[0].slice(0, 3)).toEqual(['Refund order 9', 'refund', 'approve']);
    expect(cells[0][3]).toMatch(/^reject by Ada Lovelace \S/);
    expect(cells[1].slice(0, 3)).toEqual(['Refund order 7', 'notify_customer', 'reject']);
    // A person whose name is not known is "a person".
    expect(cells[1][3]).toMatch(/^approve by a person \S/);
    // Each interrupt is linked.
    expect(within(rows[0]).getByRole('link', { name: 'Refund order 9' })).toHaveAttribute(
      'href',
      `/interrupts/${REFUND_9}`,
    );
    expect(within(rows[1]).getByRole('link', { name: 'Refund order 7' })).toHaveAttribute(
      'href',
      `/interrupts/${REFUND_7}`,
    );
  });
});
