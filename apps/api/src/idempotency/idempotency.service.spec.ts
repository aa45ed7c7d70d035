import { DomainError } from '@interlock/domain';
import type { IdempotencyRepository, StoredIdempotencyKey } from './idempotency.repository';
import { IdempotencyService, type IdempotentRequest } from './idempotency.service';

// The service's rules over a fake repository: when the work runs, what is stored, what is
// replayed, and the two conflicts (another request under the key; a key swept mid-claim).
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const tx = { query: jest.fn() };
const request: IdempotentRequest = { organisationId: ORG, key: 'retry-1', fingerprint: 'f1' };

function setUp(claimed: boolean, stored?: StoredIdempotencyKey) {
  const repository = {
    claim: jest.fn(async () => claimed),
    read: jest.fn(async () => stored),
    complete: jest.fn(async () => undefined),
  };
  const work = jest.fn(async () => ({ id: 'i-1' }));
  return {
    service: new IdempotencyService(repository as unknown as IdempotencyRepository),
    repository,
    work,
  };
}

describe('IdempotencyService', () => {
  it('without a key, runs the work and touches no key', async () => {
    const { service, repository, work } = setUp(true);
    expect(await service.once(tx, undefined, 201, work)).toEqual({
      value: { id: 'i-1' },
      replayed: false,
    });
    expect(work).toHaveBeenCalledTimes(1);
    expect(repository.claim).not.toHaveBeenCalled();
    expect(repository.complete).not.toHaveBeenCalled();
  });

  it('claims a free key in the caller’s transaction, runs the work once and stores its response', async () => {
    const { service, repository, work } = setUp(true);
    expect(await service.once(tx, request, 201, work)).toEqual({
      value: { id: 'i-1' },
      replayed: false,
    });
    expect(repository.claim).toHaveBeenCalledWith(tx, ORG, 'retry-1', 'f1');
    expect(work).toHaveBeenCalledTimes(1);
    expect(repository.complete).toHaveBeenCalledWith(tx, ORG, 'retry-1', 201, '{"id":"i-1"}');
  });

  it('does not store a response when the work fails (the transaction rolls back with the claim)', async () => {
    const { service, repository } = setUp(true);
    const refused = DomainError.of('NOT_FOUND');
    await expect(service.once(tx, request, 201, async () => Promise.reject(refused))).rejects.toBe(
      refused,
    );
    expect(repository.complete).not.toHaveBeenCalled();
  });

  it('replays the stored response of the same request without running the work', async () => {
    const { service, repository, work } = setUp(false, {
      fingerprint: 'f1',
      response_status: 201,
      response_body: '{"id":"i-0"}',
    });
    expect(await service.once(tx, request, 201, work)).toEqual({
      value: { id: 'i-0' },
      replayed: true,
    });
    expect(work).not.toHaveBeenCalled();
    expect(repository.complete).not.toHaveBeenCalled();
  });

  it('answers 409 for a key used with a different request, without running the work', async () => {
    const { service, work } = setUp(false, {
      fingerprint: 'other',
      response_status: 201,
      response_body: '{}',
    });
    const error = await service.once(tx, request, 201, work).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'CONFLICT',
      status: 409,
      message: 'This Idempotency-Key was already used with a different request.',
    });
    expect(work).not.toHaveBeenCalled();
  });

  it('answers a retryable 409 when the key was swept between the claim and the read', async () => {
    const { service, work } = setUp(false, undefined);
    const error = await service.once(tx, request, 201, work).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CONFLICT',
      message: 'A request with this Idempotency-Key is in progress; retry it.',
    });
    expect((error as DomainError).headers).toEqual({ 'x-should-retry': 'true' });
    expect(work).not.toHaveBeenCalled();
  });
});
