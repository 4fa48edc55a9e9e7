/**
 * @module cli/eval
 * `zhujiu eval --model NAME --suite NAME [--limit N] [--json]`: runs an evaluation in the foreground. A progress
 * bar on a terminal (cli-progress), plain progress lines otherwise (at most one per 5 s), then the summary table,
 * or with `--json` exactly `{"run","model","suite","datasets":[{"dataset","ability","method","metric","profile",
 * "score","n","earned","possible","failures"}]}` on stdout. A run of the same model and suite left active by a
 * process that stopped (Ctrl-C or SIGTERM: at once; killed: at once on the embedded database, whose folder one
 * process holds (main.ts takes such runs back when it opens it), else once its heartbeat is a lease old) is
 * resumed instead of refused; one still worked on is refused. Ctrl-C stops asking, gives the claimed items back and marks the run
 * as nobody's, so the same command resumes it at once; SIGTERM and SIGHUP (the terminal was closed) do the same,
 * and so does an unexpected error (thrown, or an exception nothing caught), which is then raised. The terminal gets
 * its cursor and line wrap back on every way out (cli/terminal.ts).
 */

import type { LoadedConfig } from '../config/loader.ts';
import { AppError, levelOf } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import {
  cancelledText,
  evalRefusalText,
  evalRefusalsText as refusalsText,
} from '../eval/refusal.ts';
import type { RequestsAhead } from '../eval/requests-ahead.ts';
import type { PreparedDataset } from '../eval/types.ts';
import { abilityText, type Locale, runStatusText, t } from '../i18n/index.ts';
import { modelFlagError } from '../import/formats/sniff.ts';
import type { RunCounts } from '../storage/eval-runs.ts';
import { type CliDeps, cliLocale, openCommandRuntime } from './deps.ts';
import { type CliIo, cutToColumns, padColumns, requestExit, textWidth } from './io.ts';
import { guardTerminal } from './terminal.ts';

/** The signals that stop a foreground run (SIGHUP: its terminal was closed). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Flags of `zhujiu eval`. */
export interface EvalOptions {
  readonly model: string;
  readonly suite: string;
  readonly limit?: number;
  readonly json?: boolean;
}

/**
 * Runs `zhujiu eval --cancel RUN`: cancels an active run (one in the foreground of another process stops at its
 * next heartbeat; one left by a stopped process is simply ended).
 * @throws AppError `not_found` (no such run), `conflict` (the run already ended).
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runEvalCancel(io: CliIo, runId: number, deps: CliDeps): Promise<void> {
  const locale = cliLocale(deps);
  const { createEvalRuntime } = await import('../main.ts');
  const rt = deps.rt ?? (await openCommandRuntime(deps, {}));
  const evr = await createEvalRuntime(rt, { queue: false, worker: false });
  try {
    const run = await evr.evals.get(runId);
    if (!run) {
      const recent = (await evr.evals.status(5)).map((x) =>
        t(locale, 'cli.eval.recentRun', {
          id: x.id,
          model: x.model,
          suite: x.suite,
          status: runStatusText(x.status, locale),
        }),
      );
      throw new AppError(
        'not_found',
        t(locale, 'cli.eval.noSuchRun', {
          run: runId,
          recent: recent.join(t(locale, 'board.list.sep')) || t(locale, 'cli.eval.none'),
        }),
      );
    }
    const r = await evr.evals.cancel(runId);
    if (!r.ok) throw new AppError('conflict', evalRefusalText(r.refusal, locale, 'cli'));
    io.out(cancelledText(r.run, locale));
  } finally {
    await evr.stop();
    if (!deps.rt) await rt.close();
  }
}

/** The widest progress bar, in cells (cli-progress's default); narrower terminals get a shorter one. */
const MAX_BAR_CELLS = 40;
/** Below this many cells the bar says too little: the line goes without it. */
const MIN_BAR_CELLS = 5;

/**
 * The progress bar's line: `run #N [████░░] 3/20 items | 0 failed | 12s left`; until the datasets are loaded the
 * total is unknown, so it reads `run #N preparing… (loading the datasets)`, never a full bar at 0/0. The line fits
 * the terminal's width (cli-progress's `maxWidth`: the columns of the bar's stream, read at each redraw, so a
 * resized window is followed) less one column, so it never wraps: the bar takes what the words leave, at most
 * {@link MAX_BAR_CELLS} cells; under {@link MIN_BAR_CELLS} the line has no bar, and what still does not fit is cut.
 */
