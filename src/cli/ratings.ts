/**
 * @module cli/ratings
 * `zhujiu ratings --battles FILE [--bootstrap N] [--seed S] [--anchor MODEL=RATING] [--json] [--ability A]`:
 * arena ratings (online Elo, Bradley–Terry MLE, bootstrap intervals, rank, average predicted win rate) from a
 * battle / pair-count JSONL file, or from stored battles. SCORING.md §4; Chiang et al. 2024 "Chatbot Arena",
 * arXiv:2403.04132.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { AppError } from '../core/errors.ts';
import { createRng } from '../core/rng.ts';
import type { ArenaData, ArenaRatings, PairCountInput } from '../rating/index.ts';
import { arenaFromInput, computeArenaRatings, createArenaLineParser } from '../rating/index.ts';

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
}

/** Side effects the command needs. */
export interface RatingsIo {
  /** Writes one chunk of output (a newline is appended by the caller's sink if needed; we pass whole lines). */
  out: (s: string) => void;
  /** Loads stored votes (wired to the database by the composition root). */
  loadStoredBattles?: (ability?: string) => Promise<PairCountInput>;
}

const ANCHOR_HELP = '--anchor must be MODEL=RATING, e.g. mixtral-8x7b-instruct-v0.1=1114';

/**
 * Parses `--anchor MODEL=RATING` (the last `=` splits, so model names may contain `=`).
 * @throws AppError `input_invalid` with the expected form.
 */
export function parseAnchor(s: string): { model: string; rating: number } {
  const at = s.lastIndexOf('=');
  const model = at > 0 ? s.slice(0, at).trim() : '';
  const text = at > 0 ? s.slice(at + 1).trim() : '';
  const rating = text === '' ? Number.NaN : Number(text);
  if (model === '' || !Number.isFinite(rating)) {
    throw new AppError('input_invalid', `${ANCHOR_HELP} (got ${JSON.stringify(s)})`);
  }
  return { model, rating };
}

/** Streams a JSONL file line by line into the pure parser. */
async function readArenaFile(path: string): Promise<ArenaData> {
  const parser = createArenaLineParser(path);
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) parser.push(line);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new AppError(
      'input_invalid',
      `cannot read --battles ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      { cause: err },
    );
  } finally {
    lines.close();
    stream.destroy();
  }
  return parser.finish();
}

function intOption(name: string, v: number | undefined, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < min) {
    throw new AppError('input_invalid', `--${name} must be an integer ≥ ${min}, got ${String(v)}`);
  }
  return v;
}

const fix = (v: number | null, d: number): string => (v === null ? '—' : v.toFixed(d));

/** Renders the readable aligned table (plus the unrated models, if any). */
function renderTable(
  r: ArenaRatings,
  opts: { rounds: number; seed: number; anchor?: string },
): string {
  const head = ['rank', 'model', 'rating', '95% CI', 'elo', 'battles', 'avg win'];
  const body = r.rows.map((row) => [
    String(row.rank),
    row.model,
    row.rating.toFixed(1),
    row.ratingLo === null || row.ratingHi === null
      ? '—'
      : `${row.ratingLo.toFixed(1)} – ${row.ratingHi.toFixed(1)}`,
    fix(row.elo, 1),
    String(row.numBattles),
    `${(row.avgWinRate * 100).toFixed(1)}%`,
  ]);
  const right = [true, false, true, true, true, true, true];
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((s, c) => (right[c] ? s.padStart(widths[c]!) : s.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
  const notes = [
    `Bradley–Terry MLE (Elo scale; ${opts.anchor ? `anchored ${opts.anchor}` : 'mean 1000'}); ` +
      (opts.rounds > 0
        ? `95% CI from ${opts.rounds} bootstrap rounds, seed ${opts.seed}`
        : 'no bootstrap (rank from point ratings)') +
      (r.rows[0]?.elo === null ? '; elo needs ordered battles (—)' : '; elo: online, K=4'),
  ];
  if (r.excluded.length > 0) {
    notes.push(`not rated (no finite maximum-likelihood rating): ${r.excluded.length}`);
    for (const e of r.excluded) {
      notes.push(`  ${e.model}: ${e.reason.replace('_', ' ')} (${e.numBattles} battles)`);
    }
  }
  return `${out.join('\n')}\n\n${notes.join('\n')}\n`;
}

/**
 * Runs the ratings command and writes the result through `io.out`.
 *
 * JSON output (`--json`) is exactly `{"models":[{"model","rating","rating_lo","rating_hi","elo","rank",
 * "num_battles","avg_win_rate"}]}` sorted by rating descending; `rating_lo`/`rating_hi` are null with
 * `--bootstrap 0`, `elo` is null for pair counts (no order). Models without a finite BT rating (disconnected,
 * only wins, only losses) follow the rated ones with `rating`, `rating_lo`, `rating_hi`, `rank` and
 * `avg_win_rate` null; the text table lists them under the table with the reason.
 *
 * @throws AppError `input_invalid` (bad --anchor / --bootstrap / --seed, unreadable file, no data source),
 *   `rating_input_invalid` (bad line, with file:line; anchor model not in the data), `rating_disconnected`.
 */
export async function runRatings(opts: RatingsOptions, io: RatingsIo): Promise<void> {
  const rounds = intOption('bootstrap', opts.bootstrap, 1000, 0);
  const seed = intOption('seed', opts.seed, 0, Number.MIN_SAFE_INTEGER);
  const anchor = opts.anchor === undefined ? undefined : parseAnchor(opts.anchor);
  let data: ArenaData;
  let clusters: PairCountInput['clusters'];
  if (opts.battles !== undefined) {
    data = await readArenaFile(opts.battles);
  } else {
    if (!io.loadStoredBattles) {
      throw new AppError(
        'input_invalid',
        'no battles to rate: pass --battles FILE (JSONL of battles or pair counts), or run where the database is configured',
      );
    }
    const input = await io.loadStoredBattles(opts.ability);
    data = arenaFromInput(input);
    clusters = input.clusters;
  }
  if (anchor && !data.models.includes(anchor.model)) {
    throw new AppError(
      'rating_input_invalid',
      `--anchor model "${anchor.model}" is not in the data (${data.models.length} models); check the name or drop --anchor`,
    );
  }
  const result = computeArenaRatings(data, createRng(seed), {
    bootstrapRounds: rounds,
    ...(anchor ? { anchor } : {}),
    ...(clusters ? { clusters } : {}),
  });
  if (opts.json) {
    const models = [
      ...result.rows.map((r) => ({
        model: r.model,
        rating: r.rating,
        rating_lo: r.ratingLo,
        rating_hi: r.ratingHi,
        elo: r.elo,
        rank: r.rank,
        num_battles: r.numBattles,
        avg_win_rate: r.avgWinRate,
      })),
      ...result.excluded.map((e) => ({
        model: e.model,
        rating: null,
        rating_lo: null,
        rating_hi: null,
        elo: e.elo,
        rank: null,
        num_battles: e.numBattles,
        avg_win_rate: null,
      })),
    ];
    io.out(`${JSON.stringify({ models })}\n`);
    return;
  }
  io.out(
    renderTable(result, {
      rounds,
      seed,
      ...(anchor ? { anchor: `${anchor.model}=${anchor.rating}` } : {}),
    }),
  );
}
