/**
 * @module rating/binomial
 * Exact binomial and multinomial sampling from a seeded {@link Rng} (no Math.random).
 *
 * - n·min(p, 1−p) < 10: inversion by sequential search of the CDF (expected O(n·p) steps).
 * - otherwise: BTRD, transformed rejection with decomposition (W. Hörmann 1993, "The generation of binomial
 *   random variates", J. Statist. Comput. Simul. 46:101–110), exact, O(1) expected uniforms.
 * - Multinomial(N, p): conditional binomials, X_k ~ Binomial(N − Σ_{l<k} X_l, p_k / Σ_{l≥k} p_l).
 */
import type { Rng } from '../core/rng.ts';

/** ln k! − [(k + ½)·ln(k + 1) − (k + 1) + ½·ln(2π)], the Stirling remainder, for k = 0..9. */
const FC_TABLE: number[] = (() => {
  const out: number[] = [];
  let lf = 0;
  for (let k = 0; k < 10; k++) {
    if (k > 0) lf += Math.log(k);
    out.push(lf - ((k + 0.5) * Math.log(k + 1) - (k + 1) + 0.5 * Math.log(2 * Math.PI)));
  }
  return out;
})();

function fc(k: number): number {
  if (k < 10) return FC_TABLE[k]!;
  const r = 1 / (k + 1);
  const r2 = r * r;
  return (1 / 12 - (1 / 360 - r2 / 1260) * r2) * r;
}

function inversion(rng: Rng, n: number, p: number): number {
  const q = 1 - p;
  const s = p / q;
  const a = (n + 1) * s;
  const r0 = Math.exp(n * Math.log1p(-p));
  for (;;) {
    let r = r0;
    let u = rng.next();
    let x = 0;
    while (u > r) {
      u -= r;
      x++;
      if (x > n) break;
      r *= a / x - s;
    }
    if (x <= n) return x;
    // Floating-point tail exhaustion (probability ~1e-16): redraw.
  }
}

function btrd(rng: Rng, n: number, p: number): number {
  const q = 1 - p;
  const m = Math.floor((n + 1) * p);
  const r = p / q;
  const nr = (n + 1) * r;
  const npq = n * p * q;
  const sq = Math.sqrt(npq);
  const b = 1.15 + 2.53 * sq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * sq;
  const vr = 0.92 - 4.2 / b;
  const urvr = 0.86 * vr;
  for (;;) {
    let v = rng.next();
    let u: number;
    if (v <= urvr) {
      u = v / vr - 0.43;
      return Math.floor(((2 * a) / (0.5 - Math.abs(u)) + b) * u + c);
    }
    if (v >= vr) {
      u = rng.next() - 0.5;
    } else {
      u = v / vr - 0.93;
      u = Math.sign(u) * 0.5 - u;
      v = rng.next() * vr;
    }
    const us = 0.5 - Math.abs(u);
    if (us <= 0) continue;
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    v = (v * alpha) / (a / (us * us) + b);
    const km = Math.abs(k - m);
    if (km <= 15) {
      // Recursive evaluation of f(k)/f(m).
      let f = 1;
      if (m < k) {
        for (let i = m + 1; i <= k; i++) f *= nr / i - r;
      } else if (m > k) {
        for (let i = k + 1; i <= m; i++) v *= nr / i - r;
      }
      if (v <= f) return k;
      continue;
    }
    // Squeeze on log scale.
    v = Math.log(v);
    const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
    const tt = (-km * km) / (2 * npq);
    if (v < tt - rho) return k;
    if (v > tt + rho) continue;
    // Final acceptance with Stirling corrections.
    const nm = n - m + 1;
    const h = (m + 0.5) * Math.log((m + 1) / (r * nm)) + fc(m) + fc(n - m);
    const nk = n - k + 1;
    if (
      v <=
      h + (n + 1) * Math.log(nm / nk) + (k + 0.5) * Math.log((nk * r) / (k + 1)) - fc(k) - fc(n - k)
    ) {
      return k;
    }
  }
}

/**
 * One draw of Binomial(n, p).
 * @param n number of trials, a non-negative safe integer.
 * @param p success probability in [0, 1] (values outside are clamped).
 * @returns an integer in [0, n].
 */
export function sampleBinomial(rng: Rng, n: number, p: number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - sampleBinomial(rng, n, 1 - p);
  if (n * p < 10) return inversion(rng, n, p);
  return btrd(rng, n, p);
}

/**
 * Precomputes the conditional probabilities of Multinomial(N, counts/Σcounts) for {@link sampleMultinomialInto}:
 * cond[k] = counts[k] / Σ_{l≥k} counts[l] (exact ratios of the counts, so the last non-zero cell gets 1).
 */
export function multinomialConditionals(counts: ArrayLike<number>): Float64Array {
  const cond = new Float64Array(counts.length);
  let rest = 0;
  for (let k = counts.length - 1; k >= 0; k--) {
    rest += counts[k]!;
    cond[k] = rest > 0 ? counts[k]! / rest : 0;
  }
  return cond;
}

/**
 * Draws X ~ Multinomial(n, p) into `out` by conditional binomials, where p is given by
 * {@link multinomialConditionals}. Σ out = n exactly.
 */
export function sampleMultinomialInto(
  rng: Rng,
  n: number,
  cond: Float64Array,
  out: Float64Array,
): void {
  let rest = n;
  for (let k = 0; k < cond.length; k++) {
    if (rest === 0) {
      out[k] = 0;
      continue;
    }
    const x = sampleBinomial(rng, rest, cond[k]!);
    out[k] = x;
    rest -= x;
  }
}
