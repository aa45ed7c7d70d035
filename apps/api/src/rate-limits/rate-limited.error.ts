import { DomainError } from '@interlock/domain';

/** 429 RATE_LIMITED (SPEC §4, §8b), with `Retry-After` in whole seconds (at least 1). */
export function rateLimited(
  msBeforeNext: number,
  headers: Readonly<Record<string, string>> = {},
): DomainError {
  return new DomainError('RATE_LIMITED', undefined, {
    ...headers,
    'retry-after': String(Math.max(1, Math.ceil(msBeforeNext / 1000))),
  });
}
