/**
 * @module cli/judge-agree
 * `zhujiu judge agree A.jsonl B.jsonl [--json] [--order ...]` (docs/scoring.md §3.6). Needs no database.
 */
import { AppError } from '../core/errors.ts';
import { readUtf8File } from '../core/utf8.ts';
import { type Agreement, agreement, joinLabels, type Label } from '../eval/metrics/agreement.ts';
import { sayCli, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { parseLabels } from '../import/formats/labels.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu judge agree`. */
export interface JudgeAgreeOptions {
  readonly json?: boolean;
  /** Comma-separated category order, lowest first (e.g. `1,0,2`). */
  readonly order?: string;
}

/** Reads one labels file through the product's UTF-8 reader (a folder, a missing file, Latin-1, binary: refused). */
async function readLabels(file: string, locale: Locale) {
  const text = await readUtf8File(file, { code: 'import_invalid' });
  const r = parseLabels(text, file, locale);
  if (!r.ok) throw new AppError('import_invalid', r.reason.join('\n'));
  return r.value;
}

/** Renders agreement figures as text (what `judge agree` prints without --json), in `locale`. */
export function agreementText(a: Agreement, locale: Locale = 'en'): string[] {
  const fmt = (x: number | null, d = 4) => (x === null ? tc(locale, 'cli.agree.na') : x.toFixed(d));
  const lines = [
    `n ${a.n}`,
    tc(locale, 'cli.agree.kappa', { kappa: fmt(a.kappa) }),
    tc(locale, 'cli.agree.weighted', {
      linear: fmt(a.kappa_linear),
      quadratic: fmt(a.kappa_quadratic),
      unordered: a.kappa_linear === null ? tc(locale, 'cli.agree.unordered') : '',
    }),
    tc(locale, 'cli.agree.exact', { exact: (100 * a.exact).toFixed(2) }) +
      (a.within_one === null
        ? ''
        : tc(locale, 'cli.agree.withinOne', { within: (100 * a.within_one).toFixed(2) })),
    tc(locale, 'cli.agree.confusion'),
  ];
  const labels = a.confusion.labels.map(String);
  const w = Math.max(
    4,
    ...labels.map((l) => l.length),
    ...a.confusion.counts.flat().map((c) => String(c).length),
  );
  lines.push(`${''.padStart(w)} ${labels.map((l) => l.padStart(w)).join(' ')}`);
  a.confusion.counts.forEach((row, i) => {
    lines.push(
      `${(labels[i] ?? '').padStart(w)} ${row.map((c) => String(c).padStart(w)).join(' ')}`,
    );
  });
  return lines;
}

/**
 * Runs `zhujiu judge agree A B`: joins the two labels files on `item` and prints the agreement.
 * @throws AppError `input_invalid` (bad --order: a usage mistake), `import_invalid` (a file that cannot be read,
 *   is not UTF-8 text, is of another kind, has bad lines (file:line), or shares no item with the other).
 */
export async function runJudgeAgree(
  io: CliIo,
  fileA: string,
  fileB: string,
  o: JudgeAgreeOptions,
  locale: Locale = 'en',
): Promise<void> {
  const [a, b] = await Promise.all([readLabels(fileA, locale), readLabels(fileB, locale)]);
  const joined = joinLabels(a, b);
  let order: Label[] | undefined;
  if (o.order !== undefined) {
    const seen = new Map<string, Label>();
    for (const x of [...a, ...b]) seen.set(String(x.label), x.label);
    order = o.order
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((s) => seen.get(s) ?? s);
    if (order.length < 2) {
      throw new AppError('input_invalid', tc(locale, 'cli.agree.order', { order: o.order }));
    }
  }
  const r = agreement(joined.pairs, order ? { order } : {});
  if (!r.ok) {
    throw new AppError(
      'import_invalid',
      tc(locale, 'cli.agree.failed', { a: fileA, b: fileB, reason: sayCli(locale, r.reason) }) +
        (joined.pairs.length === 0 ? tc(locale, 'cli.agree.disjoint') : ''),
    );
  }
  if (o.json) {
    const v = r.value;
    io.out(
      JSON.stringify({
        n: v.n,
        kappa: v.kappa,
        kappa_linear: v.kappa_linear,
        kappa_quadratic: v.kappa_quadratic,
        exact: v.exact,
        within_one: v.within_one,
        confusion: v.confusion,
      }),
    );
  } else {
    for (const line of agreementText(r.value, locale)) io.out(line);
  }
  if (joined.onlyA.length > 0 || joined.onlyB.length > 0) {
    io.err(
      tc(locale, 'cli.agree.leftOut', {
        a: fileA,
        b: fileB,
        onlyA: joined.onlyA.length,
        onlyB: joined.onlyB.length,
      }),
    );
  }
}
