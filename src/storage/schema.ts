/**
 * @module storage/schema
 * Kysely table types, written by hand to match `migrations/` (the migrations are the truth; an integration test
 * checks the two agree).
 */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
/** bigint ids come back from pg as strings unless parsed; the factory parses int8 to number (ids stay < 2^53). */
type Id = Generated<number>;

export interface ModelsTable {
  id: Id;
  name: string;
  provider: 'openai' | 'recorded' | 'external';
  config: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
}

export interface DatasetsTable {
  id: Id;
  name: string;
  ability: string;
  method: string;
  language: ColumnType<string, string | undefined, string>;
  source: string | null;
  metadata: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
}

export interface ItemsTable {
  id: Id;
  dataset_id: number;
  key: string;
  ability: string;
  method: string;
  language: ColumnType<string, string | undefined, string>;
  prompt: string;
  reference: ColumnType<unknown, string | null | undefined, string | null>;
  metadata: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
}

export interface ResponsesTable {
  id: Id;
  model_id: number;
  /** NULL for a cached answer to a request that answers no stored item (migration 0003). */
  item_id: number | null;
  request_hash: string;
  output: string;
  /** The model's reasoning, kept apart from the answer `output` (llm/reply; migration 0009). */
  reasoning: ColumnType<string | null, string | null | undefined, string | null>;
  /** Tokens spent reasoning, when the endpoint said (`completion_tokens_details.reasoning_tokens`). */
  reasoning_tokens: ColumnType<number | null, number | null | undefined, number | null>;
  latency_ms: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  source: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
}

export interface EvalRunsTable {
  id: Id;
  model_id: number;
  suite: string;
  status: ColumnType<
    'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled',
    'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | undefined
  >;
  requested_by: string | null;
  report_platform: string | null;
  report_channel: string | null;
  report_message: string | null;
  progress_done: ColumnType<number, number | undefined, number>;
  progress_total: ColumnType<number, number | undefined, number>;
  seed: ColumnType<number, number | undefined, number>;
  error: string | null;
  /** {@link error} in each other language of the catalogue (`{"zh-CN": "…"}`), when it was said there (migration 0020). */
  error_texts: JSONColumnType<
    Record<string, string>,
    string | null | undefined,
    string | null
  > | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** Snapshot of what the run used (datasets, template versions, profiles, sampling parameters, versions). */
  config: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  item_limit: number | null;
  progress_failed: ColumnType<number, number | undefined, number>;
  prompt_tokens: ColumnType<number, number | undefined, number>;
  completion_tokens: ColumnType<number, number | undefined, number>;
  heartbeat_at: NullableTimestamp;
  summary_posted_at: NullableTimestamp;
}

/** State of one item of one run (migration 0003). */
export type RunItemStatus = 'pending' | 'claimed' | 'done' | 'failed';

export interface EvalRunItemsTable {
  run_id: number;
  item_id: number;
  dataset: string;
  seq: number;
  status: ColumnType<RunItemStatus, RunItemStatus | undefined, RunItemStatus>;
  owner: string | null;
  lease_until: NullableTimestamp;
  response_id: number | null;
  cached: boolean | null;
  latency_ms: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  failure_code: string | null;
  failure_message: string | null;
  finished_at: NullableTimestamp;
}

