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
 *    (`arena.ask.answer_timeout_ms`, one deadline for the whole request), is empty, or reveals its model (the
 *    identity guard, arena/identity-guard.ts) is discarded and that model is replaced by another (at most
 *    `arena.ask.max_attempts` models in all); when no model is left the other request is aborted and the asker is
 *    told why.
 * 4. With two answers the sides are randomised (seeded; the seed is stored), the battle and its first turn are
 *    stored, the battle is posted with the three reactions, and the progress message is deleted (or, on a platform
 *    that cannot delete, edited to point at the battle). Nothing half-made stays: on failure the progress message
 *    goes too and the pending battle (if any) is voided.
 * 5. Ability: a tag is stored as such; otherwise the classifier model (arena/ability-classifier.ts) runs alongside
 *    the answers and its result is stored after posting (the post never waits for it). A maintainer's override wins
 *    over both; an unparseable or failed classification leaves the battle unclassified (listed, never dropped).
 *
 * The parts: the refusals of step 1 are pure functions in arena/ask-policy.ts; the progress message of step 2 is
 * arena/ask-progress.ts; the answers of step 3 (one deadline per request, replacements) are arena/live-answers.ts;
 * this module reads and stores what they need and tells the asker.
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
import { type Locale, t } from '../i18n/index.ts';
import type { ChatMessage, CompletionResult, LlmClient } from '../llm/types.ts';
import {
  type BattleRow,
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
import {
  type AskRefusal,
  failureWords,
  followUpRefusal,
  liveModelsRefusal,
  modelsGoneRefusal,
  promptRefusal,
  type Refusal,
  rateRefusal,
} from './ask-policy.ts';
import { ProgressMessage, progressContent } from './ask-progress.ts';
import { IdentityGuard } from './identity-guard.ts';
import {
  answerPair,
  answerWithin,
  type LiveAnswer,
  type Usable,
  usableAnswer,
} from './live-answers.ts';
import { type LiveCandidate, type RankedPair, rankLivePairs } from './live-pairs.ts';
import { battleContent, terminalVoteHint } from './message.ts';
import { sameAnswer } from './selection.ts';
import { type ArenaService, refOf } from './service.ts';

export type { AskRefusal } from './ask-policy.ts';
export { ASK_TEMPLATE_VERSION } from './live-answers.ts';

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
  /**
   * The asker's language for what only they see (chat/port `CommandContext.locale`); absent: the configured one.
   * What the channel sees (progress, battle) is in the configured language.
   */
  readonly locale?: Locale;
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
  /** The asker's language for what only they see; absent: the configured one. */
  readonly locale?: Locale;
  reply(content: MessageContent, options?: ReplyOptions): Promise<void>;
}

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

/** A battle whose two answers are in, sides drawn, ready to store and post. */
interface AnsweredBattle {
  readonly prompt: string;
  readonly askerHash: string;
  /** The seed of the battle's draws (stored). */
  readonly seed: number;
  readonly askedAt: Date;
  readonly left: LiveAnswer;
  readonly right: LiveAnswer;
  /** Models discarded and replaced. */
  readonly replaced: number;
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

  /** The checks every question passes before any model is asked (step 1 of the module doc; arena/ask-policy). */
  async #check(prompt: string, askerHash: string, me: Locale): Promise<Refusal | undefined> {
    const refusal = promptRefusal(prompt, this.#cfg.max_prompt_chars, me);
    if (refusal?.identity) this.#log.info(refusal.identity, 'identity question refused');
    if (refusal) return refusal;
    const now = this.#o.clock.now().getTime();
    const windowMs = this.#cfg.rate_limit.window_minutes * 60_000;
    const askTimes = await askTimesSince(this.#o.db, askerHash, new Date(now - windowMs));
    const inFlight = this.#inFlight.get(askerHash) ?? 0;
    return rateRefusal({ askTimes, inFlight, now }, this.#cfg.rate_limit, me);
  }

  /** The language of what the channel sees (config `locale`). */
  get #here(): Locale {
    return this.#o.arena.locale;
  }

  /** The language of what only the asker sees: theirs when the platform says it, else the configured one. */
  #me(input: { readonly locale?: Locale }): Locale {
    return input.locale ?? this.#o.arena.locale;
  }

