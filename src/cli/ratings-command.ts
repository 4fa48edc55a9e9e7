/**
 * @module cli/ratings-command
 * Registers `zhujiu ratings` (the computation lives in cli/ratings.ts and rating/).
 */
import { type Command, Option } from 'commander';
import { ABILITIES } from '../config/schema.ts';
import { AppError } from '../core/errors.ts';
import { openRuntime } from '../main.ts';
import { battleVoteTypes } from '../storage/arena-queries.ts';
import { pairVoteCounts } from '../storage/votes.ts';
import { runRatings } from './ratings.ts';

/** Adds the `ratings` command to `program`. */
export function registerRatings(
  program: Command,
  io: { out(s: string): void },
  intArg: (name: string, min: number) => (v: string) => number,
): void {
  program
    .command('ratings')
    .description(
      'Bradley–Terry ratings with bootstrap intervals and online Elo, from a file or the stored votes',
    )
    .option(
      '--battles <file>',
      'JSONL of {model_a, model_b, winner} or pair counts; default: the votes in the database',
    )
    .option('--bootstrap <n>', 'bootstrap rounds (0 = none)', intArg('--bootstrap', 0), 1000)
    .option('--seed <s>', 'bootstrap seed', intArg('--seed', 0), 0)
    .option(
      '--anchor <model=rating>',
      'shift so MODEL has RATING, e.g. mixtral-8x7b-instruct-v0.1=1114',
    )
    .option('--json', 'print {"models":[…]} instead of a table')
    .addOption(
      new Option('--ability <ability>', 'only stored battles of this ability').choices(ABILITIES),
    )
    .action(
      async (o: {
        battles?: string;
        bootstrap: number;
        seed: number;
        anchor?: string;
        json?: boolean;
        ability?: string;
      }) => {
        if (o.battles) {
          await runRatings(o, { out: io.out });
          return;
        }
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
      },
    );
}