export interface ItemScoresTable {
  id: Id;
  run_id: number;
  item_id: number;
  response_id: number | null;
  method: string;
  metric: string;
  profile: ColumnType<string, string | undefined, string>;
  raw_score: number;
  max_score: number;
  safety_flag: ColumnType<boolean, boolean | undefined, boolean>;
  judge_output: ColumnType<unknown, string | null | undefined, string | null>;
  /** What the scorer extracted or compared (migration 0003). */
  detail: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** Battle lifecycle states. */
export type BattleStatus = 'pending' | 'open' | 'closed' | 'void';

export interface BattlesTable {
  id: Id;
  item_id: number | null;
  ability: string | null;
  model_left_id: number;
  model_right_id: number;
  response_left_id: number | null;
  response_right_id: number | null;
  source: ColumnType<string, string | undefined, string>;
  import_key: string | null;
  platform: string | null;
  channel_id: string | null;
  message_id: string | null;
  part_ids: JSONColumnType<string[], string | undefined, string>;
  status: ColumnType<BattleStatus, BattleStatus | undefined, BattleStatus>;
  seed: number | null;
  created_at: Timestamp;
  posted_at: NullableTimestamp;
  closes_at: NullableTimestamp;
  closed_at: NullableTimestamp;
  revealed_at: NullableTimestamp;
  /** `recorded` (answers stored beforehand) or `live` (asked with `/ask`; migration 0006). */
  kind: ColumnType<BattleKind, BattleKind | undefined, BattleKind>;
  /** HMAC of the asker's platform + user id (live battles), as voters' ids. */
  asker_hash: string | null;
  turns: ColumnType<number, number | undefined, number>;
  ability_source: AbilitySource | null;
  ability_classifier: string | null;
  ability_classifier_version: string | null;
  voided_at: NullableTimestamp;
  voided_by: string | null;
  void_reason: string | null;
  /**
   * The battle's number within its source (1, 2, … per source; migration 0008): what chat shows and takes
   * (`#12`), unlike `id`, which stays internal. Given at insert by a trigger unless the insert sets it (imports).
   */
  number: ColumnType<number, number | undefined, never>;
  /** Why voting ended (closed and void battles; migration 0008). */
  close_reason: CloseReason | null;
  /** The vote cap a `vote_cap` close reached. */
  close_cap: number | null;
  /** An imported vote cast with the models' names shown (`"anony": false`; migration 0010). */
  named: ColumnType<boolean, boolean | undefined, boolean>;
  /**
   * How the posted battle takes votes (migration 0014): `reactions`, `buttons` or `typed`; null: posted before
   * it was stored (reactions).
   */
  voting: BattleVoting | null;
}

/** How a posted battle takes votes (chat/port `PlatformCapabilities.voting`). */
export type BattleVoting = 'reactions' | 'buttons' | 'typed';

/**
 * Why voting on a battle ended: its window ended, the vote cap was reached, an imported vote (closed as imported),
 * its message was deleted, posting it failed, or a maintainer voided it while it took votes.
 */
export type CloseReason = 'window' | 'vote_cap' | 'import' | 'withdrawn' | 'post_failed' | 'voided';

/** The last battle number given per source (migration 0008). */
export interface BattleNumbersTable {
  source: string;
  last_number: number;
}

/** Where a battle's answers come from. */
export type BattleKind = 'recorded' | 'live';

/** Where a battle's ability came from (null ability with a live battle: unclassified). */
export type AbilitySource = 'dataset' | 'tag' | 'classifier' | 'maintainer' | 'import';

/** One turn of a live battle (migration 0006). */
export interface BattleTurnsTable {
  battle_id: number;
  turn: number;
  prompt: string;
  answer_left: string;
  answer_right: string;
  latency_left_ms: number | null;
  latency_right_ms: number | null;
  asker_hash: string | null;
  asked_at: Timestamp;
  answered_at: Timestamp;
  message_ids: JSONColumnType<string[], string | undefined, string>;
}

/** A maintainer action on a battle (migration 0006): the audit log of voids and ability overrides. */
export interface BattleAuditTable {
  id: Id;
  battle_id: number;
  action: 'void' | 'ability_override';
  actor_hash: string;
  ability: string | null;
  reason: string | null;
  at: Timestamp;
}

/**
 * A vote's choice (docs/scoring.md §4): the left answer, the right one, a tie (`equal`), or both bad
 * (`bothbad`, migration 0012: stored apart, counted as a tie by ratings).
 */
export type VoteChoice = 'left' | 'equal' | 'right' | 'bothbad';

/** Why a live vote is left out of ratings and the board unless asked (migration 0012; null: it counts). */
export type VoteFlag = 'daily_cap' | 'too_fast';

export interface VotesTable {
  id: Id;
  battle_id: number;
  voter_hash: string;
  choice: VoteChoice;
  cast_at: Timestamp;
  updated_at: Timestamp;
  retracted_at: NullableTimestamp;
  last_event_at: Timestamp;
  flag: ColumnType<VoteFlag | null, VoteFlag | null | undefined, VoteFlag | null>;
  flag_detail: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * A voter's state of one vote emoji on a battle (migration 0010): on or off, and the key of the latest event
 * applied to it (`event_at`, then `event_seq`). The live vote in `votes` is derived from these rows.
 */
export interface VoteReactionsTable {
  battle_id: number;
  voter_hash: string;
  choice: VoteChoice;
  present: boolean;
  event_at: Timestamp;
  event_seq: ColumnType<number, number | undefined, number>;
}

export interface VoteEventsTable {
  id: Id;
  battle_id: number;
  voter_hash: string;
  platform: string;
  platform_event_id: string;
  kind: 'add' | 'remove' | 'import';
  choice: VoteChoice | null;
  emoji: string | null;
  event_at: Timestamp;
  received_at: Timestamp;
  effect: ColumnType<string, string | undefined, string>;
  payload: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface PostsTable {
  id: Id;
  kind: ColumnType<string, string | undefined, string>;
  platform: string;
  channel_id: string;
  message_id: string | null;
  posted_at: Timestamp;
  snapshot: ColumnType<unknown, string | undefined, string>;
  idempotency_key: string | null;
  snapshot_id: number | null;
  status: ColumnType<'claimed' | 'posted' | 'failed', 'claimed' | 'posted' | 'failed' | undefined>;
  error: string | null;
}

export interface LeaderboardSnapshotsTable {
  id: Id;
  fingerprint: string;
  sources: string;
  inputs: ColumnType<unknown, string, string>;
  board: ColumnType<unknown, string, string>;
  chart: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  build_ms: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

/** One model's standing on one UTC day's newest board of a source set (migration 0015). */
export interface BoardHistoryTable {
  sources: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: ColumnType<string, string, string>;
  model: string;
  snapshot_id: number;
  built_at: Timestamp;
  rank_by: 'overall' | 'final';
  rank: number | null;
  score: number | null;
  score_lo: number | null;
  score_hi: number | null;
  votes: ColumnType<number, number | undefined, number>;
}

export interface SchedulesTable {
  name: string;
  cron: string;
  tz: string;
  last_tick_at: NullableTimestamp;
  updated_at: Timestamp;
}

/** A judge score: a verdict or a judge failure (migration 0005; docs/scoring.md §3). */
export interface JudgeScoresTable {
  id: Id;
  model_id: number;
  item_id: number;
  kind: 'single' | 'pairwise';
  baseline_model_id: number | null;
  judge: string;
  rubric: string;
  rubric_version: string;
  response_id: number | null;
  run_id: number | null;
  status: 'judged' | 'failed';
  raw_score: number | null;
  max_score: number | null;
  preference: number | null;
  safety_flag: boolean | null;
  failure_code: string | null;
  failure_message: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  judge_output: ColumnType<unknown, string | null | undefined, string | null>;
  source: ColumnType<'live' | 'import', 'live' | 'import' | undefined, 'live' | 'import'>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A judge's verdict on an arena battle ("judge vote"), kept apart from the crowd's votes. */
export interface BattleJudgmentsTable {
  id: Id;
  battle_id: number;
  judge: string;
  rubric_version: string;
  status: 'judged' | 'failed';
  choice: VoteChoice | null;
  failure_code: string | null;
  failure_message: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  judge_output: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `submissions` (migration 0011): models submitted in chat, pending until a maintainer decides. */
export interface SubmissionsTable {
  id: Id;
  name: string;
  base_url: string;
  model: string;
  description: ColumnType<string, string | undefined, string>;
  organisation: ColumnType<string, string | undefined, string>;
  licence: ColumnType<string, string | undefined, string>;
  status: ColumnType<
    'pending' | 'approved' | 'rejected',
    'pending' | undefined,
    'pending' | 'approved' | 'rejected'
  >;
  submitter_platform: 'discord' | 'slack' | 'shell' | null;
  submitter_id: string;
  submitter_channel: string | null;
  submitted_at: Timestamp;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  reason: string | null;
  api_key_env: string | null;
  model_id: number | null;
  run_ids: JSONColumnType<number[], string | undefined, string>;
  notified_status: string | null;
}

/** One shared periodic task's claim (migration 0016; storage/task-leases.ts). */
export interface TaskLeasesTable {
  task: string;
  key: string;
  holder: string;
  claimed_at: Timestamp;
  lease_until: Timestamp;
  done_at: NullableTimestamp;
}

/** The whole database. */
export interface Database {
  models: ModelsTable;
  datasets: DatasetsTable;
  items: ItemsTable;
  responses: ResponsesTable;
  eval_runs: EvalRunsTable;
  eval_run_items: EvalRunItemsTable;
  item_scores: ItemScoresTable;
  battles: BattlesTable;
  votes: VotesTable;
  vote_events: VoteEventsTable;
  vote_reactions: VoteReactionsTable;
  posts: PostsTable;
  leaderboard_snapshots: LeaderboardSnapshotsTable;
  board_history: BoardHistoryTable;
  schedules: SchedulesTable;
  judge_scores: JudgeScoresTable;
  battle_judgments: BattleJudgmentsTable;
  battle_turns: BattleTurnsTable;
  battle_audit: BattleAuditTable;
  battle_numbers: BattleNumbersTable;
  submissions: SubmissionsTable;
  task_leases: TaskLeasesTable;
}
