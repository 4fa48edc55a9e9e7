/**
 * @module eval/datasets/sample
 * The seeded sample of a dataset's rows (suite `sample:` / `seed:`), shared by the suite preparation and the derived
 * robustness datasets.
 */
import { createRng } from '../../core/rng.ts';

/**
 * Indices of a seeded sample of `k` of `n` rows, in file order (a partial Fisher–Yates shuffle with the seeded
 * Rng, so the same seed gives the same items), and the rest in shuffled order (for in-context examples).
 */
export function seededSample(
  n: number,
  k: number,
  seed: number,
): { chosen: number[]; rest: number[] } {
  const idx = Array.from({ length: n }, (_, i) => i);
  const rng = createRng(seed);
  for (let i = 0; i < n - 1; i++) {
    const j = i + rng.int(n - i);
    const t = idx[i] as number;
    idx[i] = idx[j] as number;
    idx[j] = t;
  }
  const chosen = idx.slice(0, Math.min(k, n)).sort((a, b) => a - b);
  return { chosen, rest: idx.slice(Math.min(k, n)) };
}
