/**
 * @module arena/live-answers
 * The two answers of a live battle (step 3 of arena/ask). Each request has one deadline,
 * `arena.ask.answer_timeout_ms`, for the whole answer (the client's retries included): when it passes, or the
 * caller aborts, the request is cancelled and the wait ends at once, whatever the client is doing (a request still
 * queued behind the endpoint's `max_concurrency` included). The client's own per-attempt `timeout_ms` can only end
 * an attempt sooner; either way the answer counts as one that did not come in time.
 *
 * An answer that fails, times out, is empty or reveals its model (arena/identity-guard) is discarded and its model
 * replaced by the next untried model paired with the one that stays (arena/live-pairs), at most `max_attempts`
 * models in all; when none is left the other request is aborted and the pair fails with a reason in words.
 */
import type { Logger } from '../core/logger.ts';
import { type Locale, t } from '../i18n/index.ts';
import type { ChatMessage, CompletionResult, LlmClient } from '../llm/types.ts';
import { failureWords } from './ask-policy.ts';
import type { SlotProgress } from './ask-progress.ts';
import type { IdentityGuard } from './identity-guard.ts';
import { type LiveCandidate, type RankedPair, replacementFor } from './live-pairs.ts';

/** The prompt-template version sent with every live request (part of the response-cache key). */
export const ASK_TEMPLATE_VERSION = 'arena-ask-v1';

/**
 * Asks `client` for an answer to `messages` within `timeoutMs` (one deadline for the whole request), or until
 * `signal` aborts. Never throws: a client that throws is failure `network`, the deadline is failure `timeout`
 * (`no answer within <timeoutMs> ms`), the caller's abort is failure `aborted`.
 */
