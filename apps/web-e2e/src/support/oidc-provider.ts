import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The real `oidc-provider` the API's tests run too (apps/api/test/support/oidc-provider.mjs). */
const SCRIPT = join(__dirname, '..', '..', '..', 'api', 'test', 'support', 'oidc-provider.mjs');

export interface OidcProvider {
  issuer: string;
  stop(): Promise<void>;
}

/**
 * Starts a real OpenID provider in its own process, with one confidential client. Its
 * development sign-in page takes any login (the login is the email address) and any password.
 */
export async function startOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<OidcProvider> {
  const child = spawn(process.execPath, [SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      OIDC_CLIENTS: JSON.stringify([
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: [client.redirectUri],
        },
      ]),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith('{"issuer"'));
      if (line !== undefined) resolve((JSON.parse(line) as { issuer: string }).issuer);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`oidc-provider exited (${code}):\n${output}`)));
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
