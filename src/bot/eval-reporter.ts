/**
 * @module bot/eval-reporter
 * Reports evaluation runs in the channel they were asked from: one progress message per run (items done / total,
 * failures, rate, ETA), edited at most every `eval.progress_edit_seconds` and only when its text changed, then a
 * summary message (per dataset: ability, score on the ten-point scale, n, failures; tokens and wall time).
 *
 * Progress is read from the database, not from the worker, so the run may execute in this process or in any
 * `zhujiu worker` process; whichever bot process holds the platform reports. The progress message is a channel
 * message edited with the bot's own token (not the interaction's reply, which Discord lets us edit for 15 minutes
 * only). The summary is posted once: the first process to mark it posted does it; a post the platform refuses
 * gives the mark back, so a later tick posts it.
 */
import type { Kysely } from 'kysely';
import {
  type ChatPlatform,
  type MessageContent,
  type MessageRef,
  markdownLiteral,
} from '../chat/port.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import {
  endedText,
  failureLine,
  failureRateProblem,
  formatDuration,
  itemsCell,
  type RunSummary,
  runSummary,
  spanFigureLines,
} from '../eval/summary.ts';
import {
  claimSummary,
  type RunRow,
  runCounts,
  runsToReport,
  setReportMessage,
  unclaimSummary,
} from '../storage/eval-runs.ts';
import type { Database } from '../storage/schema.ts';

/** The progress line of a run. */
export function progressContent(run: RunRow, now: Date): MessageContent {
  const active = run.status === 'queued' || run.status === 'running';
  const head = `Evaluation run #${run.id}: ${markdownLiteral(run.model)} on ${run.suite}`;
  if (run.status === 'queued' || (run.status === 'running' && run.total === 0)) {
    return { text: `${head}: ${run.status === 'queued' ? 'queued' : 'preparing'}…` };
  }
  const secs = run.startedAt
    ? Math.max(0.001, (now.getTime() - run.startedAt.getTime()) / 1000)
    : 0;
  const rate = secs > 0 ? run.done / secs : 0;
  const left = run.total - run.done;
  const eta = active && rate > 0 ? `, about ${formatDuration((left / rate) * 1000)} left` : '';
  const state = active ? '' : ` (${run.status})`;
  return {
    text:
      `${head}${state}: ${run.done}/${run.total} items, ${run.failed} ${run.failed === 1 ? 'failure' : 'failures'}` +
      `${active ? `, ${rate.toFixed(1)} items/s${eta}` : ''}`,
  };
}

/**
 * The summary message of a finished run: "finished" when every item was scored, "finished with N judge failures"
 * (and/or answer failures) otherwise, and a warning when the failure rate is above `maxFailureRate`
 * (config `eval.max_failure_rate`).
 */
export function summaryContent(s: RunSummary, maxFailureRate?: number): MessageContent {
  const r = s.run;
  const ended =
    r.status === 'succeeded'
      ? endedText(s).replace(/^succeeded$/, 'finished')
      : r.status === 'cancelled'
        ? 'was cancelled'
        : `failed${r.error ? `: ${r.error}` : ''}`;
  const tooMany =
    r.status === 'succeeded' && maxFailureRate !== undefined
      ? failureRateProblem(s, maxFailureRate)
      : undefined;
  const reasons = s.failureReasons.map(failureLine).join('; ');
  const span = spanFigureLines(s).join('; ');
  return {
    text: `Evaluation run #${r.id} ${ended}: ${markdownLiteral(r.model)} on ${r.suite}`,
    title: `Run #${r.id}: ${markdownLiteral(r.model)} on ${r.suite}`,
    table: {
      columns: ['dataset', 'ability', 'score /10', 'n', 'failures'],
      align: ['left', 'left', 'right', 'right', 'right'],
      rows: s.datasets.map((d) => [
        d.dataset,
        d.ability,
        d.score === null ? '—' : d.score.toFixed(2),
        itemsCell(d),
        String(d.failures),
      ]),
    },
    footer:
      `Tokens: ${s.promptTokens} prompt + ${s.completionTokens} completion; wall time ${formatDuration(s.wallMs ?? 0)}.` +
      (span ? ` ${span}.` : '') +
      (reasons ? ` Failures: ${reasons}.` : '') +
      (tooMany ? ` Warning: ${tooMany}; its scores leave those items out.` : ''),
  };
}

