#!/usr/bin/env node
// Argus's cost on the request path (issue 29 §4): POST /api/interrupts in an organisation with
// 1,000 enforce-mode rules against the same POST in an organisation with none, on one service
// and one database, by the pair method — A and B alternated (A B, then B A, …) for ROUNDS rounds,
// a warm-up before every measured run; the ratio is the median of the per-round ratios of
// requests/s (none ÷ 1,000 rules: how much longer a POST takes with the rules). The rules are the
// shapes people write (two action globs, a key, two argument predicates) and none matches the
// posted actions: the interrupt is opened exactly as without rules (no automatic decision to
// write). Each rule names another key than the posting one, so since rules are indexed by key
// (afc3790) they are skipped, not tested: the pair measures rules scoped to other keys.
// With SCOPE=posting-key every rule names the posting key instead, and its action patterns are
// ones the name index cannot skip (the posted action's exact name, a glob starting with a
// wildcard, no action): each of the 1,000 rules is a candidate for each posted action, and fails
// only on its argument predicates — which the argument index answers for all of them at once
// (SPEC §8d evaluation indexes; section argus-post-key).
//
//   node tools/bench/classification-post.bench.mjs   (BENCH_DATABASE_URL=postgres://… for your own server)
//   SCOPE=posting-key node tools/bench/classification-post.bench.mjs
//
// Environment: RULES (1000), ROUNDS (6), SECONDS_PER_RUN (10), WARMUP (3), CONNECTIONS (10),
// SCOPE (other-keys | posting-key), BENCH_WRITE=0 prints instead of writing BENCHMARKS.md.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { execFileSync } from 'node:child_process';
import {
  benchDatabase,
  build,
  load,
  machine,
  median,
  root,
  startServer,
  writeSection,
} from './bench-support.mjs';

