#!/usr/bin/env node
// `npm start`: build the service, the dashboard it serves at `/` and the packages it serves at
// `/downloads` (tools/scripts/build-downloads.mjs), then run the service in
// this process (so signals reach it directly).
// Without DATABASE_URL it runs on the embedded Postgres under ./.data.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
execFileSync(
  'npx',
  [
    'nx',
    'run-many',
    '-t',
    'build',
    '--projects=api,web,sdk-ts,mcp',
    '--outputStyle=static',
    '--skip-nx-cache=false',
  ],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  },
);
// The packages served at /downloads (the SDKs and the MCP server, for agents to install from here).
execFileSync(process.execPath, [join(root, 'tools/scripts/build-downloads.mjs'), '--skip-build'], {
  cwd: root,
  stdio: 'inherit',
});
process.chdir(root);
await import(join(root, 'dist/apps/api/main.js'));
