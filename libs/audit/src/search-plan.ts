/**
 * How a search runs, chosen from the organisation's word counts (the lexicon) before any entry
 * is read. Two ways to find the newest entries holding every word:
 *
 * - **index**: the word index yields every match, which are then ordered. Its cost grows with
 *   the matches (each is a heap visit), so it suits words that few entries hold together.
 * - **walk**: read the newest entries in order and test the words on each, stopping at a page of
 *   matches. Its cost grows with the entries read before the page fills, so it suits dense
 *   words (a one-letter prefix), and the window it may read is sized to the words' density.
 *
 * When a walk reads its whole window without filling the page (the words are rarer among the
 * newest entries than overall, or a filter thins them), the index finishes the search.
 */

/** At most this many matches: the index alone. */
export const INDEX_MATCHES = 3000;
/**
 * A match found through the index costs about as much as this many entries read by a walk
 * (a heap visit each, about 6 µs, against about 1.2 µs per entry walked, on the benchmark).
 */
export const WALK_ENTRIES_PER_INDEX_MATCH = 5;
/** A walk reads at least this many entries before it falls back to the index… */
export const WALK_WINDOW_MIN = 2000;
/** …and, for several words, at most this many: how often they meet is only a guess. */
export const WALK_WINDOW_MAX = 10000;

/**
 * A walk reads its window in chunks of this many entries: with a longer LIMIT the planner may
 * sort the organisation's entries instead of walking the ordered index (3.6 s for 500,000).
 */
export const WALK_CHUNK = 10000;

export type SearchPlan = { kind: 'index' } | { kind: 'walk'; window: number };

/**
 * What the two plans cost relative to each other where the search runs. The defaults are the
 * audit log's; another table (the inbox's interrupts, whose walk reads an index that carries
 * the words) passes its own.
 */
export interface SearchCosts {
  indexMatches: number;
  walkEntriesPerIndexMatch: number;
  windowMin: number;
  windowMax: number;
}

export const AUDIT_SEARCH_COSTS: SearchCosts = {
  indexMatches: INDEX_MATCHES,
  walkEntriesPerIndexMatch: WALK_ENTRIES_PER_INDEX_MATCH,
  windowMin: WALK_WINDOW_MIN,
  windowMax: WALK_WINDOW_MAX,
};

/**
 * @param wordEntries for each word of `q`, how many entries hold it (for a prefix, the sum over
 *   the words it expands to: an upper bound), or null when unknown (a prefix too broad to count)
 * @param total the organisation's entries
 * @param take the rows the page needs
 */
export function chooseSearchPlan(
  wordEntries: (number | null)[],
  total: number,
  take: number,
  costs: SearchCosts = AUDIT_SEARCH_COSTS,
): SearchPlan {
  const known = wordEntries.filter((n): n is number => n !== null);
  // No entry holds more of the words together than the rarest alone.
  const bound = known.length > 0 ? Math.min(...known) : Number.POSITIVE_INFINITY;
  // If the words occurred independently, this share of the entries would hold them all.
  const density = total === 0 ? 0 : known.reduce((d, n) => d * Math.min(1, n / total), 1);
  if (bound <= costs.indexMatches) return { kind: 'index' };
  // Words that would rarely meet if they were independent: a short walk first, since words that
  // go together (a full name, an action's words) meet far more often; see walkOn.
  if (density * total <= costs.indexMatches) return { kind: 'walk', window: costs.windowMin };
  if (known.length === 1 && wordEntries.length === 1) {
    // One word: its matches are known, so walk as far as walking stays cheaper than the index.
    // A dense word stops early; newer entries without it (a burst) cost no more than the index.
    return {
      kind: 'walk',
      window: Math.max(costs.windowMin, bound * costs.walkEntriesPerIndexMatch),
    };
  }
  if (known.length === 0) return { kind: 'walk', window: costs.windowMax };
  // Several words: enough entries to expect a page four times over, within the bounds.
  const window = Math.min(
    costs.windowMax,
    Math.max(costs.windowMin, Math.ceil((4 * take) / density)),
  );
  return { kind: 'walk', window };
}

/**
 * A walk that read its window without filling the page: whether reading on is still cheaper than
 * the index, judged by the matches it found so far (so words that go together keep walking, and
 * words that rarely meet go to the index). None found: the index.
 */
export function walkOn(
  hits: number,
  read: number,
  take: number,
  total: number,
  costs: SearchCosts = AUDIT_SEARCH_COSTS,
): boolean {
  if (hits === 0 || read === 0) return false;
  const density = hits / read;
  return (take - hits) / density <= costs.walkEntriesPerIndexMatch * density * total;
}
