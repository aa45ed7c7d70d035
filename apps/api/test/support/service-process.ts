import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The built service (`nx run api:build`), found upwards from here (tests and bundled benchmarks). */
function findMain(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const main = join(dir, 'dist', 'apps', 'api', 'main.js');
    if (existsSync(main)) return main;
  }
  throw new Error('dist/apps/api/main.js not found: run `npx nx run api:build`');
}
const MAIN = findMain();

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The adapter the suite runs on (HTTP_ADAPTER), passed on to every service process. */
function adapterEnv(): Record<string, string> {
  return process.env.HTTP_ADAPTER === undefined ? {} : { HTTP_ADAPTER: process.env.HTTP_ADAPTER };
}

/**
 * Starts the built service (`nx run api:build`) as its own process, on a free port. The wait is on
 * its "listening" line (an exit ends it at once), bounded generously: two services starting
 * together at load 40–49 on the 2-core machine took more than 60 s.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  timeoutMs = 180_000,
  /** The working directory (default: this process's), against which relative paths resolve. */
  cwd?: string,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      ...adapterEnv(),
      // scrypt 2^12 for the people these services sign up (production refuses it, and keeps 2^17).
      ...(env.NODE_ENV === 'production' ? {} : { PASSWORD_SCRYPT_LOG_N: '12' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const match = /"port":(\d+)[^\n]*listening/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => out,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Starts `count` services on one environment together (none of them migrates, so nothing orders
 * them). If one does not start, those that did are stopped and that one's error is thrown: one
 * clear failure, no process left behind.
 */
export async function startServiceProcesses(
  env: Record<string, string>,
  count: number,
): Promise<ServiceProcess[]> {
  const settled = await Promise.allSettled(
    Array.from({ length: count }, () => startServiceProcess(env)),
  );
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => s.stop()));
    throw failed.reason;
  }
  return started;
}

/** Runs the built service expecting it to exit; resolves with its exit code and output. */
export function runServiceToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        ...adapterEnv(),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // A bound for a process that should exit by itself: in a fresh-clone CI run beside the browser
    // suite, a service printed nothing at all in 30 s (Node and the bundle still loading).
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
