/**
 * @module cli/leaderboard
 * `zhujiu leaderboard [--view overall|ability|method|model] [name] [--source NAME]… [--json] [--png FILE]`: the
 * board from the stored scores and votes (the community's `arena` votes, plus the imported sources named with
 * `--source`). Rebuilds the stored snapshot when its inputs changed (docs/scoring.md §4–5), then prints a table
 * (with the snapshot's age), or the view's JSON with `--json` (the board `{"models":[…]}`, a model card, one
 * ability or one method: README "The board"); `--png FILE` also writes the chart (always the whole board).
 * `--judge NAME` builds the Scoring method from that judge's grades instead of `judge.model`'s, without storing it.
 */
import { resolve } from 'node:path';
import { parseLeaderboardArgs } from '../bot/commands/leaderboard.ts';
import { renderPlain } from '../chat/shell/render.ts';
import { systemClock } from '../core/clock.ts';
import { AppError } from '../core/errors.ts';
import { checkOutputPath, writeFileAtomic } from '../core/out-file.ts';
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { boardTitle, oneShotBoardService, type Snapshot } from '../leaderboard/service.ts';
import {
  abilityContent,
  abilityJson,
  boardJson,
  chartNotes,
  chartRows,
  methodContent,
  methodJson,
  modelCardJson,
  modelContent,
  overallContent,
} from '../leaderboard/views.ts';
import type { Runtime } from '../main.ts';
import { findModel } from '../storage/models.ts';
import { ratedSources } from '../storage/sources.ts';
import { byCloseness, didYouMean } from '../text/edit-distance.ts';
import { type CliDeps, cliLocale, dbText, openCommandRuntime } from './deps.ts';
import type { CliIo } from './io.ts';
import { requireKnownName } from './known-names.ts';
import { checkOutputFormat } from './out-format.ts';
import { requireRequestedSources, votesElsewhereNote } from './sources.ts';

/** The file name `--png` is given in a folder named instead of a file. */
const BOARD_PNG = 'board.png';

/** Flags of `zhujiu leaderboard`. */
export interface LeaderboardFlags {
  readonly view?: string;
  readonly source?: readonly string[];
  readonly json?: boolean;
  readonly png?: string;
  /** The judge of the Scoring method for this view only (not stored); default config `judge.model`. */
  readonly judge?: string;
  /** Also the rows with no score in any method (left out by default). */
  readonly all?: boolean;
  /** Also imported votes cast with the models' names shown (a trial view, not stored). */
  readonly includeNamed?: boolean;
  /** Also flagged votes (daily cap, too fast; a trial view, not stored). */
  readonly includeFlagged?: boolean;
}

/** "chart written to PATH", and when another view was asked for, that the chart is always the whole board. */
function chartWritten(locale: Locale, path: string, view: string): string {
  return tc(locale, view === 'overall' ? 'cli.leaderboard.chart' : 'cli.leaderboard.chartWhole', {
    path: resolve(path),
  });
}

/**
 * Writes the whole board's chart (PNG) to `path`, titled with the snapshot's date, its words in `locale` (config
 * `locale`).
 */
async function writeBoardPng(
  path: string,
  snap: Snapshot,
  all: boolean | undefined,
  locale: Locale,
): Promise<void> {
  // Loaded only for `--png`: vega, resvg and the font cost more to load than the board itself.
  const { renderBoardPng } = await import('../leaderboard/chart.ts');
  const title = `${boardTitle(locale)} ${snap.createdAt.toISOString().slice(0, 10)}`;
  const png = await renderBoardPng(chartRows(snap.board, all, locale), {
    title,
    notes: chartNotes(snap.board, locale),
    locale,
  });
  await writeFileAtomic({ flag: '--png', path: resolve(path), fileName: BOARD_PNG }, png);
}

/**
 * The board to show: the stored one, or a trial view (not stored) for another judge or one that also counts
 * named or flagged votes (docs/scoring.md §4.3).
 */
function boardOf(
  svc: ReturnType<typeof oneShotBoardService>,
  o: LeaderboardFlags,
  otherJudge: boolean,
): ReturnType<ReturnType<typeof oneShotBoardService>['refresh']> {
  const votes = {
    includeNamed: o.includeNamed === true,
    includeFlagged: o.includeFlagged === true,
  };
  return otherJudge || votes.includeNamed || votes.includeFlagged
    ? svc.withJudge(o.judge, o.source ?? [], votes)
    : svc.refresh(o.source ?? []);
}

/**
 * The refusal of a model view whose model is not on the board: a name neither config/models.yaml nor the stored
 * models know is a usage mistake (`input_invalid`, exit 2: README "Command line"), with the board's models closest
 * first and a "did you mean"; a known model missing from the board (no scores, or only in a source not counted)
 * is `not_found` (exit 1).
 */
