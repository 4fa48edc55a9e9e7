/**
 * @module arena/ask
 * The live arena (`/ask <prompt> [ability]`): a person's own question, answered now by two anonymous
 * live models, posted as a battle in the same form as recorded battles, voted on with the same reactions. Talks to
 * models only through {@link LlmClient}, to chat only through {@link ChatPlatform}, to the database only through
 * storage/.
 *
 * The flow of one question:
 * 1. Checks, in this order, each answered at once and privately: an empty prompt; a prompt longer than
 *    `arena.ask.max_prompt_chars`; a prompt that asks the models who they are (arena/identity-question.ts); the
 *    per-person limit (`arena.ask.rate_limit`: questions stored in the window plus those being answered now);
 *    fewer than two live models.
 * 2. The asker is told at once that the models are answering; a progress message is posted in the channel and
 *    edited at most every `arena.ask.progress_every_ms` (it never names a model or a side).
 * 3. Two live models are chosen (arena/live-pairs.ts) and asked concurrently. An answer that fails, times out
 *    (`arena.ask.answer_timeout_ms`), is empty, or reveals its model (the identity guard, arena/identity-guard.ts)
 *    is discarded and that model is replaced by another (at most `arena.ask.max_attempts` models in all); when no
 *    model is left the other request is aborted and the asker is told why.
 * 4. With two answers the sides are randomised (seeded; the seed is stored), the battle and its first turn are
 *    stored, the battle is posted with the three reactions, and the progress message is deleted (or, on a platform
 *    that cannot delete, edited to point at the battle). Nothing half-made stays: on failure the progress message
 *    goes too and the pending battle (if any) is voided.
 * 5. Ability: a tag is stored as such; otherwise the classifier model (arena/ability-classifier.ts) runs alongside
 *    the answers and its result is stored after posting (the post never waits for it). A maintainer's override wins
 *    over both; an unparseable or failed classification leaves the battle unclassified (listed, never dropped).
 *
 * Follow-ups ({@link AskService.followUp}): a message in the battle's thread continues the conversation with both
 * models, each with its own history (the prompts and its own answers); both answers pass the identity guard, are
 * posted in the thread, and stored as the next turn. The vote on the battle message covers the whole conversation
 * (exports carry the turn count).
 */
import type { Kysely } from 'kysely';
import type {
  ChatPlatform,
  ChatUser,
  MessageContent,
  MessageRef,
  PlatformName,
  ReplyOptions,
} from '../chat/port.ts';
import type { Ability } from '../config/abilities.ts';
import type { AppConfig } from '../config/schema.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import { createRng, freshSeed } from '../core/rng.ts';
import { hashVoterId } from '../core/voter-id.ts';
import type { ChatMessage, CompletionResult, LlmClient } from '../llm/types.ts';
import {
  findBattleByMessage,
  markPosted,
  pairLiveVoteCounts,
  voidBattle,
} from '../storage/battles.ts';
import {
  addTurn,
  askTimesSince,
  createLiveBattle,
  listTurns,
  liveInfo,
  markClassifierTried,
  setClassifiedAbility,
} from '../storage/live-battles.ts';
import { ensureModels } from '../storage/models.ts';
import type { Database } from '../storage/schema.ts';
import { classifyAbility } from './ability-classifier.ts';
import { IdentityGuard } from './identity-guard.ts';
import { asksModelIdentity, IDENTITY_QUESTION_REFUSAL } from './identity-question.ts';
import { type LiveCandidate, rankLivePairs, replacementFor } from './live-pairs.ts';
import { battleContent, closeReasonWords, terminalVoteHint } from './message.ts';
import { type ArenaService, refOf } from './service.ts';

/** The prompt-template version sent with every live request (part of the response-cache key). */
export const ASK_TEMPLATE_VERSION = 'arena-ask-v1';

/** A model that answers `/ask`: `arena: true` in config/models.yaml, with its client. */
export interface LiveModel {
  readonly name: string;
  /** `arena_weight` (default 1). */
  readonly weight: number;
  readonly client: LlmClient;
}