export async function progressFormat(
  runId: number,
  locale: Locale = 'en',
): Promise<import('cli-progress').GenericFormatter> {
  // cli-progress is CommonJS: Node's ESM loader finds none of its names but `default` for sure (`Format` is not
  // detected at all), so its exports are taken from `default`, as everywhere it is loaded.
  const { Format } = (await import('cli-progress')).default;
  // cli-progress's own placeholders ({bar}, {value}…) are parameters of the catalogue's message, given back as such.
  const placeholders = {
    run: runId,
    bar: '{bar}',
    value: '{value}',
    total: '{total}',
    failed: '{failed}',
    eta: '{eta_formatted}',
  };
  const barFormat = t(locale, 'cli.eval.bar', placeholders);
  const barless = t(locale, 'cli.eval.barless', placeholders);
  const formatTime = (secs: number) => etaText(secs, locale);
  return (opts, params, payload) => {
    // One column spare: a line that fills the last column makes some terminals wrap.
    const columns = Math.max(1, (params.maxWidth || 80) - 1);
    if (params.total <= 0)
      return cutToColumns(t(locale, 'cli.eval.preparing', { run: runId }), columns);
    const line = (format: string, barsize: number) =>
      Format.Formatter({ ...opts, format, formatTime, barsize }, params, payload);
    const cells = Math.min(
      MAX_BAR_CELLS,
      opts.barsize ?? MAX_BAR_CELLS,
      columns - textWidth(line(barFormat, 0)),
    );
    return cells >= MIN_BAR_CELLS
      ? line(barFormat, cells)
      : cutToColumns(line(barless, 0), columns);
  };
}

/**
 * `resuming run #7 (left running by a process that stopped)` in `locale`, the status in words (进行中 in Chinese;
 * one the catalogue does not name stays as stored).
 */
export function resumingLine(runId: number, status: string, locale: Locale): string {
  return t(locale, 'cli.eval.resuming', { run: runId, status: runStatusText(status, locale) });
}

/**
 * The progress line printed when stderr is no terminal, in `locale`: `run #1: 2000/2000 items, 0 failed, 252.4
 * items/s`. The rate counts only the items this process finished (those of `counts` beyond `atStart`, the counts
 * when it took the run: a resumed run's earlier items are in both) over `secs`, this process's seconds on the run.
 */
export function progressLine(
  runId: number,
  counts: RunCounts,
  atStart: RunCounts,
  secs: number,
  locale: Locale,
): string {
  const done = counts.done + counts.failed;
  const mine = Math.max(0, done - atStart.done - atStart.failed);
  const rate = secs > 0 ? mine / secs : 0;
  return t(locale, 'cli.eval.progress', {
    run: runId,
    done,
    total: counts.total,
    failed: counts.failed,
    rate: rate.toFixed(1),
  });
}

/**
 * The time left on the progress bar, in `locale`: `45s`, `2m05s`, `1h02m` (`45 秒`, `2 分 05 秒`, `1 小时 02 分`),
 * rounded to 5 s above 10 s (cli-progress rounds the seconds apart from the minutes, which printed 119 s as
 * `1m60s`). A time not known yet (NaN, Infinity) is `∞`.
 */
export function etaText(secs: number, locale: Locale): string {
  if (!Number.isFinite(secs)) return '∞';
  const total = secs > 10 ? 5 * Math.round(secs / 5) : Math.max(0, Math.round(secs));
  const pad = (n: number) => String(n).padStart(2, '0');
  if (total >= 3600)
    return t(locale, 'cli.eval.eta.hours', {
      h: Math.floor(total / 3600),
      m: pad(Math.floor((total % 3600) / 60)),
    });
  if (total >= 60)
    return t(locale, 'cli.eval.eta.minutes', { m: Math.floor(total / 60), s: pad(total % 60) });
  return t(locale, 'cli.eval.eta.seconds', { s: total });
}

/** The part of a progress bar the log gate needs (cli-progress's SingleBar). */
interface Redrawable {
  render(forceRendering?: boolean): void;
}

/**
 * Keeps logs from overwriting the progress bar: while a bar is shown, a log line first clears the
 * bar's line and the bar is drawn again after it; the per-request failure warnings ("request failed: …", one per
 * item) are counted instead of printed, since the summary names each cause once with its items. With LOG_LEVEL
 * set or logs going to a file, every line is written as usual.
 */
