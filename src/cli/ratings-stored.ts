/**
 * @module cli/ratings-stored
 * `zhujiu ratings` without `--battles`: rates the votes stored in the database (the computation lives in
 * cli/ratings.ts and rating/). Kept apart from cli/ratings.ts so that `ratings --battles FILE` never loads the
 * database drivers.
 */
import { AppError } from '../core/errors.ts';
import { openRuntime } from '../main.ts';
import { battleVoteTypes } from '../storage/arena-queries.ts';
import { pairVoteCounts } from '../storage/votes.ts';
import type { CliIo } from './io.ts';
import { type RatingsOptions, runRatings } from './ratings.ts';

/**
 * Runs `zhujiu ratings` on the stored votes (all, or one ability).
 * @throws AppError `rating_input_invalid` when there are no votes; `db_unavailable`.
 */
export async function runStoredRatings(io: CliIo, o: RatingsOptions): Promise<void> {
  const rt = await openRuntime({ quiet: true });
  try {
    await runRatings(o, {
      out: io.out,
      loadStoredBattles: async (ability?: string) => {
        const rows = await pairVoteCounts(rt.db.db, ability);
        if (rows.length === 0) {
          throw new AppError(
            'rating_input_invalid',
            `no votes in the database (${rt.db.describe})${ability ? ` for ability ${ability}` : ''}: ` +
              'import battles (`zhujiu import battles FILE`) or vote in the arena first, or pass --battles FILE',
          );
        }
        // Battles posted in chat carry many votes each: intervals resample battles (cluster bootstrap).
        const types = await battleVoteTypes(rt.db.db, ability);
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
    });
  } finally {
    await rt.close();
  }
}
