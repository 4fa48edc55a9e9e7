/**
 * @module eval/metrics/numeric
 * Numeric match for math word problems (Math23K; Wang et al., "Deep Neural Solver for Math Word Problems",
 * EMNLP 2017): the final number of an answer is parsed (integers, decimals, thousands separators, percentages,
 * fractions `a/b`, `\frac{a}{b}`, mixed numbers `2又1/3`) and compared with the reference with a relative tolerance
 * of 1e-4 (docs/scoring.md §2). Pure.
 */
import { nfkc } from '../../text/normalize.ts';

/** Relative tolerance of {@link numericMatch}. */
export const NUMERIC_REL_TOL = 1e-4;

const NUM = String.raw`[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
/** One number in an answer: mixed number, LaTeX fraction, fraction, or decimal (with `%` or `‰`). */
const NUMBER_RE = new RegExp(
  String.raw`(?<mixedWhole>${NUM})\s*(?:又|and)\s*(?<mixedNum>\d+)\s*/\s*(?<mixedDen>\d+)` +
    String.raw`|\\d?frac\s*\{\s*(?<fracNum>${NUM})\s*\}\s*\{\s*(?<fracDen>${NUM})\s*\}` +
    String.raw`|(?<num>${NUM})\s*/\s*(?<den>${NUM})(?!\d)` +
    String.raw`|(?<plain>${NUM})\s*(?<pct>%|‰)?`,
  'gu',
);

function toNumber(s: string): number {
  return Number(s.replace(/,/g, '').replace('−', '-'));
}

function numberValue(g: Record<string, string | undefined>): number | undefined {
  if (g.mixedWhole !== undefined) {
    const whole = toNumber(g.mixedWhole);
    const frac = toNumber(g.mixedNum as string) / toNumber(g.mixedDen as string);
    return whole < 0 ? whole - frac : whole + frac;
  }
  if (g.fracNum !== undefined) return toNumber(g.fracNum) / toNumber(g.fracDen as string);
  if (g.num !== undefined) return toNumber(g.num) / toNumber(g.den as string);
  if (g.plain !== undefined) {
    const v = toNumber(g.plain);
    if (g.pct === '%') return v / 100;
    if (g.pct === '‰') return v / 1000;
    return v;
  }
  return undefined;
}

/**
 * The final number of a free-text answer. Where the text states its answer (`答案是…`, `答：…`, `=…` at the
 * end, `\boxed{…}`), the first number after the last such marker; otherwise the last number in the text.
 * @returns the value, or undefined when the text holds no number (or divides by zero).
 * @example parseFinalNumber('答：这段布还剩9米。') // 9
 * @example parseFinalNumber('所以是 1,250 元，占 12.5%') // 0.125
 */
export function parseFinalNumber(output: string): number | undefined {
  const text = nfkc(output);
  const markers = [
    ...text.matchAll(/\\boxed\{|答案(?:是|为|应为)?\s*[:]?|答\s*[:]|(?:answer\s+is|answer:)\s*/giu),
  ];
  const last = markers.at(-1);
  let candidates: RegExpMatchArray[];
  if (last?.index !== undefined) {
    const after = text.slice(last.index + last[0].length);
    const first = [...after.matchAll(NUMBER_RE)][0];
    candidates = first ? [first] : [...text.matchAll(NUMBER_RE)];
  } else {
    candidates = [...text.matchAll(NUMBER_RE)];
  }
  const m = candidates.at(-1);
  if (!m?.groups) return undefined;
  const v = numberValue(m.groups);
  return v !== undefined && Number.isFinite(v) ? v : undefined;
}

/**
 * True when `predicted` equals `reference` within a relative tolerance of {@link NUMERIC_REL_TOL}
 * (`|p − r| ≤ 1e-4 · max(|r|, 1e-12)`, so a reference of 0 is matched only by |p| ≤ 1e-16).
 */
export function numbersMatch(predicted: number, reference: number): boolean {
  return Math.abs(predicted - reference) <= NUMERIC_REL_TOL * Math.max(Math.abs(reference), 1e-12);
}

/**
 * Parses a Math23K reference answer (`ans`): a number, `N%` (= N/100), a fraction `((7)/(15))`, a mixed number
 * `19((3)/(4))` (= 19 + 3/4), or any arithmetic expression of those with `+ - * / ^` and parentheses.
 * @returns the value, or undefined when the text is not such an expression.
 */
export function parseReferenceNumber(ans: string): number | undefined {
  const src = nfkc(ans).replace(/\s+/g, '');
  let i = 0;
  const peek = () => src[i];
  const num = (): number | undefined => {
    const m = /^\d+(?:\.\d+)?/.exec(src.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return Number(m[0]);
  };
  // expr := term (('+'|'-') term)*; term := power (('*'|'/') power)*; power := unary ('^' power)?;
  // unary := '-' unary | postfix; postfix := primary '%'* ; primary := number ['(' expr ')' as mixed part] | '(' expr ')'
  const expr = (): number | undefined => {
    let v = term();
    while (v !== undefined && (peek() === '+' || peek() === '-')) {
      const op = src[i++];
      const r = term();
      if (r === undefined) return undefined;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const term = (): number | undefined => {
    let v = power();
    while (v !== undefined && (peek() === '*' || peek() === '/')) {
      const op = src[i++];
      const r = power();
      if (r === undefined) return undefined;
      v = op === '*' ? v * r : v / r;
    }
    return v;
  };
  const power = (): number | undefined => {
    const b = unary();
    if (b === undefined) return undefined;
    if (peek() === '^') {
      i++;
      const e = power();
      return e === undefined ? undefined : b ** e;
    }
    return b;
  };
  const unary = (): number | undefined => {
    if (peek() === '-') {
      i++;
      const v = unary();
      return v === undefined ? undefined : -v;
    }
    let v = primary();
    while (v !== undefined && peek() === '%') {
      i++;
      v /= 100;
    }
    return v;
  };
  const primary = (): number | undefined => {
    if (peek() === '(') {
      i++;
      const v = expr();
      if (v === undefined || src[i++] !== ')') return undefined;
      return v;
    }
    const n = num();
    if (n === undefined) return undefined;
    if (peek() === '(') {
      // A mixed number: 19((3)/(4)) = 19 + 3/4.
      i++;
      const frac = expr();
      if (frac === undefined || src[i++] !== ')') return undefined;
      return n + frac;
    }
    return n;
  };
  const v = expr();
  return v !== undefined && i === src.length && Number.isFinite(v) ? v : undefined;
}

/**
 * Numeric match of a free-text answer against a reference value: 1 when {@link parseFinalNumber} finds a number
 * within tolerance, else 0.
 */
export function numericMatch(output: string, reference: number): { score: 0 | 1; parsed?: number } {
  const parsed = parseFinalNumber(output);
  if (parsed === undefined) return { score: 0 };
  return { score: numbersMatch(parsed, reference) ? 1 : 0, parsed };
}
