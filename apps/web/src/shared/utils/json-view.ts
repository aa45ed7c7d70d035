/**
 * What the JSON tree shows of a payload: the part that matches a search, with long strings
 * shortened. Pure functions, so the viewer stays a thin wrapper over its component.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Strings longer than this are cut in the tree until the reader asks for all of them. */
export const LONG_STRING = 240;

/** The value with every string longer than `limit` cut to `limit` characters and a note of what was left out. */
export function shortenStrings(value: unknown, limit = LONG_STRING): unknown {
  if (typeof value === 'string') {
    if (value.length <= limit) return value;
    const rest = value.length - limit;
    return `${value.slice(0, limit)}… (${rest.toLocaleString('en')} more character${rest === 1 ? '' : 's'})`;
  }
  if (Array.isArray(value)) return value.map((item) => shortenStrings(item, limit));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, shortenStrings(item, limit)]),
    );
  return value;
}

/** Whether any string in the value is longer than `limit`. */
export function hasLongStrings(value: unknown, limit = LONG_STRING): boolean {
  if (typeof value === 'string') return value.length > limit;
  if (Array.isArray(value)) return value.some((item) => hasLongStrings(item, limit));
  if (value !== null && typeof value === 'object')
    return Object.values(value).some((item) => hasLongStrings(item, limit));
  return false;
}

export interface SearchResult {
  /** The matching part of the value: objects keep their matching keys, arrays their matching items (keyed `[index]`). */
  value: unknown;
  /** How many keys and values matched. */
  matches: number;
}

/**
 * The parts of `value` whose key or (primitive) value contains `query`, case-insensitively. A
 * key that matches keeps its whole value. Arrays filtered to some items become objects keyed
 * `[index]`, so the reader still sees where each item stood. `undefined` when nothing matches.
 */
export function searchJson(value: unknown, query: string): SearchResult | undefined {
  const needle = query.trim().toLowerCase();
  if (needle === '') return { value, matches: 0 };
  return search(value as Json, needle);
}

function search(value: Json, needle: string): SearchResult | undefined {
  if (value === null || typeof value !== 'object') {
    return String(value).toLowerCase().includes(needle) ? { value, matches: 1 } : undefined;
  }
  const entries: [string, Json][] = Array.isArray(value)
    ? value.map((item, index) => [`[${index}]`, item])
    : Object.entries(value);
  const kept: [string, unknown][] = [];
  let matches = 0;
  for (const [key, item] of entries) {
    const keyMatches = !Array.isArray(value) && key.toLowerCase().includes(needle);
    const inside = search(item, needle);
    if (keyMatches) {
      kept.push([key, item]);
      matches += 1 + (inside?.matches ?? 0);
    } else if (inside) {
      kept.push([key, inside.value]);
      matches += inside.matches;
    }
  }
  if (kept.length === 0) return undefined;
  // An array whose every item matched stays an array.
  if (Array.isArray(value) && kept.length === value.length)
    return { value: kept.map(([, item]) => item), matches };
  return { value: Object.fromEntries(kept), matches };
}

/**
 * `after` with its keys in `before`'s order (keys only `after` has come last, in their own
 * order), at every depth: an edit compared with the agent's arguments lines up key by key, as
 * the agent wrote them, whatever order the editor or the database kept.
 */
export function inOrderOf(after: unknown, before: unknown): unknown {
  if (Array.isArray(after))
    return after.map((item, index) =>
      inOrderOf(item, Array.isArray(before) ? before[index] : undefined),
    );
  if (after === null || typeof after !== 'object') return after;
  const source = after as Record<string, unknown>;
  const reference =
    before !== null && typeof before === 'object' && !Array.isArray(before)
      ? (before as Record<string, unknown>)
      : {};
  const keys = [
    ...Object.keys(reference).filter((key) => Object.hasOwn(source, key)),
    ...Object.keys(source).filter((key) => !Object.hasOwn(reference, key)),
  ];
  return Object.fromEntries(keys.map((key) => [key, inOrderOf(source[key], reference[key])]));
}
