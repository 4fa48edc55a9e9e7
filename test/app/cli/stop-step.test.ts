/**
 * A long-lived process's shutdown waits for each step a bounded time (src/cli/serve.ts `stopStep`): a step that
 * never ends is logged by name and left behind, a failing one is logged, and neither holds up the next step.
 */
import { describe, expect, it } from 'vitest';
import { stopStep } from '../../../src/cli/serve.ts';

function recorder() {
  const lines: { obj: unknown; msg: string }[] = [];
  return { lines, error: (obj: object, msg: string) => void lines.push({ obj, msg }) };
}

describe('shutdown steps', () => {
  it('a step that ends is waited for and logs nothing', async () => {
    const log = recorder();
    let done = false;
    const ok = await stopStep(
      'the database',
      async () => {
        await new Promise((r) => setImmediate(r));
        done = true;
      },
      log,
      60_000,
    );
    expect([ok, done, log.lines]).toEqual([true, true, []]);
  });

  it('a step that never ends is logged by name and left behind', async () => {
    const log = recorder();
    const ok = await stopStep('the board thread', () => new Promise(() => {}), log, 5);
    expect(ok).toBe(false);
    expect(log.lines).toEqual([
      {
        obj: { step: 'the board thread', waitedMs: 5 },
        msg: 'shutdown: the board thread did not stop in 0.005 s; going on',
      },
    ]);
  });

  it('a step that fails is logged and counts as ended', async () => {
    const log = recorder();
    const err = new Error('connection terminated');
    const ok = await stopStep('the HTTP server', () => Promise.reject(err), log, 60_000);
    expect(ok).toBe(true);
    expect(log.lines).toEqual([{ obj: { err }, msg: 'shutdown: stopping the HTTP server failed' }]);
  });
});
