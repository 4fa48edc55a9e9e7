/**
 * @module leaderboard/board-worker
 * Worker-thread entry: computes boards and renders charts off the chat event loop.
 * Receives `{ id, kind: 'board', input, seed, opts, title, maxRows?, locale? }` (board + its chart), `{ id, kind:
 * 'chart', rows, title, notes, maxRows?, locale? }` or `{ id, kind: 'style', battles, seed, rounds }` (style-controlled ratings); answers
 * `{ id, ok: true, board?, png?, style?, ms }` or `{ id, ok: false, error }`. Its `workerData.fontFolder` is
 * where the charts' subset fonts go (made and removed by the thread's owner, leaderboard/off-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type BoardInput, type BoardOptions, computeBoard } from '../aggregate/index.ts';
import { createRng } from '../core/rng.ts';
import type { Locale } from '../i18n/index.ts';
import { bootstrapStyleControl, type StyleBattle } from '../rating/index.ts';
import { type ChartRow, renderBoardPng } from './chart.ts';
import { useFontFolder } from './font-subset.ts';
import { chartNotes, chartRows } from './views.ts';

type Job =
  | {
      readonly id: number;
      readonly kind: 'board';
      readonly input: BoardInput;
      readonly seed: number;
      readonly opts: BoardOptions;
      readonly title: string;
      readonly maxRows?: number;
      readonly locale?: Locale;
    }
  | {
      readonly id: number;
      readonly kind: 'chart';
      readonly rows: ChartRow[];
      readonly title: string;
      readonly notes?: string[];
      readonly maxRows?: number;
      readonly locale?: Locale;
    }
  | {
      readonly id: number;
      readonly kind: 'style';
      readonly battles: StyleBattle[];
      readonly seed: number;
      readonly rounds: number;
    };

// The subset fonts go into the folder the thread's owner made and removes (leaderboard/off-thread.ts).
const given = (workerData as { fontFolder?: unknown } | null)?.fontFolder;
if (typeof given === 'string') useFontFolder(given);

parentPort?.on('message', (job: Job) => {
  const t0 = performance.now();
  void (async () => {
    try {
      if (job.kind === 'board') {
        const board = computeBoard(job.input, createRng(job.seed), job.opts);
        const ms = performance.now() - t0;
        const locale = job.locale ?? 'en';
        const png = await renderBoardPng(chartRows(board, false, locale), {
          title: job.title,
          notes: chartNotes(board, locale),
          locale,
          ...(job.maxRows !== undefined ? { maxRows: job.maxRows } : {}),
        });
        parentPort?.postMessage({ id: job.id, ok: true, board, png, ms });
      } else if (job.kind === 'style') {
        const style = bootstrapStyleControl(job.battles, createRng(job.seed), job.rounds);
        parentPort?.postMessage({ id: job.id, ok: true, style, ms: performance.now() - t0 });
      } else {
        const png = await renderBoardPng(job.rows, {
          title: job.title,
          notes: job.notes ?? [],
          locale: job.locale ?? 'en',
          ...(job.maxRows !== undefined ? { maxRows: job.maxRows } : {}),
        });
        parentPort?.postMessage({ id: job.id, ok: true, png, ms: performance.now() - t0 });
      }
    } catch (err) {
      parentPort?.postMessage({
        id: job.id,
        ok: false,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
  })();
});
