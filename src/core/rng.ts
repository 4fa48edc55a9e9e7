/**
 * @module core/rng
 * Seeded randomness. Domain code never calls Math.random(): it receives an {@link Rng} built from a stored seed,
 * so every figure (bootstrap intervals, side randomisation, simulations) can be reproduced.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** A seeded source of uniform random numbers. Not safe for cryptography. */
export interface Rng {
  /** Uniform double in [0, 1), 53 random bits. */
  next(): number;
  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32. */
  int(n: number): number;
}

/**
 * An Rng from a 32-bit integer seed (xoroshiro128+, from pure-rand).
 * @param seed any safe integer; only the low 32 bits are used.
 */
export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  const gen = xoroshiro128plus(seed | 0);
  return {
    next: () => uniformFloat64(gen),
    int: (n: number) => Math.floor(uniformFloat64(gen) * n),
  };
}

/** Makes a fresh random seed (for callers at the edge that then store it). */
export function freshSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
