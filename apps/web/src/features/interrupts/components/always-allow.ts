import type { RuleArgPredicate } from '@interlock/api-client';

/** What "Always allow this" keeps of one argument: its value, a bound, or nothing (any value). */
export type ArgChoice =
  | { kind: 'exactly' }
  | { kind: 'any' }
  | { kind: 'at_most'; bound: number }
  | { kind: 'at_least'; bound: number };

/** The arguments a rule can name one by one (top-level keys of the path syntax). */
export const NAMEABLE = /^[A-Za-z0-9_$-]+$/;

/** The default: every argument exactly as it is here (the narrowest rule). */
export function defaultChoices(args: Record<string, unknown>): Record<string, ArgChoice> {
  return Object.fromEntries(Object.keys(args).map((k) => [k, { kind: 'exactly' } as ArgChoice]));
}

/** The choices as the rule's argument conditions, or what is wrong with them. */
export function conditionsOf(
  args: Record<string, unknown>,
  choices: Record<string, ArgChoice>,
): { ok: true; args: RuleArgPredicate[] } | { ok: false; problem: string } {
  const out: RuleArgPredicate[] = [];
  for (const [path, value] of Object.entries(args)) {
    const choice = choices[path] ?? { kind: 'exactly' };
    if (choice.kind === 'any') continue;
    if (!NAMEABLE.test(path))
      return {
        ok: false,
        problem: `Argument “${path}” cannot be named in a rule: choose any value.`,
      };
    if (choice.kind === 'exactly') {
      out.push({ path, op: 'eq', value } as RuleArgPredicate);
      continue;
    }
    if (typeof value !== 'number')
      return { ok: false, problem: `${path} is not a number: it cannot take a bound.` };
    if (!Number.isFinite(choice.bound))
      return { ok: false, problem: `${path}: the bound must be a number.` };
    if (choice.kind === 'at_most' && value > choice.bound)
      return { ok: false, problem: `${path} is ${value} here: the bound must be at least that.` };
    if (choice.kind === 'at_least' && value < choice.bound)
      return { ok: false, problem: `${path} is ${value} here: the bound must be at most that.` };
    out.push({ path, op: choice.kind === 'at_most' ? 'lte' : 'gte', value: choice.bound });
  }
  if (out.length > 20)
    return { ok: false, problem: 'A rule holds at most 20 conditions: set some to any value.' };
  return { ok: true, args: out };
}
