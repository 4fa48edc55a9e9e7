/**
 * @module eval/types
 * The contract between datasets, metrics and the runner. A suite names datasets; each dataset loads into items,
 * turns an item into chat messages with a versioned prompt template, and scores a model's raw text answer with its
 * metric and scorer profile (docs/scoring.md §2). Scores are in the item's own points (`raw` of `max`); a dataset
 * score on the ten-point scale is `10 × Σ raw / Σ max` unless its metric says otherwise.
 */
import type { Ability, Method } from '../config/schema.ts';
import type { ChatMessage } from '../llm/types.ts';

/** One item as loaded from a dataset file (before it is stored). */
export interface EvalItem {
  /** Stable key within the dataset (survives reloads; recorded outputs join on it). */
  readonly key: string;
  /** The question as a person would read it (shown in chat, stored as `items.prompt`). */
  readonly prompt: string;
  /** Gold answer(s) in the dataset's own shape (option letter(s), span list, number...). */
  readonly reference: unknown;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** The score of one answer. */
export interface ItemScore {
  /** Points earned, 0 ≤ raw ≤ max. */
  readonly raw: number;
  /** Points possible, > 0. */
  readonly max: number;
  /** Metric name (accuracy, exact_match, char_f1, numeric_match, gaokao_objective...). */
  readonly metric: string;
  /** Scorer profile (default, cmrc2018, gaokao...). */
  readonly profile: string;
  /** What the scorer extracted or compared, for audit (e.g. `{ extracted: 'C' }`). */
  readonly detail?: Readonly<Record<string, unknown>>;
}

/** A dataset ready to run: its items, its prompt template and its scorer. */
export interface PreparedDataset {
  readonly name: string;
  readonly ability: Ability;
  readonly method: Method;
  readonly metric: string;
  readonly profile: string;
  /** Version of the prompt template (part of the response cache key and of every stored score). */
  readonly templateVersion: string;
  readonly items: readonly EvalItem[];
  /** The messages sent to the model for `item` (few-shot examples included where the dataset's paper does). */
  messages(item: EvalItem): ChatMessage[];
  /** Scores a raw answer text. Pure. */
  score(item: EvalItem, output: string): ItemScore;
  /** Where the items came from and how they were chosen (stored with a run's config snapshot). Optional. */
  readonly provenance?: DatasetProvenance;
  /**
   * Several requests for `item` (eval/run-item): absent, or returning undefined, means one request,
   * `messages(item)`, scored by {@link score}.
   */
  requests?(item: EvalItem): MultiRequest | undefined;
  /**
   * Scores the answers of a multi-request item, in request order (`follow_up`: the first answer, then one per
   * follow-up; `independent`: one per variant). Pure. Required when {@link requests} returns a request set.
   */
  scoreAnswers?(item: EvalItem, outputs: readonly string[]): ItemScore;
}

/** Several requests for one item; absent or undefined → one request, `messages(item)`, scored by `score`. */
export type MultiRequest =
  /**
   * `messages(item)` first; then, for each follow-up, the conversation so far + the model's previous answer (as an
   * assistant message) + the follow-up (as a user message).
   */
  | { readonly kind: 'follow_up'; readonly followUps: readonly string[] }
  /** Each variant sent on its own (e.g. one fact asked several ways). */
  | { readonly kind: 'independent'; readonly variants: readonly (readonly ChatMessage[])[] };

/** Where a prepared dataset's items came from (files, sampling, prompt shots), for reproducibility. */
export interface DatasetProvenance {
  /** The dataset format (suite `loader:`). */
  readonly loader: string;
  /** The dataset's paper / origin. */
  readonly source: string;
  /** Files read (local paths or URLs). */
  readonly files: readonly string[];
  /** Valid rows in the files before sampling. */
  readonly rows: number;
  /** Rows left out by the dataset's own rules (e.g. OCNLI label "-"). */
  readonly excluded: number;
  /** The sample size asked for (absent: every row). */
  readonly sample?: number;
  /** Seed of the sample and of the choice of in-context examples. */
  readonly seed: number;
  /** In-context examples per prompt. */
  readonly shots: number;
  /** A derived dataset (eval/robustness): its task, derivation version and base dataset. */
  readonly derived?: { readonly task: string; readonly version: number; readonly base: string };
}