export class BarLogGate {
  /** The bar being shown, if any. */
  bar: Redrawable | undefined;
  /** Per-request failure lines kept off the terminal. */
  held = 0;
  readonly #stream: NodeJS.WritableStream;
  /** Keep per-request failure lines off the terminal (false when LOG_LEVEL asks for every line). */
  hideRequestFailures: boolean;

  constructor(stream: NodeJS.WritableStream, hideRequestFailures: boolean) {
    this.#stream = stream;
    this.hideRequestFailures = hideRequestFailures;
  }

  /** The wrapper {@link openRuntime} applies to the log destination. */
  wrap = <D extends { write(s: string): unknown }>(dest: D, toTerminal: boolean): D => {
    if (!toTerminal) return dest;
    const write = (s: string): unknown => {
      if (this.hideRequestFailures && /request failed: /u.test(s) && !/"level":50/u.test(s)) {
        this.held += 1;
        return true;
      }
      if (!this.bar) return dest.write(s);
      this.#stream.write('\r\u001b[2K'); // clear the bar's line
      const r = dest.write(s);
      this.bar.render(true);
      return r;
    };
    return new Proxy(dest, {
      get: (t, k) => (k === 'write' ? write : Reflect.get(t, k)),
    });
  };
}

/**
 * Starts loading the run's modules (the eval service, its runner and the OpenAI SDK, ~0.3 s) without waiting for
 * them, so that they load while the database opens, which on a first start waits for the disk to take the prepared
 * folder's files (storage/tar-unpack). A failure shows where they are needed (main.ts `createEvalRuntime`).
 */
function preloadRunModules(): void {
  import('../eval/service.ts').catch(() => undefined);
}

/** What `zhujiu eval` starts once its configuration is loaded, while the database opens ({@link startBeforeDatabase}). */
interface BeforeDatabase {
  /** RuntimeOptions.onConfig: starts preparing the datasets. */
  readonly onConfig: (config: LoadedConfig, logger: Logger) => void;
  /** RuntimeOptions.onDataFolder: on a new database, starts sending the run's first requests. */
  readonly onDataFolder: (isNew: boolean) => void;
  /** The suite's datasets being prepared from their files (eval/service `StartRequest.prepared`). */
  readonly prepared: Promise<readonly PreparedDataset[]> | undefined;
  /**
   * The model's client sending the run's first requests ahead, when it does (eval/requests-ahead); read once the
   * database is open.
   */
  readonly ahead: Promise<RequestsAhead | undefined>;
  /** Sends nothing more ahead and aborts what is on its way (the command is ending). */
  stop(): void;
  /** The database could not be opened: {@link stop}, then `err` is thrown again. */
  failed(err: unknown): never;
}

/**
 * The work of `zhujiu eval` `o` started while the database opens: the suite's datasets are prepared from their
 * files once the configuration is loaded, and once this process holds the embedded database's folder and finds
 * it empty (the database will be new: no runs, no stored answers), the run's first requests are sent
 * (eval/requests-ahead). Nothing is sent ahead with DATABASE_URL, or by a process refused the folder.
 */
function startBeforeDatabase(o: EvalOptions): BeforeDatabase {
  let prepared: Promise<readonly PreparedDataset[]> | undefined;
  let started: { config: LoadedConfig; logger: Logger } | undefined;
  let isNew: (value: boolean) => void = () => undefined;
  const newDatabase = new Promise<boolean>((resolve) => {
    isNew = resolve;
  });
  const ahead = newDatabase.then(async (fresh) => {
    if (!fresh || !started || !prepared) return undefined;
    const { config, logger } = started;
    return (await import('../eval/requests-ahead.ts')).sendRequestsAhead({
      config,
      judgeModel: config.app.judge.model,
      model: o.model,
      suite: o.suite,
      limit: o.limit ?? null,
      datasets: prepared,
      maxPromptChars: config.app.eval.max_prompt_chars,
      newDatabase: fresh,
      logger,
    });
  });
  const stop = () => {
    isNew(false);
    void ahead.then((a) => a?.stop());
  };
  return {
    onConfig: (config, logger) => {
      started = { config, logger };
      prepared = import('../eval/prepare-suite.ts').then((m) =>
        m.prepareSuiteDatasets(config, o.suite),
      );
      prepared.catch(() => undefined); // its failure is the start's to report (or nobody's, when not used)
    },
    onDataFolder: (fresh) => isNew(fresh),
    get prepared() {
      return prepared;
    },
    get ahead() {
      isNew(false); // the database is open: a folder never reported (DATABASE_URL) is no new embedded one
      return ahead;
    },
    stop,
    failed: (err) => {
      stop();
      throw err;
    },
  };
}

