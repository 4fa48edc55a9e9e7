/**
 * @module eval/item-results
 * Item-level results of an evaluation run, for maintainers who read each answer and its score (`zhujiu results`,
 * the `/runs` pages of the HTTP server): one record per finished item, written as JSON lines or CSV (RFC 4180,
 * through csv-stringify) a page at a time (storage/run-results.ts keyset pages), so a run of any size is never
 * held whole.
 *
 * A record's fields (also the CSV header, in this order) are {@link RESULT_COLUMNS}; see README "Item-level
 * results" for what each holds.
 */
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import { listSaid, said, saidError } from '../i18n/cli.ts';
import { displayNameSaid, displayNamesSaid } from '../i18n/names.ts';
import {
  type RunItemFilter,
  type RunItemRow,
  runAbilities,
  runDatasetNames,
  runItemsPage,
  type ScoreFilter,
} from '../storage/run-results.ts';
import type { Database } from '../storage/schema.ts';

/** The output formats of item-level results. */
export const RESULT_FORMATS = ['jsonl', 'csv'] as const;
/** See {@link RESULT_FORMATS}. */
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/** The fields of one item's record, in CSV column order. */
export const RESULT_COLUMNS = [
  'run',
  'model',
  'suite',
  'dataset',
  'ability',
  'item',
  'item_id',
  'status',
  'prompt',
  'answer',
  'reasoning',
  'extracted',
  'score',
  'max_score',
  'metric',
  'profile',
  'judge',
  'judge_score',
  'judge_max',
  'judge_rationale',
  'safety_violation',
  'failure_code',
  'failure_message',
  'latency_ms',
  'cached',
  'detail',
] as const;

/** One item's record: JSON values (CSV writes objects as JSON text, null as an empty field). */
export type ResultRecord = { [K in (typeof RESULT_COLUMNS)[number]]: unknown };

/** The run a record belongs to. */
export interface ResultRun {
  readonly id: number;
  readonly model: string;
  readonly suite: string;
}

/** Detail keys that hold what a scorer read from the answer, in the order they are looked for (eval/datasets/). */
const EXTRACTED_KEYS = ['extracted', 'parsed', 'stated', 'answer'] as const;

/**
 * What the scorer read from the answer (`extracted` of choice and GAOKAO items, `parsed` of Math23K, `stated` of
 * the knowledge sets, `answer` of the robustness format tasks), or null when the scorer keeps none (span, judge).
 * Pure.
 */
export function extractedAnswer(detail: Record<string, unknown> | null): unknown {
  if (!detail) return null;
  for (const k of EXTRACTED_KEYS) if (detail[k] !== undefined) return detail[k];
  return null;
}

/**
 * The judge's explanation of its grade: the `reason` of a structured reply (eval/judge/parse.ts asks for
 * `{"reason", "score"}`), else the reply's text; for a failed grading, the last reply it gave. Null when the
 * stored output holds no reply (an imported grade). Pure.
 */
export function judgeRationale(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const o = output as { reply?: unknown; replies?: unknown };
  const reply =
    typeof o.reply === 'string'
      ? o.reply
      : Array.isArray(o.replies) && typeof o.replies[o.replies.length - 1] === 'string'
        ? (o.replies[o.replies.length - 1] as string)
        : undefined;
  if (reply === undefined) return null;
  try {
    const j = JSON.parse(reply) as { reason?: unknown };
    if (j && typeof j === 'object' && typeof j.reason === 'string') return j.reason;
  } catch {
    // not JSON: the reply itself is the rationale
  }
  return reply;
}

