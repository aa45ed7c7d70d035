import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { HttpRequest } from '../../http/platform';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { DomainError } from '@interlock/domain';
import { ApiKeyVerifier } from '../../api-keys/api-key-verifier.service';
import type { ApiKeyPrincipal } from '../principal';

/**
 * Reads the key from `x-api-key` only (`Authorization: Bearer` is never a key) and verifies it.
 * An absent or empty header never reaches `validate`: the guard answers MISSING_API_KEY.
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor(private readonly verifier: ApiKeyVerifier) {
    super({ header: 'x-api-key', prefix: '' }, false);
  }

  validate(apiKey: string): Promise<ApiKeyPrincipal> {
    return this.verifier.verify(apiKey);
  }
}

/** What passport gives a strategy for one request: its verdicts. */
interface StrategyAttempt {
  success(principal: ApiKeyPrincipal): void;
  fail(): void;
  error(error: unknown): void;
  authenticate(req: HttpRequest, options: object): void;
}

/**
 * Runs the strategy on a request: the key's principal, or a rejection with the exact 401 — the
 * strategy's own error (invalid, expired), or MISSING_API_KEY when it found no key. It speaks
 * passport's strategy protocol (an object made from the strategy that receives `success`, `fail`
 * or `error`) as `passport.authenticate` does, without the per-request middleware, option
 * merging and callbacks of `passport.authenticate` and `@nestjs/passport`'s AuthGuard around it,
 * and without writing `req.user` (issue 14, BENCHMARKS.md).
 */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(private readonly strategy: ApiKeyStrategy) {}

  authenticate(req: HttpRequest): Promise<ApiKeyPrincipal> {
    return new Promise<ApiKeyPrincipal>((resolve, reject) => {
      const attempt = Object.create(this.strategy) as StrategyAttempt;
      attempt.success = resolve;
      attempt.fail = () => reject(DomainError.of('MISSING_API_KEY'));
      attempt.error = reject;
      attempt.authenticate(req, {});
    });
  }
}
