/**
 * @module llm/auth-breaker
 * A small circuit breaker for one endpoint's refusals of its credentials (HTTP 401 Unauthorized, 403 Forbidden).
 *
 * A wrong or missing API key fails every request the same way, and no retry helps: without a breaker a run of
 * 2,000 items sends 2,000 requests that all come back 401. After `threshold` consecutive refusals the breaker
 * opens: requests fail at once with the refusal's message and send nothing. After `cooldownMs` one request is
 * let through as a probe (a key rotated on the provider's side, a 403 for a quota that was raised): its answer
 * closes the breaker, another refusal opens it again for `cooldownMs`. Any answer that is not a refusal resets
 * the count (a 500 or a timeout says nothing about the key, so they leave it as it is).
 */

/** Options of {@link AuthBreaker}. */
export interface AuthBreakerOptions {
  /** Consecutive refusals that open the breaker (default 3, at least 1). */
  readonly threshold?: number;
  /** How long the breaker stays open before one probe request, ms (default 60,000). */
  readonly cooldownMs?: number;
  /** The current time, ms (default `performance.now`); tests pass a manual one. */
  readonly now?: () => number;
}

/** The last refusal, repeated to every request the open breaker turns away. */
export interface Refusal {
  /** The HTTP status (401 or 403). */
  readonly status: number;
  /** The one-line cause naming the model and the variable to fix (see llm/openai-client). */
  readonly message: string;
}

/** True for the statuses that mean "these credentials are refused": 401 and 403. */
export function isAuthRefusal(status: number | undefined): boolean {
  return status === 401 || status === 403;
}

/** The breaker of one endpoint (one configured model's client). Not thread-safe; one event loop. */
export class AuthBreaker {
  readonly threshold: number;
  readonly cooldownMs: number;
  readonly #now: () => number;
  #consecutive = 0;
  #last: Refusal | undefined;
  /** When the breaker opened (undefined: closed). */
  #openedAt: number | undefined;
  /** A probe is in flight: other requests stay turned away until it answers. */
  #probing = false;

  constructor(o: AuthBreakerOptions = {}) {
    this.threshold = Math.max(1, Math.floor(o.threshold ?? 3));
    this.cooldownMs = Math.max(0, o.cooldownMs ?? 60_000);
    this.#now = o.now ?? (() => performance.now());
  }

  /** True while requests are turned away. */
  get open(): boolean {
    return this.#openedAt !== undefined;
  }

  /**
   * Called before a request: the refusal to answer with instead of sending it, or undefined to send it (a closed
   * breaker, or the one probe of an open breaker whose cool-down is over).
   */
  admit(): Refusal | undefined {
    if (this.#openedAt === undefined) return undefined;
    if (!this.#probing && this.#now() - this.#openedAt >= this.cooldownMs) {
      this.#probing = true;
      return undefined;
    }
    return this.#last;
  }

  /** Records a refusal (401/403) with its message; opens the breaker at `threshold` in a row. */
  refused(refusal: Refusal): void {
    this.#last = refusal;
    this.#consecutive++;
    if (this.#probing || this.#consecutive >= this.threshold) this.#openedAt = this.#now();
    this.#probing = false;
  }

  /** Records an answer that was not a refusal: the credentials work, the breaker closes. */
  accepted(): void {
    this.#consecutive = 0;
    this.#openedAt = undefined;
    this.#probing = false;
  }

  /** Records an outcome that says nothing about the credentials (a 5xx, a timeout, a network fault). */
  inconclusive(): void {
    // A probe that did not reach a verdict: let the next request probe again after another cool-down.
    if (this.#probing && this.#openedAt !== undefined) this.#openedAt = this.#now();
    this.#probing = false;
  }
}
