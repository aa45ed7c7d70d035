import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startServiceProcess } from './support/service-process';
import { createMigratedTestDatabase } from './support/migrated-database';
import { type TestDatabase } from './support/test-database';

const MAIN = join(__dirname, '..', '..', '..', 'dist', 'apps', 'api', 'main.js');

/** Runs the built service on a pseudo-terminal (util-linux `script`) until `until` shows, then stops it. */
function onTerminal(env: Record<string, string>, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', `${process.execPath} ${MAIN}`, '/dev/null'], {
      env: {
        PATH: process.env.PATH ?? '',
        TERM: 'xterm',
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ${until} within 60 s:\n${out}`));
    }, 60_000);
    const check = (chunk: Buffer) => {
      out += chunk.toString();
      if (until.test(out)) {
        clearTimeout(timer);
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      // eslint-disable-next-line no-control-regex
      resolve(out.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, ''));
    });
  });
}

describe('the console (issue 35: a log a person can read on a terminal, JSON otherwise)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createMigratedTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('on a terminal: readable lines, no route mapping at info, and the banner (URL, database, data, how to stop)', async () => {
    const out = await onTerminal(
      { DATABASE_URL: db.url, LOG_LEVEL: 'info', METRICS_PORT: '0' },
      /Stop +Ctrl\+C/,
    );
    expect(out).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Interlock API listening on http:\/\/localhost:\d+$/m,
    );
    expect(out).not.toMatch(/^\{"level"/m);
    expect(out).not.toContain('Mapped {');
    expect(out).not.toContain('dependencies initialized');
    const url = new URL(db.url);
    expect(out).toMatch(/^ {2}Open +http:\/\/localhost:\d+ /m);
    expect(out).toContain(
      `Database   Postgres at ${url.hostname}:${url.port}, database ${db.name}`,
    );
    expect(out).not.toContain(url.password || 'never-in-a-url');
    expect(out).toMatch(/^ {2}Data +in that database/m);
    expect(out).toMatch(/^ {2}Metrics +http:\/\/localhost:\d+\/metrics$/m);
  });

  it('at debug, the route mapping is there', async () => {
    const out = await onTerminal({ DATABASE_URL: db.url, LOG_LEVEL: 'debug' }, /Stop +Ctrl\+C/);
    expect(out).toMatch(/DEBUG: Mapped \{\/api\/interrupts, POST\} route/);
  });

  it('not on a terminal: JSON lines, no banner', async () => {
    const service = await startServiceProcess({ DATABASE_URL: db.url, LOG_LEVEL: 'info' });
    await service.stop();
    const lines = service.output().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(service.output()).not.toContain('Interlock is running');
    expect(service.output()).not.toContain('Mapped {');
  });
});
