/**
 * @module cli/ratings-style
 * `zhujiu ratings --style-control`: FastChat's style-controlled Bradley–Terry ratings (docs/scoring.md §4.6;
 * rating/style-control.ts) from a file with `conv_metadata` or from the stored battles whose answers are stored.
 */
import { AppError } from '../core/errors.ts';
import { createRng } from '../core/rng.ts';
import { readUtf8Lines } from '../core/utf8.ts';
import { said, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { parseStyleLines, type StyleLines } from '../import/formats/arena-style.ts';
import type { StyleBattle } from '../rating/index.ts';
import { bootstrapStyleControl, rankByIntervals, STYLE_FEATURES } from '../rating/index.ts';
import { tableLines } from './io.ts';
import type { RatingsIo, RatingsOptions } from './ratings.ts';

/** The catalogue keys of the coefficient names shown for {@link STYLE_FEATURES}. */
const FEATURE_TEXT = {
  length: 'cli.ratings.style.length',
  header: 'cli.ratings.style.header',
  list: 'cli.ratings.style.list',
  bold: 'cli.ratings.style.bold',
} as const;

/** The notes under the style-controlled table: how it was fitted, then each style coefficient. */
function styleNotes(
  locale: Locale,
  r: ReturnType<typeof bootstrapStyleControl>,
  o: { rounds: number; seed: number },
  battles: number,
  withoutMetadata: number,
): string[] {
  const coef = STYLE_FEATURES.map(
    (f, k) =>
      `  ${tc(locale, FEATURE_TEXT[f])}: ${r.coefficients[k]!.toFixed(4)}` +
      (o.rounds > 0
        ? tc(locale, 'cli.ratings.style.ci', {
            lo: r.coefficientLo[k]!.toFixed(4),
            hi: r.coefficientHi[k]!.toFixed(4),
          })
        : '') +
      (r.constant.includes(f) ? tc(locale, 'cli.ratings.style.constant') : ''),
  );
  return [
    tc(locale, 'cli.ratings.style.method', {
      battles,
      leftOut:
        withoutMetadata > 0 ? tc(locale, 'cli.ratings.style.leftOut', { n: withoutMetadata }) : '',
      bootstrap:
        o.rounds > 0
          ? tc(locale, 'cli.ratings.ci', { rounds: o.rounds, seed: o.seed })
          : tc(locale, 'cli.ratings.style.noBootstrap'),
    }),
    tc(locale, 'cli.ratings.style.coefficients'),
    ...coef,
  ];
}

async function readStyleFile(path: string): Promise<StyleLines> {
  const lines: string[] = [];
  try {
    for await (const line of readUtf8Lines(path, { code: 'import_invalid', name: path })) {
      lines.push(line);
    }
  } catch (err) {
    if (err instanceof AppError && err.code === 'import_invalid')
      throw new AppError('rating_input_invalid', `--battles ${err.message}`, {
        cause: err,
        ...(err.said
          ? { said: said('cli.file.ofFlag', { flag: '--battles', error: err.said }) }
          : {}),
      });
    throw err;
  }
  return parseStyleLines(lines, path);
}

/**
 * Runs `ratings --style-control` with the already checked `rounds` and `seed`.
 *
 * JSON (`--json`): `{"models":[{"model","rating","rating_lo","rating_hi","rank","num_battles"}],
 * "style_coefficients":{"length"|"header"|"list"|"bold":{"coefficient","lo","hi"}},"battles","left_out",
 * "constant_features"}`; bounds are null with `--bootstrap 0`; `left_out` counts the battles without stored
 * answers (no style features).
 * @throws AppError `input_invalid` (`--anchor` given: not supported with style control; no data source),
 *   `rating_input_invalid` (bad line; no battle with style metadata).
 */
export async function runStyleRatings(
  opts: RatingsOptions,
  io: RatingsIo,
  rounds: number,
  seed: number,
): Promise<void> {
  if (opts.anchor !== undefined) {
    throw new AppError('input_invalid', tc(io.locale ?? 'en', 'cli.ratings.styleAnchor'));
  }
  let input: StyleLines;
  if (opts.battles !== undefined) input = await readStyleFile(opts.battles);
  else if (io.loadStyleBattles) input = await io.loadStyleBattles(opts.ability);
  else {
    throw new AppError('input_invalid', tc(io.locale ?? 'en', 'cli.ratings.styleNoBattles'));
  }
  const battles: readonly StyleBattle[] = input.battles;
  let r: ReturnType<typeof bootstrapStyleControl>;
  try {
    r = bootstrapStyleControl(battles, createRng(seed), rounds);
  } catch (err) {
    if (err instanceof RangeError) throw new AppError('rating_input_invalid', err.message);
    throw err;
  }
  const counts = new Map<string, number>();
  for (const b of battles) {
    counts.set(b.model_a, (counts.get(b.model_a) ?? 0) + 1);
    counts.set(b.model_b, (counts.get(b.model_b) ?? 0) + 1);
  }
  const ranks =
    rounds > 0 ? rankByIntervals(r.ratingLo, r.ratingHi) : rankByIntervals(r.ratings, r.ratings);
  const order = r.models.map((_, j) => j).sort((x, y) => r.ratings[y]! - r.ratings[x]!);
  const bound = (v: number) => (Number.isFinite(v) ? v : null);
  if (opts.json) {
    io.out(
      `${JSON.stringify({
        models: order.map((j) => ({
          model: r.models[j],
          rating: r.ratings[j],
          rating_lo: bound(r.ratingLo[j]!),
          rating_hi: bound(r.ratingHi[j]!),
          rank: ranks[j],
          num_battles: counts.get(r.models[j]!) ?? 0,
        })),
        style_coefficients: Object.fromEntries(
          STYLE_FEATURES.map((f, k) => [
            f,
            {
              coefficient: r.coefficients[k],
              lo: bound(r.coefficientLo[k]!),
              hi: bound(r.coefficientHi[k]!),
            },
          ]),
        ),
        battles: battles.length,
        left_out: input.withoutMetadata,
        constant_features: r.constant,
      })}\n`,
    );
    return;
  }
  const locale = io.locale ?? 'en';
  const head = tc(locale, 'cli.ratings.styleHead').split('|');
  const body = order.map((j) => [
    String(ranks[j]),
    r.models[j]!,
    r.ratings[j]!.toFixed(1),
    rounds > 0 ? `${r.ratingLo[j]!.toFixed(1)} – ${r.ratingHi[j]!.toFixed(1)}` : '—',
    String(counts.get(r.models[j]!) ?? 0),
  ]);
  const right = [true, false, true, true, true];
  const notes = styleNotes(locale, r, { rounds, seed }, battles.length, input.withoutMetadata);
  const dups = input.duplicates ?? 0;
  io.out(
    `${tableLines(head, body, right).join('\n')}\n\n${notes.join('\n')}\n` +
      (dups > 0 ? `${tc(locale, 'cli.ratings.duplicates', { n: dups })}\n` : '') +
      (io.inputNote ? `${io.inputNote}\n` : ''),
  );
}
