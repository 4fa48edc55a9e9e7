/**
 * @module bot/service
 * The bot service: starts the chat platforms with the command handlers and the arena's reaction handler,
 * reconciles open battles with the reactions really present, then runs a loop (every 30 s by default) that closes
 * battles whose window ended, reveals closed battles on the platforms it holds, and posts scheduled battles every
 * `arena.schedule.every_minutes` to the configured channels.
 *
 * Scheduling uses the database, not process memory: a channel is due when its last posted arena battle is older
 * than the interval, so a restart does not post early and several bot processes rarely post twice (two processes
 * ticking in the same instant still could; the target design moves scheduled posts to a pg-boss singleton job,
 * docs/architecture.md). Closing is idempotent (`closeBattle` only updates open battles), so any number of
 * processes may run the loop. Revealing needs the chat connection, so a `worker` without chat platforms closes
 * battles and the bot that holds the platform reveals them on its next tick.
 *
 * When a chat platform is this process's own terminal, read by a person (its capability `ownsTerminal`), the
 * bot's, arena's and commands' info lines would interleave with the conversation: they log at `warn` then, unless
 * the configured level is not the default `info` (LOG_LEVEL=debug keeps everything), or {@link BotServiceOptions.quietLogs} says
 * otherwise.
 */

import type { Kysely } from 'kysely';
import { AskService, type LiveModel } from '../arena/ask.ts';
import { closeReasonWords, postRefusalText } from '../arena/message.ts';
import { ArenaService, refOf } from '../arena/service.ts';
import {
  type BattleInfo,
  type ChatHandlers,
  type ChatPlatform,
  type PlatformName,
  platformNamed,
} from '../chat/port.ts';
import type { AppConfig } from '../config/schema.ts';
import type { DisabledModel } from '../config/start-checks.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { AppMetrics } from '../core/metrics.ts';
import { hashVoterId } from '../core/voter-id.ts';
import type { EvalService } from '../eval/service.ts';
import { SubmissionService } from '../eval/submissions.ts';
import { t } from '../i18n/index.ts';
import type { SharedWork } from '../jobs/shared-work.ts';
import { DailyPost, type DailyPostReport } from '../leaderboard/daily-post.ts';
import { LeaderboardService } from '../leaderboard/service.ts';
import type { LlmClient } from '../llm/types.ts';
import { lastArenaPostAt } from '../storage/arena-queries.ts';
import { battleVoiding, getArenaBattle } from '../storage/battles.ts';
import type { Database } from '../storage/schema.ts';
import { liveVotes } from '../storage/votes.ts';
import { createCommandHandler } from './commands/handlers.ts';
import { COMMAND_SPECS } from './commands/specs.ts';
import { EvalReporter } from './eval-reporter.ts';
import { Rereads } from './rereads.ts';
import { deliverSubmissionNotices } from './submission-notices.ts';

