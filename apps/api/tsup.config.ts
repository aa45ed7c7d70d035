import { defineConfig } from 'tsup';

// Bundles the service and its workspace libraries into dist/apps/api; npm dependencies stay
// external. tsup compiles with SWC because the tsconfig emits decorator metadata (Nest's DI).
export default defineConfig({
  entry: {
    main: 'apps/api/src/main.ts',
    migrate: 'apps/api/src/database/migrate.cli.ts',
    cli: 'apps/api/src/cli/cli.ts',
    openapi: 'apps/api/src/openapi/emit-openapi.cli.ts',
  },
  outDir: 'dist/apps/api',
  tsconfig: 'apps/api/tsconfig.json',
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  splitting: false,
  noExternal: [/^@interlock\//],
});