/**
 * The flags of `zhujiu eval` (without `--cancel`) before anything opens: `--model` and `--suite` are required
 * (`usage` is called with commander's wording, exit 2), and the model's name keeps the one rule for model names
 * (config/model-name.ts), as `import outputs --model` applies it, so a name no command can store is refused before
 * it is looked up and no suggested fix names it again.
 * @throws AppError `input_invalid` (exit 2) for a name the rule refuses.
 */
export function checkEvalFlags(o: Partial<EvalOptions>, usage: (message: string) => never): void {
  for (const [flag, v] of [
    ['--model <name>', o.model],
    ['--suite <name>', o.suite],
  ] as const) {
    if (!v) usage(`error: required option '${flag}' not specified`);
  }
  const nameError = modelFlagError('--model', o.model as string);
  if (nameError !== undefined) throw nameError;
}

type SummaryModule = typeof import('../eval/summary.ts');
type RunSummary = NonNullable<Awaited<ReturnType<SummaryModule['runSummary']>>>;

/** The first line of each language's text of a run's error (the CLI's last line says one line). */
function firstLines(
  texts: Readonly<Record<string, string>> | null,
): Readonly<Record<string, string>> | null {
  if (texts === null) return null;
  return Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, v.split('\n')[0] ?? '']));
}

/**
 * The last line of a run that is an error for scripts (it failed, was cancelled, scored nothing because every item
 * failed, or failed more than `max` of its items), or undefined.
 */
function runVerdict(
  sm: SummaryModule,
  s: RunSummary,
  max: number,
  locale: Locale,
): string | undefined {
  const run = s.run.id;
  const scored = s.datasets.reduce((a, d) => a + d.n, 0);
  const failedItems = s.datasets.reduce((a, d) => a + d.failures, 0);
  const tooMany = sm.failureRateProblem(s, max, locale);
  if (s.run.status === 'failed')
    return s.run.error
      ? t(locale, 'cli.eval.failedWith', {
          run,
          error: sm.runErrorText(
            s.run.error.split('\n')[0] as string,
            locale,
            firstLines(s.run.errorTexts),
          ),
        })
      : t(locale, 'cli.eval.failed', { run });
  if (s.run.status === 'cancelled') return t(locale, 'cli.eval.cancelled', { run });
  if (scored === 0 && failedItems > 0)
    return t(locale, 'cli.eval.allFailed', { run, n: failedItems });
  if (tooMany !== undefined) return t(locale, 'cli.eval.tooMany', { run, problem: tooMany });
  return undefined;
}

/** The summary of a finished run on stdout: its line, the datasets' table, tokens and time, failure causes. */
function printSummary(io: CliIo, sm: SummaryModule, s: RunSummary, locale: Locale): void {
  const { id: run, model, suite } = s.run;
  io.out(t(locale, 'cli.eval.summary', { run, model, suite, ended: sm.endedText(s, locale) }));
  const rows = s.datasets.map((d) => [
    d.dataset,
    abilityText(d.ability, locale),
    d.metric,
    d.profile,
    d.score === null ? '—' : d.score.toFixed(2),
    sm.itemsCell(d, locale),
    `${+d.earned.toFixed(2)}/${+d.possible.toFixed(2)}`,
    String(d.failures),
  ]);
  const head = t(locale, 'cli.eval.tableHead').split('|');
  const widths = head.map((h, i) =>
    Math.max(textWidth(h), ...rows.map((r) => textWidth(r[i] ?? ''))),
  );
  const line = (cells: string[]) => cells.map((c, i) => padColumns(c, widths[i] ?? 0)).join('  ');
  io.out(line(head));
  for (const r of rows) io.out(line(r));
  const wall = sm.formatDuration(s.wallMs ?? 0, locale);
  io.out(
    t(locale, 'cli.eval.tokens', { prompt: s.promptTokens, completion: s.completionTokens, wall }),
  );
  for (const l of sm.spanFigureLines(s, locale)) io.out(l);
  for (const f of s.failureReasons)
    io.out(t(locale, 'cli.eval.failures', { line: sm.failureLine(f, locale) }));
}

