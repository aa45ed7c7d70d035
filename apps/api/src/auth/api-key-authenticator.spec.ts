import { DomainError } from '@interlock/domain';
import type { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import type { HttpRequest } from '../http/platform';
import { ApiKeyAuthenticator } from './api-key-authenticator';

const principal = { kind: 'api_key', organisationId: 'o', plan: 'free', apiKeyId: 'k' };

function run(headers: Record<string, string | string[]>) {
  const verify = jest.fn(async (_key: string) => principal);
  const authenticator = new ApiKeyAuthenticator({ verify } as unknown as ApiKeyVerifier);
  const req = { method: 'GET', url: '/api/whoami', headers } as unknown as HttpRequest;
  return { verify, answer: authenticator.authenticate(req) };
}

describe('ApiKeyAuthenticator', () => {
  it('verifies the x-api-key header and answers its principal', async () => {
    const { verify, answer } = run({ 'x-api-key': 'ik_live_abc' });
    await expect(answer).resolves.toBe(principal);
    expect(verify).toHaveBeenCalledWith('ik_live_abc');
  });

  it('answers MISSING_API_KEY for an absent or empty header, and never reads Authorization', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'x-api-key': '' },
      { authorization: 'Bearer ik_live_abc' },
    ];
    for (const headers of cases) {
      const { verify, answer } = run(headers);
      await expect(answer).rejects.toEqual(DomainError.of('MISSING_API_KEY'));
      expect(verify).not.toHaveBeenCalled();
    }
  });

  it("passes the verifier's refusal on as it is", async () => {
    const verify = jest.fn(async () => {
      throw DomainError.of('INVALID_API_KEY');
    });
    const authenticator = new ApiKeyAuthenticator({ verify } as unknown as ApiKeyVerifier);
    const req = { headers: { 'x-api-key': 'nope' } } as unknown as HttpRequest;
    await expect(authenticator.authenticate(req)).rejects.toEqual(
      DomainError.of('INVALID_API_KEY'),
    );
  });
});
