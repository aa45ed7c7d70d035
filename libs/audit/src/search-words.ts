/**
 * The words an audit entry is found by, and the words of a query, folded the same way: NFKD
 * with combining marks removed (é → e), lower-case, ß → ss, split on anything that is not a
 * letter or a digit. `api_key.created` gives api, key, created.
 */
export function searchWords(...texts: (string | null | undefined)[]): string[] {
  const words = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const word of fold(text).split(/[^\p{L}\p{N}]+/u)) {
      if (word !== '') words.add(word.slice(0, MAX_WORD_LENGTH));
    }
  }
  return [...words];
}

/** Longer words are indexed by their first 64 characters (a prefix search still finds them). */
export const MAX_WORD_LENGTH = 64;

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss');
}
