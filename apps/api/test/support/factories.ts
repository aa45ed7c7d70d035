import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { App } from 'supertest/types';

type Server = App;

export interface SignedUpOwner {
  email: string;
  password: string;
  name: string;
  cookie: string;
  memberId: string;
  organisationId: string;
}

let counter = 0;

/** A unique email for a test. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${counter}-${randomBytes(4).toString('hex')}@example.test`;
}

/** The `session=…` pair (`__Host-session=…` in production) of a response's Set-Cookie, ready for a `cookie` header. */
export function sessionCookieOf(res: request.Response): string {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = header?.find((c) => c.startsWith('session=') || c.startsWith('__Host-session='));
  if (cookie === undefined) throw new Error(`no session cookie in ${JSON.stringify(header)}`);
  return cookie.split(';')[0];
}

/** Signs up a new organisation and returns its Owner, signed in. */
export async function signUpOwner(
  server: Server,
  overrides: Partial<{
    email: string;
    password: string;
    name: string;
    organisationName: string;
  }> = {},
): Promise<SignedUpOwner> {
  const body = {
    email: overrides.email ?? uniqueEmail('owner'),
    password: overrides.password ?? 'correct horse battery staple',
    name: overrides.name ?? 'Ada Lovelace',
    organisationName: overrides.organisationName ?? 'Analytical Engines',
  };
  const res = await request(server).post('/api/auth/sign-up').send(body);
  if (res.status !== 201)
    throw new Error(`sign-up answered ${res.status}: ${JSON.stringify(res.body)}`);
  return {
    email: body.email,
    password: body.password,
    name: body.name,
    cookie: sessionCookieOf(res),
    memberId: res.body.user.id,
    organisationId: res.body.organisation.id,
  };
}

export interface CreatedKey {
  id: string;
  key: string;
  name: string;
  start: string;
  createdAt: string;
  expiresAt: string | null;
}

