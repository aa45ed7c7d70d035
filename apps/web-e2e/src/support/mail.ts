import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';

/** The service's SMTP server writes each message it receives here (tools/scripts/with-service.mjs). */
const MAIL_DIR = process.env.INTERLOCK_MAIL_DIR as string;

/**
 * The newest message to `to` whose subject contains `subjectContains`, waiting up to 20 s for it;
 * `mailDir`: another service's SMTP server (support/second-service.ts).
 */
export async function receivedMail(
  to: string,
  subjectContains: string,
  mailDir = MAIL_DIR,
): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        // Files are numbered in arrival order: the last match is the newest.
        for (const file of readdirSync(mailDir).sort((a, b) => parseInt(a, 10) - parseInt(b, 10))) {
          const mail = await simpleParser(readFileSync(join(mailDir, file)));
          const recipients = (Array.isArray(mail.to) ? mail.to : [mail.to])
            .flatMap((a) => a?.value ?? [])
            .map((a) => a.address);
          if (recipients.includes(to) && (mail.subject ?? '').includes(subjectContains))
            found = mail;
        }
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found as ParsedMail;
}
