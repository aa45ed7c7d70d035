import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface RunningOidcProvider {
  issuer: string;
  /** Changes the claims of the next ID token the provider answers (re-signed with its key). */
  tamperNextIdToken(change: { aud?: string; nonce?: string; expiresIn?: number }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the real `oidc-provider` (support/oidc-provider.mjs) as its own process, on this machine's
 * loopback — not inside the Jest worker: the package is an ES module, which Jest's module registry
 * loads only under `--experimental-vm-modules`, and the browser suite (Playwright) runs the same
 * script, so one provider process serves both.
 */
export async function startOidcProvider(clients: OidcClient[]): Promise<RunningOidcProvider> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-provider.mjs')], {
    env: { PATH: process.env.PATH ?? '', OIDC_CLIENTS: JSON.stringify(clients) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`oidc-provider did not start:\n${output}`)),
      60_000,
    );
    const take = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith('{"issuer"'));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { issuer: string }).issuer);
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`oidc-provider exited (${code}):\n${output}`));
    });
  });
  return {
    issuer,
    async tamperNextIdToken(change) {
      const res = await fetch(`${issuer}/__test/next-id-token`, {
        method: 'POST',
        body: JSON.stringify(change),
      });
      if (res.status !== 204) throw new Error(`tamper: ${res.status}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A browser's walk through the provider's development sign-in page, by HTTP: follows the
 * authorization URL, signs in as `login` (any password), and answers the query string the
 * provider redirects to `redirectUri` with.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  redirectUri: string,
): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (res: Response) => {
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = (pair as string).indexOf('=');
      jar.set((pair as string).slice(0, eq), (pair as string).slice(eq + 1));
    }
  };
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
    });
    remember(res);
    init = {};
    const location = res.headers.get('location');
    if (location !== null) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next.search;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || action === undefined)
      throw new Error(`provider answered ${res.status}: ${html.slice(0, 500)}`);
    url = new URL(action, url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
    };
  }
  throw new Error('too many redirects at the provider');
}

/** A walk through the provider that the service started: the callback's query and the flow cookie. */
export interface ProviderWalk {
  /** The query string the provider sent the browser back with. */
  query: string;
  /** The `sso_flow` cookie (`name=value`) the start set, which only this browser holds. */
  flow: string;
}

/**
 * The first half of a browser's single sign-on: `POST /api/auth/sso` for `email` (200 expected,
 * PKCE S256 and the redirect URI checked), then the provider's sign-in page as `login`.
 */
export async function walkThroughProvider(
  server: App,
  redirectUri: string,
  email: string,
  login = email,
): Promise<ProviderWalk> {
  const start = await request(server).post('/api/auth/sso').send({ email });
  if (start.status !== 200)
    throw new Error(`POST /api/auth/sso answered ${start.status}: ${JSON.stringify(start.body)}`);
  const url = new URL(start.body.authorizationUrl as string);
  if (url.searchParams.get('code_challenge_method') !== 'S256')
    throw new Error(`no PKCE S256 in ${url.href}`);
  if (url.searchParams.get('redirect_uri') !== redirectUri)
    throw new Error(`another redirect_uri in ${url.href}`);
  const cookies = (start.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  const flow = cookies.find((c) => /^(__Host-)?sso_flow=/.test(c));
  if (flow === undefined) throw new Error(`no flow cookie: ${JSON.stringify(cookies)}`);
  if (!flow.includes('HttpOnly') || !flow.includes('SameSite=Lax'))
    throw new Error(`the flow cookie is not HttpOnly and SameSite=Lax: ${flow}`);
  const query = await signInAtProvider(url.href, login, redirectUri);
  return { query, flow: flow.split(';')[0] as string };
}

/** The second half: the dashboard's callback page posting the provider's query with the flow cookie. */
export function finishAtService(
  server: App,
  flow: string | undefined,
  callbackQuery: string,
  passwordSession?: string,
): request.Test {
  const req = request(server).post('/api/auth/sso/callback');
  const cookies = [flow, passwordSession].filter((c): c is string => c !== undefined);
  if (cookies.length > 0) req.set('cookie', cookies.join('; '));
  return req.send({ callbackQuery });
}

/** What the callback answers (sign-up's shape: SPEC §8f). */
export interface SsoSignedIn {
  user: { id: string; email: string; name: string; emailVerified: boolean };
  organisation: { id: string; roleId: string; roleName: string };
  organisations: { id: string }[];
}

/**
 * A whole single sign-on that must succeed, as a browser makes it: start, the provider's page,
 * the callback; the callback's answer (the account and organisation) and the session cookie.
 * `passwordSession`: the cookie of the person's password sign-in in the same browser, which the
 * first single sign-on of an existing account needs (SPEC §8f).
 */
export async function signInWithSso(
  server: App,
  redirectUri: string,
  email: string,
  passwordSession?: string,
): Promise<{ body: SsoSignedIn; cookie: string }> {
  const walk = await walkThroughProvider(server, redirectUri, email);
  const res = await finishAtService(server, walk.flow, walk.query, passwordSession);
  if (res.status !== 200)
    throw new Error(`the callback answered ${res.status}: ${JSON.stringify(res.body)}`);
  const cookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  const cookie = cookies.find((c) => /^(__Host-)?session=[^;]/.test(c));
  if (cookie === undefined) throw new Error(`no session cookie: ${JSON.stringify(cookies)}`);
  return { body: res.body as SsoSignedIn, cookie: cookie.split(';')[0] as string };
}