/** Dependencies of {@link AskService}. */
export interface AskServiceOptions {
  readonly db: Kysely<Database>;
  readonly arena: ArenaService;
  readonly config: AppConfig['arena'];
  readonly clock: Clock;
  readonly logger: Logger;
  /** Server secret: the asker's id is stored as the same HMAC as voters' ids. */
  readonly voterSecret: string;
  readonly models: readonly LiveModel[];
  /** The judge model that classifies untagged prompts (`arena.ask.classifier_model`); none: unclassified. */
  readonly classifier?: LlmClient;
  readonly seedSource?: () => number;
}

/** One `/ask`. */
export interface AskInput {
  readonly platform: PlatformName;
  readonly channelId: string;
  readonly user: ChatUser;
  readonly prompt: string;
  readonly ability?: Ability;
  /** Answers the asker (privately where the platform can). */
  reply(content: MessageContent, options?: ReplyOptions): Promise<void>;
}

/** One follow-up in a battle's thread. */
export interface FollowUpInput {
  readonly platform: PlatformName;
  /** The channel of the battle message. */
  readonly channelId: string;
  /** The battle message's id (the thread's first message). */
  readonly threadOf: string;
  readonly user: ChatUser;
  readonly prompt: string;
  reply(content: MessageContent, options?: ReplyOptions): Promise<void>;
}

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

/** What one `/ask` or follow-up did. */
export type AskOutcome =
  | {
      readonly kind: 'posted';
      /** Internal id (storage, logs). */
      readonly battleId: number;
      /** Its number in the community's arena: what its messages show and chat commands take. */
      readonly number: number;
      readonly ref: MessageRef;
      readonly turn: number;
      /** Models discarded and replaced (failed, timed out, empty, or revealed). */
      readonly replaced: number;
      /** Resolves when the classifier's ability is stored (or it gave up); immediately without a classifier. */
      readonly classified: Promise<void>;
    }
  | { readonly kind: 'refused'; readonly reason: AskRefusal }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'ignored' };

/** One usable answer. */
interface Answer {
  readonly model: LiveCandidate;
  readonly text: string;
  readonly latencyMs: number;
}

/** Why an attempt produced no usable answer, in words for the asker. */
function failureWords(code: string): string {
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

const minutes = (ms: number): string => {
  const m = Math.max(1, Math.ceil(ms / 60_000));
  return `${m} minute${m === 1 ? '' : 's'}`;
};

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * A progress message in the channel, edited at most every `everyMs` (the latest state wins), then removed.
 * Failures to post or edit are logged and never stop the battle.
 */
class ProgressMessage {
  readonly #platform: ChatPlatform;
  readonly #everyMs: number;
  readonly #log: Logger;
  #ref: Promise<MessageRef | undefined>;
  #chain: Promise<void> = Promise.resolve();
  #last = 0;
  #pending: MessageContent | undefined;
  #timer: NodeJS.Timeout | undefined;
  #done = false;

  constructor(
    platform: ChatPlatform,
    channelId: string,
    content: MessageContent,
    everyMs: number,
    log: Logger,
  ) {
    this.#platform = platform;
    this.#everyMs = everyMs;
    this.#log = log;
    this.#last = performance.now();
    this.#ref = platform.post(channelId, content).catch((err: unknown) => {
      log.warn({ err }, 'posting the progress message failed; answering without it');
      return undefined;
    });
  }

  /** Shows `content` now, or when the edit interval allows (only the latest content is sent). */
  update(content: MessageContent): void {
    if (this.#done) return;
    this.#pending = content;
    if (this.#timer) return;
    const wait = Math.max(0, this.#last + this.#everyMs - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const c = this.#pending;
      this.#pending = undefined;
      if (!c || this.#done) return;
      this.#last = performance.now();
      this.#chain = this.#chain.then(async () => {
        const ref = await this.#ref;
        if (!ref || this.#done) return;
        await this.#platform.edit(ref, c).catch((err: unknown) => {
          this.#log.warn({ err }, 'editing the progress message failed');
        });
      });
    }, wait);
    this.#timer.unref?.();
  }

  /** Removes the message (or, where deleting is impossible, replaces it with `fallback`). */
  async finish(fallback: MessageContent): Promise<void> {
    this.#done = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#chain;
    const ref = await this.#ref;
    if (!ref) return;
    try {
      if (this.#platform.delete) await this.#platform.delete(ref);
      else await this.#platform.edit(ref, fallback);
    } catch (err) {
      this.#log.warn(
        { err },
        'removing the progress message failed; replacing it with a short note',
      );
      await this.#platform.edit(ref, fallback).catch(() => undefined);
    }
  }
}