async function modelNotOnBoard(
  rt: Runtime,
  snap: Snapshot,
  name: string,
  o: LeaderboardFlags,
  locale: Locale,
): Promise<AppError> {
  const known =
    rt.config.models.some((m) => m.name === name) ||
    (await findModel(rt.db.db, name)) !== undefined;
  const sources = (o.source ?? []).map((s) => ` --source ${s}`).join('');
  const rows = snap.board.rows.map((r) => r.model);
  const names = known ? rows : byCloseness(name, rows);
  const meant = known ? undefined : didYouMean(name, rows);
  return new AppError(
    known ? 'not_found' : 'input_invalid',
    tc(locale, 'cli.leaderboard.noModel', {
      model: name,
      names: listText(locale, names) || tc(locale, 'cli.eval.none'),
      sources,
    }) +
      (sources ? '' : tc(locale, 'cli.leaderboard.noModel.sources')) +
      // A bare NAME (no --view) is read as a model name when it is no ability or method: say what --view takes.
      (o.view !== 'model' ? tc(locale, 'cli.leaderboard.noModel.view') : '') +
      (meant === undefined ? '' : tc(locale, 'cli.known.meant', { name: meant })),
  );
}

/**
 * Runs `zhujiu leaderboard`.
 * @throws AppError `input_invalid` for an unknown view, ability, method or model (one neither the config nor the
 *   stored data know); `not_found` for a known model not on the board; `db_unavailable`; `file_unwritable` when the PNG file cannot be written (checked first); `not_found` for `--png` on an empty board.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runLeaderboard(
  io: CliIo,
  name: string | undefined,
  o: LeaderboardFlags,
  deps: CliDeps,
): Promise<void> {
  const locale = cliLocale(deps);
  const req = parseLeaderboardArgs(o.view, name, 'cli', locale);
  if (!req.ok) throw new AppError('input_invalid', req.reason);
  if (req.view === 'style')
    throw new AppError('input_invalid', tc(locale, 'cli.leaderboard.style'));
  // A name of another format, or a path that cannot be written, is refused before the board is built.
  if (o.png) {
    checkOutputFormat({ flag: '--png', path: o.png, format: 'png', by: '--png' }, locale);
    await checkOutputPath({ flag: '--png', path: o.png, fileName: BOARD_PNG });
  }
  const clock = deps.clock ?? systemClock;
  const rt = deps.rt ?? (await openCommandRuntime(deps, {}));
  // The stored snapshot gets no chart here (rendering it costs more than the rest of a one-shot board); a bot
  // renders a missing one when it next refreshes (leaderboard/service.ts). `--png` renders the file's own.
  const svc = oneShotBoardService(rt.db.db, rt.logger, rt.config.app, {
    clock,
    inlineChart: false,
  });
  try {
    await requireRequestedSources(rt.db.db, dbText(rt.db.target, locale), o.source ?? [], locale);
    // Another judge's board is a trial view: built, shown and not stored (the community's board stays as it is).
    const otherJudge = o.judge !== undefined && o.judge !== rt.config.app.judge.model;
    const snap = await boardOf(svc, o, otherJudge);
    if (otherJudge && !(snap.inputs.judges ?? []).includes(o.judge as string)) {
      await requireKnownName(rt, 'judge', '--judge', o.judge as string, locale);
      const known = listText(locale, snap.inputs.judges ?? []);
      throw new AppError(
        'not_found',
        tc(locale, 'cli.leaderboard.noJudge', {
          judge: o.judge as string,
          known: known || tc(locale, 'cli.eval.none'),
        }),
      );
    }
    if (req.view === 'model' && !snap.board.rows.some((r) => r.model === req.name))
      throw await modelNotOnBoard(rt, snap, req.name, o, locale);
    if (snap.board.rows.length === 0) {
      // An empty board while imported votes are stored: say where they are and how to see them (stderr).
      const counted = ratedSources(rt.config.app.ratings.include_sources, o.source ?? []);
      const note = await votesElsewhereNote(rt.db.db, counted, 'leaderboard', locale);
      if (note) io.err(note);
    }
    if (o.png && snap.board.rows.length === 0) {
      throw new AppError('not_found', tc(locale, 'cli.leaderboard.emptyPng', { png: o.png }));
    }
    if (o.png) await writeBoardPng(o.png, snap, o.all, rt.config.app.locale);
    if (o.json) {
      // Each view has its own JSON (README "The board"): the model card, one ability, one method, or the board.
      const json =
        req.view === 'model'
          ? modelCardJson(snap.board, req.name)
          : req.view === 'ability'
            ? abilityJson(snap.board, req.name)
            : req.view === 'method'
              ? methodJson(snap.board, req.name)
              : boardJson(snap.board);
      io.out(JSON.stringify(json));
      // stdout stays pure JSON; the chart's path goes to stderr.
      if (o.png) io.err(chartWritten(locale, o.png, req.view));
      return;
    }
    const vo = {
      now: clock.now(),
      surface: 'cli' as const,
      locale,
      ...(o.all ? { all: true } : {}),
    };
    const content =
      req.view === 'overall'
        ? overallContent(snap, vo)
        : req.view === 'ability'
          ? abilityContent(snap, req.name, vo)
          : req.view === 'method'
            ? methodContent(snap, req.name, vo)
            : modelContent(snap, req.name, vo);
    io.out(renderPlain(content));
    if (o.png) io.out(chartWritten(locale, o.png, req.view));
  } finally {
    await svc.close();
    if (!deps.rt) await rt.close();
  }
}
