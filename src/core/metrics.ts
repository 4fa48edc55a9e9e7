/**
 * @module core/metrics
 * The application metrics port: what the services count (votes, battles, evaluation items, model calls, board
 * builds, reconcile corrections, shared tasks). Services take an {@link AppMetrics} (default {@link noMetrics});
 * `bot` and `worker` give them the Prometheus one (http/metrics.ts) behind `/metrics`, so a one-shot command never
 * loads prom-client. Every label takes values from a bounded set (platforms, configured model names, outcomes,
 * task kinds): never a user, battle or run id (README "Metrics").
 */

/** A vote event as the arena stores it. */
export type VoteKind = 'cast' | 'changed' | 'retracted';

/** What the services report. Every method is cheap and never throws. */
export interface AppMetrics {
  /** A vote event stored from `platform`. */
  vote(platform: string, kind: VoteKind): void;
  /** A battle posted on `platform` (`origin`: `command`, `scheduled` or `live`). */
  battlePosted(platform: string, origin: 'command' | 'scheduled' | 'live'): void;
  /** Battles closed (`reason`: `window` or `cap`). */
  battlesClosed(reason: 'window' | 'cap', n: number): void;
  /** An evaluation item finished with `outcome` (`done`, `failed`). */
  evalItem(outcome: 'done' | 'failed'): void;
  /** One model request to endpoint `model` (a configured name) took `seconds`; `error` its failure code. */
  modelCall(model: string, seconds: number, error?: string): void;
  /** A board snapshot computed in `seconds` (one per build, whether stored or not). */
  boardBuilt(seconds: number): void;
  /** Votes corrected when re-reading a platform's reactions (`kind`: `added`, `removed`). */
  reconcileCorrections(platform: string, kind: 'added' | 'removed', n: number): void;
  /** A shared periodic task (`board.build`, `arena.close`, `arena.schedule`) run here, or left to another process. */
  sharedTask(kind: string, outcome: 'ran' | 'skipped'): void;
}

/** Metrics that go nowhere (one-shot commands, tests that do not look). */
export const noMetrics: AppMetrics = {
  vote: () => {},
  battlePosted: () => {},
  battlesClosed: () => {},
  evalItem: () => {},
  modelCall: () => {},
  boardBuilt: () => {},
  reconcileCorrections: () => {},
  sharedTask: () => {},
};
