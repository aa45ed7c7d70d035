import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

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

/** Starts the real `oidc-provider` (support/oidc-provider.mjs) as its own process. */
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