  #enter(askerHash: string): () => void {
    this.#inFlight.set(askerHash, (this.#inFlight.get(askerHash) ?? 0) + 1);
    return () => {
      const n = (this.#inFlight.get(askerHash) ?? 1) - 1;
      if (n <= 0) this.#inFlight.delete(askerHash);
      else this.#inFlight.set(askerHash, n);
    };
  }

  /** One request within the answer timeout (arena/live-answers); never throws. */
  #complete(
    model: LiveModel,
    messages: readonly ChatMessage[],
    signal: AbortSignal,
  ): Promise<CompletionResult> {
    return answerWithin(model.client, messages, this.#cfg.answer_timeout_ms, signal);
  }

  /** Checks one model result: a usable answer, or why not (arena/live-answers). */
  #usable(res: CompletionResult, model: LiveCandidate, otherName: string): Usable {
    return usableAnswer(res, model.name, otherName, this.#guard, this.#log);
  }

  /**
   * Answers a new question (see the module doc).
   * @returns what happened; never throws for model or chat faults (they are logged and told to the asker).
   */
  async ask(input: AskInput): Promise<AskOutcome> {
    const prompt = input.prompt.trim();
    const askerHash = hashVoterId(this.#o.voterSecret, input.platform, input.user.id);
    const refusal = await this.#check(prompt, askerHash, this.#me(input));
    if (refusal) {
      await input.reply({ text: refusal.text }, { ephemeral: true });
      return { kind: 'refused', reason: refusal.reason };
    }
    const platform = this.#o.arena.platform(input.platform);
    if (!platform) return { kind: 'refused', reason: 'no_platform' };
    const few = liveModelsRefusal(this.#models.size, this.#me(input));
    if (few) {
      await input.reply({ text: few.text }, { ephemeral: true });
      return { kind: 'refused', reason: few.reason };
    }
    const leave = this.#enter(askerHash);
    try {
      return await this.#askNow(input, prompt, askerHash, platform);
    } finally {
      leave();
    }
  }

  /**
   * One question that passed the checks (steps 2–5 of the module doc): the classifier started, a pair chosen, the
   * asker told, the progress message posted, both answers (arena/live-answers), then the battle stored and posted.
   */
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
    const classification = this.#classify(input, prompt, controller.signal);
    const ranked = await this.#rankedPairs(rng);
    const first = ranked[0];
    if (!first) return { kind: 'refused', reason: 'not_enough_models' };
    const me = this.#me(input);
    const ack = input
      .reply({ text: t(me, 'ask.asking') }, { ephemeral: true })
      .catch((err: unknown) => log.warn({ err }, 'acknowledging /ask failed'));
    const waiting = { ready: false, note: '' };
    const progress = new ProgressMessage(
      platform,
      input.channelId,
      progressContent(prompt, [waiting, waiting], this.#here),
      this.#cfg.progress_every_ms,
      log,
    );
    const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
    const pair = await answerPair(
      {
        pair: first,
        ranked,
        maxAttempts: this.#cfg.max_attempts,
        liveCount: this.#models.size,
        ask: (m, signal) => this.#complete(this.#models.get(m.name) as LiveModel, messages, signal),
        usable: (res, m, otherName) => this.#usable(res, m, otherName),
        onProgress: (slots) => progress.update(progressContent(prompt, slots, this.#here)),
        log,
        locale: this.#here,
        askerLocale: me,
      },
      controller,
    );
    await ack;
    if (!pair.ok) {
      await progress.finish({ text: t(this.#here, 'ask.unanswered') });
      const why = pair.failure ?? t(me, 'ask.noBattle.noAnswer');
      await input.reply({ text: t(me, 'ask.noBattle', { why }) }, { ephemeral: true });
      return { kind: 'failed', reason: pair.failure ?? 'no answers' };
    }
    const [a, b] = pair.answers;
    if (sameAnswer(a.text, b.text)) return this.#identical(input, progress, log);
    const [left, right] = rng.next() < 0.5 ? [b, a] : [a, b];
    const battle = { prompt, askerHash, seed, askedAt, left, right, replaced: pair.replaced };
    return this.#postLive(input, platform, battle, { progress, classification, log });
  }

  /**
   * Both models gave the same answer (whitespace aside, arena/selection `sameAnswer`): no battle, as for
   * scheduled battles, since a left/right vote would make a win of a tie (docs/scoring.md §4.3).
   */
  async #identical(
    input: AskInput,
    progress: { finish(c: MessageContent): Promise<void> },
    log: Logger,
  ): Promise<AskOutcome> {
    log.info('both live answers are the same text; no battle');
    await progress.finish({ text: t(this.#here, 'ask.same.progress') });
    await input.reply({ text: t(this.#me(input), 'ask.same') }, { ephemeral: true });
    return { kind: 'failed', reason: 'identical answers' };
  }

  /** The classification of an untagged prompt, started now; none with a tag or without a classifier. */
  #classify(
    input: AskInput,
    prompt: string,
    signal: AbortSignal,
  ): ReturnType<typeof classifyAbility> | undefined {
    if (input.ability !== undefined || !this.#o.classifier) return undefined;
    return classifyAbility(this.#o.classifier, prompt, signal).catch(
      (err: unknown) =>
        ({
          ok: false,
          reason: (err as Error).message,
          classifier: 'ability-classifier',
          version: '',
        }) as const,
    );
  }

  /** Every pair of live models, in the order they are asked (arena/live-pairs). */
  async #rankedPairs(rng: ReturnType<typeof createRng>): Promise<RankedPair[]> {
    const ids = await this.#modelIds();
    const candidates: LiveCandidate[] = [...this.#models.values()].map((m) => ({
      name: m.name,
      id: ids.get(m.name) as number,
      weight: m.weight,
    }));
    return rankLivePairs(candidates, await pairLiveVoteCounts(this.#o.db), rng);
  }

  /**
   * Stores the answered battle and its first turn, posts it with the vote reactions, removes the progress message,
   * stores the classification after posting, and tells the asker. A failed post voids the battle.
   */
  async #postLive(
    input: AskInput,
    platform: ChatPlatform,
    x: AnsweredBattle,
    w: {
      readonly progress: ProgressMessage;
      readonly classification: ReturnType<typeof classifyAbility> | undefined;
      readonly log: Logger;
    },
  ): Promise<AskOutcome> {
    const { left, right } = x;
    const { id: battleId, number } = await createLiveBattle(this.#o.db, {
      leftModelId: left.model.id,
      rightModelId: right.model.id,
      askerHash: x.askerHash,
      seed: x.seed,
      ability: input.ability ?? null,
      abilitySource: input.ability ? 'tag' : null,
      prompt: x.prompt,
      answerLeft: left.text,
      answerRight: right.text,
      latencyLeftMs: left.latencyMs,
      latencyRightMs: right.latencyMs,
      askedAt: x.askedAt,
      answeredAt: this.#o.clock.now(),
    });
    const blog = w.log.child({ battleId, number });
    const postedAt = this.#o.clock.now();
    const closesAt = new Date(postedAt.getTime() + this.#o.config.window_hours * 3_600_000);
    const emoji = this.#o.arena.emoji.emojisFor(input.platform);
    const content = battleContent(
      {
        number,
        prompt: x.prompt,
        leftAnswer: left.text,
        rightAnswer: right.text,
        emoji,
        closesAt,
        maxMessages: this.#o.config.max_messages[input.platform],
      },
      platform.capabilities,
      this.#o.arena.locale,
    );
    let ref: MessageRef;
    try {
      ref = await platform.post(input.channelId, content);
    } catch (err) {
      return this.#postFailed(input, battleId, err, w.progress, blog);
    }
    await markPosted(this.#o.db, battleId, {
      platform: input.platform,
      channelId: ref.channelId,
      messageId: ref.messageId,
      partIds: ref.partIds,
      postedAt,
      closesAt,
      voting: platform.capabilities.voting,
    });
    blog.info(
      {
        messageId: ref.messageId,
        left: left.model.name,
        right: right.model.name,
        replaced: x.replaced,
      },
      'live battle posted',
    );
    const { classified } = await this.#announce(
      input,
      platform,
      { battleId, number, ref, emoji },
      w,
      blog,
    );
    return { kind: 'posted', battleId, number, ref, turn: 1, replaced: x.replaced, classified };
  }

  /** A live battle whose post failed: voided, the progress message removed, the asker told. */
  async #postFailed(
    input: AskInput,
    battleId: number,
    err: unknown,
    progress: ProgressMessage,
    log: Logger,
  ): Promise<AskOutcome> {
    await voidBattle(this.#o.db, battleId);
    log.error({ err }, 'posting the live battle failed; battle voided');
    await progress.finish({ text: t(this.#here, 'ask.unanswered') });
    await input
      .reply({ text: t(this.#me(input), 'ask.postFailed') }, { ephemeral: true })
      .catch(() => undefined);
    return { kind: 'failed', reason: `posting failed: ${(err as Error).message}` };
  }

  /**
   * After a live battle is posted: the vote reactions added (not in buttons mode) and the progress message removed, the classification
   * stored in the background, the asker told.
   * @returns when the classification is stored (or given up).
   */
  async #announce(
    input: AskInput,
    platform: ChatPlatform,
    p: {
      readonly battleId: number;
      readonly number: number;
      readonly ref: MessageRef;
      readonly emoji: Parameters<ChatPlatform['addReactions']>[1];
    },
    w: {
      readonly progress: ProgressMessage;
      readonly classification: ReturnType<typeof classifyAbility> | undefined;
    },
    blog: Logger,
  ): Promise<{ readonly classified: Promise<void> }> {
    const { battleId, number, ref, emoji } = p;
    const buttons = platform.capabilities.voting === 'buttons';
    const finishing = (async () => {
      // A battle in buttons mode carries its buttons already (arena/message `battleContent`).
      if (!buttons)
        await platform
          .addReactions(ref, emoji)
          .catch((err: unknown) =>
            blog.warn({ err }, 'adding the vote reactions failed; the battle stays open'),
          );
      await w.progress.finish({ text: t(this.#here, 'ask.answeredBelow') });
    })();
    const classified = this.#track(this.#storeClassification(battleId, w.classification, blog));
    await finishing;
    await input
      .reply(
        {
          text: t(this.#me(input), buttons ? 'ask.up.buttons' : 'ask.up.reactions', { n: number }),
        },
        { ephemeral: true },
      )
      .catch((err: unknown) => blog.warn({ err }, 'telling the asker failed'));
    return { classified };
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
    const say = async (r: Refusal): Promise<AskOutcome> => {
      await input.reply({ text: r.text }, { ephemeral: true });
      return { kind: 'refused', reason: r.reason };
    };
    const me = this.#me(input);
    const info = await liveInfo(this.#o.db, battle.id);
    const thread = followUpRefusal(
      { ...battle, live: info?.kind === 'live', turns: info?.turns ?? 0 },
      this.#cfg.max_turns,
      me,
    );
    if (thread) return say(thread);
    const prompt = input.prompt.trim();
    const askerHash = hashVoterId(this.#o.voterSecret, input.platform, input.user.id);
    const refusal = await this.#check(prompt, askerHash, me);
    if (refusal) return say(refusal);
    const left = this.#models.get(battle.leftModel);
    const right = this.#models.get(battle.rightModel);
    const platform = this.#o.arena.platform(input.platform);
    if (!left || !right || !platform) return say(modelsGoneRefusal(battle.number, me));
    const leave = this.#enter(askerHash);
    try {
      return await this.#answerTurn(input, platform, battle, { left, right, prompt, askerHash });
    } finally {
      leave();
    }
  }

  /**
   * The next turn of a conversation: both models asked with their own histories, both answers usable, posted in
   * the thread and stored; a turn taken by a concurrent follow-up first is deleted again.
   */
  async #answerTurn(
    input: FollowUpInput,
    platform: ChatPlatform,
    battle: BattleRow,
    x: {
      readonly left: LiveModel;
      readonly right: LiveModel;
      readonly prompt: string;
      readonly askerHash: string;
    },
  ): Promise<AskOutcome> {
    const { left, right, prompt } = x;
    const askedAt = this.#o.clock.now();
    const turns = await listTurns(this.#o.db, battle.id);
    // Each model keeps its own history: every prompt with its own answers, never the other model's.
    const history = (side: 'left' | 'right'): ChatMessage[] => [
      ...turns.flatMap((x): ChatMessage[] => [
        { role: 'user', content: x.prompt },
        { role: 'assistant', content: side === 'left' ? x.answerLeft : x.answerRight },
      ]),
      { role: 'user', content: prompt },
    ];
    const [ul, ur] = await this.#turnAnswers(battle, left, right, history);
    if (!ul.ok || !ur.ok) {
      const code = (!ul.ok ? ul.code : !ur.ok ? ur.code : '') as string;
      const me = this.#me(input);
      await input.reply(
        { text: t(me, 'ask.turnFailed', { what: failureWords(code, me) }) },
        { ephemeral: true },
      );
      return { kind: 'failed', reason: code };
    }
    const turn = turns.length + 1;
    const content = turnContent(
      battle.number,
      turn,
      prompt,
      [ul.text, ur.text],
      platform.capabilities,
      this.#o.config.max_messages[platform.name],
      this.#here,
    );
    const ref = await platform.post(battle.channelId as string, content, { thread: refOf(battle) });
    const added = await addTurn(this.#o.db, battle.id, {
      turn,
      prompt,
      answerLeft: ul.text,
      answerRight: ur.text,
      askerHash: x.askerHash,
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
    const classified = Promise.resolve();
    return {
      kind: 'posted',
      battleId: battle.id,
      number: battle.number,
      ref,
      turn,
      replaced: 0,
      classified,
    };
  }
  /** Both models' answers to the next turn, each asked with its own history, each checked. */
  async #turnAnswers(
    battle: BattleRow,
    left: LiveModel,
    right: LiveModel,
    history: (side: 'left' | 'right') => ChatMessage[],
  ): Promise<[Usable, Usable]> {
    const ac = new AbortController();
    const [rl, rr] = await Promise.all([
      this.#complete(left, history('left'), ac.signal),
      this.#complete(right, history('right'), ac.signal),
    ]);
    const cl = { name: left.name, id: battle.leftModelId, weight: left.weight };
    const cr = { name: right.name, id: battle.rightModelId, weight: right.weight };
    return [this.#usable(rl, cl, right.name), this.#usable(rr, cr, left.name)];
  }
}

/**
 * The message of turn `turn` (≥ 2) of battle `number` in its thread: the prompt and both answers (left, right),
 * and how to vote on the whole conversation where this platform votes (`capabilities.voting`); at most
 * `maxMessages` messages when given (`arena.max_messages`); in `locale` (config `locale`, default en).
 */
export function turnContent(
  number: number,
  turn: number,
  prompt: string,
  [leftAnswer, rightAnswer]: readonly [string, string],
  capabilities: ChatPlatform['capabilities'],
  maxMessages?: number,
  locale: Locale = 'en',
): MessageContent {
  const n = number;
  return {
    // Long answers are cut to `maxMessages` messages, the whole turn sent as a file (chat/port `fit`).
    ...(maxMessages === undefined
      ? {}
      : { fit: { maxMessages, fileName: `battle-${number}-turn-${turn}.txt` } }),
    locale,
    text: t(locale, 'ask.turn.text', { n, turn }),
    title: t(locale, 'ask.turn.title', { n, turn }),
    sections: [
      { heading: t(locale, 'arena.battle.prompt'), body: prompt },
      { heading: t(locale, 'arena.battle.left'), body: leftAnswer },
      { heading: t(locale, 'arena.battle.right'), body: rightAnswer },
    ],
    footer:
      capabilities.voting === 'typed'
        ? t(locale, 'ask.turn.typed', { turn, hint: terminalVoteHint(n, locale) })
        : t(locale, capabilities.voting === 'buttons' ? 'ask.turn.buttons' : 'ask.turn.reactions', {
            turn,
          }),
  };
}