const RULES = Number(process.env.RULES ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SECONDS = Number(process.env.SECONDS_PER_RUN ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const SCOPE = process.env.SCOPE ?? 'other-keys';
if (SCOPE !== 'other-keys' && SCOPE !== 'posting-key')
  throw new Error(`SCOPE must be other-keys or posting-key, not ${SCOPE}`);
const PEPPER = 'bench-pepper-0123456789-0123456789-01234';

const log = (message) => console.error(`[bench:argus-post] ${message}`);

// The interrupts benchmark's body: two actions, so each POST evaluates every rule twice. With
// SCOPE=posting-key `deploy` also carries the arguments the rules' conditions read — a tier every
// rule accepts and an amount above every rule's bound —, so the argument index (SPEC §8d) has
// both conditions of each rule to count and no rule to leave out for a missing argument.
const DEPLOY_ARGS = {
  service: 'api',
  version: '1.4.2',
  ...(SCOPE === 'posting-key' ? { amount: 5000, customer: { tier: 'gold' } } : {}),
};
const INTERRUPT_BODY = JSON.stringify({
  title: 'Deploy to prod',
  externalId: 'run-42',
  actionRequests: [
    { name: 'deploy', args: DEPLOY_ARGS, description: 'Roll out 1.4.2' },
    { name: 'notify', allowedDecisions: ['approve', 'respond'] },
  ],
});

build('tools/bench/tsup.config.ts');
const db = await benchDatabase('interlock_bench_argus_post');
const server = await startServer('dist/tools/bench/interrupts-bench.server.js', {
  DATABASE_URL: db.url,
  NODE_ENV: 'production',
  API_KEY_PEPPER: PEPPER,
  LOG_LEVEL: 'silent',
  PLAN_FREE_MESSAGES: '1000000000',
  PLAN_PRO_MESSAGES: '1000000000',
  RATE_LIMIT_API_KEY_REQUESTS: '1000000000',
  RATE_LIMIT_MEMBER_WRITES: '1000000',
  RATE_LIMIT_MEMBER_COSTLY_WRITES: '1000000',
});
const base = `http://127.0.0.1:${server.port}`;

async function organisation(i) {
  const signUp = await fetch(`${base}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `argus-bench${i}@example.test`,
      password: 'bench password',
      name: 'Bench',
      organisationName: `Argus bench ${i}`,
    }),
  });
  if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}`);
  const cookie = signUp.headers.get('set-cookie').split(';')[0];
  const created = await fetch(`${base}/api/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'bench', expiry: 'never' }),
  });
  const { key, id } = await created.json();
  return { cookie, key, keyId: id };
}

/**
 * The rules' action patterns, in three shapes: a third name exact actions, a third globs (first
 * letters spread over the alphabet, the posted actions' included), a third no action at all (key
 * and argument rules, tested for every action). None matches: every rule holds a key no request uses.
 */
function shapeOf(i) {
  const letter = String.fromCharCode(97 + (i % 26));
  if (i % 3 === 0) return { actions: [`${letter}tool_${i}`, `other_${i}`] };
  if (i % 3 === 1) return { actions: [`${letter}${i}_*`, `deploy_${i}_*`] };
  return {};
}

/**
 * SCOPE=posting-key: patterns the action index cannot skip for the posted `deploy` — its exact
 * name, a glob starting with a wildcard (tested for every action), or no action.
 */
function testedShapeOf(i) {
  if (i % 3 === 0) return { actions: ['deploy', `other_${i}`] };
  if (i % 3 === 1) return { actions: [`*_${i}`, `?eploy_${i}`] };
  return {};
}

try {
  const withRules = await organisation(1);
  const without = await organisation(2);
  log(`creating ${RULES} enforce rules through the API`);
  for (let i = 0; i < RULES; i++) {
    const res = await fetch(`${base}/api/classification/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: withRules.cookie },
      body: JSON.stringify({
        name: `rule ${i}`,
        mode: 'enforce',
        priority: i % 1000,
        match: {
          ...(SCOPE === 'posting-key' ? testedShapeOf(i) : shapeOf(i)),
          keyIds: [SCOPE === 'posting-key' ? withRules.keyId : randomUUID()],
          args: [
            { path: 'amount', op: 'lte', value: i },
            { path: 'customer.tier', op: 'in', value: ['gold', 'silver'] },
          ],
        },
        outcome: { type: i % 2 === 0 ? 'approve' : 'require_human' },
      }),
    });
    if (res.status !== 201) throw new Error(`rule ${i}: ${res.status} ${await res.text()}`);
  }
  const post = (key) => ({
    url: `${base}/api/interrupts`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: INTERRUPT_BODY,
    connections: CONNECTIONS,
  });
  // The rules stay compiled in memory: one POST loads them before anything is measured.
  const probe = await fetch(`${base}/api/interrupts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': withRules.key },
    body: INTERRUPT_BODY,
  });
  const opened = await probe.json();
  if (probe.status !== 201 || opened.status !== 'open' || opened.decisions.length !== 0)
    throw new Error(`the probe POST was not opened for a person: ${probe.status}`);
  const run = async (key) => {
    await load({ ...post(key), duration: WARMUP });
    const r = await load({ ...post(key), duration: SECONDS });
    return {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      failed: r.errors + r.non2xx,
    };
  };
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['rules', 'none'] : ['none', 'rules'];
    const result = {};
    for (const which of order)
      result[which] = await run(which === 'rules' ? withRules.key : without.key);
    const ratio = result.none.rps / result.rules.rps;
    rounds.push({ ...result, ratio, load: loadavg()[0] });
    log(
      `round ${round + 1}: none ${result.none.rps.toFixed(0)} req/s, ${RULES} rules ${result.rules.rps.toFixed(0)} req/s, ratio ${ratio.toFixed(3)}`,
    );
  }
  const ratio = median(rounds.map((r) => r.ratio));
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  const scoped = SCOPE === 'posting-key';
  const markdown = `## Argus: POST /api/interrupts with ${RULES.toLocaleString('en')} rules${scoped ? ' scoped to the posting key' : ''} against none (issue 29)

Command: \`${scoped ? 'SCOPE=posting-key ' : ''}node tools/bench/classification-post.bench.mjs\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC at ${commit}, ${machine()}.
One service (as it ships, \`LOG_LEVEL=silent\`), one database; organisation A holds ${RULES.toLocaleString('en')} enforce-mode
${
  scoped
    ? `rules, every one naming the posting key, with action patterns the name index cannot skip (a third the
posted action's exact name, a third globs starting with a wildcard, a third no action) and two argument
predicates (\`amount lte i\`, \`customer.tier in [gold, silver]\`); the posted \`deploy\` carries amount 5,000
and tier gold — every rule's tier condition holds, no rule's amount bound does —, so each rule is a
candidate for each posted action, and the argument index counts both conditions and tests none; none matches`
    : `rules (a third naming exact actions, a third globs — first letters spread over the alphabet, the posted
actions' included —, a third no action, each with a key and two argument predicates; none matches: no
request uses their keys)`
}, organisation B none. The same
two-action POST, ${CONNECTIONS} connections, A and B alternated (A B, then B A) for ${ROUNDS} rounds of ${SECONDS} s,
each after a ${WARMUP} s warm-up; **ratio = B's requests/s ÷ A's** (how much longer a POST takes with the rules),
the median of the rounds. Goal: ≤ 1.15.

| round | none: req/s (p50 / p99 ms) | ${RULES.toLocaleString('en')} rules: req/s (p50 / p99 ms) | ratio | failed (none / rules) | load average |
|---|---|---|---|---|---|
${rounds
  .map(
    (r, i) =>
      `| ${i + 1} | ${r.none.rps.toFixed(0)} (${r.none.p50} / ${r.none.p99}) | ${r.rules.rps.toFixed(0)} (${r.rules.p50} / ${r.rules.p99}) | ${r.ratio.toFixed(3)} | ${r.none.failed} / ${r.rules.failed} | ${r.load.toFixed(1)} |`,
  )
  .join('\n')}

**Median ratio: ${ratio.toFixed(3)}** (goal ≤ 1.15: ${ratio <= 1.15 ? 'met' : 'not met'}).`;
  if (process.env.BENCH_WRITE === '0') console.log(markdown);
  else writeSection(scoped ? 'argus-post-key' : 'argus-post', markdown);
  console.log(JSON.stringify({ ratio, rounds }));
} finally {
  await server.stop();
  await db.stop();
}
