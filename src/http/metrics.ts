/**
 * @module http/metrics
 * The Prometheus side of {@link AppMetrics} (prom-client), registered on the registry `/metrics` serves, plus
 * gauges read from the database at each scrape (the evaluation queue's depth and its oldest run's age). Names,
 * types and labels are listed in the README ("Metrics"); every label's values come from a bounded set.
 */

import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AppMetrics } from '../core/metrics.ts';
import { evalQueueState } from '../storage/eval-runs.ts';
import type { Database } from '../storage/schema.ts';

/** Latency buckets of a model request, s (0.05 s to 2 min). */
const MODEL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Buckets of a board build, s. */
const BOARD_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Registers the application metrics on `registry` and returns the {@link AppMetrics} that feeds them. With `db`,
 * the queue gauges are read from it at each scrape (one query).
 */
export function createPromMetrics(registry: Registry, db?: Kysely<Database>): AppMetrics {
  const r = [registry];
  const votes = new Counter({
    name: 'zhujiu_votes_total',
    help: 'Vote events stored, by platform and kind (cast, changed, retracted).',
    labelNames: ['platform', 'kind'] as const,
    registers: r,
  });
  const posted = new Counter({
    name: 'zhujiu_battles_posted_total',
    help: 'Arena battles posted, by platform and origin (command, scheduled, live).',
    labelNames: ['platform', 'origin'] as const,
    registers: r,
  });
  const closed = new Counter({
    name: 'zhujiu_battles_closed_total',
    help: 'Arena battles closed by this process, by reason (window, cap).',
    labelNames: ['reason'] as const,
    registers: r,
  });
  const items = new Counter({
    name: 'zhujiu_eval_items_total',
    help: 'Evaluation items finished by this process, by outcome (done, failed).',
    labelNames: ['outcome'] as const,
    registers: r,
  });
  const modelSeconds = new Histogram({
    name: 'zhujiu_model_request_seconds',
    help: 'Latency of model requests that reached the endpoint (cached answers excluded), by configured model.',
    labelNames: ['model'] as const,
    buckets: MODEL_BUCKETS,
    registers: r,
  });
  const modelErrors = new Counter({
    name: 'zhujiu_model_errors_total',
    help: 'Model requests that failed, by configured model and failure code (llm/types CompletionFailureCode).',
    labelNames: ['model', 'code'] as const,
    registers: r,
  });
  const board = new Histogram({
    name: 'zhujiu_board_build_seconds',
    help: 'Time to compute a board snapshot (inputs read, bootstrap, chart).',
    buckets: BOARD_BUCKETS,
    registers: r,
  });
  const corrections = new Counter({
    name: 'zhujiu_reconcile_corrections_total',
    help: 'Votes corrected when re-reading a platform’s reactions, by platform and kind (added, removed).',
    labelNames: ['platform', 'kind'] as const,
    registers: r,
  });
  const shared = new Counter({
    name: 'zhujiu_shared_tasks_total',
    help: 'Shared periodic tasks claimed by this process (ran) or left to another (skipped), by task kind.',
    labelNames: ['task', 'outcome'] as const,
    registers: r,
  });
  if (db) queueGauges(registry, db);
  return {
    vote: (platform, kind) => votes.inc({ platform, kind }),
    battlePosted: (platform, origin) => posted.inc({ platform, origin }),
    battlesClosed: (reason, n) => closed.inc({ reason }, n),
    evalItem: (outcome) => items.inc({ outcome }),
    modelCall: (model, seconds, error) => {
      modelSeconds.observe({ model }, seconds);
      if (error !== undefined) modelErrors.inc({ model, code: error });
    },
    boardBuilt: (seconds) => board.observe(seconds),
    reconcileCorrections: (platform, kind, n) => corrections.inc({ platform, kind }, n),
    sharedTask: (task, outcome) => shared.inc({ task, outcome }),
  };
}

/** The evaluation queue's gauges, read from the run tables (one query) at each scrape. */
function queueGauges(registry: Registry, db: Kysely<Database>): void {
  const runs = new Gauge({
    name: 'zhujiu_eval_runs',
    help: 'Evaluation runs waiting in the queue or being worked, by status (queued, running).',
    labelNames: ['status'] as const,
    registers: [registry],
    collect: async () => {
      const q = await evalQueueState(db);
      runs.set({ status: 'queued' }, q.queued);
      runs.set({ status: 'running' }, q.running);
      waiting.set(q.waitingItems);
      age.set(q.oldestSeconds);
    },
  });
  const waiting = new Gauge({
    name: 'zhujiu_eval_items_waiting',
    help: 'Items of active evaluation runs not finished yet (pending or claimed).',
    registers: [registry],
  });
  const age = new Gauge({
    name: 'zhujiu_eval_oldest_active_run_seconds',
    help: 'Age of the oldest queued or running evaluation run, s (0 when none).',
    registers: [registry],
  });
}
