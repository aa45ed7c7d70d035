// Typed human input (`ask`): a question whose answer is a typed value — the agent passes a zod
// schema, people answer in a form the dashboard renders from it, the service validates the answer
// against it, and `ask` returns it parsed.
import { DeclinedError } from './gate';
import type { Interlock } from './client';
import type { RequestOptions } from './request-options';
import type { WaitForAnswerOptions } from './resources/interrupts';
import type { DecisionType, InterruptCreateParams } from './types';

/**
 * What `ask` needs of a schema: a JSON Schema of its input (zod 4's `toJSONSchema`) and a parser.
 * A zod object of string, number, integer, boolean, enum and arrays of those fits the subset the
 * service accepts (`.describe()` and `.meta({title})` become the form's labels).
 */
export interface AskSchema<T> {
  parse(value: unknown): T;
  toJSONSchema(params?: { io?: 'input' | 'output' }): object;
}

export interface AskOptions {
  /** The interrupt's description: context for the person answering. */
  description?: string;
  /** The action's name in the inbox (default `answer`). */
  name?: string;
  /** What the agent shows beside the form, as the action's `args`. */
  args?: Record<string, unknown>;
  /** May people decline to answer (`reject`, with a message)? Default true. */
  allowDecline?: boolean;
  /** Further fields of the interrupt: `externalId`, `sessionId`, `metadata`, `timeoutSeconds`… */
  interrupt?: Partial<Omit<InterruptCreateParams, 'title' | 'description' | 'actionRequests'>>;
  /** How to wait for the answer (`waitForAnswer`'s options: `timeout`, `signal`…). */
  wait?: WaitForAnswerOptions;
  /** Per-request options of the create call (e.g. an `idempotencyKey`). */
  request?: RequestOptions;
}

/** An `ask` nobody answered with a value: declined (with the person's message), expired or withdrawn. */
export class AnswerDeclinedError extends DeclinedError {}

/** The JSON Schema the service stores for `schema` (what people fill in: defaults not required). */
export function responseSchemaOf(schema: AskSchema<unknown>): Record<string, unknown> {
  return schema.toJSONSchema({ io: 'input' }) as Record<string, unknown>;
}

/**
 * Asks people for a typed answer and returns it parsed by `schema`: opens an interrupt with one
 * action (`answer`) whose `responseSchema` is the schema's JSON Schema, waits, and parses the
 * `response` the service validated. Throws `AnswerDeclinedError` when nobody answered with a value.
 */
export async function askFor<T>(
  client: Interlock,
  title: string,
  schema: AskSchema<T>,
  options: AskOptions = {},
): Promise<T> {
  const name = options.name ?? 'answer';
  const action = {
    name,
    args: options.args ?? {},
    allowedDecisions: (options.allowDecline === false
      ? ['respond']
      : ['respond', 'reject']) as DecisionType[],
    responseSchema: responseSchemaOf(schema),
  };
  const opened = await client.interrupts.create(
    {
      ...options.interrupt,
      title,
      ...(options.description === undefined ? {} : { description: options.description }),
      actionRequests: [action],
    },
    options.request,
  );
  // The answer must be about this question as sent (its actionDigest), like any wait that knows it.
  const answered = await client.interrupts.waitForAnswer(opened.id, {
    ...options.wait,
    actionRequests: [action],
  });
  const decision = answered.decisions.find((d) => d.actionName === name);
  if (
    decision?.decision === 'respond' &&
    decision.response !== null &&
    decision.response !== undefined
  )
    return schema.parse(decision.response);
  if (decision === undefined)
    throw new AnswerDeclinedError(
      `Nobody answered "${title}": the request was ${answered.status}.`,
      answered,
      undefined,
    );
  const why = decision.message ? `: ${decision.message}` : '.';
  throw new AnswerDeclinedError(
    `"${title}" was declined by ${decision.decidedBy.name}${why}`,
    answered,
    decision,
  );
}
