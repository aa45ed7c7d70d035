import { InterlockError } from './errors';
import type { Interrupt } from './types';

/**
 * RFC 8785 (JSON Canonicalization Scheme) for JSON values: object keys sorted by UTF-16 code
 * units, no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them. A value
 * JSON cannot carry (undefined in an array, a function, a non-finite number) is refused.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string')
    return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, v]) => v !== undefined,
    );
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON has no ${typeof value}`);
}

/**
 * An action's digest (SPEC §8e): the hex SHA-256 of the canonical JSON of
 * `{interruptId, name, args}` (args `{}` when none) — what the service puts on the action
 * request and on every decision of it.
 */
export async function actionDigest(
  interruptId: string,
  name: string,
  args: Record<string, unknown> | null | undefined,
): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson({ interruptId, name, args: args ?? {} }));
  const hash = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** An action the agent asked a person about: its name and the arguments it sent. */
export interface AskedAction {
  name: string;
  args?: Record<string, unknown> | null;
}

/**
 * A decision is not about the action the agent asked about: its `actionDigest` differs from the
 * digest of what the agent sent (the arguments were changed on the way or in the service), so
 * the SDK refuses to resume on it.
 */
export class ActionDigestMismatchError extends InterlockError {
  constructor(
    readonly interruptId: string,
    readonly actionName: string,
    readonly expected: string,
    readonly received: string | undefined,
  ) {
    super(
      `The decision on action ${actionName} of interrupt ${interruptId} is not about the action this agent asked about ` +
        `(its actionDigest is ${received ?? 'missing'}, the action sent hashes to ${expected}): refusing to act on it.`,
    );
  }
}

/**
 * Checks that every decision of `interrupt` is about one of the actions the agent asked about,
 * exactly as it sent them (SPEC §8e): throws `ActionDigestMismatchError` otherwise. A service
 * that sends no digests at all (one older than them) is not checked.
 */
export async function verifyDecisions(
  interrupt: Pick<Interrupt, 'id' | 'actionRequests' | 'decisions'>,
  asked: readonly AskedAction[],
): Promise<void> {
  const digests = interrupt.decisions.map((d) => d.actionDigest);
  const actionDigests = interrupt.actionRequests.map((a) => a.actionDigest);
  if ([...digests, ...actionDigests].every((d) => d === undefined)) return;
  const expected = new Map<string, string>();
  for (const action of asked)
    expected.set(action.name, await actionDigest(interrupt.id, action.name, action.args));
  for (const action of interrupt.actionRequests) {
    const want = expected.get(action.name);
    if (want === undefined || action.actionDigest !== want)
      throw new ActionDigestMismatchError(
        interrupt.id,
        action.name,
        want ?? '(not asked)',
        action.actionDigest,
      );
  }
  for (const decision of interrupt.decisions) {
    const want = expected.get(decision.actionName);
    if (want === undefined || decision.actionDigest !== want)
      throw new ActionDigestMismatchError(
        interrupt.id,
        decision.actionName,
        want ?? '(not asked)',
        decision.actionDigest,
      );
  }
}
