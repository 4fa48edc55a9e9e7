/**
 * @module core/clock
 * Time is injected: domain code receives a Clock, so tests can freeze or advance it.
 */

/** A source of the current time. */
export interface Clock {
  /** The current time. */
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests that only moves when told to. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | number = 0) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#ms += ms;
  }
  /** Sets the clock to an absolute time. */
  set(t: Date | number): void {
    this.#ms = typeof t === 'number' ? t : t.getTime();
  }
}
