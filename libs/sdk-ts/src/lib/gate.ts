// The gate: any function, run only once a person approved the call (`requireApproval`).
import { InterlockError } from './errors';
import { Interlock } from './client';
import type { RequestOptions } from './request-options';
import type { WaitForAnswerOptions } from './resources/interrupts';
import type { Decision, DecisionType, Interrupt, InterruptCreateParams } from './types';

/** How a gated call is shown to people, and how their answer maps back to the call. */
export interface RequireApprovalOptions<A extends unknown[]> {
  /** The client to ask through (default: `new Interlock()`, reading `INTERLOCK_API_KEY` at the first call). */
  client?: Interlock;
  /** The action's name in the inbox (default: the function's name). */
  name?: string;
  /** The interrupt's title (default `Approve <name>?`), or a function of the call's arguments. */
  title?: string | ((...args: A) => string);
  /** The interrupt's description, or a function of the call's arguments. */
  description?: string | ((...args: A) => string);
  /**
   * Names for the positional parameters: the call `f(a, b)` is shown as `{[params[0]]: a,
   * [params[1]]: b}` and an edit is passed back in that order. Without it, a function of one
   * object parameter is shown as that object, and any other as `{ arguments: [...] }`.
   */
  params?: readonly string[];
  /** What people may decide (default `approve`, `edit`, `reject`; `respond` is refused: a gate runs or does not). */
  allowedDecisions?: readonly ('approve' | 'edit' | 'reject')[];
  /** Further fields of the interrupt: `externalId`, `sessionId`, `metadata`… */
  interrupt?: Partial<Omit<InterruptCreateParams, 'title' | 'description' | 'actionRequests'>>;
  /** How to wait for the answer (`waitForAnswer`'s options: `timeout`, `signal`…). */
  wait?: WaitForAnswerOptions;
  /** Per-request options of the create call (e.g. an `idempotencyKey` per business operation). */
  request?: RequestOptions | ((...args: A) => RequestOptions);
}

/**
 * A request people declined (with their `message`), or that ended without an answer (withdrawn,
 * expired): the base of `ApprovalRejectedError` and `AnswerDeclinedError`.
 */
export class DeclinedError extends InterlockError {
  constructor(
    message: string,
    /** The interrupt as it ended. */
    readonly interrupt: Interrupt,
    /** The decision, absent when the interrupt was withdrawn or expired without one. */
    readonly decision: Decision | undefined,
  ) {
    super(message);
    this.reviewerMessage = decision?.message ?? undefined;
  }

  /** The person's message, when they gave one. */
  readonly reviewerMessage: string | undefined;
}

/** A gated call that people did not approve: rejected (with their `message`), or the request withdrawn. */
export class ApprovalRejectedError extends DeclinedError {}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The call's arguments as the action's `args`, and back. */
function argumentMapping<A extends unknown[]>(params: readonly string[] | undefined) {
  return {
    toArgs(args: A): Record<string, unknown> {
      if (params !== undefined) return Object.fromEntries(params.map((p, i) => [p, args[i]]));
      if (args.length === 1 && isPlainObject(args[0])) return args[0];
      return { arguments: args };
    },
    fromArgs(edited: Record<string, unknown>, original: A): A {
      if (params !== undefined) return params.map((p) => edited[p]) as A;
      if (original.length === 1 && isPlainObject(original[0])) return [edited] as unknown as A;
      const list = edited['arguments'];
      if (!Array.isArray(list))
        throw new InterlockError(
          'The edited arguments have no "arguments" list: the call cannot be made with them.',
        );
      return list as A;
    },
  };
}

/**
 * Wraps `fn` so that every call first asks the organisation's people: it opens an interrupt with
 * one action (the call's arguments as its args), waits for the decision, then runs `fn` with the
 * arguments as approved — or as a person edited them — and returns its result. A rejection (or a
 * withdrawn request, or a deadline that rejected it) throws `ApprovalRejectedError` with the
 * reviewer's message; `fn` does not run.
 *
 *   const refund = requireApproval(async ({ orderId, amount }: { orderId: string; amount: number }) => pay(orderId, amount));
 *   await refund({ orderId: 'A-1', amount: 40 }); // runs once approved
 */
export function requireApproval<A extends unknown[], R>(
  fn: (...args: A) => R | Promise<R>,
  options: RequireApprovalOptions<A> = {},
): (...args: A) => Promise<Awaited<R>> {
  const name = options.name ?? (fn.name !== '' ? fn.name : 'call');
  const allowed: DecisionType[] = [...(options.allowedDecisions ?? ['approve', 'edit', 'reject'])];
  if (allowed.length === 0)
    throw new InterlockError('requireApproval needs at least one allowed decision.');
  if ((allowed as string[]).includes('respond')) {
    throw new InterlockError(
      'requireApproval cannot allow respond: a gated call either runs or does not.',
    );
  }
  const mapping = argumentMapping<A>(options.params);
  let defaultClient: Interlock | undefined;
  // Built at the first call, so that wrapping a function needs no key yet.
  const client = (): Interlock => options.client ?? (defaultClient ??= new Interlock());

  return async (...args: A): Promise<Awaited<R>> => {
    const interlock = client();
    const title =
      typeof options.title === 'function'
        ? options.title(...args)
        : (options.title ?? `Approve ${name}?`);
    const description =
      typeof options.description === 'function'
        ? options.description(...args)
        : options.description;
    const params: InterruptCreateParams = {
      ...options.interrupt,
      title,
      ...(description === undefined ? {} : { description }),
      actionRequests: [{ name, args: mapping.toArgs(args), allowedDecisions: allowed }],
    };
    const request =
      typeof options.request === 'function' ? options.request(...args) : options.request;
    const opened = await interlock.interrupts.create(params, request);
    // The answer must be about this call as sent (its digest): ActionDigestMismatchError otherwise.
    const answered = await interlock.interrupts.waitForAnswer(opened.id, {
      ...options.wait,
      actionRequests: params.actionRequests,
    });
    const decision = answered.decisions.find((d) => d.actionName === name);
    if (decision === undefined) {
      throw new ApprovalRejectedError(
        `${name} was not approved: the request was ${answered.status}.`,
        answered,
        undefined,
      );
    }
    switch (decision.decision) {
      case 'approve':
        return (await fn(...args)) as Awaited<R>;
      case 'edit':
        return (await fn(...mapping.fromArgs(decision.editedArgs ?? {}, args))) as Awaited<R>;
      case 'reject': {
        const why = decision.message ? `: ${decision.message}` : '.';
        throw new ApprovalRejectedError(
          `${name} was rejected by ${decision.decidedBy.name}${why}`,
          answered,
          decision,
        );
      }
      default:
        throw new ApprovalRejectedError(
          `${name} was not approved: the decision was ${decision.decision}.`,
          answered,
          decision,
        );
    }
  };
}
