import type {
  EscalationPolicyDto,
  EscalationPolicyResponse,
  MemberResponse,
  TeamResponse,
} from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { EscalationSettingsRoute } from './escalation-settings.route';

const GRACE = '5f0e7c1e-4444-4c1e-9a4e-0a0a0a0a0a04';
const SRE = '5f0e7c1e-5555-4c1e-9a4e-0a0a0a0a0a05';
const FINANCE = '5f0e7c1e-6666-4c1e-9a4e-0a0a0a0a0a06';
const MEMBERS: MemberResponse[] = [
  {
    id: GRACE,
    name: 'Grace Hopper',
    email: 'grace@example.com',
    roleId: 'owner',
    roleName: 'Owner',
    createdAt: '2026-11-01T00:00:00.000Z',
  },
];
const TEAMS: TeamResponse[] = [
  { id: SRE, name: 'SRE', memberIds: [GRACE], createdAt: '2026-11-01T00:00:00.000Z' },
  { id: FINANCE, name: 'Finance', memberIds: [], createdAt: '2026-11-02T00:00:00.000Z' },
];

/** The service's escalation policies: the organisation's and each team's, replaced by PUT. */
function servePolicies(permissions: Parameters<typeof aSignInSession>[0]) {
  const policies = new Map<string, EscalationPolicyResponse>([
    [
      'organisation',
      { steps: [{ afterMinutes: 30, action: 'remind', when: 'undecided', assignTo: null }] },
    ],
    [SRE, { steps: [{ afterMinutes: 60, action: 'escalate', when: 'undecided', assignTo: null }] }],
    [FINANCE, { steps: [] }],
  ]);
  const put: { where: string; body: EscalationPolicyDto }[] = [];
  const replace = (where: string, body: EscalationPolicyDto) => {
    put.push({ where, body });
    const saved: EscalationPolicyResponse = {
      steps: body.steps.map((s) => ({
        afterMinutes: s.afterMinutes,
        action: s.action,
        when: s.when ?? 'undecided',
        assignTo: s.assignTo ?? null,
      })),
    };
    policies.set(where, saved);
    return HttpResponse.json(saved);
  };
  server.use(
    http.get(`${API}/auth/session`, () => HttpResponse.json(aSignInSession(permissions))),
    http.get(`${API}/members`, () => HttpResponse.json({ members: MEMBERS })),
    http.get(`${API}/teams`, () => HttpResponse.json({ teams: TEAMS })),
    http.get(`${API}/organisation/escalation-policy`, () =>
      HttpResponse.json(policies.get('organisation')),
    ),
    http.put(`${API}/organisation/escalation-policy`, async ({ request }) =>
      replace('organisation', (await request.json()) as EscalationPolicyDto),
    ),
    http.get(`${API}/teams/:id/escalation-policy`, ({ params }) =>
      HttpResponse.json(policies.get(params.id as string)),
    ),
    http.put(`${API}/teams/:id/escalation-policy`, async ({ params, request }) =>
      replace(params.id as string, (await request.json()) as EscalationPolicyDto),
    ),
  );
  return put;
}

const region = (name: string) => screen.getByRole('region', { name });

