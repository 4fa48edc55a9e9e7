/**
 * @module bot/rereads
 * When the bot re-reads the reactions on open battles (docs/architecture.md "Arena battle"): after a gap in a
 * platform's events (the adapter's `onGap`: a Discord session that was not resumed, a Slack Socket Mode
 * reconnection) and every `arena.reconcile_minutes` (checked on each loop tick against the bot's clock). The
 * re-read itself is `ArenaService.reconcile`, which leaves battles in buttons mode alone (their votes are in the
 * database only, nothing on the platform to read); the first one, at start, is the bot service's.
 *
 * Decisions:
 * - A pass runs beside the loop, never inside a tick: re-reading many battles takes many platform calls (each
 *   rate-limited), and closing and revealing must not wait for them.
 * - At most one pass per platform runs at a time; a request made during a pass runs one more pass after it (the
 *   gap may have ended after the running pass read some battles), and further requests join that one.
 */
import type { ArenaService, ReconcileReport } from '../arena/service.ts';
import type { PlatformName } from '../chat/port.ts';
import type { Logger } from '../core/logger.ts';

/** Dependencies of {@link Rereads}. */
export interface RereadsOptions {
  readonly arena: ArenaService;
  readonly logger: Logger;
  /** `arena.reconcile_minutes` in ms; 0: no periodic re-read (gaps still re-read). */
  readonly everyMs: number;
}

/** Schedules re-reads of open battles (module doc). */
export class Rereads {
  readonly #o: RereadsOptions;
  readonly #log: Logger;
  /** The pass running per platform, and whether another was asked for meanwhile (its promise). */
  readonly #running = new Map<PlatformName, Promise<ReconcileReport | undefined>>();
  readonly #queued = new Map<PlatformName, Promise<ReconcileReport | undefined>>();
  /** When the last periodic round started (ms of the bot's clock); set at start, after the first re-read. */
  #lastRound: number | undefined;
  #stopped = false;

  constructor(o: RereadsOptions) {
    this.#o = o;
    this.#log = o.logger.child({ component: 'rereads' });
  }

  /** Notes that the start-up re-read was made at `nowMs`: the first periodic round is one interval later. */
  startedAt(nowMs: number): void {
    this.#lastRound = nowMs;
  }

  /**
   * Starts a periodic round (every platform the arena holds) when `arena.reconcile_minutes` passed since the
   * last one; does not wait for it. Called on each loop tick.
   * @returns whether a round was started.
   */
  tick(nowMs: number): boolean {
    if (this.#o.everyMs <= 0 || this.#stopped) return false;
    if (this.#lastRound !== undefined && nowMs - this.#lastRound < this.#o.everyMs) return false;
    this.#lastRound = nowMs;
    for (const p of this.#o.arena.platformNames) void this.request(p, 'interval');
    return true;
  }

  /**
   * Re-reads the open battles of `platform` as soon as no other pass of it runs (module doc). Never throws: a
   * failed pass is logged, and resolves undefined (as does a request after {@link stop}).
   * @param reason for the log: `interval`, or the gap's reason (`reconnect`, `socket_reconnect`).
   */
  request(platform: PlatformName, reason: string): Promise<ReconcileReport | undefined> {
    if (this.#stopped) return Promise.resolve(undefined);
    const queued = this.#queued.get(platform);
    if (queued) return queued;
    const running = this.#running.get(platform);
    if (!running) return this.#start(platform, reason);
    // The waiting pass becomes the running one when the running pass has ended (and left #running).
    const next = running.then(() => {
      this.#queued.delete(platform);
      return this.#start(platform, reason);
    });
    this.#queued.set(platform, next);
    return next;
  }

  /** Starts a pass of `platform` now and keeps it in #running until it ends. */
  #start(platform: PlatformName, reason: string): Promise<ReconcileReport | undefined> {
    const pass: Promise<ReconcileReport | undefined> = this.#pass(platform, reason).finally(() => {
      if (this.#running.get(platform) === pass) this.#running.delete(platform);
    });
    this.#running.set(platform, pass);
    return pass;
  }

  async #pass(platform: PlatformName, reason: string): Promise<ReconcileReport | undefined> {
    try {
      if (this.#stopped) return undefined;
      const report = await this.#o.arena.reconcile(platform);
      this.#log.debug({ platform, reason, ...report }, 'open battles re-read');
      return report;
    } catch (err) {
      this.#log.error({ err, platform, reason }, 're-reading open battles failed');
      return undefined;
    }
  }

  /** Resolves when no pass runs or waits (tests; stopping). */
  async idle(): Promise<void> {
    for (;;) {
      const pending = [...this.#running.values(), ...this.#queued.values()];
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /** Starts no more passes; waits for the running ones. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.idle();
  }
}
