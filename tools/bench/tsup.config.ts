import { defineConfig } from 'tsup';

// Benchmark servers: the service's own code plus probe routes, bundled like the service.
export default defineConfig({
  entry: {
    'auth-bench.server': 'tools/bench/auth-bench.server.ts',
    'classification-bench.driver': 'tools/bench/classification-bench.driver.ts',
    'audit-bench.driver': 'tools/bench/audit-bench.driver.ts',
    'inbox-bench.driver': 'tools/bench/inbox-bench.driver.ts',
    'password-hash.driver': 'tools/bench/password-hash.driver.ts',
    'interrupts-bench.server': 'tools/bench/interrupts-bench.server.ts',
    'scale-out-bench.driver': 'tools/bench/scale-out-bench.driver.ts',
  },
  outDir: 'dist/tools/bench',
  tsconfig: 'apps/api/tsconfig.json',
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  clean: true,
  noExternal: [/^@interlock\//],
});
