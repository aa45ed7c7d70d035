import { InterlockError } from './errors';
import type { Interrupt } from './types';
import { subtle } from './web-crypto';

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
  const hash = await (await subtle()).digest('SHA-256', bytes);
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

/** Options of `verifyDecisions`. */
export interface VerifyDecisionsOptions {
  /**
   * The service is known to send digests for this interrupt (its answer to the create carried
   * them): an answer without them is refused, not taken for an older service's. Default false.
   */
  required?: boolean;
}

/** The digest each asked action's name must carry in `interruptId` (SPEC §8e). */
export async function expectedDigests(
  interruptId: string,
  asked: readonly AskedAction[],
): Promise<Map<string, string>> {
  const expected = new Map<string, string>();
  for (const action of asked)
    expected.set(action.name, await actionDigest(interruptId, action.name, action.args));
  return expected;
}

/**
 * Checks that every decision of `interrupt` is about one of the actions the agent asked about,
 * exactly as it sent them (SPEC §8e): throws `ActionDigestMismatchError` otherwise. An interrupt
 * that carries no digest at all is taken for one from a service older than them and is not
 * checked — unless `required` says this service sends them, when a missing digest is a mismatch.
 */
export async function verifyDecisions(
  interrupt: Pick<Interrupt, 'id' | 'actionRequests' | 'decisions'>,
  asked: readonly AskedAction[],
  options: VerifyDecisionsOptions = {},
): Promise<void> {
  checkDigests(interrupt, await expectedDigests(interrupt.id, asked), options.required ?? false);
}

/** `verifyDecisions` against digests computed already (name → digest). */
export function checkDigests(
  interrupt: Pick<Interrupt, 'id' | 'actionRequests' | 'decisions'>,
  expected: ReadonlyMap<string, string>,
  required: boolean,
): void {
  if (required) refuseStripped(interrupt, expected);
  // Without `required`, a record without the lists (an older service's) has nothing to check.
  const items = [
    ...(interrupt.actionRequests ?? []).map((a) => ({ name: a.name, digest: a.actionDigest })),
    ...(interrupt.decisions ?? []).map((d) => ({ name: d.actionName, digest: d.actionDigest })),
  ];
  if (!required && items.every((item) => item.digest === undefined)) return;
  for (const { name, digest } of items) {
    const want = expected.get(name);
    if (want === undefined || digest !== want)
      throw new ActionDigestMismatchError(interrupt.id, name, want ?? '(not asked)', digest);
  }
}

/**
 * Where digests are required, an answer must still say what it is about: the contract requires
 * both lists, and every action asked about must be among the action requests. An answer without
 * them, or without one of the actions, has been cut on its way and is refused as a mismatch.
 */
function refuseStripped(
  interrupt: Pick<Interrupt, 'id' | 'actionRequests' | 'decisions'>,
  expected: ReadonlyMap<string, string>,
): void {
  const listed = new Set((interrupt.actionRequests ?? []).map((a) => a.name));
  for (const [name, want] of expected)
    if (!listed.has(name)) throw new ActionDigestMismatchError(interrupt.id, name, want, undefined);
  if (interrupt.decisions === undefined || interrupt.decisions === null) {
    const [name, want] = expected.entries().next().value ?? ['(none)', '(not asked)'];
    throw new ActionDigestMismatchError(interrupt.id, name, want, undefined);
  }
}

/** What a client asked in an interrupt it opened (SPEC §8e). */
export interface AskedInterrupt {
  /** Each action's digest, computed from the action as sent (name → digest). */
  expected: ReadonlyMap<string, string>;
  /** The service's answer to the create carried digests: an answer without them is refused. */
  digested: boolean;
}

/** How many of its creates a client remembers what it asked in (SPEC §8e). */
export const REMEMBERED_CREATES = 10_000;

/** What a client asked in the interrupts it opened: the last `capacity` of them, oldest forgotten first. */
export class AskedInterrupts {
  private readonly byId = new Map<string, AskedInterrupt>();

  constructor(readonly capacity = REMEMBERED_CREATES) {}

  /** Remembers a create: `created` is the service's answer, `sent` the actions as sent. */
  async remember(
    created: Pick<Interrupt, 'id' | 'actionRequests'>,
    sent: readonly AskedAction[],
  ): Promise<void> {
    // The digests are of the arguments as they went on the wire (what the service hashes).
    const wire = JSON.parse(JSON.stringify(sent ?? [])) as AskedAction[];
    const asked: AskedInterrupt = {
      expected: await expectedDigests(created.id, wire),
      digested: (created.actionRequests ?? []).some((a) => a.actionDigest !== undefined),
    };
    this.byId.delete(created.id);
    if (this.byId.size >= this.capacity) {
      const oldest = this.byId.keys().next();
      if (!oldest.done) this.byId.delete(oldest.value);
    }
    this.byId.set(created.id, asked);
  }

  get(id: string): AskedInterrupt | undefined {
    return this.byId.get(id);
  }
}