/** Options of {@link BotService}. */
export interface BotServiceOptions {
  readonly db: Kysely<Database>;
  readonly config: AppConfig;
  /** Platforms to start (constructed by `main.ts`); may be empty for a worker. */
  readonly platforms: readonly ChatPlatform[];
  readonly logger: Logger;
  readonly clock: Clock;
  readonly voterSecret: string;
  /** Loop interval in ms (default 30,000; 0 = no timer, call {@link BotService.tick} yourself). */
  readonly loopIntervalMs?: number;
  /** Post scheduled battles from this process (default true; `zhujiu bot --no-worker` turns it off). */
  readonly schedule?: boolean;
  /** Seed source for battles (tests). */
  readonly seedSource?: () => number;
  /** Bootstrap rounds of the board (default: config `aggregation.bootstrap`; tests use fewer). */
  readonly leaderboardRounds?: number;
  /** The board service (default: one built here from the config, computing in a worker thread). */
  readonly leaderboard?: LeaderboardService;
  /**
   * Log only warnings and errors from the bot, arena and commands (default: when an interactive terminal is the
   * chat and the log level is the default `info`). Never makes logging more verbose than `logger`.
   */
  readonly quietLogs?: boolean;
  /**
   * The live arena (`/ask`): the models marked `arena: true` in config/models.yaml with their clients, and the
   * judge model that classifies untagged prompts (`arena.ask.classifier_model`). Without models `/ask` says the
   * live arena is off.
   */
  readonly live?: { readonly models: readonly LiveModel[]; readonly classifier?: LlmClient };
  /** Evaluation runs (`/eval`): started from chat, reported in the channel they were asked from. */
  readonly evals?: EvalService;
  /** Configured models disabled in this environment (config/start-checks `disabledModels`), named by `/models`. */
  readonly disabledModels?: readonly DisabledModel[];
  /** Least time between two edits of an eval progress message, ms (default config `eval.progress_edit_seconds`). */
  readonly evalEditEveryMs?: number;
  /**
   * Claims of shared work (jobs/shared-work.ts): with it, closing the due battles and each channel's scheduled
   * battle of an interval are done by one process of all those on the database (tasks `arena.close`,
   * `arena.schedule:PLATFORM:CHANNEL`); without it, by this process whenever its loop finds them due.
   */
  readonly shared?: SharedWork;
  /** Where votes, battles and reconcile corrections are counted (default nowhere). */
  readonly metrics?: AppMetrics;
}

/** `logger`, or a child of it that logs warnings and errors only (when it is more verbose than that). */
function quieter(logger: Logger): Logger {
  return logger.levelVal < (logger.levels.values.warn ?? 40)
    ? logger.child({}, { level: 'warn' })
    : logger;
}

/** What one loop tick did. */
export interface TickReport {
  readonly closed: number[];
  readonly revealed: number[];
  readonly posted: number[];
  /** What the daily board post check did (when a daily post is configured). */
  readonly daily?: DailyPostReport;
}

/** The running bot (or worker loop). */
export class BotService {
  readonly arena: ArenaService;
  readonly leaderboard: LeaderboardService;
  readonly #ownsLeaderboard: boolean;
  #lastBoardCheck = Number.NEGATIVE_INFINITY;
  #daily: DailyPost | undefined;
  /** The live arena, when live models are configured. */
  readonly ask: AskService | undefined;
  readonly #o: BotServiceOptions;
  readonly #log: Logger;
  /** The logger given to the arena and the commands (possibly {@link quieter}). */
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<TickReport> | undefined;
  #started: ChatPlatform[] = [];
  #stopped = false;
  #evalReporter: EvalReporter | undefined;
  /** Model submissions (`/submit`), with the evaluation service; the loop tells submitters of decisions. */
  readonly #submissions: SubmissionService | undefined;

  /** Re-reads of open battles after gaps and every `arena.reconcile_minutes` (bot/rereads.ts). */
  readonly rereads: Rereads;

  /** The eval progress reporter (tests tick it by hand). */
  get evalReporter(): EvalReporter | undefined {
    return this.#evalReporter;
  }
  /** Resolves when an interactive platform (the terminal) asks to quit. */
  readonly done: Promise<void>;
  #doneResolve!: () => void;

