// Argus's rule evaluation, in process (issue 29 §4: p99 ≤ 1 ms for 1,000 rules). Builds 1,000
// enforce-mode rules, every one naming the measured action's key, with action patterns the name
// index cannot skip (the action's exact name, a glob starting with a wildcard, no action) and two
// argument predicates the action fails — conditions the argument index lists (default), or with
// CONDITIONS=unindexed ones it does not, so each of the 1,000 rules is tested one by one (the
// worst case) — and times planActions for one action request, many times over: wall time, and the
// process's CPU time (process.cpuUsage), which a machine shared with other work does not inflate
// when the scheduler runs something else in the middle of an evaluation.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { planActions } from '../../apps/api/src/classification/argus-pipeline';
import {
  compileRule,
  parseRuleMatch,
  sortRules,
  type StoredRule,
} from '../../apps/api/src/classification/rule-engine';

const RULES = Number(process.env.RULES ?? 1000);
const ITERATIONS = Number(process.env.ITERATIONS ?? 20000);
// CONDITIONS=unindexed: argument conditions the argument index does not list (ne, matches).
const UNINDEXED = process.env.CONDITIONS === 'unindexed';

/**
 * The action patterns in three shapes, none of which the action-name index skips for `refund`: a
 * third its exact name, a third globs starting with a wildcard, a third no action.
 */
function shapeOf(i: number): { actions?: string[] } {
  if (i % 3 === 0) return { actions: ['refund', `other_${i}`] };
  if (i % 3 === 1) return { actions: [`*_${i}`, `?efund_${i}`] };
  return {};
}

const keyId = randomUUID();

const rules: StoredRule[] = [];
for (let i = 0; i < RULES; i++) {
  rules.push({
    id: randomUUID(),
    name: `rule ${i}`,
    mode: 'enforce',
    priority: i,
    match: parseRuleMatch({
      ...shapeOf(i),
      keyIds: [keyId],
      args: UNINDEXED
        ? [
            // Conditions the argument index does not list: every rule is tested one by one.
            { path: 'amount', op: 'ne', value: 5000 },
            { path: 'customer.tier', op: 'matches', value: `x${i}*` },
          ]
        : [
            // The action's amount is 5,000: above every rule's bound.
            { path: 'amount', op: 'lte', value: i },
            { path: 'customer.tier', op: 'in', value: ['gold', 'silver'] },
          ],
    }),
    outcome: { type: 'approve' },
    expiresAt: null,
    createdAt: new Date(1_700_000_000_000 + i).toISOString(),
  });
}
const compiled = sortRules(rules.map(compileRule));
const action = {
  actionName: 'refund',
  args: { amount: 5000, customer: { tier: 'gold' } },
  keyId,
  sessionId: null,
  titleWords: ['refund', 'order'],
  allowedDecisions: ['approve', 'edit', 'reject', 'respond'] as const,
};
const now = Date.now();
for (let i = 0; i < 2000; i++) planActions(compiled, [action], now, 1);
// Honest about the case: the action is tested against every rule, and none matches.
const [planned] = planActions(compiled, [action], now, 1);
if (planned.receipts.length > 0) throw new Error('a rule matched the measured action');
const wall = new Float64Array(ITERATIONS);
const cpu = new Float64Array(ITERATIONS);
for (let i = 0; i < ITERATIONS; i++) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  planActions(compiled, [action], now, 1);
  wall[i] = performance.now() - start;
  const used = process.cpuUsage(cpuStart);
  cpu[i] = (used.user + used.system) / 1000;
}
wall.sort();
cpu.sort();
const at = (samples: Float64Array, q: number) =>
  +samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(4);
console.log(
  JSON.stringify({
    rules: RULES,
    conditions: UNINDEXED ? 'unindexed' : 'indexed',
    iterations: ITERATIONS,
    wall: { p50Ms: at(wall, 0.5), p99Ms: at(wall, 0.99), maxMs: at(wall, 1) },
    cpu: { p50Ms: at(cpu, 0.5), p99Ms: at(cpu, 0.99), maxMs: at(cpu, 1) },
  }),
);
