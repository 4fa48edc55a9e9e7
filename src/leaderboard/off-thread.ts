/**
 * @module leaderboard/off-thread
 * Runs {@link computeBoard} (and charts and style-controlled ratings) in a worker thread so the bot's event loop (votes, gateway heartbeats) never waits
 * for a board. One long-lived worker per process, created on first use and unref'd (it never keeps the process
 * alive); jobs run one at a time in it. The thread writes the charts' subset fonts into a temporary folder made
 * here (leaderboard/font-subset.ts), removed when the thread ends ({@link BoardWorker.close}, or the thread
 * exiting) and at the latest when the process does.
 */
import type { Worker } from 'node:worker_threads';
import type { Board, BoardInput, BoardOptions } from '../aggregate/index.ts';
import { AppError } from '../core/errors.ts';
import { startWorkerBeside } from '../core/worker-thread.ts';
import { installBrokenError } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import type { StyleBattle, StyleControlResult } from '../rating/index.ts';
import type { ChartRow } from './chart.ts';
import { makeFontFolder, removeFontFolder } from './font-subset.ts';

interface Done {
  board?: Board;
  png?: Uint8Array;
  style?: StyleControlResult;
  ms: number;
}
type Pending = {
  resolve: (r: Done) => void;
  reject: (e: Error) => void;
};

/** A worker thread computing boards. */
export class BoardWorker {
  #worker: Worker | undefined;
  /** The temporary folder the thread writes subset fonts to (while it runs). */
  #fontFolder: string | undefined;
  #next = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #module: string | undefined;

  /** @param module the thread's module (default `board-worker`, beside this one); a test names a missing one. */
  constructor(module?: string) {
    this.#module = module;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    // A thread ended by terminate() or by the process's end runs no exit hook: its font folder is made and
    // removed here (leaderboard/font-subset.ts).
    const fontFolder = makeFontFolder();
    let w: Worker;
    try {
      w = startWorkerBeside(import.meta.url, this.#module ?? 'board-worker', {
        workerData: { fontFolder },
      });
    } catch (err) {
      removeFontFolder(fontFolder);
      throw err;
    }
    this.#fontFolder = fontFolder;
    w.unref();
    w.on(
      'message',
      (m: {
        id: number;
        ok: boolean;
        board?: Board;
        png?: Uint8Array;
        style?: StyleControlResult;
        ms?: number;
        error?: string;
      }) => {
        const p = this.#pending.get(m.id);
        if (!p) return;
        this.#pending.delete(m.id);
        if (m.ok)
          p.resolve({
            ...(m.board ? { board: m.board } : {}),
            ...(m.png ? { png: m.png } : {}),
            ...(m.style ? { style: m.style } : {}),
            ms: m.ms ?? 0,
          });
        else p.reject(new AppError('internal', `building the board failed: ${m.error}`));
      },
    );
    const fail = (err: Error) => {
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
      this.#worker = undefined;
    };
    // A module of the thread that cannot be loaded is an incomplete installation, said as such with its fix.
    w.on('error', (err) => fail(installBrokenError(err) ?? err));
    w.on('exit', (code) => {
      removeFontFolder(fontFolder);
      fail(new AppError('internal', `board worker exited (code ${code})`));
    });
    this.#worker = w;
    return w;
  }

  #send(job: Record<string, unknown>): Promise<Done> {
    const w = this.#start();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      w.postMessage({ ...job, id });
    });
  }

  /**
   * Computes a board and its chart (PNG, titled `title`, at most `maxRows` models drawn, its words in `locale`) in
   * the worker thread; `ms` is the board's time.
   */
  async compute(
    input: BoardInput,
    seed: number,
    opts: BoardOptions,
    title: string,
    maxRows?: number,
    locale: Locale = 'en',
  ): Promise<{ board: Board; png: Uint8Array; ms: number }> {
    const r = await this.#send({ kind: 'board', input, seed, opts, title, maxRows, locale });
    if (!r.board || !r.png) throw new AppError('internal', 'the board worker returned no board');
    return { board: r.board, png: r.png, ms: r.ms };
  }

  /**
   * Renders a chart in the worker thread (`notes`: lines under the title; at most `maxRows` models drawn; its own
   * words in `locale`).
   */
  async chart(
    rows: readonly ChartRow[],
    title: string,
    notes: readonly string[] = [],
    maxRows?: number,
    locale: Locale = 'en',
  ): Promise<Uint8Array> {
    const r = await this.#send({ kind: 'chart', rows, title, notes, maxRows, locale });
    if (!r.png) throw new AppError('internal', 'the board worker returned no chart');
    return r.png;
  }

  /** Style-controlled ratings (rating/style-control.ts `bootstrapStyleControl`) in the worker thread. */
  async styleControl(
    battles: readonly StyleBattle[],
    seed: number,
    rounds: number,
  ): Promise<StyleControlResult> {
    const r = await this.#send({ kind: 'style', battles, seed, rounds });
    if (!r.style) throw new AppError('internal', 'the board worker returned no ratings');
    return r.style;
  }

  /** Stops the worker thread (pending jobs fail) and removes its font folder. */
  async close(): Promise<void> {
    const w = this.#worker;
    const folder = this.#fontFolder;
    this.#worker = undefined;
    this.#fontFolder = undefined;
    try {
      if (w) await w.terminate();
    } finally {
      if (folder !== undefined) removeFontFolder(folder);
    }
  }
}
