import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The pieces of a scale-out deployment for tests and benchmarks, from Debian's packages:
 * PgBouncer in front of Postgres and HAProxy in front of service instances. Each runs in the
 * foreground in a temporary directory and is stopped (and the directory deleted) by `stop`.
 */

const BINARIES = { haproxy: '/usr/sbin/haproxy', pgbouncer: '/usr/sbin/pgbouncer' } as const;

/**
 * Installs HAProxy and PgBouncer from Debian when they are missing (as root, like the
 * throwaway Postgres does for Postgres); otherwise says how to get them.
 */
export function ensureHaproxyAndPgbouncer(): void {
  const missing = Object.entries(BINARIES).filter(([, path]) => !existsSync(path));
  if (missing.length === 0) return;
  const packages = missing.map(([name]) => name);
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `${packages.join(' and ')} not found: install them (apt-get install ${packages.join(' ')}) or run the tests as root`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Other processes may hold the dpkg lock (another test run installing): wait for it.
  const apt = (...args: string[]) =>
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { stdio: 'inherit', env });
  try {
    apt('install', '-y', '-qq', ...packages);
  } catch {
    apt('update', '-qq');
    apt('install', '-y', '-qq', ...packages);
  }
  for (const [name, path] of missing)
    if (!existsSync(path)) throw new Error(`${name} was installed but ${path} is missing`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(
  port: number,
  child: ChildProcess,
  output: () => string,
  what: string,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null)
      throw new Error(`${what} exited (${child.exitCode}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not listen on ${port}:\n${output()}`);
}

/** A user to run a daemon as when we are root (PgBouncer refuses to run as root). */
function unprivilegedUser(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return spawnSync('id', ['-u', 'postgres']).status === 0 ? 'postgres' : 'nobody';
}

