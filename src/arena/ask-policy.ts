/**
 * @module arena/ask-policy
 * The live arena's rules for whether a question is sent to the models (step 1 of arena/ask), as pure functions:
 * each returns a refusal (its reason and the words for the asker) or nothing. The caller reads what they need
 * (the asker's recent questions, the battle of a thread) and tells the asker.
 */
import type { AppConfig } from '../config/schema.ts';
import { asksModelIdentity, IDENTITY_QUESTION_REFUSAL } from './identity-question.ts';
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

const minutes = (ms: number): string => {
  const m = Math.max(1, Math.ceil(ms / 60_000));
  return `${m} minute${m === 1 ? '' : 's'}`;
};

/**
 * The checks of the prompt itself, in order: empty (after trimming, done by the caller), longer than
 * `maxPromptChars` (in code points), asking the models who they are (arena/identity-question).
 */
export function promptRefusal(prompt: string, maxPromptChars: number): Refusal | undefined {
  if (prompt === '')
    return {
      reason: 'empty',
      text: 'Ask a question after the command, e.g. `/ask How do tides work?` (optionally followed by an ability such as `reasoning`).',
    };
  const chars = [...prompt].length;
  if (chars > maxPromptChars)
    return {
      reason: 'too_long',
      text: `Your prompt has ${chars} characters; the arena takes at most ${maxPromptChars}. Please shorten it and ask again.`,
    };
  const hit = asksModelIdentity(prompt);
  if (hit)
    return {
      reason: 'identity_question',
      text: IDENTITY_QUESTION_REFUSAL,
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
): Refusal | undefined {
  const { max, window_minutes } = limit;
  if (h.askTimes.length + h.inFlight < max) return undefined;
  const windowMs = window_minutes * 60_000;
  const oldest = h.askTimes[0]?.getTime() ?? h.now;
  return {
    reason: 'rate_limited',
    text:
      `Thanks for the enthusiasm! You have asked ${max} question${max === 1 ? '' : 's'} in the last ` +
      `${window_minutes} minutes, the most the arena takes from one person so everyone gets a turn. ` +
      `You can ask again in about ${minutes(oldest + windowMs - h.now)}; meanwhile, votes on the open battles help a lot.`,
  };
}

/** The live arena needs two live models (`arena: true` in config/models.yaml); `count` is how many there are. */
export function liveModelsRefusal(count: number): Refusal | undefined {
  if (count >= 2) return undefined;
  return {
    reason: 'not_enough_models',
    text:
      `The live arena needs at least two models marked \`arena: true\` in config/models.yaml ` +
      `(with a working endpoint); there ${count === 1 ? 'is 1' : `are ${count}`}. Ask a maintainer to add some.`,
  };
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
export function followUpRefusal(b: ThreadBattle, maxTurns: number): Refusal | undefined {
  if (!b.live)
    return {
      reason: 'not_live',
      text: `Battle #${b.number} shows recorded answers, so it has no conversation to continue. Ask your own question with /ask.`,
    };
  if (b.status !== 'open')
    return {
      reason: 'closed',
      text: `Voting on battle #${b.number} has closed (${closeReasonWords(b.closeReason, b.closeCap)}), so its conversation is finished. Ask a new question with /ask.`,
    };
  if (b.turns >= maxTurns)
    return {
      reason: 'too_many_turns',
      text: `Battle #${b.number} has reached ${maxTurns} turns, the most one conversation takes. Ask a new question with /ask.`,
    };
  return undefined;
}

/** The refusal of a follow-up whose battle's models are no longer live. */
export function modelsGoneRefusal(number: number): Refusal {
  return {
    reason: 'models_gone',
    text: `The models of battle #${number} are no longer in the live arena, so the conversation cannot continue. Ask a new question with /ask.`,
  };
}

/** Why an attempt produced no usable answer, in words for the asker ("a model …"). */
export function failureWords(code: string): string {
  switch (code) {
    case 'timeout':
      return 'did not answer in time';
    case 'revealed':
      return 'revealed which model it is';
    case 'empty_reply':
      return 'gave an empty answer';
    case 'rate_limited':
      return 'was rate limited';
    default:
      return 'failed';
  }
}