async function pick(within_: HTMLElement, label: string, option: string) {
  await userEvent.click(within(within_).getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('EscalationSettingsRoute', () => {
  it("a member with team.manage adds an escalate step to the organisation's policy, assigning a team; a step not later than the one before cannot be saved", async () => {
    const put = servePolicies(['interrupt.read', 'interrupt.assign', 'team.manage']);
    renderWithApp(<EscalationSettingsRoute />, { path: '/settings/escalation' });
    const organisation = await screen.findByRole('region', { name: 'Organisation policy' });
    expect(await within(organisation).findByRole('textbox', { name: 'Step 1: after' })).toHaveValue(
      '30',
    );
    expect(within(organisation).getByRole('combobox', { name: 'Step 1: do' })).toHaveValue(
      'Remind the assignee',
    );
    const save = within(organisation).getByRole('button', { name: 'Save organisation policy' });
    expect(save).toBeDisabled();

    await userEvent.click(within(organisation).getByRole('button', { name: 'Add step' }));
    // The new step comes 30 minutes after the last one (an hour) and escalates.
    expect(within(organisation).getByRole('textbox', { name: 'Step 2: after' })).toHaveValue('1');
    expect(within(organisation).getByRole('combobox', { name: 'Step 2: after unit' })).toHaveValue(
      'hours',
    );
    expect(within(organisation).getByRole('combobox', { name: 'Step 2: do' })).toHaveValue(
      'Escalate',
    );
    await pick(organisation, 'Step 2: assign to', 'Team SRE');

    // Earlier than step 1 (1 minute): refused before it reaches the service.
    await pick(organisation, 'Step 2: after unit', 'minutes');
    expect(
      within(organisation).getByText('Must come later than step 1 (30 minutes).'),
    ).toBeInTheDocument();
    expect(save).toBeDisabled();
    const after = within(organisation).getByRole('textbox', { name: 'Step 2: after' });
    await userEvent.clear(after);
    await userEvent.type(after, '2');
    await pick(organisation, 'Step 2: after unit', 'hours');
    expect(save).toBeEnabled();
    await userEvent.click(save);
    await waitFor(() => expect(put).toHaveLength(1));
    expect(put[0]).toEqual({
      where: 'organisation',
      body: {
        steps: [
          { afterMinutes: 30, action: 'remind', when: 'undecided', assignTo: null },
          { afterMinutes: 120, action: 'escalate', when: 'undecided', assignTo: { teamId: SRE } },
        ],
      },
    });
    await waitFor(() => expect(save).toBeDisabled());
  });

  it("a team's policy: chosen by team, never 'unassigned', its steps removed to fall back on the organisation's", async () => {
    const put = servePolicies(['interrupt.read', 'team.manage']);
    renderWithApp(<EscalationSettingsRoute />, { path: '/settings/escalation' });
    const sre = await screen.findByRole('region', { name: 'Policy of team SRE' });
    expect(await within(sre).findByRole('textbox', { name: 'Step 1: after' })).toHaveValue('1');
    expect(within(sre).getByRole('combobox', { name: 'Step 1: after unit' })).toHaveValue('hours');
    await userEvent.click(within(sre).getByRole('combobox', { name: 'Step 1: if' }));
    expect(await screen.findByRole('option', { name: 'Still undecided' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Still unassigned' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(within(sre).getByRole('button', { name: 'Remove step 1' }));
    expect(within(sre).getByText("No steps: the organisation's policy applies.")).toBeVisible();
    await userEvent.click(within(sre).getByRole('button', { name: 'Save policy of team SRE' }));
    await waitFor(() => expect(put).toHaveLength(1));
    expect(put[0]).toEqual({ where: SRE, body: { steps: [] } });

    // Another team: its own (empty) policy.
    await pick(region('Team policies'), 'Team', 'Finance');
    const finance = await screen.findByRole('region', { name: 'Policy of team Finance' });
    expect(
      within(finance).getByRole('button', { name: 'Save policy of team Finance' }),
    ).toBeDisabled();
  });

  it('a member without team.manage reads the policies and cannot change them; without interrupt.assign the teams are not listed', async () => {
    const put = servePolicies(['interrupt.read']);
    renderWithApp(<EscalationSettingsRoute />, { path: '/settings/escalation' });
    expect(await screen.findByText('Read only')).toBeInTheDocument();
    const organisation = await screen.findByRole('region', { name: 'Organisation policy' });
    const after = await within(organisation).findByRole('textbox', { name: 'Step 1: after' });
    expect(after).toHaveValue('30');
    expect(after).toBeDisabled();
    expect(within(organisation).queryByRole('button', { name: /^Save/ })).not.toBeInTheDocument();
    expect(
      within(organisation).queryByRole('button', { name: 'Add step' }),
    ).not.toBeInTheDocument();
    expect(
      within(region('Team policies')).getByText(
        'Seeing the teams takes the team.manage or interrupt.assign permission.',
      ),
    ).toBeInTheDocument();
    expect(put).toHaveLength(0);
  });
});
