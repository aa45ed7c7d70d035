import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { MailConfig } from '../config/app-config';

/** One email: both parts, rendered from templates by the caller. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Without angle brackets; generated when absent. */
  messageId?: string;
  headers?: Record<string, string>;
}

export interface SentMail {
  messageId: string;
  /** `smtp`: handed to the SMTP server; `log`: email is off and the message went to the log. */
  transport: 'smtp' | 'log';
}

/**
 * The service's one way out for email (SPEC §8f), shared by every feature that sends any
 * (notifications, invitations, account emails). With `SMTP_URL`, messages go through a pooled
 * nodemailer SMTP transport from `MAIL_FROM`; without it email is off: in development each
 * message is written to the log (so a developer can follow its links), in production only
 * the fact that one was not sent (a message may carry a sign-in or action token).
 */
export class Mailer {
  private readonly transport: Transporter | undefined;

  constructor(
    private readonly config: MailConfig,
    private readonly logger: Logger,
    private readonly production: boolean,
  ) {
    this.transport =
      config.smtpUrl === undefined
        ? undefined
        : nodemailer.createTransport({ url: config.smtpUrl, pool: true, maxConnections: config.maxConnections, maxMessages: 100 });
  }

  /** Whether messages really leave (SMTP_URL is set); the dashboard says so when they do not. */
  get enabled(): boolean {
    return this.transport !== undefined;
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    const messageId = mail.messageId ?? `${randomUUID()}@${this.config.messageIdDomain}`;
    if (this.transport === undefined) {
      if (this.production) {
        this.logger.warn({ to: mail.to, subject: mail.subject, messageId }, 'email is off (no SMTP_URL): message not sent');
      } else {
        this.logger.info({ to: mail.to, subject: mail.subject, messageId, text: mail.text }, 'email is off (no SMTP_URL): the message');
      }
      return { messageId, transport: 'log' };
    }
    await this.transport.sendMail({
      from: this.config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${messageId}>`,
      headers: mail.headers,
    });
    return { messageId, transport: 'smtp' };
  }

  /** Closes the pooled connections (after the workers that send have drained). */
  close(): void {
    this.transport?.close();
  }
}
