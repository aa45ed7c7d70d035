#!/usr/bin/env node
// `npm start`: build the service and the dashboard it serves at `/`, then run the service in
// this process (so signals reach it directly).
// Without DATABASE_URL it runs on the embedded Postgres under ./.data.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--projects=api,web', '--outputStyle=static', '--skip-nx-cache=false'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
});
process.chdir(root);
await import(join(root, 'dist/apps/api/main.js'));
