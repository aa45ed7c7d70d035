import { DomainError } from '@interlock/domain';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { type HttpRequest, pathOf } from '../http/platform';
import { principalOf } from '../auth/principal';
import type { IdempotentRequest } from './idempotency.service';
import { requestFingerprint } from './request-fingerprint.util';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The header, as the OpenAPI contract describes it (`@ApiHeader(IDEMPOTENCY_KEY_HEADER)`). */
export const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes the POST safe to retry: the same key within 24 hours returns the first response without a second write; ' +
    'with a different request it answers 409. 1–255 visible ASCII characters.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/**
 * `@IdempotencyKey() idempotency` — the request's `Idempotency-Key` (1–255 visible ASCII
 * characters) with its organisation and fingerprint, or undefined when the header is absent.
 * Machine routes only: the key belongs to the caller's organisation.
 */
export const IdempotencyKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): IdempotentRequest | undefined => {
    const req = ctx.switchToHttp().getRequest<HttpRequest>();
    const value = req.headers['idempotency-key'];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !KEY.test(value)) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'Idempotency-Key must be 1 to 255 visible ASCII characters.',
      );
    }
    const principal = principalOf(req);
    if (principal.kind !== 'api_key')
      throw new Error('IdempotencyKey used on a route without a key');
    return {
      organisationId: principal.organisationId,
      key: value,
      fingerprint: requestFingerprint(req.method, pathOf(req), req.body),
    };
  },
);
