// A throwaway PostgreSQL cluster for the test run: initdb into a temp directory (as the
// `postgres` user when we are root, since Postgres refuses to run as root), start it on a free
// loopback port, and stop and delete it afterwards.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findBinDir() {
  const candidates = [];
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) candidates.push(onPath.replace(/\/initdb$/, ''));
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))) {
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
    }
  }
  return candidates.find(
    (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
}

function installPostgres() {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      'No PostgreSQL server binaries (initdb, pg_ctl) found. Install PostgreSQL 15+ or set TEST_DATABASE_URL.',
    );
  }
  console.log('[test] installing the PostgreSQL server from Debian packages…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startThrowawayPostgres(extraSettings = []) {
  let bin = findBinDir();
  if (!bin) {
    installPostgres();
    bin = findBinDir();
    if (!bin) throw new Error('PostgreSQL was installed but initdb was not found');
  }
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'interlock-pg-'));
  chmodSync(dir, 0o700);
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (cmd, args) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${cmd} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
  };
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    ...extraSettings.map((setting) => `-c ${setting}`),
  ].join(' ');
  run(join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-o',
    options,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    bin,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch (error) {
        console.error(`[test] stopping Postgres: ${error.message}`);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
