/**
 * @module leaderboard/daily-post
 * The daily board post: at each tick of `leaderboard.daily_post.cron` in `leaderboard.daily_post.timezone`, the
 * board, its chart and the significant rank changes since the previous daily post go to the configured channels,
 * exactly once per channel and board date however many bot and worker processes run or restart.
 *
 * How "exactly once" holds: every process computes the same latest due tick from the cron (croner) and the
 * injected clock, and the tick's date in the schedule's time zone is the post's idempotency key. Before posting,
 * a process claims `(kind, platform, channel, key)` in `posts` (a unique index; INSERT … ON CONFLICT), so only one
 * process wins. A claim whose process died before posting is taken over after a lease (10 min). The schedule
 * itself is one `schedules` row (upserted by every process's start-up code), recording the last tick handled.
 *
 * A tick missed because nothing was running is still due when a process starts (the latest tick ≤ now has no
 * post yet), so it is posted late, once; older missed ticks are not replayed (one board per day, the latest), and
 * ticks from before the schedule was set up (or its cron changed) are not "missed".
 * The check runs from the bot's loop (every 30 s by default) and at start-up; pg-boss (jobs/) has no schedule
 * port yet, so this in-process timer plus the database key is the scheduler.
 */
import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import { type ChatPlatform, type MessageContent, platformNamed } from '../chat/port.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import { type Locale, t } from '../i18n/index.ts';
import {
  advanceSchedule,
  claimPost,
  getSchedule,
  markPosted,
  markPostFailed,
  previousPostedSnapshot,
  upsertSchedule,
} from '../storage/leaderboard.ts';
import type { Database } from '../storage/schema.ts';
import type { LeaderboardService } from './service.ts';
import { movesText, overallContent, significantMoves } from './views.ts';

/** The `posts.kind` and `schedules.name` of the daily post. */
export const DAILY_POST_KIND = 'leaderboard.daily';

/** Config `leaderboard.daily_post`. */
export interface DailyPostSettings {
  readonly cron: string | null;
  readonly timezone: string;
  readonly channels: readonly { readonly platform: string; readonly channel_id: string }[];
}

/** Options of {@link DailyPost}. */
export interface DailyPostOptions {
  readonly db: Kysely<Database>;
  readonly leaderboard: LeaderboardService;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: DailyPostSettings;
  /** The platforms this process holds (a worker holds none: it only keeps the schedule row). */
  readonly platforms: readonly ChatPlatform[];
  /** Results page URL, linked from the post. */
  readonly publicUrl?: string | null;
  /** How long a claim blocks others before it may be taken over (default 10 min). */
  readonly leaseMs?: number;
  /** The post's language (config `locale`; default en). */
  readonly locale?: Locale;
}

/** What one check did. */
export interface DailyPostReport {
  /** The due tick (null: none configured or none yet). */
  readonly tick: Date | null;
  readonly key: string | null;
  /** Channels posted by this call, as `platform:channel`. */
  readonly posted: readonly string[];
}

/** The date of `t` in time zone `tz`, as YYYY-MM-DD. */
export function localDate(t: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(t);
}

/** The daily post scheduler of one process. */
export class DailyPost {
  readonly #o: DailyPostOptions;
  readonly #log: Logger;
  readonly #cron: Cron | null;
  #running: Promise<DailyPostReport> | undefined;

  constructor(o: DailyPostOptions) {
    this.#o = o;
    this.#log = o.logger.child({ component: 'daily-post' });
    this.#cron = o.settings.cron
      ? new Cron(o.settings.cron, { timezone: o.settings.timezone, paused: true })
      : null;
  }

  /** True when a cron is configured. */
  get enabled(): boolean {
    return this.#cron !== null;
  }

