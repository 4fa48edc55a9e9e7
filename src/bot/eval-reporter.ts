/**
 * @module bot/eval-reporter
 * Reports evaluation runs in the channel they were asked from: one progress message per run (items done / total,
 * failures, rate, ETA), edited at most every `eval.progress_edit_seconds` and only when its text changed, then a
 * summary message (per dataset: ability, score on the ten-point scale, n, failures; tokens and wall time), both in
 * the configured language (docs/architecture.md "Languages").
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
import { ABILITIES } from '../config/abilities.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import {
  endedText,
  failureLine,
  failureRateProblem,
  failureTally,
  formatDuration,
  itemsCell,
  type RunSummary,
  runErrorText,
  runSummary,
  spanFigureLines,
} from '../eval/summary.ts';
import { type Locale, runStatusText, t } from '../i18n/index.ts';
import {
  claimSummary,
  type RunRow,
  runsToReport,
  setReportMessage,
  unclaimSummary,
} from '../storage/eval-runs.ts';
import type { Database } from '../storage/schema.ts';

/** The abilities of the catalogue (`ability.*`), said in the reader's language; others are shown as stored. */
const CATALOGUE_ABILITIES = new Set<string>(ABILITIES);

/** The progress line of a run, in `locale` (the channel's: the configured language; default English). */
export function progressContent(run: RunRow, now: Date, locale: Locale = 'en'): MessageContent {
  const active = run.status === 'queued' || run.status === 'running';
  const head = t(locale, 'evalReport.head', {
    id: run.id,
    model: markdownLiteral(run.model),
    suite: run.suite,
  });
  if (run.status === 'queued') return { text: t(locale, 'evalReport.queued', { head }) };
  if (run.status === 'running' && run.total === 0)
    return { text: t(locale, 'evalReport.preparing', { head }) };
  const secs = run.startedAt
    ? Math.max(0.001, (now.getTime() - run.startedAt.getTime()) / 1000)
    : 0;
  const rate = secs > 0 ? run.done / secs : 0;
  const left = run.total - run.done;
  const eta =
    active && rate > 0
      ? t(locale, 'evalReport.eta', { left: formatDuration((left / rate) * 1000, locale) })
      : '';
  return {
    text: t(locale, 'evalReport.progress', {
      head,
      state: active
        ? ''
        : t(locale, 'evalReport.state', { status: runStatusText(run.status, locale) }),
      done: run.done,
      total: run.total,
      failed: run.failed,
      speed: active ? t(locale, 'evalReport.speed', { rate: rate.toFixed(1), eta }) : '',
    }),
  };
}

/** How a finished run ended, for its summary's first line, in `locale`. */
function endedWords(s: RunSummary, locale: Locale): string {
  const r = s.run;
  if (r.status === 'succeeded')
    return failureTally(s).failed === 0
      ? t(locale, 'evalReport.ended.finished')
      : endedText(s, locale);
  if (r.status === 'cancelled') return t(locale, 'evalReport.ended.cancelled');
  return r.error
    ? t(locale, 'evalReport.ended.failedWith', {
        error: runErrorText(r.error, locale, r.errorTexts),
      })
    : t(locale, 'evalReport.ended.failed');
}

/**
 * The summary message of a finished run: "finished" when every item was scored, "finished with N judge failures"
 * (and/or answer failures) otherwise, and a warning when the failure rate is above `maxFailureRate`
 * (config `eval.max_failure_rate`). In `locale` (the channel's: the configured language; default English); a
 * failure's recorded message and a failed run's error are shown as they were stored.
 */
export function summaryContent(
  s: RunSummary,
  maxFailureRate?: number,
  locale: Locale = 'en',
): MessageContent {
  const r = s.run;
  const tooMany =
    r.status === 'succeeded' && maxFailureRate !== undefined
      ? failureRateProblem(s, maxFailureRate, locale)
      : undefined;
  const sep = t(locale, 'evalReport.sep');
  const reasons = s.failureReasons.map((f) => failureLine(f, locale)).join(sep);
  const span = spanFigureLines(s, locale).join(sep);
  const names = { id: r.id, model: markdownLiteral(r.model), suite: r.suite };
  return {
    text: t(locale, 'evalReport.summary', { ...names, ended: endedWords(s, locale) }),
    title: t(locale, 'evalReport.title', names),
    table: {
      columns: (['dataset', 'ability', 'score', 'n', 'failures'] as const).map((c) =>
        t(locale, `evalReport.col.${c}`),
      ),
      align: ['left', 'left', 'right', 'right', 'right'],
      rows: s.datasets.map((d) => [
        d.dataset,
        CATALOGUE_ABILITIES.has(d.ability)
          ? t(locale, `ability.${d.ability as 'knowledge'}`)
          : d.ability,
        d.score === null ? '—' : d.score.toFixed(2),
        itemsCell(d, locale),
        String(d.failures),
      ]),
    },
    footer:
      t(locale, 'evalReport.tokens', {
        prompt: s.promptTokens,
        completion: s.completionTokens,
        wall: formatDuration(s.wallMs ?? 0, locale),
      }) +
      (span ? t(locale, 'evalReport.span', { span }) : '') +
      (reasons ? t(locale, 'evalReport.failures', { reasons }) : '') +
      (tooMany ? t(locale, 'evalReport.warning', { problem: tooMany }) : ''),
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
  /** The language of the progress and summary messages (config `locale`; default English). */
  readonly locale?: Locale;
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

  async #report(p: ChatPlatform, run: RunRow): Promise<void> {
    const now = this.#o.clock.now();
    // `run` has live counts (storage/eval-runs.ts `runsWithProgress`).
    const content = progressContent(run, now, this.#o.locale);
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
        if (s) await p.post(channelId, summaryContent(s, this.#o.maxFailureRate, this.#o.locale));
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
