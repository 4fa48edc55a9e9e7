/** workingMs: a run's wall time is the sum of its working spans, not the idle time between them. */
import { describe, expect, it } from 'vitest';
import { IDLE_GAP_MS, workingMs } from '../../../src/eval/summary.ts';

const t0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const at = (s: number) => new Date(t0 + s * 1000);
/** Items finishing every `step` s from `from` to `to`, each answer taking `lat` s. */
const items = (from: number, to: number, step: number, lat: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, k) => ({
    finishedAt: at(from + k * step),
    latencyMs: lat * 1000,
  }));

describe('workingMs', () => {
  it('Ctrl-C after 50 s, idle 5 min, resumed for 40 s: 90 s, not 4 min 10 s+', () => {
    const before = items(2, 50, 2, 2);
    const after = items(352, 390, 2, 2);
    expect(workingMs(at(0), at(390), [...after, ...before])).toBe(90_000);
  });

  it('a run worked on without a pause gets end − start', () => {
    expect(workingMs(at(0), at(120), items(1, 119, 1, 3))).toBe(120_000);
    // Recorded answers (latency 0) finishing close together count too.
    expect(workingMs(at(0), at(10), items(0, 10, 0.5, 0))).toBe(10_000);
  });

  it('a long answer call counts whole; an idle tail before a cancel does not', () => {
    expect(workingMs(at(0), at(200), [{ finishedAt: at(200), latencyMs: 195_000 }])).toBe(200_000);
    expect(workingMs(at(0), at(3600), items(1, 30, 1, 1))).toBe(30_000);
    expect(IDLE_GAP_MS).toBe(60_000);
  });
});
