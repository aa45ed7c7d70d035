import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  parsed: ParsedMail;
  raw: string;
}

/**
 * The token of an emailed single-use link `<base>/<page>#<token>` (SPEC §8f): the same in the
 * message's text and its HTML, else this throws.
 */
export function linkToken(
  mail: ReceivedMail,
  base: string,
  page: string,
  /** The token's pattern: 32 random bytes unless said (a sealed sign-up link's token is longer). */
  token = '[A-Za-z0-9_-]{43}',
): string {
  const pattern = new RegExp(`${base.replace(/[.]/g, '\\.')}/${page}#(${token})`);
  const inText = pattern.exec(mail.parsed.text ?? '')?.[1];
  const inHtml = pattern.exec(String(mail.parsed.html))?.[1];
  if (inText === undefined || inHtml !== inText)
    throw new Error(`no ${page} link, or different ones in the text and the HTML`);
  return inText;
}

/** Every href of a message's HTML part, and every URL of its text part. */
export function linksOf(mail: ReceivedMail): string[] {
  const hrefs = [...String(mail.parsed.html).matchAll(/href="([^"]+)"/g)].map((m) =>
    m[1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '='),
  );
  const urls = [...(mail.parsed.text ?? '').matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
  return [...new Set([...hrefs, ...urls])];
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that accepts every message and
 * keeps it, parsed with `mailparser`, for the tests to read. No TLS, any credentials.
 */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  /** Answer the next this many messages with a temporary failure (451). */
  failNext = 0;
  private server: SMTPServer | undefined;
  private readonly waiters = new Set<() => void>();
  port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.failNext > 0) {
            this.failNext--;
            const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
            callback(error);
            return;
          }
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              this.messages.push({
                to: session.envelope.rcptTo.map((r) => r.address),
                from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
                parsed,
                raw: raw.toString('utf8'),
              });
              for (const wake of this.waiters) wake();
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  /** Messages to one address. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(address));
  }

  /** Messages to one address with this subject, in arrival order. */
  withSubject(address: string, subject: string): ReceivedMail[] {
    return this.to(address).filter((m) => m.parsed.subject === subject);
  }

  /** Resolves once `done()` holds (checked on every message), or fails after `timeoutMs`. */
  async until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `SMTP sink: condition not met in ${timeoutMs} ms (${this.messages.length} messages)`,
          ),
        );
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server === undefined ? resolve() : this.server.close(() => resolve()),
    );
  }
}
