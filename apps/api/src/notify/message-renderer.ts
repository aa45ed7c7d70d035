import type Handlebars from 'handlebars';
import { onFirstUse } from '../loading/on-first-use.util';
import { InvitationEmailProof } from './invitation-email-proof.util';
import { approvalsLineOf, riskLineOf, stateOf, type InterruptNotice } from './notification-outbox';
import { MAIL_TEMPLATES, type MailTemplateName } from './mail-templates';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Compiled {
  subject: Handlebars.TemplateDelegate;
  text: Handlebars.TemplateDelegate;
  html: Handlebars.TemplateDelegate;
}

/**
 * Mints the single-use token of an action link for this message's recipient (issue 30, §2), when
 * the organisation lets links decide; the link then opens `/decide#<token>`.
 */
export type LinkToken = (
  interruptId: string,
  action: { name: string; digest: string },
  decision: 'approve' | 'reject',
) => string;

/** One interrupt in a message, with what it is about for this recipient. */
export interface NoticeItem {
  kind: string;
  interrupt: InterruptNotice;
}

const HEADINGS: Record<string, string> = {
  'interrupt.opened': 'Approval needed',
  'interrupt.assigned': 'Assigned to you',
  'interrupt.escalated': 'Escalated',
  'interrupt.decided': 'Decided',
  'interrupt.reminder': 'Still waiting',
  'interrupt.approval_needed': 'Your approval is needed',
};

/** An `interrupt.closed` message is headed by how it closed. */
const CLOSED_HEADINGS: Record<string, string> = { withdrawn: 'Withdrawn', expired: 'Expired' };

/**
 * The line of an `interrupt.approval_needed` message: `1 of 2 approved — your approval is
 * needed`, naming the action when the interrupt has several.
 */
function approvalNeededLine(notice: InterruptNotice): string {
  const a = notice.approval;
  if (a === undefined) return 'Your approval is needed';
  const which = notice.actionRequests.length > 1 ? ` (${a.actionName})` : '';
  return `${a.approvals} of ${a.requiredApprovals} approved${which} — your approval is needed`;
}

/** What the deadline will do, as a warning says it (SPEC §8h). */
const DEADLINE_OUTCOMES: Record<string, string> = {
  reject: 'rejected',
  approve: 'approved',
  escalate: 'escalated',
};

