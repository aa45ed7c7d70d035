#!/usr/bin/env node
// `npm run cli -- <command> …`: build the service, then run its operator CLI (see apps/api/src/cli/cli.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
execFileSync('npx', ['nx', 'run', 'api:build', '--outputStyle=static'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
});
const result = spawnSync(
  process.execPath,
  [join(root, 'dist/apps/api/cli.js'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
