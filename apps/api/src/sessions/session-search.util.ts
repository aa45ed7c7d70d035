import { DomainError } from '@interlock/domain';
import { searchWords } from '@interlock/audit';

/** A name search holds at most this many words (as the inbox's and the audit log's `q`). */
export const MAX_NAME_SEARCH_WORDS = 8;

/** The shortest id prefix `q` is read as: the 8 hex digits the dashboard shows of an id. */
export const MIN_ID_PREFIX = 8;

/**
 * How many sessions a name search walks, newest first, before it asks the word index: a page
 * not filled within them means matches are scarce (fewer than one in `window / take`).
 */
export const NAME_SEARCH_WINDOW = 1_000;

const UUID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

/** What `q` asks for (SPEC §5): words of the name, each a prefix, and perhaps an id prefix. */
export interface NameSearch {
  /** Folded as names are (`searchWords`): case and accents ignored. */
  words: string[];
  /** The lowest and highest id that start with `q`, when `q` is an id's beginning. */
  idRange?: readonly [string, string];
}

/**
 * `q` read: its words (400 past `MAX_NAME_SEARCH_WORDS`), and, when it is the beginning of an
 * id in its usual form (at least `MIN_ID_PREFIX` characters, hex digits and the dashes where an
 * id has them; surrounding spaces and case ignored), the range of ids that start so. Undefined
 * when it holds neither — only spaces or punctuation —, as the inbox's title search: no search.
 */
export function nameSearchOf(q: string | undefined): NameSearch | undefined {
  if (q === undefined) return undefined;
  const words = searchWords(q);
  if (words.length > MAX_NAME_SEARCH_WORDS) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `q: must have at most ${MAX_NAME_SEARCH_WORDS} words`,
    );
  }
  const idRange = idRangeOf(q.trim().toLowerCase());
  if (words.length === 0 && idRange === undefined) return undefined;
  return { words, idRange };
}

function idRangeOf(prefix: string): readonly [string, string] | undefined {
  if (prefix.length < MIN_ID_PREFIX || prefix.length > UUID_SHAPE.length) return undefined;
  for (let i = 0; i < prefix.length; i++) {
    const dash = UUID_SHAPE[i] === '-';
    if (dash ? prefix[i] !== '-' : !/[0-9a-f]/.test(prefix[i])) return undefined;
  }
  const rest = UUID_SHAPE.slice(prefix.length);
  return [prefix + rest.replace(/x/g, '0'), prefix + rest.replace(/x/g, 'f')];
}