/** Creates an API key as a signed-in member. */
export async function createApiKey(
  server: Server,
  cookie: string,
  body: { name?: string; expiry?: 'never' | '7d' | '30d' | '90d' } = {},
): Promise<CreatedKey> {
  const res = await request(server)
    .post('/api/api-keys')
    .set('cookie', cookie)
    .send({ name: body.name ?? 'ci-runner', expiry: body.expiry ?? 'never' });
  if (res.status !== 201)
    throw new Error(`key creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as CreatedKey;
}

/** Puts an organisation on a plan as its Owner. */
export async function setPlan(
  server: Server,
  ownerCookie: string,
  plan: 'free' | 'pro',
): Promise<void> {
  const res = await request(server)
    .put('/api/organisation/plan')
    .set('cookie', ownerCookie)
    .send({ plan });
  if (res.status !== 200)
    throw new Error(`plan change answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** An organisation an agent works in: its Owner (Ada Lovelace) and one key, by id and secret. */
export interface OrganisationWithKey {
  owner: SignedUpOwner;
  key: string;
  keyId: string;
}

/** Signs up `organisationName` (Owner Ada Lovelace) with one key named `keyName` (argus's suites). */
export async function organisationWithKey(
  server: Server,
  organisationName: string,
  keyName = 'billing-agent',
): Promise<OrganisationWithKey> {
  const owner = await signUpOwner(server, { name: 'Ada Lovelace', organisationName });
  const created = await createApiKey(server, owner.cookie, { name: keyName });
  return { owner, key: created.key, keyId: created.id };
}

/** Signs up a new organisation, puts it on Pro and creates a key of it: what the key-read suites start from. */
export async function signUpProWithKey(
  server: Server,
  owner: Parameters<typeof signUpOwner>[1],
  keyName: string,
): Promise<{ org: SignedUpOwner; key: string }> {
  const org = await signUpOwner(server, owner);
  await setPlan(server, org.cookie, 'pro');
  return { org, key: (await createApiKey(server, org.cookie, { name: keyName })).key };
}

/** The ids of an organisation's built-in roles, as seen by a signed-in member. */
export async function builtInRoleIds(
  server: Server,
  cookie: string,
): Promise<Record<'owner' | 'developer' | 'manager', string>> {
  const res = await request(server).get('/api/roles').set('cookie', cookie);
  if (res.status !== 200)
    throw new Error(`role listing answered ${res.status}: ${JSON.stringify(res.body)}`);
  const of = (key: string): string => {
    const role = (res.body.roles as { id: string; builtIn: string | null }[]).find(
      (r) => r.builtIn === key,
    );
    if (role === undefined)
      throw new Error(`no built-in ${key} role in ${JSON.stringify(res.body)}`);
    return role.id;
  };
  return { owner: of('owner'), developer: of('developer'), manager: of('manager') };
}

export interface JoinedMember {
  cookie: string;
  memberId: string;
  email: string;
  name: string;
}

/** A new member of the inviter's organisation with `roleId`, invited and accepted, signed in. */
export async function joinOrganisation(
  server: Server,
  inviterCookie: string,
  roleId: string,
  name = 'Grace Hopper',
): Promise<JoinedMember> {
  const email = uniqueEmail('member');
  const invited = await request(server)
    .post('/api/invitations')
    .set('cookie', inviterCookie)
    .send({ email, roleId });
  if (invited.status !== 201) {
    throw new Error(`invitation answered ${invited.status}: ${JSON.stringify(invited.body)}`);
  }
  const accepted = await request(server)
    .post(`/api/invitations/${invited.body.token}/accept`)
    .send({ name, password: 'correct horse battery staple' });
  if (accepted.status !== 201) {
    throw new Error(
      `invitation acceptance answered ${accepted.status}: ${JSON.stringify(accepted.body)}`,
    );
  }
  return { cookie: sessionCookieOf(accepted), memberId: accepted.body.user.id, email, name };
}

/** A custom role holding exactly `permissions`, created by a member with role.manage. */
export async function createRole(
  server: Server,
  cookie: string,
  permissions: string[],
  name = `role-${randomBytes(3).toString('hex')}`,
): Promise<string> {
  const res = await request(server)
    .post('/api/roles')
    .set('cookie', cookie)
    .send({ name, permissions });
  if (res.status !== 201)
    throw new Error(`role creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** A new member of the owner's organisation holding exactly `permissions` (a custom role). */
export async function memberWithPermissions(
  server: Server,
  ownerCookie: string,
  permissions: string[],
  name = 'Linus Pauling',
): Promise<JoinedMember> {
  return joinOrganisation(
    server,
    ownerCookie,
    await createRole(server, ownerCookie, permissions),
    name,
  );
}

/** Opens an interrupt with a key; `actions` are action names (all decisions allowed). */
export async function openInterrupt(
  server: Server,
  key: string,
  body: { title?: string; actions?: string[]; externalId?: string; sessionId?: string } = {},
): Promise<{ id: string; title: string; createdAt: string }> {
  const res = await request(server)
    .post('/api/interrupts')
    .set('x-api-key', key)
    .send({
      title: body.title ?? 'Deploy to production',
      actionRequests: (body.actions ?? ['deploy']).map((name) => ({ name })),
      ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
      ...(body.sessionId === undefined ? {} : { sessionId: body.sessionId }),
    });
  if (res.status !== 201)
    throw new Error(`interrupt creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; title: string; createdAt: string };
}

/** Assigns an open interrupt to a member and then escalates it, as a signed-in member: both 200. */
export async function assignAndEscalate(
  server: Server,
  cookie: string,
  interruptId: string,
  memberId: string,
  reason: string,
): Promise<void> {
  const steps: [string, object][] = [
    ['assign', { memberId }],
    ['escalate', { reason }],
  ];
  for (const [step, body] of steps) {
    const res = await request(server)
      .post(`/api/interrupts/${interruptId}/${step}`)
      .set('cookie', cookie)
      .send(body);
    if (res.status !== 200)
      throw new Error(`${step} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

/** Starts a Live View session with a key. */
export async function startSession(
  server: Server,
  key: string,
  body: { name?: string; externalId?: string } = {},
): Promise<{ id: string; name: string }> {
  const res = await request(server)
    .post('/api/sessions')
    .set('x-api-key', key)
    .send({
      name: body.name ?? 'nightly-build',
      ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
    });
  if (res.status !== 201)
    throw new Error(`session start answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string };
}

/**
 * An existing person (signed in elsewhere) invited into the inviter's organisation with
 * `roleId`, who accepts while signed in: a second membership of the same user.
 */
export async function joinWithAccount(
  server: Server,
  inviterCookie: string,
  roleId: string,
  person: { cookie: string; email: string },
): Promise<{ organisationId: string; organisations: { id: string; roleName: string }[] }> {
  const invited = await request(server)
    .post('/api/invitations')
    .set('cookie', inviterCookie)
    .send({ email: person.email, roleId });
  if (invited.status !== 201)
    throw new Error(`invitation answered ${invited.status}: ${JSON.stringify(invited.body)}`);
  const joined = await request(server)
    .post(`/api/invitations/${invited.body.token}/join`)
    .set('cookie', person.cookie);
  if (joined.status !== 201)
    throw new Error(`joining answered ${joined.status}: ${JSON.stringify(joined.body)}`);
  return { organisationId: joined.body.organisation.id, organisations: joined.body.organisations };
}
