import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { DomainError } from '@interlock/domain';
import { ApiValidationPipe } from '../../http/validation.pipe';
import { GetInterruptQuery, readGetInterruptQuery } from './get-interrupt.query';

/** The 400's text, or the value's own fields. */
async function outcome(read: () => unknown): Promise<unknown> {
  try {
    return { ...((await read()) as object) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

/** What the validation pipe answers, as `@Query()` gave it to the route. */
const byPipe = (query: Record<string, unknown>) =>
  outcome(() =>
    new ApiValidationPipe().transform(query, { type: 'query', metatype: GetInterruptQuery }),
  );

/** The forms clients send, read without the pipe. */
const PLAIN: Record<string, unknown>[] = [
  {},
  { include: 'history' },
  { include: 'history,session' },
  { include: 'argus,resume,escalation,history,session' },
  { include: 'history,history' },
  { waitSeconds: '0' },
  { waitSeconds: '7' },
  { waitSeconds: '59' },
  { waitSeconds: '60' },
  { include: 'session', waitSeconds: '30' },
  { waitSeconds: '10', include: 'argus' },
];

/** Every other form: the pipe's, whether it takes it or refuses it. */
const OTHER: Record<string, unknown>[] = [
  { include: '' },
  { include: 'history,' },
  { include: 'History' },
  { include: 'nope' },
  { include: ['history', 'session'] },
  { waitSeconds: '' },
  { waitSeconds: '61' },
  { waitSeconds: '05' },
  { waitSeconds: '5.0' },
  { waitSeconds: ' 5' },
  { waitSeconds: '-0' },
  { waitSeconds: '1e1' },
  { waitSeconds: 'abc' },
  { waitSeconds: '2.5' },
  { waitSeconds: ['1', '2'] },
  { foo: '1' },
  { include: 'history', foo: 'x' },
  { waitSeconds: '5', include: 'x', other: 'y' },
  { waitSeconds: '99', include: 'x' },
];

describe('readGetInterruptQuery: the PK read’s query without the pipe for the plain forms', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each(PLAIN)('reads %j as the pipe does, without the pipe', async (query) => {
    const expected = await byPipe(query);
    expect(typeof expected).toBe('object');
    const validated = jest.spyOn(ValidationPipe.prototype, 'transform');
    const read = readGetInterruptQuery(query);
    expect(read).not.toBeInstanceOf(Promise);
    expect(await outcome(() => read)).toEqual(expected);
    expect(validated).not.toHaveBeenCalled();
  });

  it.each(OTHER)('leaves %j to the pipe: the same value or the same 400', async (query) => {
    const expected = await byPipe(query);
    const validated = jest.spyOn(ValidationPipe.prototype, 'transform');
    expect(await outcome(() => readGetInterruptQuery(query))).toEqual(expected);
    expect(validated).toHaveBeenCalled();
  });

  it('refuses what the pipe refuses, with its text', async () => {
    expect(await outcome(() => readGetInterruptQuery({ waitSeconds: '61' }))).toBe(
      'VALIDATION_FAILED: waitSeconds must be an integer from 0 to 60',
    );
    expect(await outcome(() => readGetInterruptQuery({ include: 'nope' }))).toBe(
      'VALIDATION_FAILED: include must list only history, session, argus, resume, escalation',
    );
  });
});
