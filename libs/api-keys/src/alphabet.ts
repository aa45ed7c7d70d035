/**
 * The 52 letters a key is written in, in index order: 'A'–'Z' are 0–25, 'a'–'z' are 26–51.
 * Both the Luhn check letter and the digest letters are digits in this order, so changing it
 * would invalidate every key already issued.
 */
export const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const ALPHABET_SIZE = 52;

/** Index of the letter with UTF-16 code unit `code`, or -1 if it is not an ASCII letter. */
export function letterIndex(code: number): number {
  if (code >= 65 && code <= 90) return code - 65; // 'A'–'Z'
  if (code >= 97 && code <= 122) return code - 71; // 'a'–'z' → 26–51
  return -1;
}
