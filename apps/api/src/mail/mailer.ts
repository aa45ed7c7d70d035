import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { MailConfig } from '../config/app-config';
import { onFirstUse } from '../loading/on-first-use.util';

/** nodemailer, loaded by the first message (issue 28: a process that sends no email never holds it). */
const mailTransports = onFirstUse<typeof nodemailer>('nodemailer');

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
  /** Made by the first message (SMTP_URL set): the pool connects only then anyway. */
  private transport: nodemailer.Transporter | undefined;
  /** Made by the first message written to MAIL_DIR (no SMTP_URL, outside production). */
  private files: nodemailer.Transporter | undefined;

  constructor(
    private readonly config: MailConfig,
    private readonly logger: Logger,
    private readonly production: boolean,
  ) {}

  /** Whether messages really leave (SMTP_URL is set); the dashboard says so when they do not. */
  get enabled(): boolean {
    return this.config.smtpUrl !== undefined;
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    const messageId = mail.messageId ?? `${randomUUID()}@${this.config.messageIdDomain}`;
    const smtpUrl = this.config.smtpUrl;
    if (smtpUrl === undefined) {
      if (this.production) {
        this.logger.warn(
          { to: mail.to, subject: mail.subject, messageId },
          'email is off (no SMTP_URL): message not sent',
        );
      } else {
        // Renders the message exactly as SMTP would carry it, for the development outbox.
        this.files ??= mailTransports().createTransport({ streamTransport: true, buffer: true });
        const file = await this.writeFile(this.files, mail, messageId);
        this.logger.info(
          { to: mail.to, subject: mail.subject, messageId, file },
          'email is off (no SMTP_URL): the message is in a file',
        );
      }
      return { messageId, transport: 'log' };
    }
    this.transport ??= mailTransports().createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: this.config.maxConnections,
      maxMessages: 100,
    });
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
    files: nodemailer.Transporter,
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
