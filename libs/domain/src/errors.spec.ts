import { DomainError, ERROR_MESSAGES } from './errors';

describe('DomainError', () => {
  it('carries the catalogue’s code, status and exact text, and any headers', () => {
    const error = DomainError.of('INVALID_API_KEY');
    expect(error).toBeInstanceOf(Error);
    expect([error.code, error.status, error.message]).toEqual([
      'INVALID_API_KEY',
      401,
      ERROR_MESSAGES.INVALID_API_KEY,
    ]);
    const limited = new DomainError('RATE_LIMITED', undefined, { 'retry-after': '3' });
    expect([limited.status, limited.message, limited.headers]).toEqual([
      429,
      ERROR_MESSAGES.RATE_LIMITED,
      { 'retry-after': '3' },
    ]);
    expect(new DomainError('VALIDATION_FAILED', 'name: must not be empty.').status).toBe(400);
  });

  it('needs a message where the catalogue has none', () => {
    expect(() => new DomainError('VALIDATION_FAILED')).toThrow(
      'DomainError VALIDATION_FAILED needs a message',
    );
  });
});
