import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../../http/platform';
import { ApiKeyPrincipal, MemberPrincipal, principalOf, UserPrincipal } from '../principal';

/** The signed-in member of a `@MemberRoute` (the guards guarantee there is one). */
export const CurrentMember = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): MemberPrincipal => {
    const principal = principalOf(ctx.getArgByIndex<HttpRequest>(0));
    if (principal.kind !== 'member')
      throw new Error('CurrentMember used on a route without a member');
    return principal;
  },
);

/** The signed-in person of a `@UserRoute` (the guards guarantee there is one). */
export const CurrentUser = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): UserPrincipal => {
    const principal = principalOf(ctx.getArgByIndex<HttpRequest>(0));
    if (principal.kind !== 'user')
      throw new Error('CurrentUser used on a route without a signed-in user');
    return principal;
  },
);

/** The API key of a `@MachineRoute` (the guards guarantee there is one). */
export const CurrentApiKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ApiKeyPrincipal => {
    const principal = principalOf(ctx.getArgByIndex<HttpRequest>(0));
    if (principal.kind !== 'api_key')
      throw new Error('CurrentApiKey used on a route without a key');
    return principal;
  },
);

/** The caller of a `@MachineOrMemberRoute`: a key or a member (the guards guarantee one). */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ApiKeyPrincipal | MemberPrincipal => {
    const principal = principalOf(ctx.getArgByIndex<HttpRequest>(0));
    if (principal.kind !== 'api_key' && principal.kind !== 'member')
      throw new Error('CurrentCaller used on a route without a key or member');
    return principal;
  },
);

/** The client address, for audit entries. */
export const ClientIp = createParamDecorator((_: unknown, ctx: ExecutionContext): string | null => {
  return ctx.getArgByIndex<HttpRequest>(0).ip ?? null;
});
