import { Injectable } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { ApiError } from '../../http/api-error';
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

@Injectable()
export class ApiKeyAuthGuard extends AuthGuard('api-key') {
  override handleRequest<T>(error: unknown, principal: T | false): T {
    if (error) throw error;
    if (!principal) throw ApiError.of('MISSING_API_KEY');
    return principal;
  }
}