/**
 * Runs `zhujiu eval`.
 * Exit status (through `process.exitCode`): 130 after Ctrl-C, SIGTERM or SIGHUP (the run stays to resume), 1 when
 * the run failed, was cancelled, every item failed, or more than `eval.max_failure_rate` of its items ended unscored
 * (answer and judge failures alike; the last line on stderr says which), else 0. The first line of the summary says
 * "succeeded" only when every item was scored, else "finished with N judge failures" (and/or answer failures). An
 * unexpected error leaves the run to resume and is rethrown (runCli prints it and exits 1).
 * @throws AppError `input_invalid` (an unknown suite or model, listing the valid names, closest first, with a
 *   "did you mean"; exit 2), `conflict` (a run is active),
 *   `config_invalid` (a suite that needs the judge without a usable `judge.model`: no run is created).
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runEval(io: CliIo, o: EvalOptions, deps: CliDeps): Promise<void> {
  preloadRunModules();
  const early = startBeforeDatabase(o);
  // Ctrl-C, SIGTERM and SIGHUP (the terminal was closed) stop the command the same way from its first moment:
  // nothing more is sent ahead, the answers that came ahead are kept (docs/architecture.md, "A first eval"), and
  // a repeat is ignored while it winds down (it would kill the process with the run still claimed, those answers
  // unstored and the terminal's modes changed).
  const stop = new AbortController();
  const onSignal = () => {
    stop.abort();
    early.stop();
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  // An exception nothing caught (thrown from a timer, such as the bar's redraw, or a rejection nobody awaited)
  // would kill the process with the run claimed: it stops the run instead, and is raised once the run is left.
  let crash: { readonly err: unknown } | undefined;
  const onCrash = (err: unknown) => {
    crash ??= { err };
    stop.abort();
  };
  let rt = deps.rt;
  let evr: import('../main.ts').EvalRuntime | undefined;
  /** The run this process took (created or resumed), released if anything below throws. */
  let taken: number | undefined;
  try {
    const { createEvalRuntime } = await import('../main.ts');
    const sm = await import('../eval/summary.ts');
    const tty = deps.tty ?? Boolean(process.stderr.isTTY);
    const locale = cliLocale(deps);
    // Per-request failures are summarised at the end; LOG_LEVEL asks for every line.
    const gate = new BarLogGate(process.stderr, true);
    rt ??= await openCommandRuntime(deps, {
      wrapLogs: gate.wrap,
      onConfig: early.onConfig,
      onDataFolder: early.onDataFolder,
      pgliteThread: true,
    }).catch(early.failed);
    gate.hideRequestFailures = !rt.config.env.LOG_LEVEL;
    const ahead = await early.ahead;
    // Stopped before the run could start: a run is made (and left to resume) only to keep answers already paid for.
    if (stop.signal.aborted && !ahead?.answered()) {
      io.err(t(locale, 'cli.eval.stoppedBeforeRun'));
      requestExit(130);
      return;
    }
    evr = await createEvalRuntime(rt, { queue: false, worker: false, ahead });
    const { evals } = evr;
    process.on('uncaughtException', onCrash);
    const started = await startOrRefuse(evals, o, early.prepared, locale);
    const runId = started.run.id;
    taken = runId;
    if (started.resumed) sayResumed(io, locale, runId, started.run, o.limit);

    const t0 = performance.now();
    let bar: import('cli-progress').SingleBar | undefined;
    let lastLine = 0;
    const progress = (c: RunCounts, atStart: RunCounts) => {
      const secs = (performance.now() - t0) / 1000;
      const done = c.done + c.failed;
      if (bar) {
        // Work starts from the items done before (a resumed run's): the time left counts this process's alone.
        if (c === atStart) bar.start(c.total, done, { failed: c.failed });
        else bar.setTotal(c.total);
        bar.update(done, { failed: c.failed });
        return;
      }
      if (c === atStart || (secs - lastLine < 5 && done < c.total)) return;
      lastLine = secs;
      io.err(progressLine(runId, c, atStart, secs, locale));
    };
    // The terminal's modes are given back however this ends (cli/terminal.ts), the bar's own stop() included.
    const term = tty ? guardTerminal(process.stderr) : undefined;
    let outcome: Awaited<ReturnType<typeof evals.execute>>;
    try {
      if (tty) {
        const { SingleBar, Presets } = (await import('cli-progress')).default;
        bar = new SingleBar(
          {
            format: await progressFormat(runId, locale),

            stream: process.stderr,
            hideCursor: true,
          },
          Presets.shades_classic,
        );
        bar.start(0, 0, { failed: 0 });
        gate.bar = bar;
      }
      outcome = await evals.execute(runId, {
        signal: stop.signal,
        onProgress: progress,
      });
    } finally {
      // The bar ends before any other line (Ctrl-C's "stopped", the summary, an error).
      gate.bar = undefined;
      try {
        bar?.stop();
      } finally {
        term?.restore();
      }
    }
    if (crash) throw crash.err;
    if (outcome === 'stopped') {
      io.err(t(locale, 'cli.eval.stopped', { run: runId }));
      requestExit(130);
      return;
    }
    const s = await sm.runSummary(rt.db.db, runId);
    if (!s) throw new AppError('not_found', `run #${runId} vanished`);
    // A run that failed, was cancelled, or scored nothing because every item failed is an error for scripts
    // (exit 1), said on the last line (stderr) after the summary.
    const verdict = runVerdict(sm, s, rt.config.app.eval.max_failure_rate, locale);
    const finish = () => {
      if (verdict === undefined) return;
      io.err(verdict);
      requestExit(1);
    };
    if (o.json) {
      io.out(JSON.stringify(sm.summaryJson(s)));
      finish();
      return;
    }
    printSummary(io, sm, s, locale);
    finish();
  } catch (err) {
    // An unexpected error leaves the run as Ctrl-C does: nobody's, so the same command resumes it at once
    // (a run that finished meanwhile is left as it is).
    if (taken !== undefined) {
      const logger = rt?.logger;
      await evr?.evals.release(taken).catch((e: unknown) => {
        const fields = { err: e, runId: taken };
        if (levelOf(e) === 'info') logger?.info(fields, 'releasing the run failed');
        else logger?.error(fields, 'releasing the run failed');
      });
    }
    throw err;
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
    process.off('uncaughtException', onCrash);
    early.stop();
    await evr?.stop();
    if (!deps.rt) await rt?.close();
  }
}

