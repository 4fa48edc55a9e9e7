/**
 * @module text/edit-distance
 * Levenshtein edit distance and the "did you mean" pick built on it, for names a user typed (a flag value, a
 * config key, a JSON key): pure, no clock, no randomness.
 */

/**
 * The Levenshtein distance between `a` and `b`: the fewest single-character insertions, deletions and
 * substitutions (UTF-16 code units) that turn one into the other; 0 when equal.
 */
export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0] as number;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = dp[j] as number;
      dp[j] = Math.min(
        (dp[j] as number) + 1,
        (dp[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = cur;
    }
  }
  return dp[b.length] as number;
}

/** `names` sorted closest to `input` first (case-insensitive edit distance; ties keep their order). */
export function byCloseness(input: string, names: readonly string[]): string[] {
  const lower = input.toLowerCase();
  const d = new Map(names.map((n) => [n, editDistance(lower, n.toLowerCase())]));
  return [...names].sort((x, y) => (d.get(x) as number) - (d.get(y) as number));
}

/**
 * The name of `names` that `input` most likely misspells: the closest one (case-insensitive) within
 * max(2, ⌊length/3⌋) edits, at most 3, and fewer than `input` has characters (a swap of two letters is 2 edits);
 * undefined when none is that close or `input` is one of `names`.
 */
export function didYouMean(input: string, names: readonly string[]): string | undefined {
  if (names.includes(input)) return undefined;
  const limit = Math.min(3, Math.max(2, Math.floor(input.length / 3)), input.length - 1);
  const lower = input.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const n of names) {
    const d = editDistance(lower, n.toLowerCase());
    if (d <= limit && (best === undefined || d < best.d)) best = { name: n, d };
  }
  return best?.name;
}

/**
 * {@link didYouMean} for a fixed list of values (a flag's choices, a config key's allowed values): the misspelt
 * value, else the one value that begins with `input` when it has at least 3 characters (case-insensitive), so a
 * shortened value is suggested whole (`alpaca` → `alpaca_eval`); undefined when neither is found or `input` is one
 * of `choices`.
 */
export function didYouMeanChoice(input: string, choices: readonly string[]): string | undefined {
  if (choices.includes(input)) return undefined;
  const close = didYouMean(input, choices);
  if (close !== undefined) return close;
  const lower = input.trim().toLowerCase();
  if (lower.length < 3) return undefined;
  const longer = choices.filter((c) => c.toLowerCase().startsWith(lower));
  return longer.length === 1 ? longer[0] : undefined;
}
