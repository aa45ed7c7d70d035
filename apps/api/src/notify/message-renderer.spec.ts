import { MAIL_TEMPLATES } from './mail-templates';
import { InvitationEmailProof } from './invitation-email-proof.util';
import { MessageRenderer } from './message-renderer';
import type { InterruptNotice } from './notification-outbox';
import { renderSlackMessage } from './slack/slack-message';

const hostile = '<script>alert("x")</script> & "quotes" \'single\'';

function notice(overrides: Partial<InterruptNotice> = {}): InterruptNotice {
  return {
    id: '0b7f1a52-93a3-4d55-9e4b-7c2b3f1a0e11',
    title: hostile,
    description: hostile,
    status: 'open',
    escalationLevel: 1,
    escalationReason: hostile,
    assignee: { type: 'team', id: 't', name: hostile },
    actionRequests: [
      {
        name: `deploy ${hostile}`,
        description: hostile,
        allowedDecisions: ['approve', 'reject', 'edit'],
        args: JSON.stringify({ x: hostile }),
      },
    ],
    decisions: [],
    createdAt: '2026-11-26T10:00:00.000Z',
    ...overrides,
  };
}

describe('MessageRenderer', () => {
  const renderer = new MessageRenderer(
    'https://interlock.example.com',
    new InvitationEmailProof('a pepper for the renderer tests'),
  );

  it('no HTML template can print a value unescaped (no triple-stash, no {{&)', () => {
    for (const template of Object.values(MAIL_TEMPLATES)) {
      for (const source of [template.html, template.body]) {
        expect(source).not.toMatch(/\{\{\{|\{\{~?\s*&/);
      }
    }
  });

  it('a deadline coming: heads the email with the minutes left and says what the deadline will do (SPEC §8h)', () => {
    const warn = (minutesLeft: number, onTimeout: 'reject' | 'approve' | 'escalate') =>
      renderer.interrupt('Acme', {
        kind: 'interrupt.deadline_approaching',
        interrupt: notice({
          title: 'Rotate keys',
          deadline: { expiresAt: '2026-11-26T11:00:00.000Z', minutesLeft, onTimeout },
        }),
      });
    const mail = warn(12, 'reject');
    expect(mail.subject).toBe('[Acme] Deadline in 12 minutes: Rotate keys');
    expect(mail.text).toContain('Deadline in 12 minutes — at the deadline it will be rejected');
    expect(mail.html).toContain('Deadline in 12 minutes — at the deadline it will be rejected');
    // Still open: the action links are there to decide in time.
    expect(mail.text).toContain('Approve deploy');
    expect(warn(1, 'approve').subject).toBe('[Acme] Deadline in 1 minute: Rotate keys');
    expect(warn(1, 'approve').text).toContain(
      'Deadline in 1 minute — at the deadline it will be approved',
    );
    expect(warn(30, 'escalate').text).toContain(
      'Deadline in 30 minutes — at the deadline it will be escalated',
    );
  });

  it("shows the classifier's risk and labels (escaped) in the email and the Slack message; nothing when the risk is unknown and there are no labels", () => {
    const rated = notice({ risk: 'high', labels: ['prod', '<b>money</b>'] });
    const mail = renderer.interrupt('Acme', { kind: 'interrupt.opened', interrupt: rated });
    expect(mail.text).toContain('\nRisk: high · Labels: prod, <b>money</b>\n');
    expect(mail.html).toContain(
      '<strong>Risk: high · Labels: prod, &lt;b&gt;money&lt;/b&gt;</strong>',
    );
    const slackFacts = (message: ReturnType<typeof renderSlackMessage>) =>
      JSON.stringify(message.blocks.filter((b) => b.type === 'context'));
    expect(slackFacts(renderSlackMessage(rated, 'https://x.test'))).toContain(
      'Risk: high · Labels: prod, <b>money</b>',
    );
    expect(
      renderer.interrupt('Acme', {
        kind: 'interrupt.opened',
        interrupt: notice({ risk: 'critical', labels: [] }),
      }).text,
    ).toContain('\nRisk: critical\n');
    for (const unknown of [notice({ risk: null, labels: [] }), notice()]) {
      const plain = renderer.interrupt('Acme', { kind: 'interrupt.opened', interrupt: unknown });
      expect(plain.text).not.toContain('Risk');
      expect(plain.html).not.toContain('Risk');
      expect(slackFacts(renderSlackMessage(unknown, 'https://x.test'))).not.toContain('Risk');
    }
    expect(
      renderer.interrupt('Acme', {
        kind: 'interrupt.opened',
        interrupt: notice({ risk: null, labels: ['pii'] }),
      }).text,
    ).toContain('\nLabels: pii\n');
  });

  it('escapes every agent-supplied value in the HTML part, keeps them as written in the text part', () => {
    const mail = renderer.interrupt('Acme <Corp>', {
      kind: 'interrupt.opened',
      interrupt: notice(),
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('Acme <Corp>');
    expect(mail.html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot; &#x27;single&#x27;',
    );
    expect(mail.text).toContain(hostile);
    expect(mail.subject).toBe(`[Acme <Corp>] Approval needed: ${hostile}`);
  });

  it('action links go to the confirmation page with the action and decision in the query, encoded; only for open actions', () => {
    const mail = renderer.interrupt('Acme', {
      kind: 'interrupt.assigned',
      interrupt: notice({
        actionRequests: [
          {
            name: 'a&b=c',
            description: null,
            allowedDecisions: ['approve', 'respond'],
            args: '{}',
          },
        ],
      }),
    });
    expect(mail.text).toContain(
      'Approve a&b=c: https://interlock.example.com/interrupts/0b7f1a52-93a3-4d55-9e4b-7c2b3f1a0e11/confirm?action=a%26b%3Dc&decision=approve',
    );
    expect(mail.text).not.toContain('decision=reject');
    const answered = renderer.interrupt('Acme', {
      kind: 'interrupt.decided',
      interrupt: notice({
        status: 'answered',
        decisions: [{ actionName: `deploy ${hostile}`, decision: 'approve', by: 'Ada' }],
      }),
    });
    expect(answered.text).not.toContain('/confirm?');
    expect(answered.text).toContain('approve by Ada');
  });

  it('with a token minter, each open action links to /decide#<token> for that action and decision (older notices without a digest keep the confirmation page)', () => {
    const minted: string[] = [];
    const token = (
      interruptId: string,
      action: { name: string; digest: string },
      decision: string,
    ) => {
      minted.push(`${interruptId}/${action.name}/${action.digest}/${decision}`);
      return `al1.t${minted.length}.m`;
    };
    const digest = 'd'.repeat(64);
    const mail = renderer.digest(
      'Acme',
      'hourly',
      [
        {
          kind: 'interrupt.opened',
          interrupt: notice({
            actionRequests: [
              {
                name: 'go',
                description: null,
                allowedDecisions: ['approve', 'reject'],
                args: '{}',
                digest,
              },
            ],
          }),
        },
        {
          kind: 'interrupt.opened',
          interrupt: notice({
            id: 'old',
            actionRequests: [
              { name: 'legacy', description: null, allowedDecisions: ['approve'], args: '{}' },
            ],
          }),
        },
      ],
      token,
    );
    expect(minted).toEqual([
      `0b7f1a52-93a3-4d55-9e4b-7c2b3f1a0e11/go/${digest}/approve`,
      `0b7f1a52-93a3-4d55-9e4b-7c2b3f1a0e11/go/${digest}/reject`,
    ]);
    expect(mail.text).toContain('Approve go: https://interlock.example.com/decide#al1.t1.m');
    expect(mail.text).toContain('Reject go: https://interlock.example.com/decide#al1.t2.m');
    expect(mail.html).toContain('href="https://interlock.example.com/decide#al1.t1.m"');
    expect(mail.text).toContain(
      'Approve legacy: https://interlock.example.com/interrupts/old/confirm?action=legacy&decision=approve',
    );
  });

  it('a withdrawn or expired interrupt (interrupt.closed) says who closed it and why, escaped, with no action links', () => {
    const byMember = renderer.interrupt('Acme', {
      kind: 'interrupt.closed',
      interrupt: notice({
        status: 'withdrawn',
        withdrawnBy: { type: 'member', name: 'Grace <Hopper>' },
        withdrawnReason: hostile,
      }),
    });
    expect(byMember.subject).toBe(`[Acme] Withdrawn: ${hostile}`);
    expect(byMember.text).toContain(`Withdrawn by Grace <Hopper>: ${hostile}`);
    expect(byMember.html).toContain('Withdrawn by Grace &lt;Hopper&gt;: &lt;script&gt;');
    expect(byMember.html).not.toContain('<script>');
    expect(byMember.text).not.toMatch(/\/confirm\?|\/decide#/);
    expect(byMember.text).not.toMatch(/Approve |Reject /);

    const byAgent = renderer.interrupt('Acme', {
      kind: 'interrupt.closed',
      interrupt: notice({
        status: 'withdrawn',
        withdrawnBy: { type: 'api_key', name: 'billing-agent' },
        withdrawnReason: null,
      }),
    });
    expect(byAgent.text).toContain('Withdrawn by the agent (billing-agent) · assigned to');

    const expired = renderer.interrupt('Acme', {
      kind: 'interrupt.closed',
      interrupt: notice({
        status: 'expired',
        decisions: [{ actionName: `deploy ${hostile}`, decision: 'reject', by: 'system' }],
      }),
    });
    expect(expired.subject).toBe(`[Acme] Expired: ${hostile}`);
    expect(expired.text).toContain('Expired: its deadline passed before every action was decided');
    expect(expired.text).toContain('reject by system');
    expect(expired.text).not.toMatch(/\/confirm\?|\/decide#/);
  });

  it('a subject is one line, however the title was written', () => {
    const mail = renderer.interrupt('Acme', {
      kind: 'interrupt.opened',
      interrupt: notice({ title: 'line one\r\nBcc: someone@example.com' }),
    });
    expect(mail.subject).toBe('[Acme] Approval needed: line one Bcc: someone@example.com');
  });

  it('a digest lists each interrupt and links to the inbox', () => {
    const mail = renderer.digest('Acme', 'daily', [
      { kind: 'interrupt.opened', interrupt: notice({ title: 'One' }) },
      { kind: 'interrupt.escalated', interrupt: notice({ title: 'Two' }) },
    ]);
    expect(mail.subject).toBe('[Acme] 2 interrupts for you today');
    expect(mail.text).toMatch(/One[\s\S]*Two/);
    expect(mail.html).toContain('href="https://interlock.example.com/inbox"');
  });
});
