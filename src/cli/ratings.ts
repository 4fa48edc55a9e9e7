/**
 * @module cli/ratings
 * `zhujiu ratings --battles FILE [--bootstrap N] [--seed S] [--anchor MODEL=RATING] [--json] [--ability A]`:
 * arena ratings (online Elo, Bradley–Terry MLE, bootstrap intervals, rank, average predicted win rate) from a
 * battle / pair-count JSONL file, or from stored battles. docs/scoring.md §4; Chiang et al. 2024 "Chatbot Arena",
 * arXiv:2403.04132.
 */

import { AppError, type Said } from '../core/errors.ts';
import { createRng } from '../core/rng.ts';
import { readUtf8Lines } from '../core/utf8.ts';
import { type CliMessageKey, listText, said, saidError, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { shown } from '../i18n/quote.ts';
import { createArenaLineParser } from '../import/formats/arena-battles.ts';
import type { StyleLines } from '../import/formats/arena-style.ts';
import { notJsonSaid } from '../import/formats/sniff.ts';
import type { ArenaComponent, ArenaData, ArenaRatings, PairCountInput } from '../rating/index.ts';
import { arenaFromInput, computeArenaRatings } from '../rating/index.ts';
import { tableLines } from './io.ts';
import { closestList, meantText } from './name-list.ts';

/** Options as given on the command line. */
export interface RatingsOptions {
  /** JSONL file of battles or pair counts; without it the stored battles are loaded. */
  battles?: string;
  /** Bootstrap rounds (default 1000; 0 = no intervals). */
  bootstrap?: number;
  /** Bootstrap seed (default 0). */
  seed?: number;
  /** "MODEL=RATING", e.g. "mixtral-8x7b-instruct-v0.1=1114". */
  anchor?: string;
  /** Print JSON instead of a table. */
  json?: boolean;
  /** Restrict stored battles to one ability (passed to the loader). */
  ability?: string;
  /**
   * Also rate battles marked `"anony": false` (the voter saw the models' names), in a file or stored; by default
   * they are left out, as FastChat's `elo_analysis` does (docs/scoring.md §4.3).
   */
  includeNamed?: boolean;
  /** Also flagged stored votes (docs/scoring.md §4.3; a file's battles carry no flags). */
  includeFlagged?: boolean;
  /** Imported sources whose stored votes also count (`--source`, repeatable; stored votes only). */
  source?: string[];
  /**
   * The config's `ratings.anchor` ("MODEL=RATING"), used when `anchor` is not given and only when that model is
   * in the data (like /leaderboard); `--anchor` naming an absent model is an error.
   */
  configAnchor?: string;
  /** FastChat's style-controlled ratings (cli/ratings-style.ts, docs/scoring.md §4.6). */
  styleControl?: boolean;
}

/** Side effects the command needs. */
export interface RatingsIo {
  /** Writes one chunk of output (a newline is appended by the caller's sink if needed; we pass whole lines). */
  out: (s: string) => void;
  /** Loads stored votes (wired to the database by the composition root). */
  loadStoredBattles?: (ability?: string) => Promise<PairCountInput>;
  /** One line under the table saying whose votes were rated (stored votes: the sources counted). */
  inputNote?: string;
  /** Loads the stored battles whose answers are stored, with style metadata (for `--style-control`). */
  loadStyleBattles?: (ability?: string) => Promise<StyleLines>;
  /** The language of its errors (cli/deps.ts `cliLocale`; default English). */
  locale?: Locale;
  /** Whether the configuration or the stored models know a model name (for the `--anchor` refusal); default no. */
  knowsModel?: (name: string) => Promise<boolean>;
}

/**
 * Parses `--anchor MODEL=RATING` (the last `=` splits, so model names may contain `=`).
 * @throws AppError `input_invalid` with the expected form.
 */
export function parseAnchor(s: string, locale: Locale = 'en'): { model: string; rating: number } {
  const at = s.lastIndexOf('=');
  const model = at > 0 ? s.slice(0, at).trim() : '';
  const text = at > 0 ? s.slice(at + 1).trim() : '';
  // Plain decimal only: Number() would also read "0x10", "1e3" and "Infinity".
  const rating = /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (model === '' || !Number.isFinite(rating)) {
    throw new AppError('input_invalid', tc(locale, 'cli.ratings.anchorForm', { got: shown(s) }));
  }
  return { model, rating };
}

/** What `ratings --battles` takes (catalogue data), for the refusal of a file that is no JSON. */
function ratingsFormat(): Said {
  return said('cli.files.ratingsFormat', {
    battles: '{"model_a","model_b","winner"}',
    pairs: '{"model_a","model_b","model_a_wins","model_b_wins","tie","tie_bothbad"}',
  });
}

/** The notes on the battle lines of a `--battles` file left out (named, duplicate votes), or undefined. */
function leftOutNotes(
  read: { named: number; duplicates: number },
  locale: Locale,
): string | undefined {
  const notes = [
    ...(read.named > 0 ? [tc(locale, 'cli.ratings.named', { n: read.named })] : []),
    ...(read.duplicates > 0 ? [tc(locale, 'cli.ratings.duplicates', { n: read.duplicates })] : []),
  ];
  return notes.length > 0 ? notes.join('\n') : undefined;
}

/** Streams a JSONL file line by line into the pure parser. */
async function readArenaFile(
  path: string,
  includeNamed: boolean,
): Promise<{ data: ArenaData; named: number; duplicates: number }> {
  const parser = createArenaLineParser(path, { includeNamed });
  // A first line that is no JSON: with the next one, tells a CSV table from other text (as `import battles` does).
  const head: string[] = [];
  try {
    for await (const line of readUtf8Lines(path, { code: 'import_invalid', name: path })) {
      if (line.trim() !== '' && head.length > 0) {
        head.push(line);
        break;
      }
      if (head.length > 0) continue;
      if (line.trim() !== '' && !/^\s*[{[]/u.test(line.replace(/^\uFEFF/u, ''))) head.push(line);
      else parser.push(line);
    }
  } catch (err) {
    // A file that cannot be read, is not UTF-8 or is binary: an input error (exit 1), like a bad line.
    if (err instanceof AppError && err.code === 'import_invalid') throw battlesFileError(err);
    throw err;
  }
  const notJson = head.length > 0 ? notJsonSaid(head.join('\n'), path, ratingsFormat()) : undefined;
  if (notJson) throw saidError('rating_input_invalid', notJson);
  return { data: parser.finish(), named: parser.named, duplicates: parser.duplicates };
}

/**
 * The refusal of a `--battles` file that cannot be read or is not UTF-8 text, as `rating_input_invalid` (exit 1),
 * keeping the reader's message and its catalogue data (a file that cannot be read is named by the flag).
 */
function battlesFileError(err: AppError): AppError {
  const unreadable = /: cannot read \(/.test(err.message);
  const message = unreadable ? `--battles ${err.message}` : err.message;
  const saidAs =
    err.said === undefined
      ? undefined
      : unreadable
        ? said('cli.file.ofFlag', { flag: '--battles', error: err.said })
        : err.said;
  return new AppError('rating_input_invalid', message, {
    cause: err,
    ...(saidAs ? { said: saidAs } : {}),
  });
}

/** Most bootstrap rounds `--bootstrap` accepts (the samples take rounds × models × 8 bytes). */
export const MAX_BOOTSTRAP_ROUNDS = 100_000;

function intOption(
  name: string,
  v: number | undefined,
  dflt: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  locale: Locale = 'en',
): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    const params = { name, min, max, got: String(v) };
    throw new AppError(
      'input_invalid',
      max === Number.MAX_SAFE_INTEGER
        ? tc(locale, 'cli.ratings.intMin', params)
        : tc(locale, 'cli.ratings.intRange', params),
    );
  }
  return v;
}

/** An interval bound for the table: one decimal, or ∞ / −∞ when unbounded. */
function boundText(v: number): string {
  if (v === Number.POSITIVE_INFINITY) return '∞';
  if (v === Number.NEGATIVE_INFINITY) return '−∞';
  if (Number.isNaN(v)) return '?';
  return v.toFixed(1);
}

/** The `note` a JSON row carries when its rating or a bound is null (see {@link runRatings}). */
function jsonNote(lo: number | null, hi: number | null): string | undefined {
  const parts: string[] = [];
  const undefinedBound =
    'undefined: no bootstrap round gave the model a rating (every resample left it out of the rated group); ' +
    'collect more votes between it and the other models';
  if (lo !== null && !Number.isFinite(lo)) {
    parts.push(
      Number.isNaN(lo)
        ? `rating_lo ${undefinedBound}`
        : 'rating_lo unbounded (−∞): in more than 2.5 % of the bootstrap rounds the model had only losses, ' +
            'so the votes give no finite lower bound; collect more votes for it',
    );
  }
  if (hi !== null && !Number.isFinite(hi)) {
    parts.push(
      Number.isNaN(hi)
        ? `rating_hi ${undefinedBound}`
        : 'rating_hi unbounded (∞): in more than 2.5 % of the bootstrap rounds the model had only wins, ' +
            'so the votes give no finite upper bound; collect more votes for it',
    );
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Why a zero-width bootstrap interval is not shown (table note; JSON `note` of the row, in English). */
function noSpread(locale: Locale): string {
  return tc(locale, 'cli.ratings.noSpread');
}

/** The catalogue's name of each exclusion reason: `cli.ratings.excl.<name>` (why) and `cli.ratings.exclName.<name>`. */
const EXCLUSION_NAMES: Readonly<Record<string, string>> = {
  disconnected: 'disconnected',
  unbounded_above: 'above',
  unbounded_below: 'below',
  unbounded: 'unbounded',
};

/** Why a model has no finite BT rating (`reason`: disconnected, unbounded…), for the JSON `note` and the table. */
function exclusionNote(reason: string, locale: Locale): string {
  const name = EXCLUSION_NAMES[reason] ?? 'other';
  return tc(locale, `cli.ratings.excl.${name}` as CliMessageKey);
}

/** The short name of an exclusion reason in `locale` (`unbounded above` in English; the code itself when unknown). */
function exclusionName(reason: string, locale: Locale): string {
  const name = EXCLUSION_NAMES[reason];
  return name === undefined
    ? reason.replace('_', ' ')
    : tc(locale, `cli.ratings.exclName.${name}` as CliMessageKey);
}

/** The sentence said about a separate component (JSON `note` in English, the table's heading). */
function componentNote(c: ArenaComponent, locale: Locale = 'en'): string {
  return tc(locale, 'cli.ratings.component', {
    component: c.component,
    members: listText(locale, c.members),
  });
}

const fix = (v: number | null, d: number): string => (v === null ? '—' : v.toFixed(d));

/** One component's aligned table. */
function componentTable(rows: ArenaRatings['rows'], locale: Locale): string[] {
  // The count of a model's votes (one per battle row of a file): "votes", as on the board (JSON: num_battles,
  // Chatbot Arena's name for the same count).
  const head = tc(locale, 'cli.ratings.head').split('|');
  const body = rows.map((row) => [
    String(row.rank),
    row.model,
    row.rating.toFixed(1),
    row.ratingLo === null || row.ratingHi === null
      ? '—'
      : row.noSpread
        ? tc(locale, 'cli.ratings.tooFew')
        : `${boundText(row.ratingLo)} – ${boundText(row.ratingHi)}`,
    fix(row.elo, 1),
    String(row.numBattles),
    `${(row.avgWinRate * 100).toFixed(1)}%`,
  ]);
  const right = [true, false, true, true, true, true, true];
  return tableLines(head, body, right);
}

/** The first note under the table: how the ratings were computed (scale, anchor, bootstrap, elo). */
function methodNote(
  r: ArenaRatings,
  opts: { rounds: number; seed: number; anchor?: string },
  locale: Locale,
): string {
  return tc(locale, 'cli.ratings.method', {
    scale: opts.anchor
      ? tc(locale, 'cli.ratings.anchored', { anchor: opts.anchor })
      : tc(locale, 'cli.ratings.mean'),
    within: r.components.length > 1 ? tc(locale, 'cli.ratings.within') : '',
    bootstrap:
      opts.rounds > 0
        ? tc(locale, 'cli.ratings.ci', { rounds: opts.rounds, seed: opts.seed })
        : tc(locale, 'cli.ratings.noBootstrap'),
    elo: tc(
      locale,
      (r.rows[0] ?? r.excluded[0])?.elo === null ? 'cli.ratings.eloNone' : 'cli.ratings.elo',
    ),
  });
}

/**
 * Renders the readable aligned table (plus the unrated models, if any). Separate comparison components each get
 * their own table under a heading that says they are not comparable with component 1.
 */
function renderTable(
  r: ArenaRatings,
  opts: { rounds: number; seed: number; anchor?: string },
  locale: Locale,
): string {
  // Nothing rateable yet (no votes, or e.g. one vote between two models): a listing, not an error.
  const out =
    r.rows.length === 0
      ? [tc(locale, 'cli.ratings.none')]
      : componentTable(
          r.rows.filter((x) => x.component === 1),
          locale,
        );
  for (const c of r.components.slice(1)) {
    out.push('', tc(locale, 'cli.ratings.separate', { note: componentNote(c, locale) }));
    out.push(
      ...componentTable(
        r.rows.filter((x) => x.component === c.component),
        locale,
      ),
    );
  }
  const notes = [methodNote(r, opts, locale)];
  if (r.components.length > 1)
    notes.push(tc(locale, 'cli.ratings.components', { n: r.components.length }));
  if (
    r.rows.some(
      (x) => x.ratingLo === Number.NEGATIVE_INFINITY || x.ratingHi === Number.POSITIVE_INFINITY,
    )
  ) {
    notes.push(tc(locale, 'cli.ratings.infinite'));
  }
  if (r.rows.some((x) => x.noSpread)) {
    notes.push(
      `${tc(locale, 'cli.ratings.tooFew')}${tc(locale, 'cli.ratings.colon')}${noSpread(locale)}`,
    );
  }
  if (r.rows.some((x) => Number.isNaN(x.ratingLo ?? 0) || Number.isNaN(x.ratingHi ?? 0))) {
    notes.push(tc(locale, 'cli.ratings.undefinedBound'));
  }
  if (r.excluded.length > 0) {
    notes.push(tc(locale, 'cli.ratings.notRated', { n: r.excluded.length }));
    for (const e of r.excluded) {
      const where =
        e.component !== null && r.components.length > 1
          ? tc(locale, 'cli.ratings.inComponent', { component: e.component })
          : '';
      notes.push(
        tc(locale, 'cli.ratings.excluded', {
          model: e.model,
          reason: exclusionName(e.reason, locale),
          n: e.numBattles,
          where,
          why: exclusionNote(e.reason, locale).replace(
            tc(locale, 'cli.ratings.notRatedPrefix'),
            '',
          ),
        }),
      );
    }
  }
  return `${out.join('\n')}\n\n${notes.join('\n')}\n`;
}

/** `--bootstrap` (default 1000, at most {@link MAX_BOOTSTRAP_ROUNDS}) and `--seed` (default 0), checked. */
function roundsAndSeed(opts: RatingsOptions, locale: Locale): { rounds: number; seed: number } {
  const max = Number.MAX_SAFE_INTEGER;
  return {
    rounds: intOption('bootstrap', opts.bootstrap, 1000, 0, MAX_BOOTSTRAP_ROUNDS, locale),
    seed: intOption('seed', opts.seed, 0, Number.MIN_SAFE_INTEGER, max, locale),
  };
}

/**
 * The refusal of an `--anchor` model without votes in the rated data: a name that neither the rated votes, the
 * configuration nor the stored models know is a usage mistake (`input_invalid`, exit 2: README "Command line"),
 * listing the rated models closest first (at most 10) with a "did you mean"; a known model without votes here is
 * `rating_input_invalid` (exit 1).
 */
async function anchorRefusal(
  model: string,
  rated: readonly string[],
  io: RatingsIo,
): Promise<AppError> {
  const locale = io.locale ?? 'en';
  if ((await io.knowsModel?.(model)) === true)
    return new AppError(
      'rating_input_invalid',
      tc(locale, 'cli.ratings.anchorMissing', { model, n: rated.length }),
    );
  return new AppError(
    'input_invalid',
    tc(locale, 'cli.ratings.anchorUnknown', {
      model,
      list: closestList(locale, model, rated),
      meant: meantText(locale, model, rated),
    }),
  );
}

/**
 * Runs the ratings command and writes the result through `io.out`.
 *
 * JSON output (`--json`) is `{"models":[{"model","rating","rating_lo","rating_hi","elo","rank",
 * "num_battles","avg_win_rate"}]}` sorted by rating descending; `rating_lo`/`rating_hi` are null with
 * `--bootstrap 0`, `elo` is null for pair counts (no order). Models without a finite BT rating (disconnected,
 * only wins, only losses) follow the rated ones with `rating`, `rating_lo`, `rating_hi`, `rank` and
 * `avg_win_rate` null; the text table lists them under the table with the reason.
 *
 * Unbounded intervals: when at least 2.5 % of the bootstrap rounds left a model with only wins (only losses)
 * against the others, its upper (lower) bound is infinite: too few votes for a finite bound. The table shows
 * `∞` / `−∞` with a note under it; JSON cannot hold infinities, so that bound is null there.
 * Rows with a null `rating` or a null bound *for one of these reasons* (not for `--bootstrap 0`) carry one extra
 * key, `"note"`, a sentence saying why and what to do.
 *
 * Separate comparison components (groups of models that no chain of battles links, `ArenaComponent`): each is
 * rated on its own scale. When there are several, every row also carries `"component"` (1 = the main one; null
 * for a model without votes), rows of components 2, 3… carry a `"note"` saying they must not be compared with
 * component 1, and the object gains `"components":[{"component","models","num_votes","note"?}]`. With one
 * component the output is exactly `{"models":[…]}` as above.
 *
 * @throws AppError `input_invalid` (bad --anchor / --seed, --bootstrap not an integer from 0 to
 *   {@link MAX_BOOTSTRAP_ROUNDS}, unreadable file, no data source),
 *   `rating_input_invalid` (bad line, with file:line; a known anchor model not in the data; an unknown one is
 *   `input_invalid`), `rating_disconnected`
 *   (the anchor model has no finite rating). Data where no two models can be rated is not an error: every model
 *   is listed as not rated, with its reason (JSON: `rating` null and a `note`).
 */
export async function runRatings(opts: RatingsOptions, io: RatingsIo): Promise<void> {
  const locale = io.locale ?? 'en';
  const { rounds, seed } = roundsAndSeed(opts, locale);
  if (opts.styleControl) {
    const { runStyleRatings } = await import('./ratings-style.ts');
    return runStyleRatings(opts, io, rounds, seed);
  }
  let anchor = opts.anchor === undefined ? undefined : parseAnchor(opts.anchor, locale);
  const configAnchor =
    anchor === undefined && opts.configAnchor !== undefined
      ? parseAnchor(opts.configAnchor, locale)
      : undefined;
  let data: ArenaData;
  let fileNotes: string | undefined;
  let clusters: PairCountInput['clusters'];
  if (opts.battles !== undefined) {
    const read = await readArenaFile(opts.battles, opts.includeNamed === true);
    data = read.data;
    fileNotes = leftOutNotes(read, locale);
  } else {
    if (!io.loadStoredBattles) {
      throw new AppError('input_invalid', tc(locale, 'cli.ratings.noBattles'));
    }
    const input = await io.loadStoredBattles(opts.ability);
    data = arenaFromInput(input);
    clusters = input.clusters;
  }
  if (configAnchor && data.models.includes(configAnchor.model)) anchor = configAnchor;
  if (anchor && !data.models.includes(anchor.model))
    throw await anchorRefusal(anchor.model, data.models, io);
  const result = computeArenaRatings(data, createRng(seed), {
    bootstrapRounds: rounds,
    ...(anchor ? { anchor } : {}),
    ...(clusters ? { clusters } : {}),
  });
  if (opts.json) {
    const several = result.components.length > 1;
    const models = [
      ...result.rows.map((r) => {
        const note = r.noSpread
          ? `rating_lo and rating_hi not shown: ${noSpread('en')}`
          : jsonNote(r.ratingLo, r.ratingHi);
        const comp = r.component > 1 ? result.components[r.component - 1] : undefined;
        const allNotes = [...(comp ? [componentNote(comp)] : []), ...(note ? [note] : [])];
        const finite = (v: number | null): number | null =>
          v === null || !Number.isFinite(v) ? null : v;
        return {
          model: r.model,
          rating: r.rating,
          rating_lo: r.noSpread ? null : finite(r.ratingLo),
          rating_hi: r.noSpread ? null : finite(r.ratingHi),
          elo: r.elo,
          rank: r.rank,
          num_battles: r.numBattles,
          avg_win_rate: r.avgWinRate,
          ...(several ? { component: r.component } : {}),
          ...(allNotes.length > 0 ? { note: allNotes.join('; ') } : {}),
        };
      }),
      ...result.excluded.map((e) => ({
        model: e.model,
        rating: null,
        rating_lo: null,
        rating_hi: null,
        elo: e.elo,
        rank: null,
        num_battles: e.numBattles,
        avg_win_rate: null,
        ...(several ? { component: e.component } : {}),
        note: exclusionNote(e.reason, 'en'),
      })),
    ];
    const components = result.components.map((c) => ({
      component: c.component,
      models: c.members,
      num_votes: c.numVotes,
      ...(c.component > 1 ? { note: componentNote(c) } : {}),
    }));
    io.out(`${JSON.stringify(several ? { models, components } : { models })}\n`);
    return;
  }
  io.out(
    renderTable(
      result,
      { rounds, seed, ...(anchor ? { anchor: `${anchor.model}=${anchor.rating}` } : {}) },
      locale,
    ) +
      (io.inputNote ? `${io.inputNote}\n` : '') +
      (fileNotes ? `${fileNotes}\n` : ''),
  );
}