  constructor(o: BotServiceOptions) {
    this.#o = o;
    const quiet =
      o.quietLogs ??
      (o.config.log.level === 'info' && o.platforms.some((p) => p.capabilities.ownsTerminal));
    this.#logger = quiet ? quieter(o.logger) : o.logger;
    this.#log = this.#logger.child({ component: 'bot' });
    this.arena = new ArenaService({
      db: o.db,
      platforms: o.platforms,
      arena: o.config.arena,
      locale: o.config.locale,
      clock: o.clock,
      logger: this.#logger,
      voterSecret: o.voterSecret,
      ...(o.seedSource ? { seedSource: o.seedSource } : {}),
      ...(o.metrics ? { metrics: o.metrics } : {}),
    });
    this.rereads = new Rereads({
      arena: this.arena,
      logger: this.#logger,
      everyMs: o.config.arena.reconcile_minutes * 60_000,
    });
    this.#ownsLeaderboard = o.leaderboard === undefined;
    this.leaderboard =
      o.leaderboard ??
      new LeaderboardService({
        db: o.db,
        clock: o.clock,
        logger: this.#logger,
        includeSources: o.config.ratings.include_sources,
        judge: o.config.judge.model,
        keep: o.config.leaderboard.keep,
        chartRows: o.config.leaderboard.chart_rows,
        locale: o.config.locale,
        aggregation: {
          ...o.config.aggregation,
          ...(o.leaderboardRounds !== undefined ? { bootstrap: o.leaderboardRounds } : {}),
        },
        ...(o.shared ? { shared: o.shared } : {}),
        ...(o.metrics ? { metrics: o.metrics } : {}),
      });
    const live = o.live;
    this.ask =
      live && live.models.length > 0
        ? new AskService({
            db: o.db,
            arena: this.arena,
            config: o.config.arena,
            clock: o.clock,
            logger: this.#logger,
            voterSecret: o.voterSecret,
            models: live.models,
            ...(live.classifier ? { classifier: live.classifier } : {}),
            ...(o.seedSource ? { seedSource: o.seedSource } : {}),
          })
        : undefined;
    this.#submissions = o.evals
      ? new SubmissionService({
          db: o.db,
          logger: this.#logger,
          clock: o.clock,
          evals: o.evals,
          suites: o.config.submissions.suites,
        })
      : undefined;
    this.done = new Promise<void>((resolve) => {
      this.#doneResolve = resolve;
    });
  }

