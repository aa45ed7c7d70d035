import { join } from 'node:path';
import { defineConfig } from 'tsup';

// tsup names its outputs after the `type` of the package.json in the working directory, so the
// build runs from this package's folder whoever starts it (bundle-require defines __dirname).
const here = __dirname;
process.chdir(here);

// The published package: ESM for Node. `cli` is the `interlock-mcp` bin (stdio); `index` the
// library the API mounts at /mcp. @interlock/sdk is bundled in (one package to install for
// `npx @interlock/mcp`); the MCP SDK and zod stay dependencies.
export default defineConfig({
  entry: { index: join(here, 'src/index.ts'), cli: join(here, 'src/cli.ts') },
  outDir: join(here, 'dist'),
  tsconfig: join(here, 'tsconfig.json'),
  format: ['esm'],
  dts: { entry: { index: join(here, 'src/index.ts') } },
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  splitting: true,
  noExternal: [/^@interlock\//],
});
