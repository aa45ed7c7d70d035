/** SPEC §8: the plans an organisation can be on. */
export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export function isPlan(x: unknown): x is Plan {
  return typeof x === 'string' && (PLANS as readonly string[]).includes(x);
}
