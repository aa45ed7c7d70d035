import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

export const ROOT = resolve(__dirname, '../../..');
export const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
export const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
export const HELM = join(ROOT, 'tmp', 'tools', 'bin', 'helm');

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** A fresh database on the test server (`TEST_DATABASE_URL`, set by `npm test`). */
export async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin)
    throw new Error('TEST_DATABASE_URL is not set: run through `npm test`, which starts Postgres');
  const name = `interlock_ops_${process.pid}_${Date.now()}`;
  const run = async (sql: string) => {
    const client = new Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface Started {
  readonly child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns a process and waits until its output matches `ready` (or it exits, or time runs out). */
export async function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<Started & { match: RegExpExecArray }> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  let out = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const match = await new Promise<RegExpExecArray>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${command} did not become ready in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = (chunk: Buffer) => {
      out += chunk.toString();
      const found = ready.exec(out);
      if (found !== null) {
        clearTimeout(timer);
        done(found);
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`${command} exited (${child.exitCode}) before it was ready:\n${out}`));
    });
  });
  return {
    child,
    match,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** The built service (`nx run api:build`). */
export function serviceMain(): string {
  const main = join(ROOT, 'dist', 'apps', 'api', 'main.js');
  if (!existsSync(main))
    throw new Error('dist/apps/api/main.js not found: run `npx nx run api:build`');
  return main;
}

export interface PrometheusServer extends Started {
  readonly url: string;
  /** An instant query's samples: labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
}

/** A real Prometheus scraping `targets` every second, with `ruleFiles` loaded, on its own port and storage. */
export async function startPrometheus(
  targets: string[],
  ruleFiles: string[] = [],
): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'interlock-prometheus-'));
  const port = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    ruleFiles.length === 0
      ? ''
      : `rule_files:\n${ruleFiles.map((f) => `  - ${JSON.stringify(f)}`).join('\n')}`,
    'scrape_configs:',
    '  - job_name: interlock',
    '    scrape_interval: 1s',
    '    static_configs:',
    `      - targets: [${targets.map((t) => JSON.stringify(t)).join(', ')}]`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'prometheus.yml'), config);
  const started = await startProcess(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { PATH: process.env.PATH },
    /Server is ready to receive web requests/,
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    ...started,
    url,
    async stop() {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    async query(promql: string) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as {
        status: string;
        error?: string;
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`query ${promql} failed: ${body.error}`);
      return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
  };
}

/** Polls `probe` until it returns a value other than undefined, or fails with the last reason. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 40_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
