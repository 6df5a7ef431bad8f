/** The one spelling of a (scope, key) pair that the process and SQL's `lower(key)` (`key_folded`) agree on. */

const ASCII = /^[ -~]*$/;

/**
 * `scope\0key` lower-cased, for a printable-ASCII key only: there JS's lower-casing is SQL's, so two spellings of
 * one key meet. Null for any other key: SQL's `lower` may fold it onto another one, so a caller that holds keys
 * in the process (a restore batch's buffered holders, its looked-up holders) must treat it as matching any.
 */
export function foldedKey(scope: string, key: string): string | null {
  return ASCII.test(key) ? `${scope}\0${key.toLowerCase()}` : null;
}
