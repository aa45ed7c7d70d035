// Argus's rule evaluation, in process (issue 29 §4: p99 ≤ 1 ms for 1,000 rules). Builds 1,000
// enforce-mode rules of the shapes people write (exact names, globs, no action; key ids, argument
// predicates), none of which matches the measured action — about two thirds of them are candidates
// for it (the rest are skipped by the action-name index) and each candidate is tested — and times
// planActions for one action request, many times over.
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

/**
 * The action patterns in three shapes: a third exact names, a third globs (first letters spread
 * over the alphabet, the measured action's included), a third no action (tested for every action).
 */
function shapeOf(i: number): { actions?: string[] } {
  const letter = String.fromCharCode(97 + (i % 26));
  if (i % 3 === 0) return { actions: [`${letter}tool_${i}`, `other_${i}`] };
  if (i % 3 === 1) return { actions: [`${letter}${i}_*`, `refund_${i}_*`] };
  return {};
}

const rules: StoredRule[] = [];
for (let i = 0; i < RULES; i++) {
  rules.push({
    id: randomUUID(),
    name: `rule ${i}`,
    mode: 'enforce',
    priority: i,
    match: parseRuleMatch({
      ...shapeOf(i),
      keyIds: [randomUUID()],
      args: [
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
  args: { amount: 50, customer: { tier: 'gold' } },
  keyId: randomUUID(),
  sessionId: null,
  titleWords: ['refund', 'order'],
  allowedDecisions: ['approve', 'edit', 'reject', 'respond'] as const,
};
const now = Date.now();
for (let i = 0; i < 2000; i++) planActions(compiled, [action], now);
const samples = new Float64Array(ITERATIONS);
for (let i = 0; i < ITERATIONS; i++) {
  const start = performance.now();
  planActions(compiled, [action], now);
  samples[i] = performance.now() - start;
}
samples.sort();
const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
console.log(
  JSON.stringify({
    rules: RULES,
    iterations: ITERATIONS,
    p50Ms: +at(0.5).toFixed(4),
    p99Ms: +at(0.99).toFixed(4),
    maxMs: +at(1).toFixed(4),
  }),
);