/** The live arena. One instance per bot process; all state is in the database (plus questions in flight). */
export class AskService {
  readonly #o: AskServiceOptions;
  readonly #cfg: AppConfig['arena']['ask'];
  readonly #log: Logger;
  readonly #guard: IdentityGuard;
  readonly #seed: () => number;
  readonly #models: Map<string, LiveModel>;
  /** asker hash → questions being answered now (they count towards the limit before they are stored). */
  readonly #inFlight = new Map<string, number>();
  /** Background work (classification) to wait for on shutdown. */
  readonly #background = new Set<Promise<void>>();
  #ids: Map<string, number> | undefined;

  constructor(o: AskServiceOptions) {
    this.#o = o;
    this.#cfg = o.config.ask;
    this.#log = o.logger.child({ component: 'ask' });
    this.#guard = new IdentityGuard(o.config.identity_guard);
    this.#seed = o.seedSource ?? freshSeed;
    this.#models = new Map(o.models.map((m) => [m.name, m]));
  }

  /** Names of the live models. */
  get modelNames(): string[] {
    return [...this.#models.keys()];
  }

  /** Waits for background work (classifications) to finish. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#background]);
  }

  async #modelIds(): Promise<Map<string, number>> {
    if (!this.#ids) this.#ids = await ensureModels(this.#o.db, [...this.#models.keys()], 'openai');
    return this.#ids;
  }

  /** The checks every question passes before any model is asked (step 1 of the module doc). */
  async #check(
    prompt: string,
    askerHash: string,
  ): Promise<{ reason: AskRefusal; text: string } | undefined> {
    if (prompt === '')
      return {
        reason: 'empty',
        text: 'Ask a question after the command, e.g. `/ask How do tides work?` (optionally followed by an ability such as `reasoning`).',
      };
    if ([...prompt].length > this.#cfg.max_prompt_chars)
      return {
        reason: 'too_long',
        text: `Your prompt has ${[...prompt].length} characters; the arena takes at most ${this.#cfg.max_prompt_chars}. Please shorten it and ask again.`,
      };
    const hit = asksModelIdentity(prompt);
    if (hit) {
      this.#log.info({ language: hit.language, match: hit.match }, 'identity question refused');
      return { reason: 'identity_question', text: IDENTITY_QUESTION_REFUSAL };
    }
    const { max, window_minutes } = this.#cfg.rate_limit;
    const windowMs = window_minutes * 60_000;
    const now = this.#o.clock.now().getTime();
    const times = await askTimesSince(this.#o.db, askerHash, new Date(now - windowMs));
    const inFlight = this.#inFlight.get(askerHash) ?? 0;
    if (times.length + inFlight >= max) {
      const oldest = times[0]?.getTime() ?? now;
      return {
        reason: 'rate_limited',
        text:
          `Thanks for the enthusiasm! You have asked ${max} question${max === 1 ? '' : 's'} in the last ` +
          `${window_minutes} minutes, the most the arena takes from one person so everyone gets a turn. ` +
          `You can ask again in about ${minutes(oldest + windowMs - now)}; meanwhile, votes on the open battles help a lot.`,
      };
    }
    return undefined;
  }

  #enter(askerHash: string): () => void {
    this.#inFlight.set(askerHash, (this.#inFlight.get(askerHash) ?? 0) + 1);
    return () => {
      const n = (this.#inFlight.get(askerHash) ?? 1) - 1;
      if (n <= 0) this.#inFlight.delete(askerHash);
      else this.#inFlight.set(askerHash, n);
    };
  }

  /** One request with the answer timeout; never throws. */
  async #complete(
    model: LiveModel,
    messages: readonly ChatMessage[],
    signal: AbortSignal,
  ): Promise<CompletionResult> {
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const t0 = performance.now();
    const timeout = new Promise<CompletionResult>((resolve) => {
      timer = setTimeout(() => {
        ac.abort();
        resolve({
          ok: false,
          code: 'timeout',
          message: `no answer within ${this.#cfg.answer_timeout_ms} ms`,
          latencyMs: performance.now() - t0,
        });
      }, this.#cfg.answer_timeout_ms);
    });
    try {
      return await Promise.race([
        model.client
          .complete({ messages, templateVersion: ASK_TEMPLATE_VERSION, signal: ac.signal })
          .catch(
            (err: unknown): CompletionResult => ({
              ok: false,
              code: 'network',
              message: (err as Error).message,
              latencyMs: performance.now() - t0,
            }),
          ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Checks one model result: a usable answer, or why not. */
  #usable(
    res: CompletionResult,
    model: LiveCandidate,
    otherName: string,
  ): { ok: true; text: string; latencyMs: number } | { ok: false; code: string } {
    if (!res.ok) return { ok: false, code: res.code };
    if (res.text.trim() === '') return { ok: false, code: 'empty_reply' };
    const hit = this.#guard.check(res.text, [model.name, otherName]);
    if (hit) {
      this.#log.info(
        { model: model.name, kind: hit.kind, term: hit.term },
        'identity guard refused a live answer',
      );
      return { ok: false, code: 'revealed' };
    }
    return { ok: true, text: res.text, latencyMs: res.latencyMs };
  }

  /**
   * Answers a new question (see the module doc).
   * @returns what happened; never throws for model or chat faults (they are logged and told to the asker).
   */
  async ask(input: AskInput): Promise<AskOutcome> {
    const prompt = input.prompt.trim();
    const askerHash = hashVoterId(this.#o.voterSecret, input.platform, input.user.id);
    const refusal = await this.#check(prompt, askerHash);
    if (refusal) {
      await input.reply({ text: refusal.text }, { ephemeral: true });
      return { kind: 'refused', reason: refusal.reason };
    }
    const platform = this.#o.arena.platform(input.platform);
    if (!platform) return { kind: 'refused', reason: 'no_platform' };
    if (this.#models.size < 2) {
      await input.reply(
        {
          text:
            `The live arena needs at least two models marked \`arena: true\` in config/models.yaml ` +
            `(with a working endpoint); there ${this.#models.size === 1 ? 'is 1' : `are ${this.#models.size}`}. Ask a maintainer to add some.`,
        },
        { ephemeral: true },
      );
      return { kind: 'refused', reason: 'not_enough_models' };
    }
    const leave = this.#enter(askerHash);
    try {
      return await this.#askNow(input, prompt, askerHash, platform);
    } finally {
      leave();
    }
  }

  async #askNow(
    input: AskInput,
    prompt: string,
    askerHash: string,
    platform: ChatPlatform,
  ): Promise<AskOutcome> {
    const askedAt = this.#o.clock.now();
    const seed = this.#seed();
    const rng = createRng(seed);
    const log = this.#log.child({ platform: input.platform, channelId: input.channelId });
    const controller = new AbortController();
    // The classifier runs alongside the answers (never delays the post).
    const classification =
      input.ability === undefined && this.#o.classifier
        ? classifyAbility(this.#o.classifier, prompt, controller.signal).catch(
            (err: unknown) =>
              ({
                ok: false,
                reason: (err as Error).message,
                classifier: 'ability-classifier',
                version: '',
              }) as const,
          )
        : undefined;
    const ids = await this.#modelIds();
    const candidates: LiveCandidate[] = [...this.#models.values()].map((m) => ({
      name: m.name,
      id: ids.get(m.name) as number,
      weight: m.weight,
    }));
    const ranked = rankLivePairs(candidates, await pairLiveVoteCounts(this.#o.db), rng);
    const first = ranked[0];
    if (!first) return { kind: 'refused', reason: 'not_enough_models' };

    const ack = input
      .reply(
        {
          text: 'Asking two anonymous models; the battle will appear in this channel in a few seconds.',
        },
        { ephemeral: true },
      )
      .catch((err: unknown) => log.warn({ err }, 'acknowledging /ask failed'));
    const slots = [
      { model: first.a, ready: false, note: '' },
      { model: first.b, ready: false, note: '' },
    ];
    const progressContent = (): MessageContent => {
      const ready = slots.filter((s) => s.ready).length;
      const notes = slots.map((s) => s.note).filter(Boolean);
      return {
        text: `Two anonymous models are answering a question (${ready} of 2 answers ready)…`,
        title: 'Arena: a new question',
        sections: [{ heading: 'Prompt', body: clip(prompt, 500) }],
        footer: `Answers ready: ${ready} of 2.${notes.length ? ` ${notes.join(' ')}` : ''} The battle appears when both are in.`,
      };
    };
    const progress = new ProgressMessage(
      platform,
      input.channelId,
      progressContent(),
      this.#cfg.progress_every_ms,
      log,
    );
    const tried = new Set<string>([first.a.name, first.b.name]);
    let attempts = 2;
    let replaced = 0;
    let failure: string | undefined;
    const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
    const runSlot = async (i: 0 | 1): Promise<Answer | undefined> => {
      for (;;) {
        const slot = slots[i] as (typeof slots)[number];
        const other = slots[1 - i] as (typeof slots)[number];
        const model = slot.model;
        const res = await this.#complete(
          this.#models.get(model.name) as LiveModel,
          messages,
          controller.signal,
        );
        if (controller.signal.aborted) return undefined;
        const u = this.#usable(res, model, other.model.name);
        if (u.ok) {
          slot.ready = true;
          slot.note = '';
          progress.update(progressContent());
          return { model, text: u.text, latencyMs: u.latencyMs };
        }
        log.warn(
          { model: model.name, code: u.code, message: res.ok ? undefined : res.message },
          'live model gave no usable answer; replacing it',
        );
        const next =
          attempts < this.#cfg.max_attempts
            ? replacementFor(other.model, tried, ranked)
            : undefined;
        if (!next) {
          failure =
            `a model ${failureWords(u.code)} and no other live model was left to replace it ` +
            `(${attempts} of ${this.#models.size} models tried)`;
          controller.abort();
          return undefined;
        }
        tried.add(next.name);
        attempts++;
        replaced++;
        slot.model = next;
        slot.note = `One model ${failureWords(u.code)}; another is answering instead.`;
        progress.update(progressContent());
      }
    };
    const [a, b] = await Promise.all([runSlot(0), runSlot(1)]);
    await ack;
    const gone = (): MessageContent => ({ text: 'This question was answered in a battle below.' });
    if (!a || !b) {
      await progress.finish({ text: 'This question could not be answered.' });
      await input.reply(
        {
          text: `Sorry, no battle this time: ${failure ?? 'the models did not answer'}. Your question was not counted; please try again later.`,
        },
        { ephemeral: true },
      );
      return { kind: 'failed', reason: failure ?? 'no answers' };
    }
    const swap = rng.next() < 0.5;
    const [left, right] = swap ? [b, a] : [a, b];
    const { id: battleId, number } = await createLiveBattle(this.#o.db, {
      leftModelId: left.model.id,
      rightModelId: right.model.id,
      askerHash,
      seed,
      ability: input.ability ?? null,
      abilitySource: input.ability ? 'tag' : null,
      prompt,
      answerLeft: left.text,
      answerRight: right.text,
      latencyLeftMs: left.latencyMs,
      latencyRightMs: right.latencyMs,
      askedAt,
      answeredAt: this.#o.clock.now(),
    });
    const blog = log.child({ battleId, number });
    const postedAt = this.#o.clock.now();
    const closesAt = new Date(postedAt.getTime() + this.#o.config.window_hours * 3_600_000);
    const content = battleContent(
      {
        number,
        prompt,
        leftAnswer: left.text,
        rightAnswer: right.text,
        emoji: this.#o.arena.emoji.emojisFor(input.platform),
        closesAt,
      },
      platform.capabilities,
    );
    let ref: MessageRef;
    try {
      ref = await platform.post(input.channelId, content);
    } catch (err) {
      await voidBattle(this.#o.db, battleId);
      blog.error({ err }, 'posting the live battle failed; battle voided');
      await progress.finish({ text: 'This question could not be answered.' });
      await input
        .reply(
          { text: 'Sorry, the battle could not be posted here; please try again.' },
          { ephemeral: true },
        )
        .catch(() => undefined);
      return { kind: 'failed', reason: `posting failed: ${(err as Error).message}` };
    }
    await markPosted(this.#o.db, battleId, {
      platform: input.platform,
      channelId: ref.channelId,
      messageId: ref.messageId,
      partIds: ref.partIds,
      postedAt,
      closesAt,
    });
    blog.info(
      { messageId: ref.messageId, left: left.model.name, right: right.model.name, replaced },
      'live battle posted',
    );
    const finishing = (async () => {
      await platform
        .addReactions(ref, this.#o.arena.emoji.emojisFor(input.platform))
        .catch((err: unknown) =>
          blog.warn({ err }, 'adding the vote reactions failed; the battle stays open'),
        );
      await progress.finish(gone());
    })();
    const classified = this.#track(this.#storeClassification(battleId, classification, blog));
    await finishing;
    await input
      .reply(
        {
          text: `Battle #${number} is up: vote with the reactions. Reply in its thread to continue the conversation with both models.`,
        },
        { ephemeral: true },
      )
      .catch((err: unknown) => blog.warn({ err }, 'telling the asker failed'));
    return { kind: 'posted', battleId, number, ref, turn: 1, replaced, classified };
  }

  #track(p: Promise<void>): Promise<void> {
    this.#background.add(p);
    void p.finally(() => this.#background.delete(p));
    return p;
  }

  async #storeClassification(
    battleId: number,
    pending: ReturnType<typeof classifyAbility> | undefined,
    log: Logger,
  ): Promise<void> {
    if (!pending) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.#cfg.classifier_timeout_ms);
      timer.unref?.();
    });
    try {
      const c = await Promise.race([pending, timeout]);
      if (!c) {
        log.warn('the ability classifier did not answer in time; battle left unclassified');
        return;
      }
      if (c.ok) {
        const stored = await setClassifiedAbility(this.#o.db, battleId, {
          ability: c.ability,
          classifier: c.classifier,
          version: c.version,
        });
        log.info({ ability: c.ability, stored }, 'live battle classified');
      } else {
        await markClassifierTried(this.#o.db, battleId, {
          classifier: c.classifier,
          version: c.version,
        });
        log.warn({ reason: c.reason }, 'ability classification failed; battle left unclassified');
      }
    } catch (err) {
      log.error({ err }, 'storing the classification failed; battle left unclassified');
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Continues a live battle's conversation from a message in its thread (see the module doc).
   * @returns `ignored` when the thread is not a battle's; never throws for model or chat faults.
   */
  async followUp(input: FollowUpInput): Promise<AskOutcome> {
    const battle = await findBattleByMessage(
      this.#o.db,
      input.platform,
      input.channelId,
      input.threadOf,
    );
    if (!battle) return { kind: 'ignored' };
    const say = async (text: string, reason: AskRefusal): Promise<AskOutcome> => {
      await input.reply({ text }, { ephemeral: true });
      return { kind: 'refused', reason };
    };
    const info = await liveInfo(this.#o.db, battle.id);
    if (info?.kind !== 'live')
      return say(
        `Battle #${battle.number} shows recorded answers, so it has no conversation to continue. Ask your own question with /ask.`,
        'not_live',
      );
    if (battle.status !== 'open')
      return say(
        `Voting on battle #${battle.number} has closed (${closeReasonWords(battle.closeReason, battle.closeCap)}), so its conversation is finished. Ask a new question with /ask.`,
        'closed',
      );
    if (info.turns >= this.#cfg.max_turns)
      return say(
        `Battle #${battle.number} has reached ${this.#cfg.max_turns} turns, the most one conversation takes. Ask a new question with /ask.`,
        'too_many_turns',
      );
    const prompt = input.prompt.trim();
    const askerHash = hashVoterId(this.#o.voterSecret, input.platform, input.user.id);
    const refusal = await this.#check(prompt, askerHash);
    if (refusal) return say(refusal.text, refusal.reason);
    const left = this.#models.get(battle.leftModel);
    const right = this.#models.get(battle.rightModel);
    const platform = this.#o.arena.platform(input.platform);
    if (!left || !right || !platform)
      return say(
        `The models of battle #${battle.number} are no longer in the live arena, so the conversation cannot continue. Ask a new question with /ask.`,
        'models_gone',
      );
    const leave = this.#enter(askerHash);
    try {
      const askedAt = this.#o.clock.now();
      const turns = await listTurns(this.#o.db, battle.id);
      // Each model keeps its own history: every prompt with its own answers, never the other model's.
      const history = (side: 'left' | 'right'): ChatMessage[] => [
        ...turns.flatMap((t): ChatMessage[] => [
          { role: 'user', content: t.prompt },
          { role: 'assistant', content: side === 'left' ? t.answerLeft : t.answerRight },
        ]),
        { role: 'user', content: prompt },
      ];
      const ac = new AbortController();
      const [rl, rr] = await Promise.all([
        this.#complete(left, history('left'), ac.signal),
        this.#complete(right, history('right'), ac.signal),
      ]);
      const cl = { name: left.name, id: battle.leftModelId, weight: left.weight };
      const cr = { name: right.name, id: battle.rightModelId, weight: right.weight };
      const ul = this.#usable(rl, cl, right.name);
      const ur = this.#usable(rr, cr, left.name);
      if (!ul.ok || !ur.ok) {
        const code = (!ul.ok ? ul.code : !ur.ok ? ur.code : '') as string;
        await input.reply(
          {
            text: `Sorry, one of the two models ${failureWords(code)}, so this turn was not posted (a conversation keeps its two models). Your message was not counted; try again or rephrase.`,
          },
          { ephemeral: true },
        );
        return { kind: 'failed', reason: code };
      }
      const turn = turns.length + 1;
      const content: MessageContent = {
        text: `Arena battle #${battle.number}, turn ${turn}`,
        title: `Arena battle #${battle.number} · turn ${turn}`,
        sections: [
          { heading: 'Prompt', body: prompt },
          { heading: 'Left answer', body: ul.text },
          { heading: 'Right answer', body: ur.text },
        ],
        footer:
          platform.capabilities.voting === 'typed'
            ? `Vote on the whole conversation (${turn} turns) by ${terminalVoteHint(battle.number)}.`
            : `Vote with the ${platform.capabilities.voting === 'buttons' ? 'buttons' : 'reactions'} on the battle's first message: your vote is on the whole conversation (${turn} turns).`,
      };
      const ref = await platform.post(battle.channelId as string, content, {
        thread: refOf(battle),
      });
      const added = await addTurn(this.#o.db, battle.id, {
        turn,
        prompt,
        answerLeft: ul.text,
        answerRight: ur.text,
        askerHash,
        latencyLeftMs: ul.latencyMs,
        latencyRightMs: ur.latencyMs,
        askedAt,
        answeredAt: this.#o.clock.now(),
        messageIds: [ref.messageId, ...ref.partIds],
      });
      if (!added) {
        this.#log.warn(
          { battleId: battle.id, turn },
          'two follow-ups raced for one turn; the later was not stored',
        );
        if (platform.delete) await platform.delete(ref).catch(() => undefined);
        return { kind: 'failed', reason: 'another follow-up was answered first' };
      }
      return {
        kind: 'posted',
        battleId: battle.id,
        number: battle.number,
        ref,
        turn,
        replaced: 0,
        classified: Promise.resolve(),
      };
    } finally {
      leave();
    }
  }
}
