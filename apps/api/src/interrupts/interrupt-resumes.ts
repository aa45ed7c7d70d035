import { createHmac, randomUUID } from 'node:crypto';
import { DomainError } from '@interlock/domain';
import type { Statement } from '../database/combined-statement';
import type { Queryable } from '../database/query-rows.util';
import type { OutboxCause, OutboxEvent, OutboxListener } from '../webhooks/webhook-outbox';
import { WEBHOOK_SECRET_PREFIX, WebhookSecretBox } from '../webhooks/webhook-secret.util';
import { type AddressResolver, checkEndpointUrl } from '../webhooks/webhook-url.util';

/** What the signing secret of a resumeUrl is derived from, besides the key (SPEC §8e). */
export const RESUME_SECRET_CONTEXT = 'interlock resumeUrl signing secret v1';

/**
 * The Standard Webhooks secret a resumeUrl's POST is signed with (SPEC §8e (D)): `whsec_` and the
 * base64 of HMAC-SHA-256 under the API key that opened the interrupt, of a fixed text. The agent
 * holds its key, so it can compute the secret (the SDKs' `resumeSigningSecret`); no secret
 * travels in any request or response, and the service keeps it sealed, never the key.
 */
export function resumeSigningSecret(apiKey: string): string {
  return `${WEBHOOK_SECRET_PREFIX}${createHmac('sha256', apiKey).update(RESUME_SECRET_CONTEXT).digest('base64')}`;
}

/** What is sealed per interrupt: the URL (a pre-signed URL is a credential) and the secret. */
export interface ResumeTarget {
  url: string;
  secret: string;
}

/**
 * The event types that end an interrupt's wait: the first of them written is POSTed (an interrupt
 * argus answers as it opens writes interrupt.answered in its create transaction too).
 */
const FINAL_EVENTS = new Set<OutboxEvent['type']>([
  'interrupt.answered',
  'interrupt.expired',
  'interrupt.withdrawn',
]);

/** Makes the interrupt's resume due with the event that ended it, once: only a waiting row moves. */
const MAKE_DUE = `
UPDATE interrupt_resumes
   SET status = 'pending', due_at = now(), event_id = $3, event_type = $4, body = $5
 WHERE organisation_id = $1 AND interrupt_id = $2 AND status = 'waiting'`;

/**
 * The resumeUrl of interrupts (SPEC §8e): kept sealed when the interrupt opens, and made due in
 * the transaction of the change that ends the interrupt — answered, expired or withdrawn — as an
 * outbox listener, so the POST exists if and only if that change committed. The delivery
 * (`InterruptResumeWorker`) signs and retries it as webhooks are.
 */
export class InterruptResumes implements OutboxListener {
  constructor(
    private readonly box: WebhookSecretBox,
    private readonly resolve: AddressResolver,
    private readonly production: boolean,
    private readonly maxAttempts: number,
  ) {}

  /** The URL as kept, or 400: the webhook URL rules (shape always, addresses in production). */
  async checkUrl(raw: string): Promise<string> {
    const refuse = (text: string) =>
      new DomainError('VALIDATION_FAILED', text.replace(/^url\b/, 'resumeUrl'));
    const checked = await checkEndpointUrl(raw, this.production, this.resolve);
    if ('refusal' in checked) throw refuse(checked.refusal);
    return checked.url;
  }

  /** Keeps the interrupt's resume target (in the transaction that opens it). */
  async keep(
    tx: Queryable,
    organisationId: string,
    interruptId: string,
    target: ResumeTarget,
  ): Promise<void> {
    const sealed = this.box.seal(JSON.stringify(target), organisationId, interruptId);
    await tx.query(
      `INSERT INTO interrupt_resumes (organisation_id, interrupt_id, sealed, max_attempts) VALUES ($1, $2, $3, $4)`,
      [organisationId, interruptId, sealed, this.maxAttempts],
    );
  }

  /** The sealed target, opened (throws when sealed under another server secret). */
  open(sealed: Buffer, organisationId: string, interruptId: string): ResumeTarget {
    return JSON.parse(this.box.open(sealed, organisationId, interruptId)) as ResumeTarget;
  }

  async write(
    tx: Queryable,
    organisationId: string,
    events: readonly OutboxEvent[],
    _cause: OutboxCause,
  ): Promise<void> {
    for (const statement of this.statements(organisationId, events))
      await tx.query(statement.text, [...statement.values]);
  }

  /**
   * Its statements need no answer; they may run at once unless two are of one interrupt (the
   * first final event moves its row, and the second must see it moved).
   */
  async statementsFor(
    organisationId: string,
    events: readonly OutboxEvent[],
  ): Promise<readonly Statement[] | undefined> {
    const statements = this.statements(organisationId, events);
    const interrupts = new Set(statements.map((statement) => statement.values[1]));
    return interrupts.size === statements.length ? statements : undefined;
  }

  private statements(organisationId: string, events: readonly OutboxEvent[]): Statement[] {
    const statements: Statement[] = [];
    for (const event of events) {
      if (!FINAL_EVENTS.has(event.type)) continue;
      const id = randomUUID();
      const body = JSON.stringify({
        id,
        type: event.type,
        createdAt: new Date().toISOString(),
        organisationId,
        data: event.data,
      });
      statements.push({
        text: MAKE_DUE,
        values: [organisationId, event.subjectId, id, event.type, body],
      });
    }
    return statements;
  }
}
