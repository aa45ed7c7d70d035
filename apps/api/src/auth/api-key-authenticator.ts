import { Injectable } from '@nestjs/common';
import { DomainError } from '@interlock/domain';
import { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import type { HttpRequest } from '../http/platform';
import type { ApiKeyPrincipal } from './principal';

const MISSING = DomainError.of('MISSING_API_KEY');

/**
 * The key of a request, from `x-api-key` only (`Authorization: Bearer` is never a key), and its
 * principal: an absent or empty header is MISSING_API_KEY; anything else is the verifier's to
 * accept or refuse (INVALID_API_KEY, API_KEY_EXPIRED). As the verifier, synchronous when nothing
 * is read: the principal of a cached key, or a refusal thrown at once (issue 28).
 */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(private readonly verifier: ApiKeyVerifier) {}

  authenticate(req: HttpRequest): ApiKeyPrincipal | Promise<ApiKeyPrincipal> {
    const key = req.headers['x-api-key'];
    if (key === undefined || key.length === 0) throw MISSING;
    return this.verifier.verify(Array.isArray(key) ? key.join(', ') : key);
  }
}
