import type { InterruptHistoryEntry } from '@interlock/api-client';
import { screen } from '@testing-library/react';
import { renderWithApp } from '@/test/render';
import { EscalationPanel } from './escalation-panel';

const SRE = '5f0e7c1e-5555-4c1e-9a4e-0a0a0a0a0a05';
const GRACE = '5f0e7c1e-4444-4c1e-9a4e-0a0a0a0a0a04';
const NOW = Date.parse('2026-11-27T09:00:00.000Z');

function entry(
  n: number,
  action: string,
  metadata: Record<string, unknown>,
): InterruptHistoryEntry {
  return {
    id: `9d0c1e2f-0000-4000-8000-${String(n).padStart(12, '0')}`,
    action,
    createdAt: new Date(NOW - (10 - n) * 60_000).toISOString(),
    actorType: 'system',
    actorId: null,
    actorName: 'system',
    summary: `summary ${n}`,
    metadata,
  };
}

describe('EscalationPanel', () => {
  it('says whom each reminder reached, what each escalation did and handed over, and the next step with its time', () => {
    renderWithApp(
      <EscalationPanel
        now={NOW}
        escalation={{
          policy: 'team',
          team: { id: SRE, name: 'SRE' },
          entries: [
            entry(1, 'interrupt.reminder', {
              step: 1,
              afterMinutes: 10,
              assigneeType: null,
              assigneeId: null,
              assigneeName: null,
            }),
            entry(2, 'interrupt.escalated', {
              level: 1,
              reason: 'Escalation policy, step 2: undecided after 30 min.',
            }),
            entry(3, 'interrupt.assigned', {
              assigneeType: 'team',
              assigneeId: SRE,
              assigneeName: 'SRE',
              previousAssigneeType: 'member',
              previousAssigneeId: GRACE,
              previousAssigneeName: 'Grace Hopper',
            }),
            entry(4, 'interrupt.reminder', {
              step: 1,
              afterMinutes: 5,
              assigneeType: 'team',
              assigneeId: SRE,
              assigneeName: 'SRE',
              teamId: SRE,
              teamName: 'SRE',
            }),
            entry(5, 'interrupt.expired', { outcome: 'reject' }),
          ],
          next: {
            step: 2,
            afterMinutes: 15,
            action: 'escalate',
            when: 'undecided',
            dueAt: '2026-11-27T09:15:00.000Z',
            assignTo: { type: 'member', id: GRACE, name: 'Grace Hopper' },
          },
        }}
      />,
    );
    expect(screen.getByRole('region', { name: 'Reminders and escalations' })).toBeInTheDocument();
    expect(
      screen.getByText('Step 1: reminded its readers (nobody was assigned)'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Escalated to level 1: Escalation policy, step 2: undecided after 30 min.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Handed from Grace Hopper to team SRE')).toBeInTheDocument();
    expect(screen.getByText('Step 1 (policy of team SRE): reminded team SRE')).toBeInTheDocument();
    // Anything else the service wrote, by its summary.
    expect(screen.getByText('summary 5')).toBeInTheDocument();
    expect(
      screen.getByText(
        /^\(policy of team SRE\): Step 2, at .+: escalate to Grace Hopper if still undecided\.$/,
      ),
    ).toBeInTheDocument();
  });

  it('a step already due says so; nothing to show, nothing shown', () => {
    const { unmount } = renderWithApp(
      <EscalationPanel
        now={NOW}
        escalation={{
          policy: 'organisation',
          team: null,
          entries: [],
          next: {
            step: 1,
            afterMinutes: 10,
            action: 'remind',
            when: 'unassigned',
            dueAt: '2026-11-27T08:59:00.000Z',
            assignTo: null,
          },
        }}
      />,
    );
    expect(screen.getByText('None yet.')).toBeInTheDocument();
    expect(
      screen.getByText(
        "(organisation's policy): Step 1, due now: remind the assignee if still unassigned.",
      ),
    ).toBeInTheDocument();
    unmount();
    renderWithApp(
      <EscalationPanel escalation={{ policy: null, team: null, entries: [], next: null }} />,
    );
    expect(screen.queryByRole('region', { name: 'Reminders and escalations' })).toBeNull();
  });
});
