/**
 * @module eval/run-results
 * The results of one worker's items, written in batches: one statement per `batchSize` items or every `everyMs`
 * (storage/eval-runs `finishRunItems`), so the database is not the bottleneck of a fast endpoint, and an answer
 * waits at most `everyMs` in memory before it is stored. Keeps the run's counts as this worker wrote them.
 */
import type { Logger } from '../core/logger.ts';
import type { ItemOutcome, RunCounts } from '../storage/eval-runs.ts';

/** One item's outcome waiting to be written. */
export interface PendingResult {
  readonly itemId: number;
  readonly outcome: ItemOutcome;
}

/**
 * `counts` after one more item with `outcome` written: `done` (with its tokens, unless answered from the cache)
 * or `failed` one higher. Pure.
 */
export function countOutcome(counts: RunCounts, outcome: ItemOutcome): RunCounts {
  if (outcome.kind !== 'done') return { ...counts, failed: counts.failed + 1 };
  return {
    ...counts,
    done: counts.done + 1,
    promptTokens: counts.promptTokens + (outcome.cached ? 0 : (outcome.promptTokens ?? 0)),
    completionTokens:
      counts.completionTokens + (outcome.cached ? 0 : (outcome.completionTokens ?? 0)),
  };
}

/** Options of {@link ResultWriter}. */
export interface ResultWriterOptions {
  /** Writes a batch; the ids of the items written (those another worker finished first are not). */
  write(batch: readonly PendingResult[]): Promise<ReadonlySet<number>>;
  /** The run's counts when this worker started. */
  readonly counts: RunCounts;
  /** Results per statement (≥ 1). */
  readonly batchSize: number;
  /** The longest a result waits before it is written, ms. */
  readonly everyMs: number;
  /**
   * Called after each written batch with the counts so far and those at this worker's start ({@link counts}): their
   * difference is what this worker finished (a resumed run's earlier items are in both).
   */
  readonly onProgress?: ((counts: RunCounts, atStart: RunCounts) => void) | undefined;
  /** Called on the first write that fails (later results are still attempted). */
  readonly onError: (err: unknown) => void;
  readonly log: Logger;
}

/** Buffers item outcomes and writes them in order, one batch after the other. */
export class ResultWriter {
  readonly #o: ResultWriterOptions;
  #counts: RunCounts;
  #buffer: PendingResult[] = [];
  #writing: Promise<void> = Promise.resolve();
  #error: unknown;
  #timer: NodeJS.Timeout | undefined;

  constructor(o: ResultWriterOptions) {
    this.#o = o;
    this.#counts = o.counts;
  }

  /** The counts as written so far. */
  get counts(): RunCounts {
    return this.#counts;
  }

  /** The first write error, if any. */
  get error(): unknown {
    return this.#error;
  }

  /** Queues one item's outcome: written with a full batch, or within `everyMs`. */
  record(itemId: number, outcome: ItemOutcome): void {
    this.#buffer.push({ itemId, outcome });
    if (this.#buffer.length >= this.#o.batchSize) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), this.#o.everyMs);
  }

  /** Writes what waits now; resolves when every batch queued so far is written (never rejects). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#buffer;
    this.#buffer = [];
    if (batch.length === 0) return this.#writing;
    this.#writing = this.#writing.then(() => this.#write(batch));
    return this.#writing;
  }

  async #write(batch: readonly PendingResult[]): Promise<void> {
    try {
      const written = await this.#o.write(batch);
      for (const { itemId, outcome } of batch) {
        if (!written.has(itemId)) {
          this.#o.log.info({ itemId }, 'item already finished by another worker: nothing written');
          continue;
        }
        this.#counts = countOutcome(this.#counts, outcome);
      }
      if (written.size > 0) {
        // Committed: a process killed after this line loses none of these results (tests wait for it).
        this.#o.log.debug(
          { written: written.size, done: this.#counts.done, failed: this.#counts.failed },
          'results stored',
        );
        this.#o.onProgress?.(this.#counts, this.#o.counts);
      }
    } catch (err) {
      if (this.#error === undefined) {
        this.#error = err;
        this.#o.onError(err);
      }
    }
  }
}
