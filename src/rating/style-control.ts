/**
 * @module rating/style-control
 * Style-controlled arena ratings (docs/scoring.md §4.6), as FastChat computes them
 * (lm-sys/FastChat `fastchat/serve/monitor/rating_systems.py`: `preprocess_for_style`, `fit_contextual_bt`,
 * `compute_style_control`, `compute_bootstrap_style_control`; the markdown counts of
 * `fastchat/serve/monitor/add_markdown_info.py`; Li et al. 2024, "Does style matter? Disentangling style and
 * substance in Chatbot Arena", LMSYS blog 2024-08-28). Pure: no I/O, no clock; bootstrap randomness from an Rng.
 */
import type { Rng } from '../core/rng.ts';
import { quantileSorted } from './quantile.ts';
import type { Winner } from './types.ts';

/** FastChat's markdown counts of one side's answers (`count_markdown_elements`), keyed as in `conv_metadata`. */
export interface MarkdownCounts {
  readonly header_count: {
    readonly h1: number;
    readonly h2: number;
    readonly h3: number;
    readonly h4: number;
    readonly h5: number;
    readonly h6: number;
  };
  readonly list_count: { readonly ordered: number; readonly unordered: number };
  readonly bold_count: { readonly '**': number; readonly __: number };
}

/**
 * The `conv_metadata` fields FastChat's `preprocess_for_style` reads (`STYLE_CONTROL_ELEMENTS_V1`): token sums are
 * integers, the markdown counts are objects whose values FastChat sums (`extract_style_feature`).
 */
export interface StyleMetadata {
  readonly sum_assistant_a_tokens: number;
  readonly header_count_a: MarkdownCounts['header_count'];
  readonly list_count_a: MarkdownCounts['list_count'];
  readonly bold_count_a: MarkdownCounts['bold_count'];
  readonly sum_assistant_b_tokens: number;
  readonly header_count_b: MarkdownCounts['header_count'];
  readonly list_count_b: MarkdownCounts['list_count'];
  readonly bold_count_b: MarkdownCounts['bold_count'];
}

/** One battle with its style metadata. */
export interface StyleBattle {
  readonly model_a: string;
  readonly model_b: string;
  readonly winner: Winner;
  readonly conv_metadata: StyleMetadata;
}

/** The four style features, in FastChat's order (`STYLE_CONTROL_ELEMENTS_V1`, side a then side b). */
export const STYLE_FEATURES = ['length', 'header', 'list', 'bold'] as const;
/** One style feature's name. */
export type StyleFeature = (typeof STYLE_FEATURES)[number];

const count = (s: string, re: RegExp): number => (s.match(re) ?? []).length;

/**
 * Python's `^` under `re.MULTILINE`: the start of the text or right after "\n" (JavaScript's `m` flag also
 * matches after "\r", U+2028 and U+2029).
 */
const BOL = '(?<![^\\n])';
/**
 * Python's `\s` on str patterns (the characters for which `str.isspace()` is true: with U+001C–U+001F and U+0085,
 * without U+FEFF, unlike JavaScript's `\s`).
 */
const PY_SPACE =
  '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

/**
 * Removes the code in fenced blocks as FastChat's `remove_pattern(answer, re.compile("```([^`]*)```"))` does:
 * every captured inner text (fences stay) is replaced everywhere in the answer, in order of the matches.
 */
