/**
 * A worker's lease on a run (eval/run-lease): claims ahead of need, nothing handed out once stopped, the
 * heartbeat (renewal, cancellation noticed once, progress; a failed beat is not fatal), and claims of a plan whose
 * rest is still being stored (`afterPlan`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src/core/logger.ts';
import { afterPlan, type LeaseStore, RunLease } from '../../../src/eval/run-lease.ts';

/** A store holding items 1..n; records what was asked of it. */
function store(n: number) {
  let next = 1;
  const log: string[] = [];
  const s = {
    log,
    cancelled: false,
    renewFails: false,
    claim: async (limit: number) => {
      log.push(`claim ${limit}`);
      const ids: number[] = [];
      while (ids.length < limit && next <= n) ids.push(next++);
      return ids;
    },
    renew: async () => {
      log.push('renew');
      if (s.renewFails) throw new Error('connection lost');
    },
    isCancelled: async () => s.cancelled,
    storeProgress: async () => {
      log.push('progress');
    },
  };
  const port: LeaseStore = {
    claim: s.claim,
    renew: s.renew,
    cancelled: s.isCancelled,
    storeProgress: s.storeProgress,
  };
  return { s, port };
}

function lease(
  port: LeaseStore,
  stop = new AbortController(),
  onCancel: () => void = () => undefined,
) {
  return new RunLease(port, {
    batch: 4,
    refillBelow: 2,
    beatEveryMs: 1000,
    signal: stop.signal,
    onCancel,
    log: silentLogger,
  });
}

describe('RunLease claims', () => {
  it('hands out every item once, claiming the next batch before the last one is taken', async () => {
    const { s, port } = store(6);
    const l = lease(port);
    const got: number[] = [];
    for (;;) {
      const id = await l.next();
      if (id === undefined) break;
      got.push(id);
    }
    await l.close();
    expect(got).toEqual([1, 2, 3, 4, 5, 6]);
    // The second claim is asked as the batch runs low (fewer than 2 waiting), the third finds nothing.
    expect(s.log.filter((e) => e.startsWith('claim'))).toEqual(['claim 4', 'claim 4', 'claim 4']);
  });

  it('hands out nothing once stopped, even with claimed items waiting', async () => {
    const { port } = store(10);
    const stop = new AbortController();
    const l = lease(port, stop);
    expect(await l.next()).toBe(1);
    stop.abort();
    expect(await l.next()).toBeUndefined();
    await l.close();
  });

  it('a failed claim is thrown to the caller that waits for it', async () => {
    const { port } = store(1);
    const l = lease({
      ...port,
      claim: async () => {
        throw new Error('claim refused');
      },
    });
    await expect(l.next()).rejects.toThrow('claim refused');
    await l.close();
  });
});

describe('RunLease heartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renews, notices a cancellation once, stores progress; a failed beat is logged and the next one runs', async () => {
    const { s, port } = store(0);
    let cancels = 0;
    const l = lease(port, new AbortController(), () => cancels++);
    await vi.advanceTimersByTimeAsync(999);
    expect(s.log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.log).toEqual(['renew', 'progress']);
    s.renewFails = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.log).toEqual(['renew', 'progress', 'renew']);
    s.renewFails = false;
    s.cancelled = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(cancels).toBe(1);
    expect(l.cancelled).toBe(true);
    await l.close();
    const beats = s.log.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.log).toHaveLength(beats); // closed: no beat after close
  });
});

/** A promise settled from outside. */
function deferred() {
  let resolve = () => {};
  let reject: (err: Error) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('afterPlan: a plan stored in stages', () => {
  it('a claim that finds nothing while the rest is stored waits for it and claims the rest', async () => {
    const { s, port } = store(3); // the first stage: items 1..3
    const rest = deferred();
    const staged = afterPlan(port, rest.promise);
    expect(await staged.claim(5)).toEqual([1, 2, 3]);
    let got: readonly number[] | undefined;
    const waiting = staged.claim(5).then((ids) => {
      got = ids;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(got).toBeUndefined(); // without the wait, [] here would end the run with its rest unplanned
    let stored = false;
    const progress = staged.storeProgress().then(() => {
      stored = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(stored).toBe(false); // a total stored now would count the first stage only
    // The rest is planned: items 4..5.
    const more = [4, 5];
    port.claim = async (limit) => {
      s.log.push(`claim ${limit}`);
      return more.splice(0, limit);
    };
    rest.resolve();
    await Promise.all([waiting, progress]);
    expect(got).toEqual([4, 5]);
    expect(stored).toBe(true);
    expect(await staged.claim(5)).toEqual([]); // planned and claimed: nothing left, at once
  });

  it('a rest that fails is the error of the claim that waits for it', async () => {
    const { port } = store(0);
    const rest = deferred();
    const staged = afterPlan(port, rest.promise);
    const claim = staged.claim(2);
    rest.reject(new Error('disk full'));
    await expect(claim).rejects.toThrow('disk full');
  });
});
