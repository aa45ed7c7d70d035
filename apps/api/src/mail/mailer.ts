import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  /** `smtp`: handed to the SMTP server; `log`: email is off (the message was not sent). */
  transport: 'smtp' | 'log';
}

/**
 * The service's one way out for email (SPEC §8f), shared by every feature that sends any
 * (notifications, invitations, account emails). With `SMTP_URL`, messages go through a pooled
 * nodemailer SMTP transport from `MAIL_FROM`; without it email is off: outside production each
 * message is written as an `.eml` file to `MAIL_DIR` (so a developer can open it and follow its
 * links) and the log says where, in production the log says only that one was not sent. The log
 * never carries a message's body: its links hold invitation, sign-in or action tokens.
 */
export class Mailer {
  private readonly transport: Transporter | undefined;
  private readonly files: Transporter | undefined;

  constructor(
    private readonly config: MailConfig,
    private readonly logger: Logger,
    private readonly production: boolean,
  ) {
    this.transport =
      config.smtpUrl === undefined
        ? undefined
        : nodemailer.createTransport({
            url: config.smtpUrl,
            pool: true,
            maxConnections: config.maxConnections,
            maxMessages: 100,
          });
    // Renders the message exactly as SMTP would carry it, for the development outbox.
    this.files =
      config.smtpUrl === undefined && !production
        ? nodemailer.createTransport({ streamTransport: true, buffer: true })
        : undefined;
  }

  /** Whether messages really leave (SMTP_URL is set); the dashboard says so when they do not. */
  get enabled(): boolean {
    return this.transport !== undefined;
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    const messageId = mail.messageId ?? `${randomUUID()}@${this.config.messageIdDomain}`;
    if (this.transport === undefined) {
      if (this.files === undefined) {
        this.logger.warn(
          { to: mail.to, subject: mail.subject, messageId },
          'email is off (no SMTP_URL): message not sent',
        );
      } else {
        const file = await this.writeFile(this.files, mail, messageId);
        this.logger.info(
          { to: mail.to, subject: mail.subject, messageId, file },
          'email is off (no SMTP_URL): the message is in a file',
        );
      }
      return { messageId, transport: 'log' };
    }
    await this.transport.sendMail(this.envelope(mail, messageId));
    return { messageId, transport: 'smtp' };
  }

  private envelope(mail: OutgoingMail, messageId: string) {
    return {
      from: this.config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${messageId}>`,
      headers: mail.headers,
    };
  }

  /** Writes the message as `<MAIL_DIR>/<time>-<messageId>.eml` (readable by its owner only) and returns the path. */
  private async writeFile(
    files: Transporter,
    mail: OutgoingMail,
    messageId: string,
  ): Promise<string> {
    const info = (await files.sendMail(this.envelope(mail, messageId))) as { message: Buffer };
    await mkdir(this.config.outboxDir, { recursive: true, mode: 0o700 });
    const file = join(
      this.config.outboxDir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.replace(/[^\w.@-]/g, '_')}.eml`,
    );
    await writeFile(file, info.message, { mode: 0o600 });
    return file;
  }

  /** Closes the pooled connections (after the workers that send have drained). */
  close(): void {
    this.transport?.close();
  }
}