  /** Start-up scheduling: creates (or updates) the one `schedules` row. */
  async register(): Promise<void> {
    if (!this.#cron || !this.#o.settings.cron) return;
    await upsertSchedule(
      this.#o.db,
      DAILY_POST_KIND,
      this.#o.settings.cron,
      this.#o.settings.timezone,
      this.#o.clock.now(),
    );
  }

  /** The latest tick at or before `now` (null when none in the last 8 days). */
  dueTick(now: Date): Date | null {
    if (!this.#cron) return null;
    const since = new Date(now.getTime() - 8 * 86_400_000);
    let last: Date | null = null;
    let t = this.#cron.nextRun(since);
    while (t && t.getTime() <= now.getTime()) {
      last = t;
      t = this.#cron.nextRun(t);
    }
    return last;
  }

  /** Posts the due board where it has not been posted yet (never overlaps itself; errors are logged). */
  async check(): Promise<DailyPostReport> {
    if (this.#running) return this.#running;
    const run = this.#check().finally(() => {
      this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  async #check(): Promise<DailyPostReport> {
    const now = this.#o.clock.now();
    const tick = this.dueTick(now);
    if (!tick) return { tick: null, key: null, posted: [] };
    // Only ticks since the schedule is in force count as missed (a first start does not post yesterday's board).
    const since = (await getSchedule(this.#o.db, DAILY_POST_KIND))?.updatedAt;
    if (since && tick.getTime() < since.getTime()) return { tick: null, key: null, posted: [] };
    const key = localDate(tick, this.#o.settings.timezone);
    const posted: string[] = [];
    for (const c of this.#o.settings.channels) {
      const platform = platformNamed(this.#o.platforms, c.platform);
      if (!platform) continue; // the process that holds the platform posts there
      const id = await claimPost(this.#o.db, {
        kind: DAILY_POST_KIND,
        platform: c.platform,
        channelId: c.channel_id,
        key,
        now,
        leaseMs: this.#o.leaseMs ?? 600_000,
      });
      if (id === undefined) continue; // posted (or being posted) by another process
      try {
        const snap = await this.#o.leaderboard.refresh();
        const prevId = await previousPostedSnapshot(this.#o.db, DAILY_POST_KIND, key);
        const prev = prevId === undefined ? undefined : await this.#o.leaderboard.byId(prevId);
        const moves = prev ? significantMoves(prev.board, snap.board) : [];
        const locale = this.#o.locale ?? 'en';
        const title = t(locale, 'daily.title', { date: key });
        const chart = await this.#o.leaderboard.chart(snap.board, title);
        const base = this.#o.publicUrl?.replace(/\/+$/, '');
        const content: MessageContent = overallContent(snap, {
          now,
          title,
          image: chart,
          locale,
          ...(base ? { link: `${base}/board` } : {}),
        });
        const late = now.getTime() - tick.getTime() > 5 * 60_000;
        const full: MessageContent = {
          ...content,
          sections: [
            {
              heading: t(locale, prev ? 'daily.moves.heading' : 'daily.first.heading'),
              body: prev ? movesText(moves, locale) : t(locale, 'daily.first.body'),
            },
            ...(late
              ? [
                  {
                    body: t(locale, 'daily.late', { time: tick.toISOString().slice(11, 16) }),
                  },
                ]
              : []),
          ],
        };
        const ref = await platform.post(c.channel_id, full);
        await markPosted(this.#o.db, id, {
          messageId: ref.messageId,
          snapshotId: snap.id,
          snapshot: { moves, tick: tick.toISOString(), late },
          now: this.#o.clock.now(),
        });
        posted.push(`${c.platform}:${c.channel_id}`);
        this.#log.info(
          { platform: c.platform, channelId: c.channel_id, key, late, snapshot: snap.id },
          'daily board posted',
        );
      } catch (err) {
        this.#log.error(
          { err, platform: c.platform, channelId: c.channel_id, key },
          'daily post failed',
        );
        await markPostFailed(this.#o.db, id, (err as Error).message ?? String(err)).catch(
          () => undefined,
        );
      }
    }
    await advanceSchedule(this.#o.db, DAILY_POST_KIND, tick).catch(() => false);
    return { tick, key, posted };
  }
}
