import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

// tsup names the declaration files after the `type` of the package.json in the working directory
// (its declaration worker ignores `outExtension`), so the build runs from this package's folder
// whoever starts it: then ESM gets index.js + index.d.ts and CJS index.cjs + index.d.cts.
const here = dirname(fileURLToPath(import.meta.url));
process.chdir(here);

// The published package: ESM + CJS + declarations, for any runtime with fetch.
export default defineConfig({
  entry: { index: join(here, 'src/index.ts') },
  outDir: join(here, 'dist'),
  tsconfig: join(here, 'tsconfig.lib.json'),
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'neutral',
  target: 'es2022',
  sourcemap: true,
  clean: true,
});
