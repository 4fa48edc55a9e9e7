/**
 * @module chat/slack/request-guard
 * Checks of Slack's HTTP requests beyond Bolt's signature check (Slack, "Verifying requests from Slack"):
 * - {@link timestampRefusal}: Bolt refuses a request timestamp more than five minutes in the past, but not one in
 *   the future; a signed request is only fresh if its `X-Slack-Request-Timestamp` is within five minutes of now
 *   either way.
 * - {@link ReplayGuard}: a request seen again within that window (the same `trigger_id`, or the same signature,
 *   which signs the timestamp and the whole body) acts once. A copy older than the window is refused by its
 *   timestamp, so the guard only remembers keys for twice the window.
 */

/** How far a request's timestamp may be from now, either way, s (Slack's advice: five minutes). */
export const SLACK_REQUEST_WINDOW_SECONDS = 300;

/**
 * Why a request with this `X-Slack-Request-Timestamp` header is refused, or undefined when it is within
 * {@link SLACK_REQUEST_WINDOW_SECONDS} of `nowMs` (or absent or not a number: Bolt's signature check refuses
 * those).
 * @param header the header's value (Unix time, s).
 * @param nowMs the current time, ms since the epoch.
 */
export function timestampRefusal(
  header: string | string[] | undefined,
  nowMs: number,
): string | undefined {
  if (typeof header !== 'string' || !/^\d+$/u.test(header)) return undefined;
  const skew = Number(header) - nowMs / 1000;
  if (Math.abs(skew) <= SLACK_REQUEST_WINDOW_SECONDS) return undefined;
  return `request timestamp is ${Math.round(Math.abs(skew))} s in the ${skew > 0 ? 'future' : 'past'} (at most ${SLACK_REQUEST_WINDOW_SECONDS} s either way)`;
}

/** Remembers request keys (`trigger:…`, `sig:…`) for twice the request window, to act on each request once. */
export class ReplayGuard {
  readonly #seen = new Map<string, number>();
  readonly #keepMs: number;

  /** @param keepMs how long a key is remembered (default twice {@link SLACK_REQUEST_WINDOW_SECONDS}). */
  constructor(keepMs = 2 * SLACK_REQUEST_WINDOW_SECONDS * 1000) {
    this.#keepMs = keepMs;
  }

  /**
   * True when one of `keys` was seen in the last `keepMs` (a replay: do not act on it); otherwise remembers them
   * all and returns false. Forgets expired keys on the way (memory: the keys of the last `keepMs` of requests).
   * @param nowMs the current time, ms.
   */
  replayed(keys: readonly string[], nowMs: number): boolean {
    for (const [k, until] of this.#seen) {
      if (until > nowMs) break; // inserted in time order: the rest are newer
      this.#seen.delete(k);
    }
    if (keys.some((k) => this.#seen.has(k))) return true;
    for (const k of keys) this.#seen.set(k, nowMs + this.#keepMs);
    return false;
  }
}