/** Options of {@link EvalReporter}. */
export interface EvalReporterOptions {
  readonly db: Kysely<Database>;
  readonly platforms: readonly ChatPlatform[];
  readonly logger: Logger;
  readonly clock: Clock;
  /** Least time between two edits of one message, ms (also the loop interval). */
  readonly editEveryMs: number;
  /** Config `eval.max_failure_rate`: a summary above it says so. */
  readonly maxFailureRate?: number;
}

/** Keeps the progress messages of runs up to date. */
export class EvalReporter {
  readonly #o: EvalReporterOptions;
  readonly #log: Logger;
  readonly #last = new Map<number, { text: string; at: number }>();
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;

  constructor(o: EvalReporterOptions) {
    this.#o = o;
    this.#log = o.logger.child({ component: 'eval-reporter' });
  }

  /** Starts the loop. */
  start(): void {
    this.#timer = setInterval(() => void this.tick(), this.#o.editEveryMs);
    this.#timer.unref?.();
  }

  /** Stops the loop (waits for a running tick). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#ticking;
  }

  /** One pass over every platform's reported runs (never overlaps itself; errors are logged). */
  tick(): Promise<void> {
    this.#ticking ??= this.#tick().finally(() => {
      this.#ticking = undefined;
    });
    return this.#ticking;
  }

  async #tick(): Promise<void> {
    for (const p of this.#o.platforms) {
      let runs: RunRow[];
      try {
        runs = await runsToReport(this.#o.db, p.name);
      } catch (err) {
        this.#log.warn({ err }, 'cannot read runs to report');
        return;
      }
      for (const run of runs) {
        try {
          await this.#report(p, run);
        } catch (err) {
          this.#log.warn({ err, runId: run.id, platform: p.name }, 'run progress not reported');
        }
      }
    }
  }

  async #report(p: ChatPlatform, stored: RunRow): Promise<void> {
    const now = this.#o.clock.now();
    // Live counts: the run row's progress is refreshed only at the workers' heartbeats.
    const active = stored.status === 'queued' || stored.status === 'running';
    const c = active ? await runCounts(this.#o.db, stored.id) : undefined;
    const run: RunRow = c
      ? { ...stored, total: c.total, done: c.done + c.failed, failed: c.failed }
      : stored;
    const content = progressContent(run, now);
    const channelId = run.reportChannel as string;
    const ref: MessageRef | undefined = run.reportMessage
      ? { platform: p.name, channelId, messageId: run.reportMessage, partIds: [] }
      : undefined;
    const last = this.#last.get(run.id);
    const finished = !(run.status === 'queued' || run.status === 'running');
    if (!ref) {
      const posted = await p.post(channelId, content);
      await setReportMessage(this.#o.db, run.id, posted.messageId);
      this.#last.set(run.id, { text: content.text, at: now.getTime() });
    } else if (
      last?.text !== content.text &&
      (finished || !last || now.getTime() - last.at >= this.#o.editEveryMs)
    ) {
      await p.edit(ref, content);
      this.#last.set(run.id, { text: content.text, at: now.getTime() });
    }
    if (finished && (await claimSummary(this.#o.db, run.id))) {
      try {
        const s = await runSummary(this.#o.db, run.id, now);
        if (s) await p.post(channelId, summaryContent(s, this.#o.maxFailureRate));
      } catch (err) {
        // Not posted: the mark is given back, so the next tick (here or in another process) posts the summary.
        await unclaimSummary(this.#o.db, run.id).catch((e: unknown) =>
          this.#log.error({ err: e, runId: run.id }, 'giving the summary back failed'),
        );
        throw err;
      }
      this.#last.delete(run.id);
    }
  }
}
