/**
 * @module eval/requests-ahead
 * A first `zhujiu eval` on a new embedded database sends its run's first requests while that database is being
 * created (docs/architecture.md, "A first eval"): the model's client is made from the configuration alone, and
 * sends the run's requests in the run's order of work (eval/run-plan `workOrder`) until the run asks its first
 * one; the run then takes each answer as its own call (llm/openai-client `sendAhead`), stored with its item once
 * the database is open. A new database holds no answers and no run to resume, so every request sent ahead is
 * one the run asks; anything else (a database that already exists, PostgreSQL, a recorded model, a run the
 * configuration alone shows would be refused) sends nothing ahead.
 */
import { filesOf } from '../config/files.ts';
import { disabledModels } from '../config/start-checks.ts';
import type { Logger } from '../core/logger.ts';
import { type ClientAhead, newOpenAiClient } from '../llm/factory.ts';
import { laterResponseCache } from '../llm/response-cache.ts';
import type { CompletionRequest } from '../llm/types.ts';
import { limited, workOrder } from './run-plan.ts';
import { type EvalConfig, judgeRefusal } from './service.ts';
import type { PreparedDataset } from './types.ts';

/**
 * Answers sent ahead that the run has not asked for yet, per request the endpoint takes at once: how far sending
 * ahead may lead the run (memory, and requests wasted when the run does not start after all). 16 at 100 ms a request
 * is 1.6 s of the endpoint's work: the run starts asking ~0.7 s after the first request (bench/first-start).
 */
const UNASKED_PER_SLOT = 16;

/** A client sending a run's first requests ahead ({@link sendRequestsAhead}). */
export interface RequestsAhead extends ClientAhead {
  /** Sends nothing more and aborts what is on its way (the command is ending, or was stopped). */
  stop(): void;
  /** How many answers have come that the run has not asked for yet (LlmClient.keepAhead stores them). */
  answered(): number;
}

/** What {@link sendRequestsAhead} needs: the command's model, suite and limit, and the database's state. */
export interface AheadOptions {
  readonly config: EvalConfig;
  /** `judge.model` of the configuration. */
  readonly judgeModel: string | null;
  readonly model: string;
  readonly suite: string;
  /** Items per dataset (`--limit`), null: all. */
  readonly limit: number | null;
  /** The suite's datasets being prepared (cli/eval); a rejection sends nothing. */
  readonly datasets: Promise<readonly PreparedDataset[]>;
  /** Longest prompt sent, characters (`eval.max_prompt_chars`): longer ones are not sent (eval/run-item). */
  readonly maxPromptChars: number;
  /**
   * True only when the database is new: this process holds the embedded database's folder and found it empty
   * (main.ts `RuntimeOptions.onDataFolder`).
   */
  readonly newDatabase: boolean;
  readonly logger: Logger;
}

/**
 * Starts sending the first requests of a run of `o.model` on `o.suite` before the database is open, when the
 * database is new and the configuration alone shows the run can start: the model is a configured
 * OpenAI-compatible one with its key, the suite is configured, and its judge (when it has scoring datasets) is
 * usable (eval/service `judgeRefusal`). Never throws.
 * @returns the client, for eval/service to use for that model (EvalServiceOptions.ahead); undefined when nothing
 *   is sent ahead.
 */
export function sendRequestsAhead(o: AheadOptions): RequestsAhead | undefined {
  if (!o.newDatabase || !o.config.suites.has(o.suite)) return undefined;
  const model = o.config.models.find((m) => m.name === o.model);
  if (model?.provider !== 'openai') return undefined;
  if (disabledModels(o.config).some((d) => d.name === model.name)) return undefined;
  if (judgeRefusal(o.config, o.suite, o.judgeModel, false) !== undefined) return undefined;
  const later = laterResponseCache();
  const client = newOpenAiClient(model, {
    apiKey: o.config.apiKeyFor(model.name),
    logger: o.logger,
    entryIn: filesOf(o.config).models,
    cache: later.cache,
  });
  const stop = new AbortController();
  o.datasets.then(
    (datasets) => {
      if (stop.signal.aborted) return;
      const requests = requestsInWorkOrder(datasets, o.limit, o.maxPromptChars);
      client.sendAhead(requests, UNASKED_PER_SLOT * client.maxConcurrency, stop.signal);
    },
    () => undefined, // the run's start reports it
  );
  return {
    model,
    adopt: (cache) => {
      later.bind(cache);
      return client;
    },
    stop: () => stop.abort(),
    answered: () => client.answeredAhead,
  };
}

/**
 * The model requests of a run's single-request items (at most `limit` per dataset, null: all) in the run's order of
 * work (eval/run-plan `workOrder`), as eval/run-item sends them, without their item ids; multi-request items and
 * prompts longer than `maxPromptChars` (never sent) are left out. Lazy: each request is built when it is taken.
 */
export function* requestsInWorkOrder(
  datasets: readonly PreparedDataset[],
  limit: number | null,
  maxPromptChars: number,
): Generator<CompletionRequest> {
  const items = datasets.map((ds) => limited(ds, limit));
  const at: [dataset: number, item: number][] = [];
  workOrder(items.map((i) => i.length)).forEach((positions, d) => {
    positions.forEach((pos, j) => {
      at[pos] = [d, j];
    });
  });
  for (const [d, j] of at) {
    const ds = datasets[d] as PreparedDataset;
    const item = (items[d] as PreparedDataset['items'])[j];
    if (item === undefined || ds.requests?.(item)) continue;
    const messages = ds.messages(item);
    if (messages.reduce((n, m) => n + m.content.length, 0) > maxPromptChars) continue;
    yield { messages, templateVersion: ds.templateVersion };
  }
}
