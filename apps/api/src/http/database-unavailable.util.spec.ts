import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
  TypeORMError,
} from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable.util';

describe('isDatabaseUnavailable', () => {
  it('recognises a transaction whose connection went away (TypeORM released its runner)', () => {
    expect(isDatabaseUnavailable(new QueryRunnerProviderAlreadyReleasedError())).toBe(true);
    expect(isDatabaseUnavailable(new QueryRunnerAlreadyReleasedError())).toBe(true);
  });

  it('recognises the driver and server refusing, however wrapped', () => {
    const fatal = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], fatal))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client was closed and is not queryable'))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }),
      ),
    ).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isDatabaseUnavailable(new TypeORMError('something else'))).toBe(false);
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isDatabaseUnavailable(new QueryFailedError('INSERT', [], unique))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
