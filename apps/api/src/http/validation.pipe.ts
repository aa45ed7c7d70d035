import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '@interlock/domain';
import { requiredAnyOf } from './require-any-of.decorator';

/**
 * The validation pipe of every `@Body()` and `@Query()` (`validated-params.ts`): strips nothing
 * silently — unknown fields are refused — and answers 400 VALIDATION_FAILED with a message naming the first offending parameters by their
 * full path (`actionRequests.0.name must be a string`).
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) =>
        new DomainError('VALIDATION_FAILED', describeValidationErrors(errors)),
    });
  }

  /**
   * What an input becomes, per DTO class, for the inputs whose outcome is reused: an empty
   * query or body, and any query string (`memoKeyOf`). Bounded per class (`MEMO_ENTRIES`, the
   * oldest forgotten first).
   */
  private readonly outcomes = new WeakMap<object, Map<string, Outcome>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A missing body is validated as an empty object, so required fields are named.
    // (A JSON `null` is a body, and not an object.)
    const input = metadata.type === 'body' && value === undefined ? {} : value;
    const key = this.toValidate(metadata) ? memoKeyOf(input, metadata.type) : undefined;
    if (key !== undefined) return this.transformMemo(input as object, metadata, key);
    return this.transformValue(input, metadata);
  }

  /**
   * An input is transformed and validated once per DTO class and the outcome reused (issue 14,
   * issue 28: class-transformer and class-validator are most of a read's validation cost, and
   * reads repeat their query strings — the inbox's and the agents' polls, `?limit=50`): a fresh
   * copy of the same instance, or the same 400. Outcomes holding objects (a default `new Date()`,
   * a nested default, a list) are not reused.
   */
  private transformMemo(input: object, metadata: ArgumentMetadata, key: string): unknown {
    const metatype = metadata.metatype as object;
    let memo = this.outcomes.get(metatype);
    if (memo === undefined) this.outcomes.set(metatype, (memo = new Map()));
    const outcome = memo.get(key);
    // A kept outcome is answered without a promise of its own: `transform` is the one (issue 28).
    if (outcome === undefined) return this.firstOutcome(input, metadata, key, memo);
    return answer(outcome);
  }

  /** An input not kept yet: transformed and validated, its outcome kept where it may be. */
  private async firstOutcome(
    input: object,
    metadata: ArgumentMetadata,
    key: string,
    memo: Map<string, Outcome>,
  ): Promise<unknown> {
    let outcome: Outcome;
    try {
      const value = await this.transformValue(input, metadata);
      if (
        value === null ||
        typeof value !== 'object' ||
        !Object.values(value).every((v) => v === null || typeof v !== 'object')
      ) {
        return value;
      }
      outcome = { value: value as Record<string, unknown> };
    } catch (error) {
      if (!(error instanceof DomainError) || Object.keys(error.headers).length > 0) throw error;
      outcome = { error };
    }
    if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(key, outcome);
    return answer(outcome);
  }

  private async transformValue(input: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (
      metadata.type === 'body' &&
      (typeof input !== 'object' || input === null || Array.isArray(input))
    ) {
      throw new DomainError('VALIDATION_FAILED', 'body: must be a JSON object.');
    }
    const anyOf = metadata.type === 'body' ? requiredAnyOf(metadata.metatype) : undefined;
    const output: unknown = await super.transform(input, metadata);
    if (
      anyOf !== undefined &&
      !anyOf.some((field) => (output as Record<string, unknown>)[field] !== undefined)
    ) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `body: must hold at least one of ${anyOf.join(', ')}.`,
      );
    }
    return output;
  }
}

type Outcome = { value: Record<string, unknown> } | { error: DomainError };

/** A kept outcome for one request: a fresh copy of the instance, or a fresh 400 of the same text. */
function answer(outcome: Outcome): unknown {
  if ('error' in outcome) throw new DomainError(outcome.error.code, outcome.error.message);
  return Object.assign(
    Object.create(Object.getPrototypeOf(outcome.value) as object | null) as object,
    outcome.value,
  );
}

/** Distinct inputs whose outcome is kept, per DTO class. */
export const MEMO_ENTRIES = 256;
/** A query string longer than this (as its memo key) is validated every time. */
const MEMO_KEY_MAX = 1024;

/**
 * The key an input's outcome is kept under, or undefined when it is not kept: an empty query or
 * body, or a query whose every value is a string (a parameter given once). The key keeps the
 * parameters' order, which the 400's text follows.
 */
function memoKeyOf(value: unknown, type: ArgumentMetadata['type']): string | undefined {
  if (type !== 'query' && type !== 'body') return undefined;
  if (value === null || typeof value !== 'object' || !isPlainRecord(value)) return undefined;
  let key = '';
  for (const name in value) {
    if (type === 'body') return undefined;
    const text = (value as Record<string, unknown>)[name];
    if (typeof text !== 'string') return undefined;
    key += `${name.length}:${name}${text.length}:${text}`;
    if (key.length > MEMO_KEY_MAX) return undefined;
  }
  return key;
}

/**
 * Whether `value` is a plain record of parameters: a literal or `Object.create(null)` (Express's
 * query parser), or an instance of an empty prototype that has none itself — what Fastify's
 * query parser (fast-querystring) returns, so Fastify's queries are kept too.
 */
function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Object.prototype || proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Reflect.ownKeys(proto).length === 0;
}

/** A 400 names at most this many offending parameters, then how many more there are. */
const NAMED_PROBLEMS = 3;

/**
 * The message of a 400: the problems of the first offending parameters (up to three), each by
 * its full path, and how many more there are — short however many there are (a body with a
 * thousand unknown fields names the first, not all of them).
 */
export function describeValidationErrors(errors: readonly ValidationError[]): string {
  const offending: string[][] = [];
  collectProblems(errors, '', offending);
  if (offending.length === 0) return 'body: is not valid.';
  const named = offending.slice(0, NAMED_PROBLEMS).flat().join('; ');
  const rest = offending.length - NAMED_PROBLEMS;
  return rest <= 0 ? named : `${named} (and ${rest} more ${rest === 1 ? 'problem' : 'problems'})`;
}

/** Appends, per offending parameter (depth first), the messages that name it by its full path. */
function collectProblems(
  errors: readonly ValidationError[],
  parent: string,
  into: string[][],
): void {
  for (const error of errors) {
    const path = parent === '' ? error.property : `${parent}.${error.property}`;
    const parts: string[] = [];
    for (const text of Object.values(error.constraints ?? {})) {
      if (text.startsWith(`property ${error.property} `)) {
        parts.push(`property ${path}${text.slice(`property ${error.property}`.length)}`);
      } else if (text.startsWith(`${error.property} `)) {
        parts.push(`${path}${text.slice(error.property.length)}`);
      } else {
        parts.push(`${path}: ${text}`);
      }
    }
    if (parts.length > 0) into.push(parts);
    if (error.children && error.children.length > 0) collectProblems(error.children, path, into);
  }
}
