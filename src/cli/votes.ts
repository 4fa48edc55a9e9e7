/**
 * @module cli/votes
 * `zhujiu votes flagged [--limit N] [--since DATE] [--json]`: the flagged live votes (docs/scoring.md §4.3), newest
 * first, as the maintainers' `/arena flagged` shows them; `--json` prints `{"votes": [...]}` (README "Vote
 * hygiene").
 */
import { flaggedVotesContent, flaggedVotesJson } from '../bot/commands/flagged.ts';
import { renderPlain } from '../chat/shell/render.ts';
import { listFlaggedVotes } from '../storage/vote-flags.ts';
import { type CliDeps, cliLocale, withRuntime } from './deps.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu votes flagged`. */
export interface VotesFlaggedFlags {
  readonly limit?: number;
  readonly since?: Date;
  readonly json?: boolean;
}

/**
 * Runs `zhujiu votes flagged`.
 * @throws AppError `db_unavailable`.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runVotesFlagged(
  io: CliIo,
  o: VotesFlaggedFlags,
  deps: CliDeps,
): Promise<void> {
  await withRuntime(deps, {}, async (rt) => {
    const rows = await listFlaggedVotes(rt.db.db, {
      limit: o.limit ?? 100,
      ...(o.since ? { since: o.since } : {}),
    });
    io.out(
      o.json
        ? JSON.stringify(flaggedVotesJson(rows))
        : renderPlain(flaggedVotesContent(rows, cliLocale(deps))),
    );
  });
}
