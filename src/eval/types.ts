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
  /** The several requests of a multi-request item (undefined: the item is one request, {@link messages}). */
  requests?(item: EvalItem): MultiRequest | undefined;
  /** Scores the answers of a multi-request item, in request order (independent: one per variant). Pure. */
  scoreAnswers?(item: EvalItem, outputs: readonly string[]): ItemScore;
}

/**
 * How a multi-request item is asked: `follow_up`, later user turns of one conversation after the first answer;
 * `independent`, separate conversations (e.g. one fact in five phrasings, docs/scoring.md §2.7).
 */
export type MultiRequest =
  | { readonly kind: 'follow_up'; readonly followUps: readonly string[] }
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
}
