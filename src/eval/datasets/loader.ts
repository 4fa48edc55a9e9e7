/**
 * @module eval/datasets/loader
 * What a dataset format provides: a parser from file texts to items (bad rows as `file:line: reason`), a prompt
 * template (versioned), the metric and its scorer profiles, and the scorer.
 */
import type { Said } from '../../core/errors.ts';
import type { ChatMessage } from '../../llm/types.ts';
import type { EvalItem, ItemScore, MultiRequest } from '../types.ts';
import type { DatasetText } from './source.ts';

/** Items parsed from a dataset's files. */
export interface ParsedRows {
  readonly items: EvalItem[];
  /** Rows left out by the dataset's own rules (e.g. OCNLI `label: "-"`), with why. */
  readonly excluded: number;
  readonly excludedReason?: string;
  /**
   * Bad rows, `file:line: reason`, as catalogue data (import/formats/row-problems.ts): the command line says them
   * in its language.
   */
  readonly problems: Said[];
  /** Extra context for the template (e.g. GAOKAO-Bench prefix prompts by keyword). */
  readonly context?: Readonly<Record<string, unknown>>;
}

/** A dataset format. */
export interface DatasetLoader {
  /** Metric name of every score (accuracy, char_f1, numeric_match, gaokao_objective). */
  readonly metric: string;
  /** Allowed scorer profiles; the first is the default. */
  readonly profiles: readonly string[];
  /** Version of the prompt template (bump on any change of wording). */
  readonly templateVersion: string;
  /** Where the format comes from (paper), for docs and `zhujiu suites`. */
  readonly source: string;
  parse(files: readonly DatasetText[], extra: readonly DatasetText[]): ParsedRows;
  /** The system message, if any (few-shot examples follow it). */
  system(item: EvalItem, context: Readonly<Record<string, unknown>>): string | undefined;
  /** The user message asking `item`. */
  user(item: EvalItem): string;
  /** The ideal assistant reply to `item`, used when it serves as an in-context example. */
  answer(item: EvalItem): string;
  score(item: EvalItem, output: string, profile: string): ItemScore;
  /** The several requests of a multi-request item (absent or undefined: one request). */
  requests?(item: EvalItem): MultiRequest | undefined;
  /** Scores the answers of a multi-request item, in request order. Pure. */
  scoreAnswers?(item: EvalItem, outputs: readonly string[], profile: string): ItemScore;
  /**
   * For constructed datasets: the command that builds the files (a missing file is reported with it, e.g.
   * `zhujiu datasets build`).
   */
  readonly builtBy?: string;
}

/** Builds the messages of an item with optional in-context examples. */
export function buildMessages(
  loader: DatasetLoader,
  item: EvalItem,
  shots: readonly EvalItem[],
  context: Readonly<Record<string, unknown>>,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  const sys = loader.system(item, context);
  if (sys !== undefined) out.push({ role: 'system', content: sys });
  for (const s of shots) {
    out.push({ role: 'user', content: loader.user(s) });
    out.push({ role: 'assistant', content: loader.answer(s) });
  }
  out.push({ role: 'user', content: loader.user(item) });
  return out;
}
