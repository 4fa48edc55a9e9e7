/** The result writer (eval/run-results): batches, the longest wait, counts, late duplicates, write errors. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src/core/logger.ts';
import { countOutcome, type PendingResult, ResultWriter } from '../../../src/eval/run-results.ts';
import type { ItemOutcome, RunCounts } from '../../../src/storage/eval-runs.ts';

const ZERO: RunCounts = {
  total: 10,
  pending: 10,
  claimed: 0,
  done: 0,
  failed: 0,
  promptTokens: 0,
  completionTokens: 0,
};
const done = (cached = false): ItemOutcome => ({
  kind: 'done',
  responseId: 1,
  cached,
  latencyMs: 3,
  promptTokens: 10,
  completionTokens: 4,
  score: { method: 'metric', metric: 'exact_match', profile: 'default', raw: 1, max: 1 },
});
const failed: ItemOutcome = { kind: 'failed', code: 'timeout', message: 'late', latencyMs: 9 };

describe('countOutcome', () => {
  it('adds a done item with its tokens, a cached one without, a failure to failed', () => {
    expect(countOutcome(ZERO, done())).toMatchObject({
      done: 1,
      promptTokens: 10,
      completionTokens: 4,
    });
    expect(countOutcome(ZERO, done(true))).toMatchObject({
      done: 1,
      promptTokens: 0,
      completionTokens: 0,
    });
    expect(countOutcome(ZERO, failed)).toMatchObject({ done: 0, failed: 1 });
  });
});

describe('ResultWriter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function writer(
    over: { write?: (b: readonly PendingResult[]) => Promise<ReadonlySet<number>> } = {},
  ) {
    const batches: number[][] = [];
    const progress: RunCounts[] = [];
    const errors: unknown[] = [];
    const w = new ResultWriter({
      write:
        over.write ??
        (async (b) => {
          batches.push(b.map((r) => r.itemId));
          return new Set(b.map((r) => r.itemId));
        }),
      counts: ZERO,
      batchSize: 3,
      everyMs: 100,
      onProgress: (c) => progress.push(c),
      onError: (e) => errors.push(e),
      log: silentLogger,
    });
    return { w, batches, progress, errors };
  }

  it('writes a full batch at once and the rest within everyMs', async () => {
    const { w, batches, progress } = writer();
    for (const id of [1, 2, 3, 4]) w.record(id, done());
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1, 2, 3]]);
    await vi.advanceTimersByTimeAsync(99);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1, 2, 3], [4]]);
    expect(progress.map((c) => c.done)).toEqual([3, 4]);
    expect(w.counts.done).toBe(4);
  });

  it("gives each progress the counts at start too: a resumed run's earlier items are not this worker's", async () => {
    const atStart: RunCounts = { ...ZERO, pending: 4, done: 5, failed: 1 };
    const seen: [RunCounts, RunCounts][] = [];
    const w = new ResultWriter({
      write: async (b) => new Set(b.map((r) => r.itemId)),
      counts: atStart,
      batchSize: 2,
      everyMs: 100,
      onProgress: (c, s) => seen.push([c, s]),
      onError: () => {},
      log: silentLogger,
    });
    for (const id of [1, 2]) w.record(id, done());
    await w.flush();
    expect(seen).toHaveLength(1);
    const [c, s] = seen[0] ?? [];
    expect(s).toBe(atStart);
    expect((c?.done ?? 0) + (c?.failed ?? 0) - (s?.done ?? 0) - (s?.failed ?? 0)).toBe(2);
  });

  it('flush writes what waits now; items another worker finished are not counted', async () => {
    const { w, progress } = writer({ write: async () => new Set([2]) });
    w.record(1, done());
    w.record(2, failed);
    await w.flush();
    expect(w.counts).toMatchObject({ done: 0, failed: 1 });
    expect(progress).toHaveLength(1);
  });

  it('reports the first write error once, keeps it, and never rejects', async () => {
    let n = 0;
    const { w, errors } = writer({
      write: async () => {
        throw new Error(`refused ${++n}`);
      },
    });
    w.record(1, done());
    await w.flush();
    w.record(2, done());
    await w.flush();
    expect(errors.map((e) => (e as Error).message)).toEqual(['refused 1']);
    expect((w.error as Error).message).toBe('refused 1');
    expect(w.counts.done).toBe(0);
  });
});
