// Set-up over HTTP, as a script would do it: organisations and members for the flows. The flows
// themselves go through the dashboard in the browser.
import { randomBytes } from 'node:crypto';

/** The service, for set-up calls and the SDK (a script: loopback address). */
export const baseURL = process.env.INTERLOCK_BASE_URL as string;
/** The service as the browser reaches it: its own origin, http://localhost:<port> (PUBLIC_ORIGIN). */
export const browserURL = baseURL.replace('//127.0.0.1:', '//localhost:');

export interface Member {
  name: string;
  email: string;
  password: string;
  /** `session=…`, for a `cookie` header. */
  cookie: string;
  /** Their user id: the same member id in every organisation they belong to. */
  memberId: string;
  organisationName: string;
  organisationId: string;
}

export async function api<T = unknown>(
  method: string,
  path: string,
  {
    body,
    cookie,
    organisationId,
    expect = [200, 201, 204],
  }: { body?: unknown; cookie?: string; organisationId?: string; expect?: number[] } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie !== undefined) headers.cookie = cookie;
  // A person in several organisations names the one they act for.
  if (organisationId !== undefined) headers['x-organisation-id'] = organisationId;
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expect.includes(response.status))
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

function sessionCookie(response: Response): string {
  const pair = response.headers
    .getSetCookie()
    .map((h) => h.split(';')[0])
    .find((p) => p.startsWith('session='));
  if (pair === undefined) throw new Error('no session cookie was set');
  return pair;
}

export function unique(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

/** A new organisation and its Owner, signed in. */
export async function signUpOwner(label: string, name = 'Ada Lovelace'): Promise<Member> {
  const id = unique(label);
  const body = {
    email: `${id}@web-e2e.example.com`,
    password: `correct horse ${id}`,
    name,
    organisationName: `Analytical Engines ${id}`,
  };
  const response = await fetch(`${baseURL}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  const signedIn = (await response.json()) as {
    user: { id: string };
    organisation: { id: string };
  };
  return {
    ...body,
    cookie: sessionCookie(response),
    memberId: signedIn.user.id,
    organisationId: signedIn.organisation.id,
  };
}

/**
 * Invites someone with a built-in role and accepts for them: a second member, signed in;
 * `address`: theirs (else a new one at web-e2e.example.com).
 */
export async function addMember(
  owner: Member,
  role: 'owner' | 'developer' | 'manager' | { customRoleId: string },
  name: string,
  address?: string,
): Promise<Member> {
  const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
    'GET',
    '/api/roles',
    { cookie: owner.cookie },
  );
  const roleId =
    typeof role === 'string' ? roles.roles.find((r) => r.builtIn === role)?.id : role.customRoleId;
  if (roleId === undefined) throw new Error(`no built-in ${String(role)} role`);
  const id = unique(typeof role === 'string' ? role : 'custom');
  const email = address ?? `${id}@web-e2e.example.com`;
  const { body: invitation } = await api<{ token: string }>('POST', '/api/invitations', {
    cookie: owner.cookie,
    body: { email, roleId },
  });
  const password = `correct horse ${id}`;
  const response = await fetch(`${baseURL}/api/invitations/${invitation.token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  if (response.status !== 201)
    throw new Error(`accepting answered ${response.status}: ${await response.text()}`);
  const signedIn = (await response.json()) as { user: { id: string } };
  return {
    name,
    email,
    password,
    cookie: sessionCookie(response),
    memberId: signedIn.user.id,
    organisationName: owner.organisationName,
    organisationId: owner.organisationId,
  };
}

/**
 * `inviter` invites `invitee`'s address (an account they already have) with a built-in role;
 * the invitee accepts signed in: one more organisation on the same account.
 */
export async function inviteAndJoin(
  inviter: Member,
  invitee: Member,
  role: 'owner' | 'developer' | 'manager',
): Promise<void> {
  const as = { cookie: inviter.cookie, organisationId: inviter.organisationId };
  const { body: roles } = await api<{ roles: { id: string; builtIn: string | null }[] }>(
    'GET',
    '/api/roles',
    as,
  );
  const roleId = roles.roles.find((r) => r.builtIn === role)?.id;
  const { body: invitation } = await api<{ token: string }>('POST', '/api/invitations', {
    ...as,
    body: { email: invitee.email, roleId },
  });
  await api('POST', `/api/invitations/${invitation.token}/join`, {
    cookie: invitee.cookie,
    expect: [201],
  });
}

/** Opens an interrupt in the key's organisation, as an agent would. */
export async function openInterrupt(key: string, title: string): Promise<{ id: string }> {
  const response = await fetch(`${baseURL}/api/interrupts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ title, actionRequests: [{ name: 'go' }] }),
  });
  if (response.status !== 201)
    throw new Error(`interrupt creation answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** A browser storage state holding a member's session cookie. */
export function storageStateFor(member: Member) {
  const url = new URL(browserURL);
  return {
    cookies: [
      {
        name: 'session',
        value: member.cookie.slice('session='.length),
        domain: url.hostname,
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: 'Lax' as const,
      },
    ],
    // Pages stay on the interrupt they decide on: a worker's organisation holds the open
    // interrupts of its earlier tests, which the page would otherwise move on to at a moment
    // that depends on the order tests ran in. The test of moving on turns it on in Settings.
    origins: [
      {
        origin: url.origin,
        localStorage: [{ name: 'interlock.nextAfterDecision', value: 'false' }],
      },
    ],
  };
}
