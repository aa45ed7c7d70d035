import type { Interrupt } from '@interlock/sdk';
import { dashboardLink, isQuestion, toOutcome } from './outcome';

function interrupt(overrides: Partial<Interrupt> = {}): Interrupt {
  return {
    id: '7d0f4e7e-8a43-4c39-9b7e-1f7f3c1a2b3c',
    title: 'Deploy api 1.4.2?',
    description: null,
    externalId: null,
    sessionId: null,
    status: 'open',
    actionRequests: [
      {
        name: 'deploy',
        args: {},
        description: null,
        allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
        responseSchema: null,
      },
      {
        name: 'notify',
        args: {},
        description: null,
        allowedDecisions: ['approve'],
        responseSchema: null,
      },
    ],
    decisions: [],
    assignee: null,
    escalationLevel: 0,
    escalationReason: null,
    escalatedAt: null,
    metadata: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    answeredAt: null,
    ...overrides,
  } as Interrupt;
}

const decision = (
  actionName: string,
  kind: 'approve' | 'edit' | 'reject' | 'respond',
  message: string | null = null,
) => ({
  id: `d-${actionName}`,
  actionName,
  decision: kind,
  editedArgs: null,
  editedName: null,
  message,
  response: null,
  decidedBy: { type: 'member' as const, id: 'm1', name: 'Alice' },
  decidedAt: '2026-11-22T10:01:00.000Z',
});

describe('toOutcome', () => {
  it('reports an open interrupt as pending, never as approved, even when some actions are approved', () => {
    const outcome = toOutcome(
      interrupt({ decisions: [decision('deploy', 'approve')] }),
      'https://i.example.com/',
    );
    expect(outcome.status).toBe('pending');
    expect(outcome.actionsAwaitingDecision).toEqual(['notify']);
    expect(outcome.url).toBe(
      'https://i.example.com/interrupts/7d0f4e7e-8a43-4c39-9b7e-1f7f3c1a2b3c',
    );
    expect(outcome.next).toContain('NOT an approval');
    expect(outcome.next).toContain('1 of 2 actions are decided');
    expect(outcome.answer).toBeUndefined();
  });

  it('passes on an edit that renamed the action', () => {
    const edited = {
      ...decision('deploy', 'edit'),
      editedArgs: { version: '1.4.3' },
      editedName: 'deploy_canary',
    };
    const outcome = toOutcome(
      interrupt({ status: 'answered', decisions: [edited, decision('notify', 'approve')] }),
      'https://x',
    );
    expect(outcome.decisions[0]).toEqual({
      action: 'deploy',
      decision: 'edit',
      editedArgs: { version: '1.4.3' },
      editedName: 'deploy_canary',
      decidedBy: 'Alice',
      decidedAt: '2026-11-22T10:01:00.000Z',
    });
    expect(outcome.decisions[1]).not.toHaveProperty('editedName');
  });

  it('reports an answered interrupt with one decision per action', () => {
    const outcome = toOutcome(
      interrupt({
        status: 'answered',
        decisions: [decision('deploy', 'approve'), decision('notify', 'reject', 'no')],
      }),
      'https://i.example.com',
    );
    expect(outcome).toMatchObject({ status: 'answered', actionsAwaitingDecision: [] });
    expect(outcome.decisions.map((d) => [d.action, d.decision, d.decidedBy])).toEqual([
      ['deploy', 'approve', 'Alice'],
      ['notify', 'reject', 'Alice'],
    ]);
  });

  it("gives an ask_human interrupt's answer, known by its shape", () => {
    const asked = interrupt({
      status: 'answered',
      actionRequests: [
        {
          name: 'answer',
          args: {},
          description: null,
          allowedDecisions: ['respond'],
          responseSchema: null,
        },
      ],
      decisions: [decision('answer', 'respond', 'eu-west-1')],
    });
    expect(toOutcome(asked, 'https://i.example.com')).toMatchObject({
      status: 'answered',
      answer: 'eu-west-1',
    });
    const pending = toOutcome({ ...asked, status: 'open', decisions: [] }, 'https://i.example.com');
    expect(pending.status).toBe('pending');
    expect(pending).not.toHaveProperty('answer');
    expect(pending.next).toMatch(/^No answer yet/);
  });

  it('says when an identical earlier request was resumed, and when a shutdown cut the wait', () => {
    expect(toOutcome(interrupt(), 'https://x', { resumed: true })).toMatchObject({ resumed: true });
    expect(toOutcome(interrupt(), 'https://x', { resumed: true }).next).toMatch(
      /^This is the request you already opened/,
    );
    expect(toOutcome(interrupt(), 'https://x', { stopped: true }).next).toContain('restarting');
  });
});

describe('isQuestion', () => {
  const action = (
    name: string,
    allowedDecisions: ('approve' | 'edit' | 'reject' | 'respond')[],
  ) => ({ name, args: {}, description: null, allowedDecisions, responseSchema: null });

  it('is one action named answer that only a written response decides', () => {
    expect(isQuestion({ actionRequests: [action('answer', ['respond'])] })).toBe(true);
    expect(isQuestion({ actionRequests: [action('answer', ['respond', 'approve'])] })).toBe(false);
    expect(isQuestion({ actionRequests: [action('reply', ['respond'])] })).toBe(false);
    expect(
      isQuestion({
        actionRequests: [action('answer', ['respond']), action('deploy', ['approve'])],
      }),
    ).toBe(false);
    expect(isQuestion({ actionRequests: [] })).toBe(false);
  });
});

describe('dashboardLink', () => {
  it('joins the base and the in-app route', () => {
    expect(dashboardLink('https://example.com/interlock/', 'abc')).toBe(
      'https://example.com/interlock/interrupts/abc',
    );
  });
});

describe('a withdrawn request', () => {
  it('is closed: next says so, with the reason, and names what must not be carried out', () => {
    const withdrawn = toOutcome(
      interrupt({
        status: 'withdrawn',
        withdrawnReason: 'Plan changed',
        decisions: [decision('deploy', 'approve')],
      } as Partial<Interrupt>),
      'https://interlock.test',
    );
    expect(withdrawn.status).toBe('pending');
    expect(withdrawn.actionsAwaitingDecision).toEqual(['notify']);
    expect(withdrawn.next).toBe(
      'This request was withdrawn (Plan changed) and is closed. Nobody will decide "notify": do not ' +
        'carry it out. To ask again, open a new request with a different title or description.',
    );
    expect(
      toOutcome(interrupt({ status: 'withdrawn' } as Partial<Interrupt>), 'https://interlock.test')
        .next,
    ).toBe(
      'This request was withdrawn and is closed. Nobody will decide "deploy", "notify": do not ' +
        'carry them out. To ask again, open a new request with a different title or description.',
    );
  });
});
