/**
 * @module core/numbers
 * The one reading of a whole number typed by a person (a CLI flag value, a battle or run number in chat). Plain
 * decimal digits only: `Number()` would also take `1e3` (1000), `0x10` (16), `1.0`, ` 12 ` and the empty string
 * (0), so `vote 1e3 left` would vote on battle #1000. Pure, no dependencies (loaded by `zhujiu --help`).
 */

/**
 * Parses a whole number written in plain decimal digits (`0`, `42`; leading zeros allowed; no sign, exponent,
 * hex prefix, decimal point or spaces).
 * @param text what the person typed.
 * @param min smallest accepted value (default 0).
 * @param max largest accepted value (default `Number.MAX_SAFE_INTEGER`).
 * @returns the number, or `undefined` when `text` is not such a number or lies outside [min, max].
 */
export function parseWholeNumber(
  text: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (!/^[0-9]{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/**
 * Parses a record number as people write it in chat: digits with an optional leading `#` (`12`, `#12`).
 * @returns the number (≥ 1), or `undefined` for anything else (`1e3`, `0x10`, `1.5`, `-3`, `0`, ``).
 */
export function parseRecordId(text: string): number | undefined {
  return parseWholeNumber(text.startsWith('#') ? text.slice(1) : text, 1);
}

/**
 * The record number typed, as digits without `#` and leading zeros, when `text` is written as one (`#12`, `012`)
 * but too large for {@link parseRecordId} (above 2^53 − 1): such a number names no record, and the answer is
 * "no battle #…", not the command's usage line. @returns undefined for anything else (`0` included, which no
 * person means as a record number).
 */
export function unknownRecordNumber(text: string): string | undefined {
  const digits = (text.startsWith('#') ? text.slice(1) : text).replace(/^0+/u, '');
  if (!/^[1-9][0-9]*$/.test(digits) || parseRecordId(digits) !== undefined) return undefined;
  return digits;
}
