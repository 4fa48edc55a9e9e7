/**
 * @module core/result
 * Expected failures are values: parsers and validators return a Result instead of throwing.
 */

/** Success or an expected failure with a reason a person can act on. */
export type Result<T, R = string> = { ok: true; value: T } | { ok: false; reason: R };

/** Builds a success. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** Builds an expected failure. */
export function fail<R = string>(reason: R): { ok: false; reason: R } {
  return { ok: false, reason };
}