export async function answerWithin(
  client: LlmClient,
  messages: readonly ChatMessage[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<CompletionResult> {
  const t0 = performance.now();
  const ended = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ended.abort();
  }, timeoutMs);
  const onAbort = () => ended.abort();
  if (signal.aborted) ended.abort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const end = new Promise<CompletionResult>((resolve) => {
    const result = (): CompletionResult =>
      timedOut
        ? {
            ok: false,
            code: 'timeout',
            message: `no answer within ${timeoutMs} ms`,
            latencyMs: performance.now() - t0,
          }
        : { ok: false, code: 'aborted', message: 'cancelled', latencyMs: performance.now() - t0 };
    if (ended.signal.aborted) resolve(result());
    else ended.signal.addEventListener('abort', () => resolve(result()), { once: true });
  });
  try {
    return await Promise.race([
      client
        .complete({ messages, templateVersion: ASK_TEMPLATE_VERSION, signal: ended.signal })
        .catch(
          (err: unknown): CompletionResult => ({
            ok: false,
            code: 'network',
            message: (err as Error).message,
            latencyMs: performance.now() - t0,
          }),
        ),
      end,
    ]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** A usable answer, or the code of why not (a failure's code, `empty_reply` or `revealed`). */
export type Usable =
  | { readonly ok: true; readonly text: string; readonly latencyMs: number }
  | { readonly ok: false; readonly code: string };

/**
 * Checks one model's result: a failure, an empty answer, or an answer the identity guard refuses (checked against
 * both models' names, `model` and `otherName`) is not usable; a refusal by the guard is logged (never its text).
 */
export function usableAnswer(
  res: CompletionResult,
  model: string,
  otherName: string,
  guard: IdentityGuard,
  log: Logger,
): Usable {
  if (!res.ok) return { ok: false, code: res.code };
  if (res.text.trim() === '') return { ok: false, code: 'empty_reply' };
  const hit = guard.check(res.text, [model, otherName]);
  if (hit) {
    log.info({ model, kind: hit.kind, term: hit.term }, 'identity guard refused a live answer');
    return { ok: false, code: 'revealed' };
  }
  return { ok: true, text: res.text, latencyMs: res.latencyMs };
}

/** One usable answer of a live battle. */
export interface LiveAnswer {
  readonly model: LiveCandidate;
  readonly text: string;
  readonly latencyMs: number;
}

/** What {@link answerPair} works with. */
export interface PairOptions {
  /** The first pair asked. */
  readonly pair: RankedPair;
  /** Every pair, in the order replacements are looked for (arena/live-pairs `rankLivePairs`). */
  readonly ranked: readonly RankedPair[];
  /** The most models asked in all (`arena.ask.max_attempts`, ≥ 2). */
  readonly maxAttempts: number;
  /** How many live models there are (named in the failure). */
  readonly liveCount: number;
  /** Asks one model; never throws (e.g. {@link answerWithin}). */
  ask(model: LiveCandidate, signal: AbortSignal): Promise<CompletionResult>;
  /** Whether a result is usable (e.g. {@link usableAnswer}). */
  usable(res: CompletionResult, model: LiveCandidate, otherName: string): Usable;
  /** Called whenever a side's state changes (an answer is in, a model was replaced). */
  onProgress(slots: readonly SlotProgress[]): void;
  readonly log: Logger;
  /** The language of the progress notes, shown in the channel (config `locale`; default en). */
  readonly locale?: Locale;
  /** The language of the failure, told to the asker (default {@link locale}). */
  readonly askerLocale?: Locale;
}

/** How {@link answerPair} ended. */
export type PairResult =
  | {
      readonly ok: true;
      readonly answers: readonly [LiveAnswer, LiveAnswer];
      /** Models discarded and replaced. */
      readonly replaced: number;
    }
  /** `failure`: why, in words for the asker; absent when stopped from outside. */
  | { readonly ok: false; readonly failure: string | undefined };

/** One side of the pair. */
interface Slot {
  model: LiveCandidate;
  ready: boolean;
  note: string;
}

/**
 * Asks both sides of `o.pair` at once, replacing a model whose answer is not usable. `stop` is aborted when a side
 * has no replacement left (the other side's request is cancelled with it); an abort from outside ends both sides
 * without a failure reason of their own.
 */
export async function answerPair(o: PairOptions, stop: AbortController): Promise<PairResult> {
  const slots: [Slot, Slot] = [
    { model: o.pair.a, ready: false, note: '' },
    { model: o.pair.b, ready: false, note: '' },
  ];
  const tried = new Set<string>([o.pair.a.name, o.pair.b.name]);
  let attempts = 2;
  let replaced = 0;
  let failure: string | undefined;
  const locale = o.locale ?? 'en';
  const askerLocale = o.askerLocale ?? locale;
  const side = async (slot: Slot, other: Slot): Promise<LiveAnswer | undefined> => {
    for (;;) {
      const model = slot.model;
      const res = await o.ask(model, stop.signal);
      if (stop.signal.aborted) return undefined;
      const u = o.usable(res, model, other.model.name);
      if (u.ok) {
        slot.ready = true;
        slot.note = '';
        o.onProgress(slots);
        return { model, text: u.text, latencyMs: u.latencyMs };
      }
      o.log.warn(
        { model: model.name, code: u.code, message: res.ok ? undefined : res.message },
        'live model gave no usable answer; replacing it',
      );
      const next =
        attempts < o.maxAttempts ? replacementFor(other.model, tried, o.ranked) : undefined;
      if (!next) {
        failure = t(askerLocale, 'ask.pair.failure', {
          what: failureWords(u.code, askerLocale),
          attempts,
          live: o.liveCount,
        });
        stop.abort();
        return undefined;
      }
      tried.add(next.name);
      attempts++;
      replaced++;
      slot.model = next;
      slot.note = t(locale, 'ask.pair.note', { what: failureWords(u.code, locale) });
      o.onProgress(slots);
    }
  };
  const [a, b] = await Promise.all([side(slots[0], slots[1]), side(slots[1], slots[0])]);
  if (!a || !b) return { ok: false, failure };
  return { ok: true, answers: [a, b], replaced };
}
