import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../../http/platform';
import type { GranterCall, MemberCall } from '../caller';
import {
  ApiKeyPrincipal,
  memberActorOf,
  MemberPrincipal,
  principalOf,
  UserPrincipal,
} from '../principal';

function memberOf(req: HttpRequest, decorator: string): MemberPrincipal {
  const principal = principalOf(req);
  if (principal.kind !== 'member') throw new Error(`${decorator} used on a route without a member`);
  return principal;
}

function apiKeyOf(req: HttpRequest, decorator: string): ApiKeyPrincipal {
  const principal = principalOf(req);
  if (principal.kind !== 'api_key') throw new Error(`${decorator} used on a route without a key`);
  return principal;
}

function keyOrMemberOf(req: HttpRequest, decorator: string): ApiKeyPrincipal | MemberPrincipal {
  const principal = principalOf(req);
  if (principal.kind !== 'api_key' && principal.kind !== 'member')
    throw new Error(`${decorator} used on a route without a key or member`);
  return principal;
}

/** The signed-in member of a `@MemberRoute` (the guards guarantee there is one). */
export const CurrentMember = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): MemberPrincipal =>
    memberOf(ctx.getArgByIndex<HttpRequest>(0), 'CurrentMember'),
);

function memberCallOf(req: HttpRequest, member: MemberPrincipal): MemberCall {
  return {
    organisationId: member.organisationId,
    actor: memberActorOf(member),
    ip: req.ip ?? null,
  };
}

/**
 * The call of a `@MemberRoute` as a use case takes it (`auth/caller.ts`): the member's
 * organisation and actor, and the client address.
 */
export const MemberCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): MemberCall => {
    const req = ctx.getArgByIndex<HttpRequest>(0);
    return memberCallOf(req, memberOf(req, 'MemberCaller'));
  },
);

/** `@MemberCaller()` with the member's permissions, for a route that grants or changes roles. */
export const GranterCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): GranterCall => {
    const req = ctx.getArgByIndex<HttpRequest>(0);
    const member = memberOf(req, 'GranterCaller');
    return { ...memberCallOf(req, member), permissions: member.permissions };
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
  (_: unknown, ctx: ExecutionContext): ApiKeyPrincipal =>
    apiKeyOf(ctx.getArgByIndex<HttpRequest>(0), 'CurrentApiKey'),
);

/** The caller of a `@MachineOrMemberRoute`: a key or a member (the guards guarantee one). */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ApiKeyPrincipal | MemberPrincipal =>
    keyOrMemberOf(ctx.getArgByIndex<HttpRequest>(0), 'CurrentCaller'),
);

/** The client address, for audit entries. */
export const ClientIp = createParamDecorator((_: unknown, ctx: ExecutionContext): string | null => {
  return ctx.getArgByIndex<HttpRequest>(0).ip ?? null;
});
