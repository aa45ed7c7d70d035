/// <reference types="vitest/config" />
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The dashboard. `vite build` writes dist/apps/web, which the API serves at `/`. In development
// (`npx nx run web:serve`) Vite serves it on :5173 and proxies the API paths to the service on
// :3000 (or INTERLOCK_API_ORIGIN), so the browser sees one origin and the session cookie works.
// `test` is the dashboard's unit and component tests (`nx run web:test`, part of `npm test`):
// Vitest with this same set-up, components rendered into jsdom with Testing Library, the service
// answered by MSW (src/test/server.ts). Whole pages in a real browser: apps/web-e2e.
const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.INTERLOCK_API_ORIGIN ?? 'http://localhost:3000';
const outDir = fileURLToPath(new URL('../../dist/apps/web', import.meta.url));

/**
 * The inbox's first reads (early-reads.js) inline in index.html's head: they start as the page
 * is parsed, before any file is asked for (as a file of its own, the script waited for a free
 * connection behind the stylesheet and the app's chunks). Its comments stay in the source. The
 * service allows it by its hash (apps/api/src/http/dashboard.middleware.ts).
 */
function inlineEarlyReads(): Plugin {
  const source = fileURLToPath(new URL('./early-reads.js', import.meta.url));
  return {
    name: 'interlock:inline-early-reads',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const code = readFileSync(source, 'utf8')
          .split('\n')
          .filter((line) => !/^\s*\/\//.test(line))
          .join('\n')
          .trim();
        const tag = '<script data-early-reads></script>';
        if (!html.includes(tag)) throw new Error(`index.html has no ${tag}`);
        return html.replace(tag, `<script>${code}</script>`);
      },
    },
  };
}

/**
 * Brotli (`.br`) and gzip (`.gz`) copies of the built JS and CSS beside each file, made once at
 * build time at the highest levels: the service sends the one the browser accepts as it is
 * (apps/api/src/http/dashboard.middleware.ts), instead of the whole file or a compression per
 * request. A copy that saves too little is not written.
 */
function precompress(): Plugin {
  let assets = '';
  return {
    name: 'interlock:precompress',
    apply: 'build',
    configResolved(config) {
      assets = resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    closeBundle() {
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const body = readFileSync(join(assets, name));
        const copies: [string, Buffer][] = [
          [
            '.br',
            brotliCompressSync(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
          ],
          ['.gz', gzipSync(body, { level: 9 })],
        ];
        for (const [suffix, copy] of copies)
          if (copy.length < body.length * 0.9) writeFileSync(join(assets, name + suffix), copy);
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), inlineEarlyReads(), precompress()],
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
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    // tools/bench/web.bench.mjs reads which files a first load needs from the manifest.
    manifest: true,
    // The budget (initial JS ≤ 300 KB gzipped) is measured by tools/bench/web.bench.mjs.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // Everything the first load runs (the entry and its static imports) in one chunk: left to
        // itself the bundler split it into 16 files (every component a lazy page shares), and over
        // HTTP/1.1's six connections per origin the inbox's first reads queued behind them.
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
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
          // One jsdom window and one module graph for the files of a worker, not one per file:
          // each file paid for a fresh window, the set-up and the import of React, Mantine and
          // the client again. src/test/setup.ts still runs before each file and resets what a
          // file could leave behind (rendered trees, handlers, storage; mocks are restored by
          // Vitest after each file).
          isolate: false,
          // A component test is CPU (jsdom, React's development build, Testing Library's role
          // queries): 0.3-5 s of it, and a loaded machine makes its wall time that many times
          // over (6-8 times at load 30, where the route specs took up to 30 s). Each wait inside a
          // test has its own bound (asyncUtilTimeout, src/test/setup.ts); this one only stops a
          // test that hangs, so it is the same generous one for all, not one per slow spec.
          testTimeout: 120_000,
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
