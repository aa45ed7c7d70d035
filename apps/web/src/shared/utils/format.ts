const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "in 3 days", "now". */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'minute')
      return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(seconds, 'second');
}

/** "22 Nov 2026, 14:05 UTC", in the reader's time zone. */
export function dateTime(iso: string): string {
  return absolute.format(new Date(iso));
}

/** 1234.5 → "1,234.5" */
export function number(value: number, maximumFractionDigits = 2): string {
  return value.toLocaleString('en', { maximumFractionDigits });
}

/** Stable pretty-printed JSON for people to read. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

const BYTE_UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** 0 → "0 bytes", 1536 → "1.5 KiB", 104857600 → "100 MiB" (binary units, as the quotas are set). */
export function bytes(value: number): string {
  let unit = 0;
  let scaled = value;
  while (scaled >= 1024 && unit < BYTE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${number(value, 0)} ${value === 1 ? 'byte' : 'bytes'}`;
  return `${number(scaled, 1)} ${BYTE_UNITS[unit]}`;
}
