import { spawn } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'second-service.mjs');

export interface SecondService {
  /** The service, for set-up calls (a script: loopback address). */
  baseURL: string;
  /** The service as the browser reaches it: http://localhost:<port>, its PUBLIC_ORIGIN. */
  browserURL: string;
  /** Where its SMTP server writes each message it receives (for `receivedMail`). */
  mailDir: string;
  stop(): Promise<void>;
}

/**
 * Starts another service beside the shared one (support/second-service.mjs), with `env` on top
 * of the shared service's rate limits: its own database on the same Postgres server, its own
 * SMTP server. For a setting the shared service does not have (EMAIL_VERIFICATION=required).
 */
export async function startSecondService(env: Record<string, string>): Promise<SecondService> {
  const child = spawn(process.execPath, [SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      ADMIN_DATABASE_URL: process.env.INTERLOCK_TEST_DATABASE_URL ?? '',
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => name.startsWith('RATE_LIMIT_')),
      ),
      ...env,
    },
    // stdin stays open: the script stops the service when it closes (this runner gone).
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = await new Promise<{ baseUrl: string; mailDir: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith('{"baseUrl"'));
      if (line !== undefined) resolve(JSON.parse(line) as { baseUrl: string; mailDir: string });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`second service exited (${code}):\n${output}`)));
  });
  return {
    baseURL: ready.baseUrl,
    browserURL: ready.baseUrl.replace('//127.0.0.1:', '//localhost:'),
    mailDir: ready.mailDir,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
