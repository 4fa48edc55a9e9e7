/**
 * @module cli/ratings-stored
 * `zhujiu ratings` without `--battles`: rates the votes stored in the database (the computation lives in
 * cli/ratings.ts and rating/). Kept apart from cli/ratings.ts so that `ratings --battles FILE` never loads the
 * database drivers.
 *
 * Whose votes: the community's own (`arena`), the imported sources listed in `ratings.include_sources`, and those
 * named with `--source` (storage/sources.ts); named votes and flagged votes (docs/scoring.md §4.3) only with
 * `--include-named` / `--include-flagged`. Bootstrap rounds, seed and anchor default to the config's
 * `ratings.bootstrap`, `ratings.seed` and `ratings.anchor`; the flags override them.
 */

import { filesOf } from '../config/files.ts';
import { AppError } from '../core/errors.ts';
import { listText, tc } from '../i18n/cli.ts';
import { displayName } from '../i18n/display-names.ts';
import type { Locale } from '../i18n/index.ts';
import { loadStyleBattles } from '../leaderboard/style.ts';
import { battleVoteTypes } from '../storage/arena-queries.ts';
import { ARENA_SOURCE, ratedSources, type SourceSummary } from '../storage/sources.ts';
import type { VoteFilter } from '../storage/vote-flags.ts';
import { pairVoteCounts } from '../storage/votes.ts';
import { type CliDeps, cliLocale, dbText, withRuntime } from './deps.ts';
import type { CliIo } from './io.ts';
import { knownModelNames } from './known-names.ts';
import { type RatingsOptions, runRatings } from './ratings.ts';
import { checkRequestedSources, storedSourcesText } from './sources.ts';

/** Named and flagged votes are left out unless asked (docs/scoring.md §4.3). */
function voteFilterOf(o: RatingsOptions): VoteFilter {
  return { includeNamed: o.includeNamed === true, includeFlagged: o.includeFlagged === true };
}

/** "Votes: the community's own (arena) plus imported …; not counted: …": which sources the ratings count. */
function votesNote(
  locale: Locale,
  stored: readonly SourceSummary[],
  sources: readonly string[],
): string {
  const imported = sources.filter((s) => s !== ARENA_SOURCE);
  const left = stored.filter((s) => !sources.includes(s.source));
  return tc(locale, 'cli.ratings.votesNote', {
    imported:
      imported.length > 0
        ? tc(locale, 'cli.ratings.plusImported', { list: listText(locale, imported) })
        : '',
    notCounted:
      left.length > 0
        ? tc(locale, 'cli.ratings.notCounted', { list: storedSourcesText(left, locale) })
        : tc(locale, 'cli.ratings.fullStop'),
  });
}

/**
 * Runs `zhujiu ratings` on the stored votes (all, or one ability) of the counted sources; style control
 * (docs/scoring.md §4.6) on every counted live vote whose battle has both answers stored.
 * @throws AppError `input_invalid` for a `--source` with no stored battles (listing the stored ones),
 *   `rating_input_invalid` when the counted sources hold no votes (saying which sources do), `db_unavailable`.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runStoredRatings(io: CliIo, o: RatingsOptions, deps: CliDeps): Promise<void> {
  await withRuntime(deps, {}, async (rt) => {
    const cfg = rt.config.app.ratings;
    const locale = cliLocale(deps);
    const db = dbText(rt.db.target, locale);
    const stored = await checkRequestedSources(rt.db.db, db, o.source ?? [], locale);
    const sources = ratedSources(cfg.include_sources, o.source ?? []);
    const include = voteFilterOf(o);
    const inputNote = votesNote(locale, stored, sources);
    const noVotes = (ability: string | undefined) => ({
      sources: listText(locale, sources),
      db,
      ability: ability
        ? tc(locale, 'cli.ratings.forAbility', { ability: displayName('ability', ability, locale) })
        : '',
    });
    await runRatings(
      {
        ...o,
        bootstrap: o.bootstrap ?? cfg.bootstrap,
        seed: o.seed ?? cfg.seed,
        ...(cfg.anchor ? { configAnchor: `${cfg.anchor.model}=${cfg.anchor.rating}` } : {}),
      },
      {
        out: io.out,
        locale,
        inputNote,
        knowsModel: async (name) => (await knownModelNames(rt)).includes(name),
        // Style control (docs/scoring.md §4.6): every counted live vote whose battle has both answers stored.
        loadStyleBattles: async (ability?: string) => {
          const r = await loadStyleBattles(rt.db.db, sources, ability, include);
          if (r.battles.length === 0) {
            throw new AppError(
              'rating_input_invalid',
              tc(locale, 'cli.ratings.noStyleVotes', noVotes(ability)),
            );
          }
          return r;
        },
        loadStoredBattles: async (ability?: string) => {
          const rows = await pairVoteCounts(rt.db.db, ability, sources, include);
          if (rows.length === 0) {
            const others = stored.filter((s) => !sources.includes(s.source) && s.votes > 0);
            throw new AppError(
              'rating_input_invalid',
              tc(locale, 'cli.ratings.noVotes', {
                ...noVotes(ability),
                fix: noVotesFix(locale, others, filesOf(rt.config).default),
              }),
            );
          }
          // Battles posted in chat carry many votes each: intervals resample battles (cluster bootstrap).
          const types = await battleVoteTypes(rt.db.db, ability, sources, include);
          return {
            clusters: types.map((t) => ({
              model_a: t.leftModel,
              model_b: t.rightModel,
              a_wins: t.left,
              b_wins: t.right,
              ties: t.equal,
              count: t.count,
            })),
            pairs: rows.map((r) => ({
              model_a: r.model_a,
              model_b: r.model_b,
              model_a_wins: r.a_wins,
              model_b_wins: r.b_wins,
              tie: r.ties,
              tie_bothbad: 0,
            })),
          };
        },
      },
    );
  });
}

/**
 * The fix of a ratings run whose counted sources hold no votes: add the `others` (stored sources outside the
 * counted ones, with votes) to `ratings.include_sources` in the file `defaultFile`, or pass them with `--source`;
 * with none, import votes.
 */
function noVotesFix(locale: Locale, others: readonly SourceSummary[], defaultFile: string): string {
  if (others.length === 0) return tc(locale, 'cli.ratings.noVotes.import');
  return tc(locale, 'cli.ratings.noVotes.addSource', {
    default: defaultFile,
    flags: others.map((s) => `--source ${s.source}`).join(tc(locale, 'cli.ratings.or')),
  });
}