/** An `interrupt.deadline_approaching` message's heading: `Deadline in 12 minutes` (`in 1 minute`). */
function deadlineHeading(notice: InterruptNotice): string {
  const minutes = notice.deadline?.minutesLeft;
  if (minutes === undefined) return 'Deadline coming';
  return `Deadline in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** Its line: `At the deadline it will be rejected` (approved, escalated). */
function deadlineLine(notice: InterruptNotice): string {
  const outcome =
    notice.deadline === undefined ? undefined : DEADLINE_OUTCOMES[notice.deadline.onTimeout];
  return outcome === undefined ? 'Its deadline is near' : `At the deadline it will be ${outcome}`;
}

const headingOf = (item: NoticeItem): string =>
  item.kind === 'interrupt.closed'
    ? (CLOSED_HEADINGS[item.interrupt.status] ?? 'Closed')
    : item.kind === 'interrupt.deadline_approaching'
      ? deadlineHeading(item.interrupt)
      : (HEADINGS[item.kind] ?? 'Interlock');

const LABELS: Record<string, string> = {
  'interrupt.opened': 'New interrupt',
  'interrupt.assigned': 'Assigned to you or your team',
  'interrupt.escalated': 'Escalated',
  'interrupt.decided': 'Decided',
  'interrupt.reminder': 'Reminder: still waiting',
};

/** Which decisions get a link in an email: the two a reviewer takes from a phone. */
const LINKED_DECISIONS = [
  { decision: 'approve', label: 'Approve', primary: true },
  { decision: 'reject', label: 'Reject', primary: false },
] as const;

/**
 * Renders the notification emails from their templates (`mail-templates.ts`). Links never
 * decide anything: an action link opens the dashboard's confirmation page, where the decision
 * is a POST by a signed-in member (issue 30, §2).
 */
export class MessageRenderer {
  /** Each template compiled by its first message (Handlebars is loaded by the first one). */
  private readonly templates = new Map<MailTemplateName, Compiled>();

  constructor(
    private readonly dashboardUrl: string,
    private readonly emailProof: InvitationEmailProof,
  ) {}

  /** One notification about one interrupt. */
  interrupt(organisationName: string, item: NoticeItem, token?: LinkToken): RenderedMail {
    return this.render('interrupt', {
      organisationName,
      heading: headingOf(item),
      item: this.itemView(item, token),
      footer: `You receive this because of your notification settings in ${organisationName}.`,
      settingsUrl: `${this.dashboardUrl}/settings/notifications`,
    });
  }

  /** An hourly or daily digest: one organisation's notifications to one member. */
  digest(
    organisationName: string,
    mode: string,
    items: readonly NoticeItem[],
    token?: LinkToken,
  ): RenderedMail {
    const count = items.length;
    const period = mode === 'daily' ? 'today' : 'this hour';
    return this.render('digest', {
      organisationName,
      heading: `${count} ${count === 1 ? 'interrupt' : 'interrupts'} for you ${period}`,
      items: items.map((item) => this.itemView(item, token)),
      inboxUrl: `${this.dashboardUrl}/inbox`,
      footer: `Your ${mode} digest for ${organisationName}.`,
      settingsUrl: `${this.dashboardUrl}/settings/notifications`,
    });
  }

  invitation(
    organisationName: string,
    invitation: {
      invitationId: string;
      email: string;
      inviterName: string;
      roleName: string;
      expiresAt: string;
      token: string;
    },
  ): RenderedMail {
    // The fragment proves the address to the accepting page (SPEC §8f); the inviter never sees it.
    const proof = this.emailProof.of(invitation.invitationId, invitation.email);
    return this.render('invitation', {
      organisationName,
      inviterName: invitation.inviterName,
      roleName: invitation.roleName,
      expiresAt: new Date(invitation.expiresAt).toUTCString(),
      acceptUrl: `${this.dashboardUrl}/invitations/${encodeURIComponent(invitation.token)}#${proof}`,
      footer: `Sent by Interlock for ${organisationName}.`,
      settingsUrl: null,
    });
  }

  private itemView(item: NoticeItem, token: LinkToken | undefined) {
    const interrupt = item.interrupt;
    const url = `${this.dashboardUrl}/interrupts/${interrupt.id}`;
    const open = interrupt.status === 'open';
    return {
      title: interrupt.title,
      description: interrupt.description,
      // A closed interrupt's line says who closed it and why (the state as Slack shows it too).
      label:
        item.kind === 'interrupt.closed'
          ? stateOf(interrupt)
          : item.kind === 'interrupt.approval_needed'
            ? approvalNeededLine(interrupt)
            : item.kind === 'interrupt.deadline_approaching'
              ? `${deadlineHeading(interrupt)} — ${deadlineLine(interrupt).toLowerCase()}`
              : (LABELS[item.kind] ?? item.kind),
      assignee: interrupt.assignee?.name ?? null,
      risk: riskLineOf(interrupt),
      escalation:
        interrupt.escalationLevel > 0
          ? `escalation level ${interrupt.escalationLevel}${interrupt.escalationReason === null ? '' : `: ${interrupt.escalationReason}`}`
          : null,
      url,
      actions: interrupt.actionRequests.map((action) => {
        const decision = interrupt.decisions.find((d) => d.actionName === action.name);
        return {
          name: action.name,
          description: action.description,
          args: action.args,
          decided:
            decision === undefined
              ? approvalsLineOf(action)
              : `${decision.decision} by ${decision.by}`,
          links:
            !open || decision !== undefined
              ? []
              : LINKED_DECISIONS.filter((d) => action.allowedDecisions.includes(d.decision)).map(
                  (d) => ({
                    label: `${d.label} ${action.name}`,
                    primary: d.primary,
                    // A notice written before digests were kept has none: it links to the sign-in confirmation.
                    url:
                      token !== undefined && action.digest !== undefined
                        ? `${this.dashboardUrl}/decide#${token(interrupt.id, { name: action.name, digest: action.digest }, d.decision)}`
                        : `${url}/confirm?${new URLSearchParams({ action: action.name, decision: d.decision }).toString()}`,
                  }),
                ),
        };
      }),
    };
  }

  private render(name: MailTemplateName, view: Record<string, unknown>): RenderedMail {
    let compiled = this.templates.get(name);
    if (compiled === undefined) {
      compiled = compile(MAIL_TEMPLATES[name]);
      this.templates.set(name, compiled);
    }
    const subject = compiled.subject(view).replace(/\s+/g, ' ').trim().slice(0, 250);
    return { subject, text: compiled.text(view), html: compiled.html({ ...view, subject }) };
  }
}

/**
 * Handlebars, loaded by the first message rendered: a process that sends no email never holds it
 * (issue 28: RSS).
 */
const handlebars = onFirstUse<typeof Handlebars>('handlebars');

function compile(source: (typeof MAIL_TEMPLATES)[MailTemplateName]): Compiled {
  const engine = handlebars();
  const html = engine.create();
  html.registerPartial('body', source.body);
  return {
    subject: engine.compile(source.subject, { noEscape: true, strict: true }),
    text: engine.compile(source.text, { noEscape: true }),
    html: html.compile(source.html),
  };
}
