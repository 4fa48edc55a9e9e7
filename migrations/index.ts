/**
 * The ordered list of migrations. Kysely runs them by name order; never rename or edit a landed migration:
 * add a new numbered file and list it here.
 */
import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_vote_sources.ts';
import * as m0003 from './0003_eval_runs.ts';
import * as m0004 from './0004_leaderboard.ts';
import * as m0005 from './0005_judge_scores.ts';
import * as m0006 from './0006_live_battles.ts';
import * as m0007 from './0007_arena_counts.ts';
import * as m0008 from './0008_battle_numbers_close_reasons.ts';
import * as m0009 from './0009_response_reasoning.ts';
import * as m0010 from './0010_vote_reactions.ts';
import * as m0011 from './0011_submissions.ts';
import * as m0012 from './0012_both_bad_vote_flags.ts';
import * as m0013 from './0013_import_index_upkeep.ts';
import * as m0014 from './0014_battle_voting.ts';
import * as m0015 from './0015_board_history.ts';
import * as m0016 from './0016_task_leases.ts';
import * as m0017 from './0017_voter_day_live_votes.ts';
import * as m0018 from './0018_import_key_order.ts';
import * as m0019 from './0019_dense_run_numbers.ts';
import * as m0020 from './0020_run_error_texts.ts';

export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_vote_sources': m0002,
  '0003_eval_runs': m0003,
  '0004_leaderboard': m0004,
  '0005_judge_scores': m0005,
  '0006_live_battles': m0006,
  '0007_arena_counts': m0007,
  '0008_battle_numbers_close_reasons': m0008,
  '0009_response_reasoning': m0009,
  '0010_vote_reactions': m0010,
  '0011_submissions': m0011,
  '0012_both_bad_vote_flags': m0012,
  '0013_import_index_upkeep': m0013,
  '0014_battle_voting': m0014,
  '0015_board_history': m0015,
  '0016_task_leases': m0016,
  '0017_voter_day_live_votes': m0017,
  '0018_import_key_order': m0018,
  '0019_dense_run_numbers': m0019,
  '0020_run_error_texts': m0020,
};
