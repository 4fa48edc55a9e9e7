import { describe, expect, it } from 'vitest';
import type { ArenaService, ReconcileReport } from '../../../src/arena/service.ts';
import { Rereads } from '../../../src/bot/rereads.ts';
import { silentLogger } from '../../../src/core/logger.ts';

/** Lets the promise chains move on (no timers involved). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** An arena whose re-reads wait until the test ends them; it counts how many run at once. */
function slowArena() {
  const waiting: (() => void)[] = [];
  const state = { started: 0, running: 0, most: 0 };
  const arena = {
    platformNames: ['discord'],
    reconcile: async (): Promise<ReconcileReport> => {
      state.started++;
      state.running++;
      state.most = Math.max(state.most, state.running);
      await new Promise<void>((r) => waiting.push(r));
      state.running--;
      return { battles: 0, added: 0, removed: 0, skipped: 0, withdrawn: 0 };
    },
  } as unknown as ArenaService;
  /** Ends the running re-read, then lets the promise chains move on. */
  const endPass = async () => {
    for (const r of waiting.splice(0)) r();
    await settle();
  };
  return { arena, state, endPass };
}

describe('Rereads', () => {
  it('runs one pass per platform at a time, even when two requests come before the first pass starts', async () => {
    const { arena, state, endPass } = slowArena();
    const rereads = new Rereads({ arena, logger: silentLogger, everyMs: 0 });
    // Two requests in the same turn (a gap and the periodic round).
    void rereads.request('discord', 'reconnect');
    void rereads.request('discord', 'interval');
    await settle();
    expect(state.started).toBe(1);
    await endPass(); // the first pass ends; the second one runs
    expect(state.started).toBe(2);
    // One more request while the second pass runs: it waits for that pass.
    void rereads.request('discord', 'reconnect');
    await settle();
    expect(state.running).toBe(1);
    expect(state.started).toBe(2);
    await endPass();
    expect(state.started).toBe(3);
    await endPass();
    await rereads.idle();
    expect(state.most).toBe(1);
    expect(state.running).toBe(0);
  });

  it('a request during a pass runs one more pass after it, and further requests join that one', async () => {
    const { arena, state, endPass } = slowArena();
    const rereads = new Rereads({ arena, logger: silentLogger, everyMs: 0 });
    const first = rereads.request('discord', 'reconnect');
    await settle();
    expect(state.started).toBe(1);
    const second = rereads.request('discord', 'interval');
    const third = rereads.request('discord', 'reconnect');
    expect(third).toBe(second);
    await endPass();
    await endPass();
    await Promise.all([first, second, third]);
    expect(state.started).toBe(2);
    expect(state.most).toBe(1);
  });

  it('stop waits for every pass that was asked for', async () => {
    const { arena, state, endPass } = slowArena();
    const rereads = new Rereads({ arena, logger: silentLogger, everyMs: 0 });
    void rereads.request('discord', 'reconnect');
    void rereads.request('discord', 'interval');
    await settle();
    await endPass(); // the first pass ends; the second one runs
    expect(state.running).toBe(1);
    let stopped = false;
    const stop = rereads.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    await endPass();
    await stop;
    expect(state.running).toBe(0);
  });
});
