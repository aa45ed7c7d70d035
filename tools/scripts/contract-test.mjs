#!/usr/bin/env node
// The contract test: schemathesis (pinned in libs/sdk-python/requirements-dev.txt, run from that
// venv) against the live service on real Postgres, with every check and every phase — examples,
// coverage, fuzzing, and the stateful phase that follows the contract's links from the agents'
// writes into the members' routes. Zero failures is the bar: a status, header, content type or
// constraint the service has and contract/openapi.json does not state fails it.
//
//   node tools/scripts/contract-test.mjs            (npx nx run contract:e2e; part of npm test)
//   HTTP_ADAPTER=express CONTRACT_TEST_PHASES=examples,fuzzing,stateful node tools/scripts/contract-test.mjs
//                                                   (npx nx run contract:e2e-express; part of npm test)
//   CONTRACT_TEST_EXAMPLES=25 node tools/scripts/contract-test.mjs   more cases per operation and phase
//   CONTRACT_TEST_PHASES=examples,coverage node tools/scripts/contract-test.mjs   only those phases
//
// tools/scripts/with-service.mjs starts the service (TEST_DATABASE_URL, or a throwaway cluster)
// and two organisations; keys authenticate through the contract's `apiKey` scheme, and the
// `session` cookie by signing in as the Pro owner (again whenever an answer is 401: the run
// signs out and removes members). tools/contract/ holds the configuration and the hooks that
// keep valid cases within the rules JSON Schema cannot state (x-interlock-query-rules).
// The stateful phase runs once per group of operations the links join (see inner()), and the
// run ends with the line `[contract-test] stateful: N of M links covered`.
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
import { junitResults } from './test-results.cjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const venvBin = join(root, 'libs/sdk-python/.venv/bin');
const EXAMPLES = process.env.CONTRACT_TEST_EXAMPLES;
const PHASES = process.env.CONTRACT_TEST_PHASES ?? 'examples,coverage,fuzzing,stateful';

function inner() {
  const phases = PHASES.split(',').map((p) => p.trim());
  const unit = phases.filter((p) => p !== 'stateful');
  let status = 0;
  if (unit.length > 0) status = st(unit.join(','), []).status;
  if (phases.includes('stateful')) {
    // The stateful phase walks the contract's links (OPERATION_LINKS), one state machine per
    // group of operations the links join (an interrupt and what follows it, a role → its
    // invitation → the member who accepts, a webhook → its test send → the retry…). In one machine
    // for all 95 operations a scenario's ten steps spread over every group's roots and it walked
    // about half the links; a machine per group spends its scenarios on that group's links.
    let covered = 0;
    let total = 0;
    for (const group of linkGroups()) {
      const only = group.flatMap((id) => ['--include-operation-id', id]);
      // An invitation is addressed by id (withdraw) and by token (preview, accept): once a
      // scenario accepts one, withdrawing it rightly answers 404, which the check that a created
      // resource stays available (ST302) takes for a lost resource. Switching the check off for
      // withdrawInvitation in schemathesis.toml (as for getInvitation) did not stop it in a run
      // (27 Nov), so this group runs without ST302 (invitations.e2e-spec.ts pins those 404s).
      if (group.includes('acceptInvitation'))
        only.push('--exclude-checks', 'ensure_resource_availability');
      const run = st('stateful', only);
      if (run.status !== 0) status = run.status;
      // Matched without terminal styling: schemathesis styles its summary even with --no-color
      // in some environments (CI=true, FORCE_COLOR=0), and the codes split the words.
      const links = /API Links:\s+(\d+) covered \/ (\d+) selected/.exec(stripAnsi(run.output));
      if (links !== null) {
        covered += Number(links[1]);
        total += Number(links[2]);
      }
    }
    console.log(`[contract-test] stateful: ${covered} of ${total} links covered`);
  }
  return status;
}

/** `text` without ANSI escape sequences (colours, styles, cursor moves). */
function stripAnsi(text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
}

/** One schemathesis run of `phases` (its output passed through, and returned too). */
function st(phases, only) {
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
    phases,
    ...only,
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
    stdio: ['inherit', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, SCHEMATHESIS_HOOKS: 'hooks', PYTHONPATH: join(root, 'tools/contract') },
  });
  process.stdout.write(result.stdout ?? '');
  recordCounts(reports);
  rmSync(reports, { recursive: true, force: true });
  return { status: result.status ?? 1, output: result.stdout ?? '' };
}

/** The operations the contract's links join, in groups (connected through links either way). */
function linkGroups() {
  const contract = JSON.parse(readFileSync(join(root, 'contract/openapi.json'), 'utf8'));
  const parent = new Map();
  const find = (id) => {
    while (parent.get(id) !== id) id = parent.get(id);
    return id;
  };
  const unite = (a, b) => {
    for (const id of [a, b]) if (!parent.has(id)) parent.set(id, id);
    parent.set(find(a), find(b));
  };
  for (const operations of Object.values(contract.paths))
    for (const operation of Object.values(operations))
      for (const response of Object.values(operation?.responses ?? {}))
        for (const link of Object.values(response.links ?? {}))
          unite(operation.operationId, link.operationId);
  const groups = new Map();
  for (const id of parent.keys()) groups.set(find(id), [...(groups.get(find(id)) ?? []), id]);
  return [...groups.values()].map((ids) => ids.sort());
}

/** Test-case counts and failures from schemathesis's JUnit report, for npm test's closing lines. */
function recordCounts(reports) {
  const resultsDir = process.env.TEST_RESULTS_DIR;
  if (!resultsDir || !existsSync(reports)) return;
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  const adapter = process.env.HTTP_ADAPTER ?? 'fastify';
  for (const file of readdirSync(reports).filter((f) => f.endsWith('.xml'))) {
    const r = junitResults(
      readFileSync(join(reports, file), 'utf8'),
      `contract (${adapter}, ${file})`,
    );
    counts.passed += r.passed;
    counts.failed += r.failed;
    counts.skipped += r.skipped;
    counts.failures.push(...r.failures);
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
        RATE_LIMIT_SSO_START_ADDRESS_REQUESTS: '0',
        RATE_LIMIT_SSO_DOMAIN_VERIFY_REQUESTS: '0',
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
