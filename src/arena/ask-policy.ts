/**
 * @module arena/ask-policy
 * The live arena's rules for whether a question is sent to the models (step 1 of arena/ask), as pure functions:
 * each returns a refusal (its reason and the words for the asker, `ask.*` of the catalogue in `locale`, default en)
 * or nothing. The caller reads what they need (the asker's recent questions, the battle of a thread) and tells the
 * asker.
 */
import type { AppConfig } from '../config/schema.ts';
import { type Locale, t } from '../i18n/index.ts';
import { asksModelIdentity } from './identity-question.ts';
import { closeReasonWords } from './message.ts';

/** Why a question was not sent to the models. */
export type AskRefusal =
  | 'empty'
  | 'too_long'
  | 'identity_question'
  | 'rate_limited'
  | 'not_enough_models'
  | 'no_platform'
  | 'not_live'
  | 'closed'
  | 'too_many_turns'
  | 'models_gone';

/** A refusal: its reason, and what the asker is told. */
export interface Refusal {
  readonly reason: AskRefusal;
  readonly text: string;
  /** For `identity_question`: which language's pattern matched, and the words (logged, never shown). */
  readonly identity?: { readonly language: string; readonly match: string };
}

/**
 * The checks of the prompt itself, in order: empty (after trimming, done by the caller), longer than
 * `maxPromptChars` (in code points), asking the models who they are (arena/identity-question).
 */
export function promptRefusal(
  prompt: string,
  maxPromptChars: number,
  locale: Locale = 'en',
): Refusal | undefined {
  if (prompt === '') return { reason: 'empty', text: t(locale, 'ask.empty') };
  const chars = [...prompt].length;
  if (chars > maxPromptChars)
    return { reason: 'too_long', text: t(locale, 'ask.tooLong', { chars, max: maxPromptChars }) };
  const hit = asksModelIdentity(prompt);
  if (hit)
    return {
      reason: 'identity_question',
      text: t(locale, 'ask.identity'),
      identity: { language: hit.language, match: hit.match },
    };
  return undefined;
}

/** What the per-person limit looks at. */
export interface AskHistory {
  /** When the asker's stored questions within the window were asked, oldest first. */
  readonly askTimes: readonly Date[];
  /** The asker's questions being answered now (not stored yet). */
  readonly inFlight: number;
  /** Now, ms since the epoch. */
  readonly now: number;
}

/** The per-person limit (`arena.ask.rate_limit`): at most `max` questions in `window_minutes`, in flight included. */
export function rateRefusal(
  h: AskHistory,
  limit: AppConfig['arena']['ask']['rate_limit'],
  locale: Locale = 'en',
): Refusal | undefined {
  const { max, window_minutes } = limit;
  if (h.askTimes.length + h.inFlight < max) return undefined;
  const windowMs = window_minutes * 60_000;
  const oldest = h.askTimes[0]?.getTime() ?? h.now;
  return {
    reason: 'rate_limited',
    text: t(locale, 'ask.rateLimited', {
      max,
      window: window_minutes,
      wait: Math.max(1, Math.ceil((oldest + windowMs - h.now) / 60_000)),
    }),
  };
}

/** The live arena needs two live models (`arena: true` in config/models.yaml); `count` is how many there are. */
export function liveModelsRefusal(count: number, locale: Locale = 'en'): Refusal | undefined {
  if (count >= 2) return undefined;
  return { reason: 'not_enough_models', text: t(locale, 'ask.notEnoughModels', { count }) };
}

/** The battle a follow-up is posted under, as {@link followUpRefusal} reads it. */
export interface ThreadBattle {
  readonly number: number;
  readonly status: string;
  readonly closeReason: Parameters<typeof closeReasonWords>[0];
  readonly closeCap: Parameters<typeof closeReasonWords>[1];
  /** Whether it is a live battle (its answers were asked for), and its turns so far. */
  readonly live: boolean;
  readonly turns: number;
}

/**
 * Whether a conversation can take one more turn, in order: the battle is live, still open, and has fewer than
 * `maxTurns` turns (`arena.ask.max_turns`).
 */
export function followUpRefusal(
  b: ThreadBattle,
  maxTurns: number,
  locale: Locale = 'en',
): Refusal | undefined {
  const n = b.number;
  if (!b.live) return { reason: 'not_live', text: t(locale, 'ask.notLive', { n }) };
  if (b.status !== 'open') {
    const why = closeReasonWords(b.closeReason, b.closeCap, locale);
    return { reason: 'closed', text: t(locale, 'ask.closed', { n, why }) };
  }
  if (b.turns >= maxTurns)
    return { reason: 'too_many_turns', text: t(locale, 'ask.tooManyTurns', { n, max: maxTurns }) };
  return undefined;
}

/** The refusal of a follow-up whose battle's models are no longer live. */
export function modelsGoneRefusal(number: number, locale: Locale = 'en'): Refusal {
  return { reason: 'models_gone', text: t(locale, 'ask.modelsGone', { n: number }) };
}

/** The failure codes {@link failureWords} has words of their own for. */
const FAILURES = ['timeout', 'revealed', 'empty_reply', 'rate_limited'] as const;

/** Why an attempt produced no usable answer, in words for the asker ("a model …"), in `locale` (default en). */
export function failureWords(code: string, locale: Locale = 'en'): string {
  const known = (FAILURES as readonly string[]).includes(code);
  return t(
    locale,
    known ? `ask.failure.${code as (typeof FAILURES)[number]}` : 'ask.failure.other',
  );
}