  /** Starts every platform, reconciles its open battles, runs one tick and starts the loop. */
  async start(): Promise<void> {
    if (this.#o.evals && this.#o.platforms.length > 0) {
      this.#evalReporter = new EvalReporter({
        db: this.#o.db,
        platforms: this.#o.platforms,
        logger: this.#logger,
        clock: this.#o.clock,
        editEveryMs: this.#o.evalEditEveryMs ?? this.#o.config.eval.progress_edit_seconds * 1000,
        maxFailureRate: this.#o.config.eval.max_failure_rate,
        locale: this.#o.config.locale,
      });
    }
    const reporter = this.#evalReporter;
    // A board built before this start may miss what came in since (votes, runs): check (and rebuild, off the
    // event loop) now rather than one refresh interval later; the loop's checks follow every interval.
    this.#lastBoardCheck = this.#o.clock.now().getTime();
    if (this.#o.config.leaderboard.refresh_seconds > 0)
      await this.leaderboard.startFirstBuild().catch((err: unknown) => {
        this.#log.error({ err }, 'checking the board inputs failed');
      });
    const onCommand = createCommandHandler({
      ...(this.#o.evals ? { evals: this.#o.evals } : {}),
      ...(reporter ? { onEvalStarted: () => void reporter.tick() } : {}),
      db: this.#o.db,
      arena: this.arena,
      config: this.#o.config,
      logger: this.#logger,
      leaderboard: this.leaderboard,
      ...(this.ask ? { ask: this.ask } : {}),
      ...(this.#o.disabledModels ? { disabledModels: this.#o.disabledModels } : {}),
      ...(this.#submissions
        ? {
            submissions: this.#submissions,
            onSubmissionDecided: () => void this.tellSubmitters(),
          }
        : {}),
      clock: this.#o.clock,
      voterSecret: this.#o.voterSecret,
    });
    const handlers = this.#chatHandlers(onCommand);
    for (const p of this.#o.platforms) {
      if (p.closed) void p.closed.then(() => this.#doneResolve());
      await p.start(handlers, COMMAND_SPECS);
      this.#started.push(p);
      this.#log.info({ platform: p.name }, 'chat platform started');
    }
    for (const p of this.#started) {
      try {
        await this.arena.reconcile(p.name);
      } catch (err) {
        this.#log.error({ err, platform: p.name }, 'reconciling open battles failed');
      }
    }
    this.rereads.startedAt(this.#o.clock.now().getTime());
    await this.#registerSchedules();
    await this.tick();
    this.#evalReporter?.start();
    const every = this.#o.loopIntervalMs ?? 30_000;
    if (every > 0 && !this.#stopped) {
      this.#timer = setInterval(() => {
        void this.tick();
      }, every);
      this.#timer.unref?.();
    }
  }

  /**
   * Registers the daily board post (one `schedules` row; a tick missed while nothing ran is due now) and notes the
   * scheduled channels on platforms this process does not hold.
   */
  async #registerSchedules(): Promise<void> {
    this.#daily = new DailyPost({
      db: this.#o.db,
      leaderboard: this.leaderboard,
      clock: this.#o.clock,
      logger: this.#logger,
      settings: this.#o.config.leaderboard.daily_post,
      platforms: this.#started,
      publicUrl: this.#o.config.leaderboard.public_url,
      locale: this.#o.config.locale,
    });
    try {
      await this.#daily.register();
    } catch (err) {
      this.#log.error({ err }, 'registering the daily post schedule failed');
    }
    const missing = this.#o.config.arena.schedule.channels.filter(
      (c) => !platformNamed(this.#started, c.platform),
    );
    if (
      this.#o.config.arena.schedule.every_minutes > 0 &&
      missing.length > 0 &&
      this.#o.schedule !== false
    ) {
      this.#log.info(
        { channels: missing },
        'scheduled channels on platforms this process does not hold are left to the bot that does',
      );
    }
  }

  /**
   * The handlers every platform is started with: commands, reactions, vote buttons, typed votes' battles, thread
   * messages (follow-ups), cleared reactions and deleted messages; a handler's error is logged, never thrown to the adapter.
   */
  #chatHandlers(onCommand: ChatHandlers['onCommand']): ChatHandlers {
    const ask = this.ask;
    return {
      onCommand,
      onReaction: async (ev) => {
        try {
          return await this.arena.onReaction(ev);
        } catch (err) {
          this.#log.error(
            { err, eventId: ev.eventId, platform: ev.platform },
            'reaction could not be stored',
          );
          return { kind: 'failed' } as const;
        }
      },
      findBattle: async (platform, number, userId) => this.#typedBattle(platform, number, userId),
      onThreadMessage: async (ev) => {
        if (!ask) return;
        try {
          await ask.followUp({
            platform: ev.platform,
            channelId: ev.channelId,
            threadOf: ev.threadOf,
            user: ev.user,
            prompt: ev.text,
            reply: (c) => ev.reply(c),
          });
        } catch (err) {
          this.#log.error({ err, eventId: ev.eventId }, 'follow-up failed');
          await ev.reply({ text: t(this.#o.config.locale, 'reply.failed') }).catch(() => undefined);
        }
      },
      onReactionsCleared: async (ev) => {
        try {
          await this.arena.onReactionsCleared(ev);
        } catch (err) {
          this.#log.error(
            { err, eventId: ev.eventId, platform: ev.platform },
            'cleared reactions could not be applied to the votes',
          );
        }
      },
      onGap: async (ev) => {
        void this.rereads.request(ev.platform, ev.reason);
      },
      onButton: async (ev) => {
        try {
          await this.arena.onButton(ev);
        } catch (err) {
          this.#log.error(
            { err, eventId: ev.eventId, platform: ev.platform },
            'a vote button press could not be stored',
          );
          await ev
            .reply({ text: t(ev.locale ?? this.#o.config.locale, 'reply.voteNotStored') })
            .catch(() => undefined);
        }
      },
      onMessageDeleted: async (ev) => {
        try {
          await this.arena.onMessageDeleted(ev);
        } catch (err) {
          this.#log.error(
            { err, eventId: ev.eventId, platform: ev.platform },
            'a deleted battle message could not be applied to the votes',
          );
        }
      },
    };
  }

  /**
   * The community's battle numbered `number` as a typed vote (the terminal's `vote`/`unvote`/`reply`) on
   * `platform` needs it, with `userId`'s live vote when the battle was posted on that platform; undefined when the community's arena has no such battle (an imported battle's
   * number included: imported votes are closed and take no votes).
   */
  async #typedBattle(
    platform: PlatformName,
    number: number,
    userId: string,
  ): Promise<BattleInfo | undefined> {
    const b = await getArenaBattle(this.#o.db, number);
    if (!b) return undefined;
    const ref = b.platform && b.channelId && b.messageId ? refOf(b) : undefined;
    if (ref?.platform !== platform) return { ref, status: b.status, source: b.source };
    const ended = b.status === 'closed' || b.status === 'void';
    const voter = hashVoterId(this.#o.voterSecret, platform, userId);
    const live = (await liveVotes(this.#o.db, b.id)).find((v) => v.voterHash === voter);
    // Why it takes no vote, when it does not (the terminal says so).
    const why = b.status === 'void' ? await battleVoiding(this.#o.db, b.id) : undefined;
    return {
      ref,
      status: b.status,
      source: b.source,
      liveChoice: live?.choice ?? null,
      closedAt: b.closedAt,
      revealed: b.revealedAt !== null,
      ...(ended && b.closeReason !== null
        ? { closedBecause: closeReasonWords(b.closeReason, b.closeCap, this.#o.config.locale) }
        : {}),
      // A maintainer's void says who and why; a battle withdrawn (its message deleted) has no voider.
      ...(why && why.voidedBy !== null
        ? {
            voided: {
              at: why.voidedAt,
              byYou: why.voidedBy === voter,
              reason: why.reason,
            },
          }
        : {}),
    };
  }

  /** One loop iteration (never overlaps itself; errors are logged). */
  /** Tells submitters of the decisions not yet told on the platforms this process holds (bot/submission-notices.ts). */
  async tellSubmitters(): Promise<number[]> {
    if (!this.#submissions || this.#started.length === 0) return [];
    try {
      return await deliverSubmissionNotices(
        this.#o.db,
        this.#started,
        this.#log,
        this.#o.config.locale,
      );
    } catch (err) {
      this.#log.error({ err }, 'telling submitters failed');
      return [];
    }
  }

  async tick(): Promise<TickReport> {
    if (this.#ticking) return this.#ticking;
    const run = this.#tick().finally(() => {
      this.#ticking = undefined;
    });
    this.#ticking = run;
    return run;
  }

  async #tick(): Promise<TickReport> {
    const now = this.#o.clock.now();
    let closed: number[] = [];
    let revealed: number[] = [];
    const posted: number[] = [];
    try {
      ({ closed, revealed } = await this.#closeDue(now));
    } catch (err) {
      this.#log.error({ err }, 'closing due battles failed');
    }
    // Every arena.reconcile_minutes: re-read the open battles beside the loop (bot/rereads.ts).
    this.rereads.tick(now.getTime());
    // Rebuild the board snapshot when scores or votes changed (in a worker thread; not awaited, so a long build
    // never delays closing battles or the next tick).
    const every = this.#o.config.leaderboard.refresh_seconds * 1000;
    if (every > 0 && now.getTime() - this.#lastBoardCheck >= every && !this.#stopped) {
      this.#lastBoardCheck = now.getTime();
      void this.leaderboard.refreshIfChanged();
    }
    const sched = this.#o.config.arena.schedule;
    if (this.#o.schedule !== false && sched.every_minutes > 0 && !this.#stopped) {
      for (const c of sched.channels) {
        if (!platformNamed(this.#started, c.platform)) continue;
        try {
          const last = await lastArenaPostAt(this.#o.db, c.platform, c.channel_id);
          if (last !== null && now.getTime() - last.getTime() < sched.every_minutes * 60_000)
            continue;
          const res = await this.#postScheduled(c.platform, c.channel_id, now, sched.every_minutes);
          if (res === undefined) continue; // posted by another process for this interval
          if (res.ok) posted.push(res.value.battleId);
          else
            this.#log.warn(
              {
                platform: c.platform,
                channelId: c.channel_id,
                reason: postRefusalText(res.reason),
              },
              'scheduled battle not posted',
            );
        } catch (err) {
          this.#log.error(
            { err, platform: c.platform, channelId: c.channel_id },
            'scheduled post failed',
          );
        }
      }
    }
    let daily: DailyPostReport | undefined;
    if (this.#daily?.enabled && !this.#stopped) {
      try {
        daily = await this.#daily.check();
      } catch (err) {
        this.#log.error({ err }, 'daily post check failed');
      }
    }
    if (!this.#stopped) await this.tellSubmitters();
    return { closed, revealed, posted, ...(daily ? { daily } : {}) };
  }

  /**
   * Closes the due battles (and reveals closed ones on the platforms this process holds). With shared work, the
   * closing is claimed per set of due battles (task `arena.close`, keyed by their ids), so of all processes one
   * closes them and the others wait for it; revealing edits this process's own messages and is always done here.
   */
  async #closeDue(now: Date): Promise<{ closed: number[]; revealed: number[] }> {
    const shared = this.#o.shared;
    if (!shared) return this.arena.closeDue(now);
    // Read once: the claim's key names these battles, and closing them does not read them again.
    const due = await this.arena.dueBattles(now);
    let closed: number[] = [];
    if (due.length === 0) {
      // Nothing due: only the vote-cap check, one statement without chat work, is left; any process may run it.
      closed = (await this.arena.closeDue(now, { reveal: false, due })).closed;
    } else {
      const key = due.map((b) => b.id).join(',');
      const got = await shared.once('arena.close', key, 120_000, () =>
        this.arena.closeDue(now, { reveal: false, due }),
      );
      if (got.ran) closed = got.value.closed;
      // Another process closes them: wait until it has, so what this tick does next (reveals of this process's
      // own messages, the daily post's board) sees them closed, as it would had this process closed them.
      else await shared.waitWhileBusy('arena.close');
    }
    const { revealed } = await this.arena.revealClosed();
    return { closed, revealed };
  }

  /**
   * Posts the scheduled battle of `platform`/`channelId` for the interval of `now` (intervals of `everyMinutes`
   * from the epoch). With shared work, one process of those holding the platform posts it (task
   * `arena.schedule:PLATFORM:CHANNEL`, keyed by the interval); a post that was refused is given back, to be tried on
   * the next tick. @returns undefined when another process posted (or is posting) it.
   */
  async #postScheduled(
    platform: PlatformName,
    channelId: string,
    now: Date,
    everyMinutes: number,
  ): Promise<Awaited<ReturnType<ArenaService['postBattle']>> | undefined> {
    const shared = this.#o.shared;
    const post = () => this.arena.postBattle(platform, channelId, { origin: 'scheduled' });
    if (!shared) return post();
    const slot = Math.floor(now.getTime() / (everyMinutes * 60_000));
    const got = await shared.once(
      `arena.schedule:${platform}:${channelId}`,
      String(slot),
      300_000,
      post,
      (res) => res.ok,
    );
    return got.ran ? got.value : undefined;
  }

  /** Stops the loop, waits for a running tick, stops the platforms. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#evalReporter?.stop();
    await this.#ticking?.catch(() => undefined);
    await this.rereads.stop();
    await this.ask?.drain();
    for (const p of this.#started.reverse()) {
      try {
        await p.stop();
      } catch (err) {
        this.#log.warn({ err, platform: p.name }, 'stopping the platform failed');
      }
    }
    this.#started = [];
    if (this.#ownsLeaderboard) await this.leaderboard.close();
    this.#doneResolve();
  }
}
