import { DomainError } from '@interlock/domain';
import type { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import type { HttpRequest } from '../http/platform';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import type { ApiKeyPrincipal } from './principal';

const principal: ApiKeyPrincipal = {
  kind: 'api_key',
  organisationId: 'o',
  plan: 'free',
  apiKeyId: 'k',
  apiKeyName: 'agent',
};

function authenticatorWith(verify: ApiKeyVerifier['verify']) {
  const mock = jest.fn(verify);
  return {
    verify: mock,
    authenticator: new ApiKeyAuthenticator({ verify: mock } as unknown as ApiKeyVerifier),
  };
}

/** What `call` throws at once (not a promise's rejection). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

function request(headers: Record<string, string | string[]>): HttpRequest {
  return { method: 'GET', url: '/api/whoami', headers } as unknown as HttpRequest;
}

describe('ApiKeyAuthenticator', () => {
  it('verifies the x-api-key header and answers its principal: at once when the verifier has it, else its promise', async () => {
    const cached = authenticatorWith(() => principal);
    expect(cached.authenticator.authenticate(request({ 'x-api-key': 'ik_live_abc' }))).toBe(
      principal,
    );
    expect(cached.verify).toHaveBeenCalledWith('ik_live_abc');

    const read = authenticatorWith(async () => principal);
    const answer = read.authenticator.authenticate(request({ 'x-api-key': 'ik_live_abc' }));
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe(principal);
  });

  it('throws MISSING_API_KEY at once for an absent or empty header, and never reads Authorization', () => {
    const cases: Record<string, string>[] = [
      {},
      { 'x-api-key': '' },
      { authorization: 'Bearer ik_live_abc' },
    ];
    for (const headers of cases) {
      const { verify, authenticator } = authenticatorWith(() => principal);
      expect(thrownBy(() => authenticator.authenticate(request(headers)))).toMatchObject({
        code: 'MISSING_API_KEY',
        status: 401,
      });
      expect(verify).not.toHaveBeenCalled();
    }
  });

  it("passes the verifier's refusal on as it is: thrown at once, or the promise's rejection", async () => {
    const refused = authenticatorWith(() => {
      throw DomainError.of('INVALID_API_KEY');
    });
    expect(
      thrownBy(() => refused.authenticator.authenticate(request({ 'x-api-key': 'nope' }))),
    ).toMatchObject({ code: 'INVALID_API_KEY', status: 401 });
    const expired = authenticatorWith(async () => {
      throw DomainError.of('API_KEY_EXPIRED');
    });
    await expect(
      expired.authenticator.authenticate(request({ 'x-api-key': 'old' })),
    ).rejects.toMatchObject({ code: 'API_KEY_EXPIRED', status: 401 });
  });
});
