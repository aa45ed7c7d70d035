import { randomUUID } from 'node:crypto';
import type { Decision } from '@interlock/domain';
import type { WebhookSender } from '../webhooks/webhook-sender';
import { type AddressResolver, checkForAttempt } from '../webhooks/webhook-url.util';
import { type Risk, RISKS, RULE_LIMITS } from './rule-engine';

/** Where argus asks, and with which secrets it signs (the previous one too, for 24 h after a rotation). */
export interface ClassifierTarget {
  url: string;
  timeoutMs: number;
  secrets: string[];
}

/** The classifier's answer about one action request (SPEC §8d). */
export interface ClassifierAnswer {
  risk: Risk;
  labels: string[];
  reasons: string[];
}

/** What asking gave: the answer, or why there is none (argus then fails closed); `ms` either way. */
export type ClassifierResult =
  ({ ok: true; ms: number } & ClassifierAnswer) | { ok: false; ms: number; error: string };

/** What the classifier is told of one action request (the request body's `data`). */
export interface ClassifierRequest {
  title: string;
  description: string | null;
  sessionId: string | null;
  /** The API key that opens the interrupt; null in a test from Settings. */
  key: { id: string; name: string } | null;
  action: { name: string; args: Record<string, unknown>; allowedDecisions: readonly Decision[] };
}

export const CLASSIFIER_LIMITS = {
  timeoutMs: { min: 100, max: 10_000, default: 2_000 },
  labels: RULE_LIMITS.labels,
  labelLength: RULE_LIMITS.wordLength,
  reasons: 20,
  reasonLength: 500,
} as const;

/** The request's `type` (Standard Webhooks payloads carry one). */
export const CLASSIFIER_REQUEST_TYPE = 'classification.requested';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function strings(value: unknown, max: number, maxLength: number): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > max) return undefined;
  for (const s of value)
    if (typeof s !== 'string' || s.length < 1 || s.length > maxLength) return undefined;
  return value as string[];
}

/**
 * Reads the classifier's answer: a JSON object with `risk` (low|medium|high|critical) and,
 * optionally, `labels` and `reasons` (arrays of strings); other fields are ignored. Returns the
 * answer, or what is wrong with it (the receipt's words).
 */
export function parseClassifierAnswer(body: string): ClassifierAnswer | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'The answer is not JSON.';
  }
  if (!isObject(value)) return 'The answer is not a JSON object {risk, labels, reasons}.';
  if (typeof value.risk !== 'string' || !(RISKS as readonly string[]).includes(value.risk))
    return `The answer's risk must be one of ${RISKS.join(', ')}.`;
  const labels = strings(value.labels, CLASSIFIER_LIMITS.labels, CLASSIFIER_LIMITS.labelLength);
  if (labels === undefined)
    return `The answer's labels must be an array of at most ${CLASSIFIER_LIMITS.labels} strings of 1 to ${CLASSIFIER_LIMITS.labelLength} characters.`;
  const reasons = strings(value.reasons, CLASSIFIER_LIMITS.reasons, CLASSIFIER_LIMITS.reasonLength);
  if (reasons === undefined)
    return `The answer's reasons must be an array of at most ${CLASSIFIER_LIMITS.reasons} strings of 1 to ${CLASSIFIER_LIMITS.reasonLength} characters.`;
  return { risk: value.risk as Risk, labels: [...new Set(labels)], reasons };
}

/** The highest of some risks; null for none. */
export function highestRisk(risks: readonly Risk[]): Risk | null {
  let best = -1;
  for (const r of risks) best = Math.max(best, RISKS.indexOf(r));
  return best < 0 ? null : RISKS[best];
}

/**
 * Asks an organisation's external classifier about one action request: a POST signed exactly as
 * a webhook delivery is (Standard Webhooks headers, `WebhookSender`), to the addresses its host
 * resolves to, each checked against the webhooks' SSRF rules in production; redirects are never
 * followed. One time limit covers the lookup and the answer. Never throws: any failure is a
 * result with the reason, and argus fails closed on it.
 */
export class ExternalClassifier {
  constructor(
    private readonly sender: WebhookSender,
    private readonly resolve: AddressResolver,
    private readonly production: boolean,
  ) {}

  async classify(target: ClassifierTarget, request: ClassifierRequest): Promise<ClassifierResult> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const failed = (error: string): ClassifierResult => ({ ok: false, ms: ms(), error });
    const noAnswer = `No answer within ${target.timeoutMs / 1000} s.`;
    try {
      const checked = await checkForAttempt(
        target.url,
        this.production,
        this.resolve,
        target.timeoutMs,
      );
      if (typeof checked === 'string') return failed(checked);
      const { url, target: addresses } = checked;
      const body = JSON.stringify({
        type: CLASSIFIER_REQUEST_TYPE,
        timestamp: new Date().toISOString(),
        data: request,
      });
      const answer = await this.sender.send(
        url,
        addresses,
        { id: randomUUID(), body, secrets: target.secrets },
        { timeoutMs: Math.max(1, target.timeoutMs - ms()), timeoutError: noAnswer, readBody: true },
      );
      if (answer.error !== null) return failed(answer.error);
      const parsed = parseClassifierAnswer(answer.body ?? '');
      if (typeof parsed === 'string') return failed(parsed);
      return { ok: true, ms: ms(), ...parsed };
    } catch (error) {
      return failed(
        `The request failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`,
      );
    }
  }

  /** Lets the kept-alive connections go (Nest calls it at shutdown). */
  onModuleDestroy(): void {
    this.sender.close();
  }
}
