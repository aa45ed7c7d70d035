import { DomainError } from '@interlock/domain';
import { guardContext } from '../testing/guard-context';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteAccessGuard, RouteMetadata } from './route-access.guard';

describe('RouteAccessGuard', () => {
  it('refuses a route that declares nothing (deny by default)', () => {
    const { context, reflector } = guardContext(undefined);
    expect(() => new RouteAccessGuard(reflector).canActivate(context)).toThrow(
      /declares no route access/,
    );
  });

  it.each([
    { principal: 'member' as const },
    { principal: 'member' as const, permission: 'apiKey.read' as const },
    { principal: 'human' as const },
  ])('answers 403 HUMANS_ONLY to any x-api-key on a human-only route (%j)', (access) => {
    for (const key of ['ilk_valid-looking', '', 'garbage']) {
      const { context, reflector } = guardContext(access, { headers: { 'x-api-key': key } });
      let thrown: unknown;
      try {
        new RouteAccessGuard(reflector).canActivate(context);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DomainError);
      expect(thrown).toMatchObject({
        code: 'HUMANS_ONLY',
        message: 'This endpoint is reserved for humans.',
      });
      expect((thrown as DomainError).status).toBe(403);
    }
  });

  it('lets a key through to machine and public routes, and people through to human routes', () => {
    const cases = [
      [{ principal: 'api_key' as const }, { 'x-api-key': 'k' }],
      [{ principal: 'public' as const }, { 'x-api-key': 'k' }],
      [{ principal: 'member' as const }, {}],
      [{ principal: 'human' as const }, { authorization: 'Bearer x' }],
    ] as const;
    for (const [access, headers] of cases) {
      const { context, reflector } = guardContext(access, { headers: { ...headers } });
      expect(new RouteAccessGuard(reflector).canActivate(context)).toBe(true);
    }
  });

  describe('RouteMetadata', () => {
    const KEY = 'probe:flag';
    class Base {
      read(): void {
        // a handler two controllers share
      }
    }
    class Overriding extends Base {}
    class Plain extends Base {}
    Reflect.defineMetadata(KEY, 'class', Overriding);
    const context = (controller: object) =>
      ({
        getHandler: () => Base.prototype.read,
        getClass: () => controller,
      }) as unknown as ExecutionContext;

    it("reads a route's metadata once, per controller and handler", () => {
      const reflector = new Reflector();
      const read = jest.spyOn(reflector, 'getAllAndOverride');
      const flag = new RouteMetadata<string>(KEY);
      for (let i = 0; i < 3; i++) {
        expect(flag.of(reflector, context(Overriding))).toBe('class');
        expect(flag.of(reflector, context(Plain))).toBeUndefined();
      }
      expect(read).toHaveBeenCalledTimes(2);
    });
  });
});
