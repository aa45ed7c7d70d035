import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Runs Jest on a fixture project twice with one cache directory: the first run compiles and stores
// V8's code cache, the second compiles nothing afresh, and both pass the same tests.
const jestBin = join(__dirname, '../../node_modules/jest/bin/jest.js');
const fixture = join(__dirname, 'fixtures/code-cache');

function runJest(cacheDirectory: string, env: Record<string, string> = {}) {
  const run = spawnSync(
    process.execPath,
    [jestBin, '-c', join(fixture, 'jest.config.cjs'), '-i', '--cacheDirectory', cacheDirectory],
    // FORCE_COLOR=0: the output is read as text (nx run-many sets FORCE_COLOR for its tasks).
    {
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0', JEST_CODE_CACHE_STATS: '1', ...env },
    },
  );
  const line = /\[code-cache\] (\{.*\})/.exec(run.stderr);
  return {
    status: run.status,
    output: run.stderr,
    stats: line === null ? undefined : (JSON.parse(line[1]) as Record<string, number>),
  };
}

describe('code-cache runtime', () => {
  let cacheDirectory: string;
  beforeEach(() => {
    cacheDirectory = mkdtempSync(join(tmpdir(), 'code-cache-spec-'));
  });
  afterEach(() => rmSync(cacheDirectory, { recursive: true, force: true }));

  it('stores the code cache on the first run and compiles from it on the next', () => {
    const first = runJest(cacheDirectory);
    expect(first.output).toContain('Tests:       4 passed, 4 total');
    expect(first.status).toBe(0);
    // Each file loads shared.js and Jest's own modules (expect…): the second file reuses the first's.
    const { hits, misses, rejected } = first.stats ?? {};
    expect(misses).toBeGreaterThan(2);
    expect(hits).toBeGreaterThan(0);
    expect(rejected).toBe(0);
    expect(readdirSync(join(cacheDirectory, 'v8-code-cache')).length).toBeGreaterThan(0);

    const second = runJest(cacheDirectory);
    expect(second.output).toContain('Tests:       4 passed, 4 total');
    expect(second.status).toBe(0);
    expect(second.stats).toEqual({ hits: hits + misses, misses: 0, rejected: 0 });
  });

  it('compiles as Jest does when turned off', () => {
    const run = runJest(cacheDirectory, { JEST_CODE_CACHE: '0' });
    expect(run.output).toContain('Tests:       4 passed, 4 total');
    expect(run.stats).toEqual({ hits: 0, misses: 0, rejected: 0 });
  });
});