/**
 * Starts (or resumes) the run of `o` on `evals`, with the datasets being prepared (`prepared`).
 * @throws AppError `input_invalid` (an unknown --suite or --model: a usage mistake, exit 2, README "Command line";
 *   the refusal lists the valid names, closest first), `not_found` (another refusal of the names), `conflict` (a
 *   run of the same model and suite is worked on), `config_invalid` (the run cannot start).
 */
async function startOrRefuse(
  evals: import('../main.ts').EvalRuntime['evals'],
  o: EvalOptions,
  prepared: Promise<readonly PreparedDataset[]> | undefined,
  locale: Locale,
) {
  const valid = await evals.validate(o.model, o.suite);
  if (!valid.ok) {
    const unknown = valid.refusals.some(
      (r) => r.code === 'unknown_suite' || r.code === 'unknown_model',
    );
    throw new AppError(
      unknown ? 'input_invalid' : 'not_found',
      refusalsText(valid.refusals, locale, 'cli'),
    );
  }
  const started = await evals.start({
    model: o.model,
    suite: o.suite,
    limit: o.limit,
    requestedBy: 'cli',
    surface: 'cli',
    prepared,
  });
  if (started.ok) return started;
  const active = started.active;
  throw new AppError(
    active ? 'conflict' : 'config_invalid',
    active
      ? t(locale, 'cli.eval.active', {
          id: active.id,
          model: active.model,
          suite: active.suite,
          status: active.status,
          done: active.done,
          total: active.total,
        })
      : refusalsText(started.refusals, locale, 'cli'),
  );
}

/**
 * On stderr: the run is resumed, and, when `limit` (this command's `--limit`) differs from the limit the run was
 * started with, that the run keeps its own and how to start one with `limit` instead.
 */
function sayResumed(
  io: CliIo,
  locale: Locale,
  runId: number,
  run: { readonly status: string; readonly itemLimit: number | null },
  limit: number | undefined,
): void {
  io.err(resumingLine(runId, run.status, locale));
  if ((limit ?? null) === run.itemLimit) return;
  io.err(
    t(locale, 'cli.eval.resumeLimit', {
      run: runId,
      asked: limit ?? t(locale, 'cli.eval.noLimit'),
      kept: run.itemLimit ?? t(locale, 'cli.eval.noLimit'),
    }),
  );
}