function removeCodeBlocks(answer: string): string {
  let out = answer;
  for (const m of answer.matchAll(/```([^`]*)```/g)) {
    const inner = m[1] ?? '';
    if (inner !== '') out = out.replaceAll(inner, '');
  }
  return out;
}

/**
 * FastChat's markdown counts (`add_markdown_info.py`, `count_markdown_elements` after removing code blocks) of
 * one side's answers, joined by "\n" as FastChat joins the assistant turns. Headers `^#{k}\s` per level,
 * ordered list items `^\s*\d+\.\s`, unordered `^\s*[-*+]\s`, bold `\*\*[^*\n]+\*\*` and `__[^_\n]+__`
 * (non-overlapping matches; `^`, `\s` and `\d` with Python's meaning: a line start after "\n" only, Python's
 * whitespace, any Unicode decimal digit).
 * @param answers the side's assistant answers, one per turn (any length, possibly empty).
 */
export function countMarkdownElements(answers: readonly string[]): MarkdownCounts {
  const t = removeCodeBlocks(answers.join('\n'));
  const h = (k: number) => count(t, new RegExp(`${BOL}#{${k}}${PY_SPACE}`, 'gu'));
  return {
    header_count: { h1: h(1), h2: h(2), h3: h(3), h4: h(4), h5: h(5), h6: h(6) },
    list_count: {
      ordered: count(t, new RegExp(`${BOL}${PY_SPACE}*\\p{Nd}+\\.${PY_SPACE}`, 'gu')),
      unordered: count(t, new RegExp(`${BOL}${PY_SPACE}*[-*+]${PY_SPACE}`, 'gu')),
    },
    bold_count: { '**': count(t, /\*\*[^*\n]+\*\*/gu), __: count(t, /__[^_\n]+__/gu) },
  };
}

/**
 * The product's answer token count (docs/scoring.md §4.6): every Han character, every run of letters, marks and
 * digits, and every other non-space character is one token. FastChat counts tiktoken `gpt-3.5-turbo`
 * (cl100k_base) tokens; the fit uses only the ratio (a − b) / (a + b + 1), so any count roughly proportional to
 * length serves, but the numbers differ from FastChat's public data.
 * @param answer one answer (any string).
 * @returns a non-negative integer.
 */
export function countAnswerTokens(answer: string): number {
  return count(answer, /\p{Script=Han}|[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu);
}

/**
 * The `conv_metadata` of one battle from both sides' answers (one string per turn): FastChat's
 * `sum_assistant_{a,b}_tokens` (sum over the turns of {@link countAnswerTokens}) and the markdown counts of
 * {@link countMarkdownElements}.
 */
export function styleMetadata(
  answersA: readonly string[],
  answersB: readonly string[],
): StyleMetadata {
  const a = countMarkdownElements(answersA);
  const b = countMarkdownElements(answersB);
  const tokens = (xs: readonly string[]) => xs.reduce((s, x) => s + countAnswerTokens(x), 0);
  return {
    sum_assistant_a_tokens: tokens(answersA),
    header_count_a: a.header_count,
    list_count_a: a.list_count,
    bold_count_a: a.bold_count,
    sum_assistant_b_tokens: tokens(answersB),
    header_count_b: b.header_count,
    list_count_b: b.list_count,
    bold_count_b: b.bold_count,
  };
}

const sumValues = (v: number | Readonly<Record<string, number>>): number =>
  typeof v === 'number' ? v : Object.values(v).reduce((s, x) => s + x, 0);

/** The design of a style-controlled fit (FastChat `preprocess_for_style`). */
export interface StyleDesign {
  /** Models in order of first appearance (model_a of every battle, then model_b: `pd.factorize`). */
  readonly models: readonly string[];
  /** Battle i: `a[i]`, `b[i]` model indices. */
  readonly a: Int32Array;
  readonly b: Int32Array;
  /** 1 model_a won, 0 model_b won, 0.5 either tie. */
  readonly outcomes: Float64Array;
  /** n × 4 row-major standardised features (length, header, list, bold). */
  readonly features: Float64Array;
  /** Features whose standard deviation over the battles is 0 (left at 0; FastChat would divide by zero). */
  readonly constant: readonly StyleFeature[];
}

/**
 * FastChat's `preprocess_for_style` (apply_ratio all four, add_one): for each feature, d = a − b divided by
 * a + b + 1, then standardised by the mean and the population standard deviation (ddof 0) over the battles.
 * A feature that is the same in every battle (e.g. no answer has bold text) has standard deviation 0: FastChat
 * produces NaN there; the product sets it to 0, so its coefficient is 0 and it changes nothing.
 * @throws RangeError on no battles, a battle of a model against itself, or a negative / non-integer count.
 */
export function styleDesign(battles: readonly StyleBattle[]): StyleDesign {
  const n = battles.length;
  if (n === 0) throw new RangeError('style control needs at least one battle');
  const index = new Map<string, number>();
  const idx = (m: string) => {
    let i = index.get(m);
    if (i === undefined) {
      i = index.size;
      index.set(m, i);
    }
    return i;
  };
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = idx(battles[i]!.model_a);
  for (let i = 0; i < n; i++) b[i] = idx(battles[i]!.model_b);
  const outcomes = new Float64Array(n);
  const features = new Float64Array(n * 4);
  for (let i = 0; i < n; i++) {
    const x = battles[i]!;
    if (x.model_a === x.model_b) throw new RangeError(`battle ${i + 1}: model_a equals model_b`);
    outcomes[i] = x.winner === 'model_a' ? 1 : x.winner === 'model_b' ? 0 : 0.5;
    const m = x.conv_metadata;
    const sides: [number | Record<string, number>, number | Record<string, number>][] = [
      [m.sum_assistant_a_tokens, m.sum_assistant_b_tokens],
      [m.header_count_a, m.header_count_b],
      [m.list_count_a, m.list_count_b],
      [m.bold_count_a, m.bold_count_b],
    ];
    for (let k = 0; k < 4; k++) {
      const va = sumValues(sides[k]![0]);
      const vb = sumValues(sides[k]![1]);
      if (!Number.isSafeInteger(va) || !Number.isSafeInteger(vb) || va < 0 || vb < 0) {
        throw new RangeError(`battle ${i + 1}: ${STYLE_FEATURES[k]} counts must be integers ≥ 0`);
      }
      features[i * 4 + k] = (va - vb) / (va + vb + 1);
    }
  }
  const constant: StyleFeature[] = [];
  for (let k = 0; k < 4; k++) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += features[i * 4 + k]!;
    mean /= n;
    let v = 0;
    for (let i = 0; i < n; i++) v += (features[i * 4 + k]! - mean) ** 2;
    const sd = Math.sqrt(v / n);
    const zero = !(sd > 1e-12 * Math.max(1, Math.abs(mean)));
    if (zero) constant.push(STYLE_FEATURES[k]!);
    for (let i = 0; i < n; i++) {
      features[i * 4 + k] = zero ? 0 : (features[i * 4 + k]! - mean) / sd;
    }
  }
  return { models: [...index.keys()], a, b, outcomes, features, constant };
}

/** Options of a style-controlled fit; the defaults are FastChat's `compute_style_control`. */
export interface StyleControlOptions {
  /** L2 weight: the objective adds (reg / 2)·‖params‖² (default 0.5, FastChat's `reg`). */
  readonly reg?: number;
  /** Elo scale (default 400) and base rating (default 1000): rating = base + scale · r. */
  readonly scale?: number;
  readonly initRating?: number;
}

/** A style-controlled fit. */
export interface StyleControlFit {
  readonly models: readonly string[];
  /** Elo-scale ratings, index-aligned with `models` (1000 + 400 · r, FastChat's `scale_and_offset`). */
  readonly ratings: Float64Array;
  /** Style coefficients β (log-odds per standard deviation of the feature), in {@link STYLE_FEATURES} order. */
  readonly coefficients: Float64Array;
  readonly constant: readonly StyleFeature[];
  /** Newton iterations used. */
  readonly iterations: number;
}

const ALPHA = Math.LN10;

/**
 * Minimises FastChat's `contextual_bt_loss_and_grad` objective on (a subset with multiplicities of) the battles:
 *   L(r, β) = −Σ w_i [y_i log p_i + (1 − y_i) log(1 − p_i)] + (reg / 2)(‖r‖² + ‖β‖²),
 *   p_i = σ(ln 10 · (r_{a_i} − r_{b_i}) + x_i · β),
 * by Newton's method with a Cholesky solve (the objective is strictly convex for reg > 0, so the minimiser is
 * unique; FastChat stops L-BFGS-B at gtol 1e-6, the product iterates until the step is below 1e-13).
 * @returns the parameter vector [r (M), β (4)], warm-started from `start` when given.
 */
function fitParams(
  d: StyleDesign,
  weights: Float64Array | null,
  reg: number,
  start?: Float64Array,
): { params: Float64Array; iterations: number } {
  const M = d.models.length;
  const P = M + 4;
  const n = d.outcomes.length;
  const params = start ? Float64Array.from(start) : new Float64Array(P);
  const grad = new Float64Array(P);
  const H = new Float64Array(P * P);
  const g = new Float64Array(P);
  for (let it = 1; it <= 200; it++) {
    grad.fill(0);
    H.fill(0);
    for (let j = 0; j < P; j++) {
      grad[j] = reg * params[j]!;
      H[j * P + j] = reg;
    }
    for (let i = 0; i < n; i++) {
      const w = weights ? weights[i]! : 1;
      if (w === 0) continue;
      const ai = d.a[i]!;
      const bi = d.b[i]!;
      let z = ALPHA * (params[ai]! - params[bi]!);
      for (let k = 0; k < 4; k++) z += d.features[i * 4 + k]! * params[M + k]!;
      const p = 1 / (1 + Math.exp(-z));
      const err = w * (d.outcomes[i]! - p);
      const h = w * p * (1 - p);
      // The gradient of z: +α at a, −α at b, x_i at the feature coefficients.
      g.fill(0);
      g[ai] = ALPHA;
      g[bi] = -ALPHA;
      for (let k = 0; k < 4; k++) g[M + k] = d.features[i * 4 + k]!;
      const nz = [ai, bi, M, M + 1, M + 2, M + 3];
      for (const u of nz) {
        grad[u]! -= err * g[u]!;
        for (const v of nz) H[u * P + v]! += h * g[u]! * g[v]!;
      }
    }
    const step = choleskySolve(H, grad, P);
    let max = 0;
    for (let j = 0; j < P; j++) {
      params[j]! -= step[j]!;
      max = Math.max(max, Math.abs(step[j]!));
    }
    if (max < 1e-13) return { params, iterations: it };
  }
  return { params, iterations: 200 };
}

/** Solves A x = y for a symmetric positive definite P × P matrix A (row-major; A is overwritten). */
function choleskySolve(A: Float64Array, y: Float64Array, P: number): Float64Array {
  for (let j = 0; j < P; j++) {
    let s = A[j * P + j]!;
    for (let k = 0; k < j; k++) s -= A[j * P + k]! ** 2;
    const l = Math.sqrt(s);
    A[j * P + j] = l;
    for (let i = j + 1; i < P; i++) {
      let t = A[i * P + j]!;
      for (let k = 0; k < j; k++) t -= A[i * P + k]! * A[j * P + k]!;
      A[i * P + j] = t / l;
    }
  }
  const x = Float64Array.from(y);
  for (let i = 0; i < P; i++) {
    let t = x[i]!;
    for (let k = 0; k < i; k++) t -= A[i * P + k]! * x[k]!;
    x[i] = t / A[i * P + i]!;
  }
  for (let i = P - 1; i >= 0; i--) {
    let t = x[i]!;
    for (let k = i + 1; k < P; k++) t -= A[k * P + i]! * x[k]!;
    x[i] = t / A[i * P + i]!;
  }
  return x;
}

function resolved(o: StyleControlOptions): { reg: number; scale: number; init: number } {
  const reg = o.reg ?? 0.5;
  if (!(reg > 0) || !Number.isFinite(reg)) throw new RangeError(`reg must be > 0, got ${reg}`);
  return { reg, scale: o.scale ?? 400, init: o.initRating ?? 1000 };
}

/**
 * FastChat's `compute_style_control`: the contextual Bradley–Terry fit of {@link fitParams} on
 * {@link styleDesign}'s features, ratings on the Elo scale (1000 + 400 · r; a gap of 400 is 10:1 odds, i.e.
 * 1000 + (400 / ln 10) · θ on natural log-odds θ). No anchor model is applied (FastChat shifts so
 * `mixtral-8x7b-instruct-v0.1` is 1114 when present).
 * @throws RangeError on invalid battles (see {@link styleDesign}) or reg ≤ 0.
 */
export function fitStyleControl(
  battles: readonly StyleBattle[],
  options: StyleControlOptions = {},
): StyleControlFit {
  const o = resolved(options);
  const d = styleDesign(battles);
  const { params, iterations } = fitParams(d, null, o.reg);
  return toFit(d, params, o, iterations);
}

function toFit(
  d: StyleDesign,
  params: Float64Array,
  o: { scale: number; init: number },
  iterations: number,
): StyleControlFit {
  const M = d.models.length;
  return {
    models: d.models,
    ratings: params.slice(0, M).map((r) => o.init + o.scale * r),
    coefficients: params.slice(M),
    constant: d.constant,
    iterations,
  };
}

/** A style-controlled fit with bootstrap intervals. */
export interface StyleControlResult extends StyleControlFit {
  /** Bootstrap rounds used (0: no intervals). */
  readonly rounds: number;
  /** 2.5 % and 97.5 % quantiles of each model's rating over the rounds (NaN with 0 rounds). */
  readonly ratingLo: Float64Array;
  readonly ratingHi: Float64Array;
  /** 2.5 % and 97.5 % quantiles of each coefficient. */
  readonly coefficientLo: Float64Array;
  readonly coefficientHi: Float64Array;
}

/**
 * FastChat's `compute_bootstrap_style_control` with `compute_style_control` as the point estimate: each round
 * draws n battles with replacement (`np.random.randint`; here from `rng`), keeps the standardised features of the
 * full data (FastChat standardises once before resampling) and refits; intervals are the 2.5 % and 97.5 %
 * quantiles (`report_elo_analysis_results`). Refits start from the point estimate (the minimiser is unique, so
 * the start changes only the iteration count).
 * @param rounds bootstrap rounds, an integer ≥ 0.
 */
export function bootstrapStyleControl(
  battles: readonly StyleBattle[],
  rng: Rng,
  rounds: number,
  options: StyleControlOptions = {},
): StyleControlResult {
  if (!Number.isSafeInteger(rounds) || rounds < 0) {
    throw new RangeError(`rounds must be an integer ≥ 0, got ${rounds}`);
  }
  const o = resolved(options);
  const d = styleDesign(battles);
  const point = fitParams(d, null, o.reg);
  const fit = toFit(d, point.params, o, point.iterations);
  const M = d.models.length;
  const n = battles.length;
  const samples = Array.from({ length: M + 4 }, () => new Float64Array(rounds));
  const w = new Float64Array(n);
  for (let r = 0; r < rounds; r++) {
    w.fill(0);
    for (let i = 0; i < n; i++) w[rng.int(n)]! += 1;
    const p = fitParams(d, w, o.reg, point.params).params;
    for (let j = 0; j < M; j++) samples[j]![r] = o.init + o.scale * p[j]!;
    for (let k = 0; k < 4; k++) samples[M + k]![r] = p[M + k]!;
  }
  const q = (j: number, at: number) =>
    rounds === 0 ? Number.NaN : quantileSorted(samples[j]!.sort(), at);
  const lo = (from: number, len: number) =>
    Float64Array.from({ length: len }, (_, j) => q(from + j, 0.025));
  const hi = (from: number, len: number) =>
    Float64Array.from({ length: len }, (_, j) => q(from + j, 0.975));
  return {
    ...fit,
    rounds,
    ratingLo: lo(0, M),
    ratingHi: hi(0, M),
    coefficientLo: lo(M, 4),
    coefficientHi: hi(M, 4),
  };
}