/** One stored row as its record (see {@link RESULT_COLUMNS}). Pure. */
export function resultRecord(run: ResultRun, r: RunItemRow): ResultRecord {
  const j = r.judge;
  return {
    run: run.id,
    model: run.model,
    suite: run.suite,
    dataset: r.dataset,
    ability: r.ability,
    item: r.itemKey,
    item_id: r.itemId,
    status: r.status,
    prompt: r.prompt,
    answer: r.answer,
    reasoning: r.reasoning,
    extracted: extractedAnswer(r.detail),
    score: r.rawScore,
    max_score: r.maxScore,
    metric: r.metric,
    profile: r.profile,
    judge: j?.name ?? null,
    judge_score: j?.rawScore ?? null,
    judge_max: j?.maxScore ?? null,
    judge_rationale: j ? judgeRationale(j.output) : null,
    safety_violation: j?.safetyViolation ?? null,
    failure_code: r.failureCode ?? j?.failureCode ?? null,
    failure_message: r.failureMessage ?? j?.failureMessage ?? null,
    latency_ms: r.latencyMs,
    cached: r.cached,
    detail: r.detail,
  };
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Records as text in `format`: one JSON object per line, or CSV rows (RFC 4180: CRLF line ends, fields with a
 * comma, quote or line break quoted, quotes doubled), with the header row first when `header`. Pure.
 */
export function formatRecords(
  records: readonly ResultRecord[],
  format: ResultFormat,
  header: boolean,
): string {
  if (format === 'jsonl') return records.map((r) => `${JSON.stringify(r)}\n`).join('');
  const rows: string[][] = header ? [[...RESULT_COLUMNS]] : [];
  for (const r of records) rows.push(RESULT_COLUMNS.map((c) => csvCell(r[c])));
  // csv-stringify quotes a field holding its record delimiter (CRLF here) but not a bare LF or CR: those end a
  // record for many readers (Python's csv, spreadsheets), so every field holding one is quoted (`quoted_match`).
  return stringify(rows, { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

/**
 * Reads a score filter as typed (`correct`, `wrong`, or a fraction range `0.5-1` / a single fraction `1`).
 * @param name the flag or parameter that gave it, for the message.
 * @throws AppError `input_invalid` naming `name`, the value and the accepted forms, as catalogue data (`said`).
 */
export function parseScoreFilter(name: string, v: string): ScoreFilter {
  const t = v.trim().toLowerCase();
  if (t === 'correct' || t === 'wrong') return { kind: t };
  const m = /^(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?$/.exec(t);
  const min = m ? Number(m[1]) : Number.NaN;
  const max = m ? Number(m[2] ?? m[1]) : Number.NaN;
  if (!m || min > max || max > 1)
    throw saidError('input_invalid', said('cli.results.badScore', { name, value: v }));
  return { kind: 'range', min, max };
}

/**
 * Checks that the run's items can be filtered by `filter`: a dataset or ability the run does not have is refused.
 * @throws AppError `not_found` naming the value and listing the run's datasets (or abilities).
 */
export async function checkRunFilter(
  db: Kysely<Database>,
  runId: number,
  filter: RunItemFilter,
  names: { readonly dataset: string; readonly ability: string } = {
    dataset: '--dataset',
    ability: '--ability',
  },
): Promise<void> {
  if (filter.dataset !== undefined) {
    const ds = await runDatasetNames(db, runId);
    if (!ds.includes(filter.dataset))
      throw saidError(
        'not_found',
        said(ds.length > 0 ? 'cli.results.noDataset' : 'cli.results.noDatasetYet', {
          flag: names.dataset,
          name: filter.dataset,
          run: runId,
          list: listSaid(ds),
        }),
      );
  }
  if (filter.ability !== undefined) {
    const ab = await runAbilities(db, runId);
    if (!ab.includes(filter.ability))
      throw saidError(
        'not_found',
        said(ab.length > 0 ? 'cli.results.noAbility' : 'cli.results.noAbilityYet', {
          flag: names.ability,
          // By the name the reader uses (`知识` in Chinese), whichever form was typed.
          name: displayNameSaid('ability', filter.ability),
          run: runId,
          list: displayNamesSaid('ability', ab),
        }),
      );
  }
}

/**
 * The run's finished items that `filter` admits in `format`, one chunk of text per page (`pageSize` items, default
 * 500, keyset pages): the next page is read only when the consumer asks for the next chunk (back-pressure), and a
 * consumer that stops early stops the reads. The CSV header comes with the first page (alone when no item
 * matches); `count` is called with the number of items of each page.
 */
export async function* runResultChunks(
  db: Kysely<Database>,
  run: ResultRun,
  filter: RunItemFilter,
  format: ResultFormat,
  pageSize = 500,
  count?: (n: number) => void,
): AsyncGenerator<string> {
  let after = 0;
  let first = true;
  for (;;) {
    const rows = await runItemsPage(db, run.id, filter, { after, limit: pageSize });
    if (rows.length > 0 || first) {
      yield formatRecords(
        rows.map((r) => resultRecord(run, r)),
        format,
        first,
      );
      count?.(rows.length);
    }
    first = false;
    if (rows.length < pageSize) return;
    after = (rows[rows.length - 1] as RunItemRow).itemId;
  }
}

/**
 * Writes {@link runResultChunks} through `write`, awaiting each chunk before the next page is read; what `write`
 * throws ends the read.
 * @returns the number of items written.
 */
export async function writeRunResults(
  db: Kysely<Database>,
  run: ResultRun,
  filter: RunItemFilter,
  format: ResultFormat,
  write: (chunk: string) => Promise<void>,
  pageSize = 500,
): Promise<number> {
  let n = 0;
  for await (const chunk of runResultChunks(db, run, filter, format, pageSize, (k) => {
    n += k;
  }))
    if (chunk !== '') await write(chunk);
  return n;
}
