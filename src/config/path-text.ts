/**
 * @module config/path-text
 * A key path of a config file as error messages show it: keys joined with dots, list positions one-based in
 * brackets as people count them (`models[1].base_url` is the first model's `base_url`).
 */

/** `['models', 0, 'name']` → `models[1].name`; a numeric string counts as a list position too; `[]` → `(root)`. */
export function configPathText(path: readonly (string | number | symbol)[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const k of path) {
    const n =
      typeof k === 'number' ? k : typeof k === 'string' && /^\d+$/.test(k) ? Number(k) : NaN;
    if (Number.isInteger(n)) out += `[${n + 1}]`;
    else out += `${out === '' ? '' : '.'}${String(k)}`;
  }
  return out;
}

/** Orders key paths as a reader scans a file's keys: key by key, list positions by number. */
export function comparePaths(
  a: readonly (string | number | symbol)[],
  b: readonly (string | number | symbol)[],
): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}
