#!/usr/bin/env node
// The contract test: schemathesis (pinned in libs/sdk-python/requirements-dev.txt, run from that
// venv) against the live service on real Postgres, with every check and every phase — examples,
// coverage, fuzzing, and the stateful phase that follows the contract's links from the agents'
// writes into the members' routes. Zero failures is the bar: a status, header, content type or
// constraint the service has and contract/openapi.json does not state fails it.
//
//   node tools/scripts/contract-test.mjs            (npx nx run contract:e2e; part of npm test)
//   CONTRACT_TEST_EXAMPLES=25 node tools/scripts/contract-test.mjs   more cases per operation and phase
//   CONTRACT_TEST_PHASES=examples,coverage node tools/scripts/contract-test.mjs   only those phases
//
// tools/scripts/with-service.mjs starts the service (TEST_DATABASE_URL, or a throwaway cluster)
// and two organisations; keys authenticate through the contract's `apiKey` scheme, and the
// `session` cookie by signing in as the Pro owner (again whenever an answer is 401: the run
// signs out and removes members). tools/contract/ holds the configuration and the hooks that
// keep valid cases within the rules JSON Schema cannot state (x-interlock-query-rules).
// With TEST_RESULTS_DIR set (npm test), the case counts go into the run's summary.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const venvBin = join(root, 'libs/sdk-python/.venv/bin');
const EXAMPLES = process.env.CONTRACT_TEST_EXAMPLES;
const PHASES = process.env.CONTRACT_TEST_PHASES ?? 'examples,coverage,fuzzing,stateful';

function inner() {
  const reports = mkdtempSync(join(tmpdir(), 'contract-test-'));
  const args = [
    '--config-file',
    join(root, 'tools/contract/schemathesis.toml'),
    'run',
    join(root, 'contract/openapi.json'),
    '--url',
    process.env.INTERLOCK_BASE_URL,
    '--checks',
    'all',
    '--phases',
    PHASES,
    ...(EXAMPLES === undefined ? [] : ['--max-examples', EXAMPLES]),
    '--workers',
    '2',
    '--seed',
    process.env.CONTRACT_TEST_SEED ?? '20261122',
    '--request-timeout',
    '10',
    '--no-color',
    '--report',
    'junit',
    '--report-dir',
    reports,
  ];
  const result = spawnSync(join(venvBin, 'st'), args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, SCHEMATHESIS_HOOKS: 'hooks', PYTHONPATH: join(root, 'tools/contract') },
  });
  recordCounts(reports);
  rmSync(reports, { recursive: true, force: true });
  return result.status ?? 1;
}

/** Test-case counts from schemathesis's JUnit report, for npm test's closing line. */
function recordCounts(reports) {
  const resultsDir = process.env.TEST_RESULTS_DIR;
  if (!resultsDir || !existsSync(reports)) return;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const file of readdirSync(reports).filter((f) => f.endsWith('.xml'))) {
    const xml = readFileSync(join(reports, file), 'utf8');
    for (const match of xml.matchAll(/<testcase\b[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const body = match[2] ?? '';
      if (/<(failure|error)\b/.test(body)) counts.failed++;
      else if (/<skipped\b/.test(body)) counts.skipped++;
      else counts.passed++;
    }
  }
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, `contract-${process.pid}-${Date.now()}.json`),
    JSON.stringify(counts),
  );
}

function outer() {
  // The venv (and schemathesis in it) is the Python SDK's: set it up the same way.
  const setup = spawnSync(process.execPath, [join(root, 'tools/scripts/python-sdk.mjs'), 'setup'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (setup.status !== 0) return setup.status ?? 1;
  const result = spawnSync(
    process.execPath,
    [
      join(root, 'tools/scripts/with-service.mjs'),
      '--',
      process.execPath,
      fileURLToPath(import.meta.url),
      '--inner',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        // The run signs in and up far more often than people do; the limits have their own tests.
        RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES: '0',
        RATE_LIMIT_SIGN_IN_ADDRESS_FAILURES: '0',
        RATE_LIMIT_SIGN_UP_ACCOUNT_ATTEMPTS: '0',
        RATE_LIMIT_SIGN_UP_ADDRESS_ATTEMPTS: '0',
        RATE_LIMIT_API_KEY_REQUESTS: '1000000',
        // One signed-in person makes every write of the run: far more than a person's budget.
        RATE_LIMIT_MEMBER_WRITES: '0',
        RATE_LIMIT_MEMBER_COSTLY_WRITES: '0',
        // Slack cannot be reached from here: connecting answers its 409 at once (nothing listens
        // on this port) instead of waiting on a name lookup of slack.com.
        SLACK_API_URL: 'http://127.0.0.1:9/api/',
      },
    },
  );
  return result.status ?? 1;
}

process.exit(process.argv.includes('--inner') ? inner() : outer());
