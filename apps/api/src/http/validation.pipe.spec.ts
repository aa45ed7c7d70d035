import 'reflect-metadata';
import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DomainError } from '@interlock/domain';
import { ListInterruptsQuery } from '../interrupts/dto/list-interrupts.query';
import { GetInterruptQuery } from '../interrupts/dto/get-interrupt.query';
import { ApiValidationPipe, MEMO_ENTRIES } from './validation.pipe';

const listQuery: ArgumentMetadata = { type: 'query', metatype: ListInterruptsQuery };
const getQuery: ArgumentMetadata = { type: 'query', metatype: GetInterruptQuery };

/** The 400's text, or the value. */
async function outcome(
  pipe: ApiValidationPipe,
  value: unknown,
  metadata = listQuery,
): Promise<unknown> {
  try {
    return await pipe.transform(value, metadata);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

describe('ApiValidationPipe: a query string validated once', () => {
  it('answers a repeated query as the first time: the same instance, a copy of it each time', async () => {
    const pipe = new ApiValidationPipe();
    const first = (await pipe.transform({ limit: '50', status: 'open' }, listQuery)) as Record<
      string,
      unknown
    >;
    expect(first).toBeInstanceOf(ListInterruptsQuery);
    expect({ ...first }).toEqual({ limit: 50, status: 'open' });
    first.limit = 7;
    const second = await pipe.transform({ limit: '50', status: 'open' }, listQuery);
    expect(second).toBeInstanceOf(ListInterruptsQuery);
    expect(second).not.toBe(first);
    expect({ ...(second as object) }).toEqual({ limit: 50, status: 'open' });
  });

  it("keeps the outcome of a query as Fastify's parser gives it (an empty prototype's instance)", async () => {
    const fastify = new FastifyAdapter().getInstance();
    const queries: unknown[] = [];
    fastify.get('/', (request, reply) => {
      queries.push(request.query);
      return reply.send('');
    });
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (let i = 0; i < 3; i++) await (await fetch(`${base}/?limit=50&status=open`)).text();
    } finally {
      await fastify.close();
    }
    expect(Object.getPrototypeOf(queries[0])).not.toBe(Object.prototype);
    const validated = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      const pipe = new ApiValidationPipe();
      for (const query of queries) {
        const value = await pipe.transform(query, listQuery);
        expect(value).toBeInstanceOf(ListInterruptsQuery);
        expect({ ...(value as object) }).toEqual({ limit: 50, status: 'open' });
      }
      expect(validated).toHaveBeenCalledTimes(1);
    } finally {
      validated.mockRestore();
    }
  });

  it('refuses a repeated bad query with the same 400, its parameters in the order given', async () => {
    const pipe = new ApiValidationPipe();
    const fresh = new ApiValidationPipe();
    const bad = { limit: '0', colour: 'red' };
    const text = await outcome(pipe, bad);
    expect(text).toBe(await outcome(fresh, { limit: '0', colour: 'red' }));
    expect(text).toMatch(/^VALIDATION_FAILED: /);
    expect(await outcome(pipe, { limit: '0', colour: 'red' })).toBe(text);
    // Another order of the same parameters is another query: its own outcome, as uncached.
    expect(await outcome(pipe, { colour: 'red', limit: '0' })).toBe(
      await outcome(new ApiValidationPipe(), { colour: 'red', limit: '0' }),
    );
  });

  it('keeps outcomes per DTO class', async () => {
    const pipe = new ApiValidationPipe();
    expect(await outcome(pipe, { order: 'oldest' })).toMatchObject({ order: 'oldest' });
    expect(await outcome(pipe, { order: 'oldest' }, getQuery)).toMatch(
      /^VALIDATION_FAILED: property order should not exist/,
    );
  });

  it('validates a repeated parameter (a list) every time, and outcomes holding objects', async () => {
    const pipe = new ApiValidationPipe();
    for (let i = 0; i < 2; i++) {
      const value = (await pipe.transform({ include: ['history', 'session'] }, getQuery)) as {
        include: string[];
      };
      expect(value.include).toEqual(['history', 'session']);
      value.include.push('mutated');
      const comma = (await pipe.transform({ include: 'argus,resume' }, getQuery)) as {
        include: string[];
      };
      expect(comma.include).toEqual(['argus', 'resume']);
      comma.include.push('mutated');
    }
    expect(await outcome(pipe, { include: ['history', 'nope'] }, getQuery)).toBe(
      'VALIDATION_FAILED: include must list only history, session, argus, resume, escalation',
    );
  });

  it('stays right past its bound (the oldest outcomes forgotten)', async () => {
    const pipe = new ApiValidationPipe();
    for (let limit = 1; limit <= MEMO_ENTRIES + 10; limit++) {
      const expected = limit <= 200 ? { limit } : undefined;
      const got = await outcome(pipe, { limit: String(limit) });
      if (expected === undefined)
        expect(got).toBe('VALIDATION_FAILED: limit must not be greater than 200');
      else expect({ ...(got as object) }).toEqual(expected);
    }
    expect({ ...((await pipe.transform({ limit: '1' }, listQuery)) as object) }).toEqual({
      limit: 1,
    });
  });
});
