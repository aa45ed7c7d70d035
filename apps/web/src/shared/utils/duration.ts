/** A length of time as people set it: a number of minutes, hours or days. */
export type DurationUnit = 'minutes' | 'hours' | 'days';

export const DURATION_UNITS: readonly { value: DurationUnit; label: string; seconds: number }[] = [
  { value: 'minutes', label: 'minutes', seconds: 60 },
  { value: 'hours', label: 'hours', seconds: 3_600 },
  { value: 'days', label: 'days', seconds: 86_400 },
];

/** Seconds → the largest unit that holds them exactly (90 s has none: 1.5 minutes). */
export function splitDuration(seconds: number): { amount: number; unit: DurationUnit } {
  for (const unit of [...DURATION_UNITS].reverse()) {
    if (seconds % unit.seconds === 0) return { amount: seconds / unit.seconds, unit: unit.value };
  }
  return { amount: seconds / 60, unit: 'minutes' };
}

export function toSeconds(amount: number, unit: DurationUnit): number {
  return Math.round(amount * (DURATION_UNITS.find((u) => u.value === unit)?.seconds ?? 60));
}

/** "2 days", "1 hour 30 minutes", "45 seconds": a duration in words, to the second, largest units first. */
export function describeDuration(seconds: number): string {
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(seconds));
  for (const [name, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  }
  return parts.length === 0 ? '0 seconds' : parts.join(' ');
}

/**
 * What is left until a deadline, for a countdown: "4m 05s", "2h 10m", "3d 4h"; "overdue" once it
 * has passed (the service applies it within seconds).
 */
export function timeLeft(deadline: string, now: number = Date.now()): string {
  const seconds = Math.floor((Date.parse(deadline) - now) / 1000);
  if (seconds <= 0) return 'overdue';
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = seconds % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  return `${m}m ${String(s).padStart(2, '0')}s`;
}