interface Daemon {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

function runDaemon(command: string, args: string[], dir: string, user: string | undefined): Daemon {
  const [file, argv] =
    user === undefined ? [command, args] : ['runuser', ['-u', user, '--', command, ...args]];
  const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function workDir(prefix: string, user: string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (user !== undefined) execFileSync('chown', [user, dir]);
  chmodSync(dir, 0o755);
  return dir;
}

export interface PgBouncer {
  readonly port: number;
  /** A connection URL through PgBouncer to `database` (with the server URL's user). */
  url(database: string): string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * PgBouncer in `poolMode` in front of the Postgres that `serverUrl` names: every database name
 * is forwarded to the same server (a wildcard entry), with the server URL's credentials.
 */
export async function startPgBouncer(
  serverUrl: string,
  poolMode: 'transaction' | 'session' = 'transaction',
): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const runAs = unprivilegedUser();
  const dir = workDir('interlock-pgbouncer-', runAs);
  const port = await freePort();
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`);
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432} user=${user}${password ? ` password=${password}` : ''}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      `auth_type = ${password ? 'md5' : 'trust'}`,
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `pool_mode = ${poolMode}`,
      'max_client_conn = 1000',
      'default_pool_size = 20',
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  const daemon = runDaemon(BINARIES.pgbouncer, [config], dir, runAs);
  await waitForPort(port, daemon.child, daemon.output, 'PgBouncer');
  return {
    port,
    url(database: string) {
      const url = new URL(serverUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      url.pathname = `/${database}`;
      return url.toString();
    },
    output: daemon.output,
    stop: daemon.stop,
  };
}

export interface HaProxy {
  readonly port: number;
  readonly baseUrl: string;
  /** Each server's state as HAProxy's health checks see it: UP, DOWN, `UP 1/2`… */
  states(): Promise<Record<string, string>>;
  /** Resolves once every named server is in `state` (plain UP or DOWN). */
  waitFor(servers: string[], state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

export interface HaProxyOptions {
  /** Health check interval. */
  readonly interMs: number;
  /** Failed checks before a server is taken out, passed ones before it is put back. */
  readonly fall: number;
  readonly rise: number;
  /** Retry a failed request on another server as docker/haproxy.cfg does (on by default; off to measure what it saves). */
  readonly retries?: boolean;
  /** `timeout server` (default 60 s). */
  readonly serverTimeoutMs?: number;
}

/**
 * HAProxy round-robin over `servers` with health checks on /health/ready, L7 retries on another
 * server (`retry-on` connection failures, empty responses and timeouts, `option redispatch`),
 * and each response marked with the server that answered it (`x-served-by`).
 */
/**
 * The retry policy of the shipped configuration (docker/haproxy.cfg), so that the tests exercise
 * exactly it: the defaults' `retries`, `option redispatch` and `retry-on` lines, and the backend's
 * `http-request disable-l7-retry` rule.
 */
const SHIPPED_RETRIES = (() => {
  const lines = readFileSync(join(__dirname, '../../../../docker/haproxy.cfg'), 'utf8').split('\n');
  const defaults = lines.filter((l) => /^\s+(retries |option redispatch|retry-on )/.test(l));
  const backend = lines.filter((l) => /^\s+http-request disable-l7-retry /.test(l));
  if (defaults.length !== 3 || backend.length !== 1)
    throw new Error('docker/haproxy.cfg: retry policy not found');
  return { defaults, backend };
})();

export async function startHaProxy(
  servers: { name: string; port: number }[],
  timing: HaProxyOptions = { interMs: 200, fall: 2, rise: 2 },
): Promise<HaProxy> {
  const runAs = unprivilegedUser();
  const dir = workDir('interlock-haproxy-', runAs);
  const port = await freePort();
  const statsPort = await freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 4000',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout client 60s',
      `  timeout server ${timing.serverTimeoutMs ?? 60_000}ms`,
      '  timeout http-keep-alive 10s',
      // A check must answer within this (the default is the check interval, which a loaded
      // machine can miss twice in a row without anything being wrong).
      '  timeout check 2s',
      ...(timing.retries === false ? ['  retries 0'] : SHIPPED_RETRIES.defaults),
      'frontend api',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /health/ready',
      '  http-check expect status 200',
      '  http-response set-header x-served-by %s',
      ...(timing.retries === false ? [] : SHIPPED_RETRIES.backend),
      `  default-server inter ${timing.interMs} fall ${timing.fall} rise ${timing.rise}`,
      ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
      'frontend stats',
      `  bind 127.0.0.1:${statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      '',
    ].join('\n'),
  );
  const daemon = runDaemon(BINARIES.haproxy, ['-db', '-f', config], dir, runAs);
  await waitForPort(statsPort, daemon.child, daemon.output, 'HAProxy');
  const states = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header.split(',');
    const [px, sv, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
    const result: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[px] === 'instances' && cells[sv] !== 'BACKEND') result[cells[sv]] = cells[status];
    }
    return result;
  };
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    states,
    async waitFor(names, state, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = await states();
        if (names.every((n) => now[n] === state)) return;
        if (Date.now() > deadline)
          throw new Error(
            `HAProxy: waited for ${names.join(', ')} ${state}; states ${JSON.stringify(now)}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    output: daemon.output,
    stop: daemon.stop,
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface LoadResult {
  sent: number;
  ok: number;
  failed: Record<string, number>;
  servedBy: Record<string, number>;
}

/** `clients` loops of GET `path` (through a balancer) until `stop()`; every request counted, by outcome and by the server that answered. */
export function load(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  clients: number,
) {
  const result: LoadResult = { sent: 0, ok: 0, failed: {}, servedBy: {} };
  let running = true;
  const loop = async () => {
    while (running) {
      result.sent++;
      try {
        const res = await fetch(`${baseUrl}${path}`, { headers });
        await res.arrayBuffer();
        const server = res.headers.get('x-served-by') ?? 'none';
        result.servedBy[server] = (result.servedBy[server] ?? 0) + 1;
        if (res.status === 200) result.ok++;
        else {
          const what = `${res.status} from ${server}`;
          result.failed[what] = (result.failed[what] ?? 0) + 1;
        }
      } catch (error) {
        const code = String(
          (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message,
        );
        result.failed[code] = (result.failed[code] ?? 0) + 1;
      }
    }
  };
  const loops = Array.from({ length: clients }, loop);
  return {
    result,
    async stop(): Promise<LoadResult> {
      running = false;
      await Promise.all(loops);
      return result;
    },
  };
}
