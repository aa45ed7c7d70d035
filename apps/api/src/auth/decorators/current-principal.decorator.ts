import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../../http/platform';
import type { Call, GranterCall, KeyCall, MemberCall, UserCall } from '../caller';
import {
  ApiKeyPrincipal,
  keyCallOf,
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

function userOf(req: HttpRequest, decorator: string): UserPrincipal {
  const principal = principalOf(req);
  if (principal.kind !== 'user')
    throw new Error(`${decorator} used on a route without a signed-in user`);
  return principal;
}

/** The signed-in person of a `@UserRoute` (the guards guarantee there is one). */
export const CurrentUser = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): UserPrincipal =>
    userOf(ctx.getArgByIndex<HttpRequest>(0), 'CurrentUser'),
);

/** The call of a `@UserRoute` that changes the account: the signed-in person and the client address. */
export const UserCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): UserCall => {
  const req = ctx.getArgByIndex<HttpRequest>(0);
  return { user: userOf(req, 'UserCaller'), ip: req.ip ?? null };
});

/** The API key of a `@MachineRoute` (the guards guarantee there is one). */
export const CurrentApiKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ApiKeyPrincipal =>
    apiKeyOf(ctx.getArgByIndex<HttpRequest>(0), 'CurrentApiKey'),
);

/** The call of a `@MachineRoute` as a use case takes it: the key's organisation and actor, and the address. */
export const KeyCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): KeyCall => {
  const req = ctx.getArgByIndex<HttpRequest>(0);
  return keyCallOf(apiKeyOf(req, 'KeyCaller'), req.ip ?? null);
});

/** The caller of a `@MachineOrMemberRoute`: a key or a member (the guards guarantee one). */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ApiKeyPrincipal | MemberPrincipal =>
    keyOrMemberOf(ctx.getArgByIndex<HttpRequest>(0), 'CurrentCaller'),
);

/** The call of a `@MachineOrMemberRoute` as a use case takes it: the key's or the member's. */
export const KeyOrMemberCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Call => {
  const req = ctx.getArgByIndex<HttpRequest>(0);
  const principal = keyOrMemberOf(req, 'KeyOrMemberCaller');
  return principal.kind === 'member'
    ? memberCallOf(req, principal)
    : keyCallOf(principal, req.ip ?? null);
});

/** The client address, for audit entries. */
export const ClientIp = createParamDecorator((_: unknown, ctx: ExecutionContext): string | null => {
  return ctx.getArgByIndex<HttpRequest>(0).ip ?? null;
});
