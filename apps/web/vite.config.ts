/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard. `vite build` writes dist/apps/web, which the API serves at `/`. In development
// (`npx nx run web:serve`) Vite serves it on :5173 and proxies the API paths to the service on
// :3000 (or INTERLOCK_API_ORIGIN), so the browser sees one origin and the session cookie works.
// `test` is the dashboard's unit and component tests (`nx run web:test`, part of `npm test`):
// Vitest with this same set-up, components rendered into jsdom with Testing Library, the service
// answered by MSW (src/test/server.ts). Whole pages in a real browser: apps/web-e2e.
const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.INTERLOCK_API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  root,
  plugins: [react()],
  resolve: {
    alias: [
      {
        find: '@interlock/api-client',
        replacement: fileURLToPath(new URL('../../libs/api-client/src/index.ts', import.meta.url)),
      },
      {
        find: '@interlock/domain',
        replacement: fileURLToPath(new URL('../../libs/domain/src/index.ts', import.meta.url)),
      },
      // `@/shared/…`, `@/features/…`, `@/app/…`: imports across the dashboard's areas
      // (docs/STYLE.md §13); inside one area they stay relative.
      { find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // tools/bench/web.bench.mjs reads which files a first load needs from the manifest.
    manifest: true,
    // The budget (initial JS ≤ 300 KB gzipped) is measured by tools/bench/web.bench.mjs.
    chunkSizeWarningLimit: 800,
  },
  test: {
    globals: true,
    // Under the shared machine's load a component can take seconds to render.
    testTimeout: 30_000,
    reporters: [
      'default',
      fileURLToPath(new URL('../../tools/vitest/results-reporter.mjs', import.meta.url)),
    ],
    // Two kinds of test file. Components (`*.spec.tsx`) and the few plain modules that need a
    // browser's DOM (`*.dom.spec.ts`) run in jsdom with src/test/setup.ts. The rest (`*.spec.ts`:
    // formatting, parsing, rules) run in plain Node: a jsdom window and the set-up cost each file
    // seconds on a loaded machine, and those files never touch them.
    projects: [
      {
        extends: true,
        test: {
          name: 'components',
          include: ['src/**/*.spec.tsx', 'src/**/*.dom.spec.ts'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'logic',
          include: ['src/**/*.spec.ts'],
          exclude: ['src/**/*.dom.spec.ts'],
          environment: 'node',
        },
      },
    ],
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      // changeOrigin off: the service sees the browser's Origin; run it with
      // ALLOWED_ORIGINS=http://localhost:5173 so cookie writes pass the CSRF origin check.
      '/api': { target: api, changeOrigin: false },
      '/docs': { target: api },
      '/health': { target: api },
      '/downloads': { target: api },
    },
  },
});
