/**
 * @module storage/key-order
 * The order multi-row inserts write shared keys in. Two transactions that insert overlapping keys (two imports
 * naming the same models, imports of the same outputs or judgments) each lock a key as they write it; written in
 * different orders they can each wait for a key the other holds, and PostgreSQL aborts one with "deadlock
 * detected". Written in one order, the later one waits for the earlier and both succeed (PostgreSQL
 * documentation, "Explicit Locking", section "Deadlocks"). docs/architecture.md "Where state lives" lists the
 * writers.
 */

/** One column value of a unique key. */
export type KeyPart = string | number | null;

/**
 * Compares two keys of the same shape part by part: numbers numerically, strings by code unit, null first.
 * @returns negative, 0 or positive, as `Array.prototype.sort` expects.
 */
export function compareKeys(a: readonly KeyPart[], b: readonly KeyPart[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** A copy of `rows` in the order of their keys ({@link compareKeys}). */
export function inKeyOrder<T>(rows: readonly T[], key: (row: T) => readonly KeyPart[]): T[] {
  return rows
    .map((row) => ({ row, k: key(row) }))
    .sort((p, q) => compareKeys(p.k, q.k))
    .map((p) => p.row);
}
