/**
 * @module arena/service
 * The battle lifecycle (docs/architecture.md): post a battle, turn reactions into votes, close and reveal,
 * reconcile open battles with the reactions really present after a restart. Talks to chat platforms only through
 * {@link ChatPlatform} and to the database only through storage/.
 *
 * Decisions:
 * - Posting order is create pending → post → markPosted → addReactions. markPosted comes before the reactions
 *   (rather than after them) so that a person who reacts in the second or so while the bot adds its three
 *   reactions is counted; if adding the bot's reactions fails the battle stays open (people can still react with
 *   the emoji named in the footer) and the failure is logged. A failed post voids the pending battle.
 * - Every reaction on a battle message is logged as a vote event, including those on closed battles
 *   (`ignored_closed`), so the audit log is complete; reactions with other emoji, on unknown messages, or by the
 *   bot itself are not votes and are dropped before the database.
 * - Reconciliation: for each open battle of the platform the reactions present are compared with each voter's
 *   stored set of emoji (storage/votes `heldReactions`): an emoji stored but gone gets a `remove`, an emoji shown
 *   but not stored an `add`, at one time later than every event logged for the voter; the live vote follows from
 *   the set (the most recently added emoji still present). Two emoji added at once have no known order, so
 *   neither becomes the vote (it is not guessed). Event ids are deterministic,
 *   `reconcile:<battle>:<voter hash>:<choice>:<add|remove>:<n>` with n = events already logged for that voter on
 *   that battle, so re-running reconcile with nothing changed writes nothing and a replay counts once.
 *   A message whose reactions cannot be read (the terminal's in-memory messages after a restart, a platform
 *   error) is skipped, never treated as "no reactions". Unreadable messages are warned about one by one; terminal
 *   battles of an earlier run are expected (every terminal vote was stored when typed) and get one info line in all.
 *   A voter with an event logged while the message was being read is left alone: that event is as new as the
 *   read, and the next re-read settles the voter.
 * - Re-reads (docs/architecture.md "Arena battle"): at start and after every gap in the platform's events
 *   (`reconcile`), every `arena.reconcile_minutes` for open battles, and for each battle just before it closes at
 *   the end of its window (so the revealed tally is what the message shows).
 * - A message that is gone (AppError `chat_message_gone` from a read or the reveal's edit, or a deletion event)
 *   withdraws its battle once, before its reveal: an open battle's votes are retracted (logged vote events) and it
 *   becomes `void`; a closed, unrevealed one becomes `void` (its votes stay stored and count nowhere). Nothing is
 *   retried: a withdrawn battle is neither re-read, closed nor revealed again.
 */
import type { Kysely } from 'kysely';
import { noAccessOf } from '../chat/no-access.ts';
import type {
  ButtonPressEvent,
  ChatPlatform,
  MessageDeletedEvent,
  MessageRef,
  PlatformName,
  ReactionEvent,
  ReactionSnapshot,
  ReactionsClearedEvent,
  VoteFeedback,
} from '../chat/port.ts';
import type { AppConfig } from '../config/schema.ts';
import type { Clock } from '../core/clock.ts';
import { isAppError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { type AppMetrics, noMetrics } from '../core/metrics.ts';
import { fail, ok, type Result } from '../core/result.ts';
import { createRng, freshSeed } from '../core/rng.ts';
import { hashVoterId } from '../core/voter-id.ts';
import type { Locale } from '../i18n/index.ts';
import { battleTexts, listClosedUnrevealed } from '../storage/arena-queries.ts';
import {
  type BattleRow,
  closeBattle,
  closeBattlesAtCap,
  createNumberedBattle,
  findBattleByMessage,
  getBattle,
  listOpenBattles,
  markPosted,
  markRevealed,
  voidBattle,
  withdrawBattle,
} from '../storage/battles.ts';
import type { Database, VoteChoice } from '../storage/schema.ts';
import { flagVote } from '../storage/vote-flags.ts';
import {
  applyVoteEvent,
  heldReactions,
  listVoteEvents,
  liveVotes,
  tally,
  type VoteEffect,
} from '../storage/votes.ts';
import { CHOICES, EmojiMap } from './emoji.ts';
import { IdentityGuard } from './identity-guard.ts';
import {
  type BattleView,
  type ButtonReplyKind,
  battleContent,
  buttonReply,
  choiceOfButton,
  type PostRefusal,
  revealContent,
} from './message.ts';
import { type SelectionStats, selectBattle } from './selection.ts';

/** Dependencies of {@link ArenaService}. */
export interface ArenaServiceOptions {
  readonly db: Kysely<Database>;
  /** The language of private answers when the presser's is unknown (config `locale`; default en). */
  readonly locale?: Locale;
  /** The connected platforms (by name). More can be added with {@link ArenaService.addPlatform}. */
  readonly platforms?: readonly ChatPlatform[];
  readonly arena: AppConfig['arena'];
  readonly clock: Clock;
  readonly logger: Logger;
  /** Server secret for voter ids (`ZHUJIU_VOTER_SECRET`). */
  readonly voterSecret: string;
  /** Seed for each new battle (stored with it); default a fresh random seed from core. */
  readonly seedSource?: () => number;
  /** Where votes, posted and closed battles and reconcile corrections are counted (default nowhere). */
  readonly metrics?: AppMetrics;
}

/** A posted battle. */
export interface PostedBattle {
  /** Internal id (storage, logs). */
  readonly battleId: number;
  /** Its number in the community's arena: what its message shows and chat commands take. */
  readonly number: number;
  readonly ref: MessageRef;
  readonly seed: number;
}

/** What one reaction did (for logs and tests); the chat port's {@link VoteFeedback}. */
export type ReactionOutcome = VoteFeedback;

/** What a reconciliation (a re-read of open battles) did. */
export interface ReconcileReport {
  readonly battles: number;
  readonly added: number;
  readonly removed: number;
  /** Battles whose reactions could not be read (left as stored). */
  readonly skipped: number;
  /** Battles withdrawn because their message is gone. */
  readonly withdrawn: number;
}

/** What re-reading one battle found: its votes brought in line, its message gone, or its reactions unreadable. */
type RereadOutcome =
  | { readonly kind: 'synced'; readonly added: number; readonly removed: number }
  | { readonly kind: 'gone' }
  | { readonly kind: 'unreadable'; readonly earlierRun: boolean };

/** A posted battle as a reaction on its message needs it: its id and whether it takes votes by buttons only. */
type MessageBattle = { readonly id: number; readonly buttons: boolean };

/** The arena. One instance per process; all state is in the database. */
export class ArenaService {
  readonly #db: Kysely<Database>;
  readonly #platforms = new Map<PlatformName, ChatPlatform>();
  readonly #arena: AppConfig['arena'];
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #secret: string;
  readonly #seed: () => number;
  readonly #guard: IdentityGuard;
  readonly #metrics: AppMetrics;
  /** Emoji ↔ choice per platform. */
  readonly emoji: EmojiMap;
  /**
   * message → battle id for posted battles (the mapping never changes once posted; the battle's status is checked
   * by the vote rules in SQL, so a cached id of a since-closed battle still yields `ignored_closed`). Bounded.
   */
  readonly #byMessage = new Map<string, MessageBattle>();
  /**
   * The lookups of {@link #byMessage} under way: reactions arriving together on a message not yet cached (a burst on
   * a new battle) wait for one read instead of each reading the battle (bench/reactions prints statements per event).
   */
  readonly #lookingUp = new Map<string, Promise<ReactionOutcome | MessageBattle>>();
  /** Identity-guard refusals since start (each is also logged). */
  readonly guardStats: SelectionStats = { refused: 0, examined: 0 };

  readonly #locale: Locale;
  constructor(o: ArenaServiceOptions) {
    this.#db = o.db;
    for (const p of o.platforms ?? []) this.#platforms.set(p.name, p);
    this.#arena = o.arena;
    this.#clock = o.clock;
    this.#log = o.logger.child({ component: 'arena' });
    this.#secret = o.voterSecret;
    this.#locale = o.locale ?? 'en';
    this.#seed = o.seedSource ?? freshSeed;
    this.#guard = new IdentityGuard(o.arena.identity_guard);
    this.#metrics = o.metrics ?? noMetrics;
    this.emoji = new EmojiMap(o.arena.emoji);
  }

  /** The language of the arena's messages (config `locale`; default en). */
  get locale(): Locale {
    return this.#locale;
  }

  /** Makes a platform available for posting, editing and reconciling. */
  addPlatform(p: ChatPlatform): void {
    this.#platforms.set(p.name, p);
  }

  /** The connected platform of that name, if any (the live arena posts through it). */
  platform(name: PlatformName): ChatPlatform | undefined {
    return this.#platforms.get(name);
  }

  /** Names of the platforms this service can reach. */
  get platformNames(): PlatformName[] {
    return [...this.#platforms.keys()];
  }

  #view(
    number: number,
    platform: PlatformName,
    texts: { prompt: string; left: string; right: string },
    closesAt: Date | null,
  ): BattleView {
    return {
      number,
      prompt: texts.prompt,
      leftAnswer: texts.left,
      rightAnswer: texts.right,
      emoji: this.emoji.emojisFor(platform),
      closesAt,
      maxMessages: this.#arena.max_messages[platform],
    };
  }

  /**
   * Selects and posts a battle to `channelId` on `platform`.
   * @returns the battle, or why not (no platform, nothing to battle, no access, posting failed; arena/message.ts
   *   `postRefusalText` says it) as an expected failure.
   */
  async postBattle(
    platformName: PlatformName,
    channelId: string,
    opts: { ability?: string; origin?: 'command' | 'scheduled' } = {},
  ): Promise<Result<PostedBattle, PostRefusal>> {
    const platform = this.#platforms.get(platformName);
    if (!platform) return fail({ code: 'not_connected', platform: platformName });
    const seed = this.#seed();
    const before = this.guardStats.refused;
    const sel = await selectBattle(
      this.#db,
      this.#guard,
      createRng(seed),
      this.#log,
      opts.ability === undefined ? {} : { ability: opts.ability },
      this.guardStats,
    );
    const refused = this.guardStats.refused - before;
    if (refused > 0)
      this.#log.info(
        { refused, totalRefused: this.guardStats.refused },
        'identity guard skipped candidate battles',
      );
    if (!sel) {
      return fail<PostRefusal>({ code: 'no_battle', ability: opts.ability || undefined });
    }
    const { id: battleId, number } = await createNumberedBattle(this.#db, {
      itemId: sel.itemId,
      ability: sel.ability,
      leftModelId: sel.left.modelId,
      rightModelId: sel.right.modelId,
      responseLeftId: sel.left.responseId,
      responseRightId: sel.right.responseId,
      seed,
    });
    const log = this.#log.child({ battleId, number, platform: platformName, channelId });
    const postedAt = this.#clock.now();
    const closesAt = new Date(postedAt.getTime() + this.#arena.window_hours * 3_600_000);
    const content = battleContent(
      this.#view(
        number,
        platformName,
        { prompt: sel.prompt, left: sel.left.output, right: sel.right.output },
        closesAt,
      ),
      platform.capabilities,
      this.#locale,
    );
    let ref: MessageRef;
    try {
      ref = await platform.post(channelId, content);
    } catch (err) {
      await voidBattle(this.#db, battleId);
      const access = noAccessOf(err);
      if (access) {
        // Not a fault of the bot: the channel must let it in. The refusal says how.
        log.warn(
          { err: (err as Error).message },
          'cannot post the battle in this channel; battle voided',
        );
        return fail<PostRefusal>({ code: 'no_access', access });
      }
      log.error({ err }, 'posting the battle failed; battle voided');
      return fail<PostRefusal>({ code: 'post_failed', message: (err as Error).message });
    }
    await markPosted(this.#db, battleId, {
      platform: platformName,
      channelId: ref.channelId,
      messageId: ref.messageId,
      partIds: ref.partIds,
      postedAt,
      closesAt,
      voting: platform.capabilities.voting,
    });
    await this.#addVoteReactions(platform, ref, log);
    log.info({ messageId: ref.messageId, closesAt }, 'battle posted');
    return ok(this.#counted({ battleId, number, ref, seed }, opts.origin ?? 'command'));
  }

  /** `posted`, counted in the metrics as posted from `origin`. */
  #counted(posted: PostedBattle, origin: 'command' | 'scheduled'): PostedBattle {
    this.#metrics.battlePosted(posted.ref.platform, origin);
    return posted;
  }

  /**
   * The bot's vote reactions on a just posted battle, so people can react; none in buttons mode (the message
   * carries its buttons, and reactions on it are no votes). A failure is logged: the battle stays open.
   */
  async #addVoteReactions(platform: ChatPlatform, ref: MessageRef, log: Logger): Promise<void> {
    if (platform.capabilities.voting === 'buttons') return;
    try {
      await platform.addReactions(ref, this.emoji.emojisFor(platform.name));
    } catch (err) {
      log.warn(
        { err },
        'adding the vote reactions failed; the battle stays open (people can still react)',
      );
    }
  }

  /** Turns one reaction event into a vote event (never throws for expected cases). */
  async onReaction(ev: ReactionEvent): Promise<ReactionOutcome> {
    const platform = this.#platforms.get(ev.platform);
    if (platform?.botUserId !== undefined && ev.userId === platform.botUserId)
      return { kind: 'ignored', reason: 'bot' };
    const choice = this.emoji.choiceOf(ev.platform, ev.emoji);
    if (!choice) return { kind: 'ignored', reason: 'unknown_emoji' };
    const key = `${ev.platform}\u0000${ev.channelId}\u0000${ev.messageId}`;
    let cached = this.#byMessage.get(key);
    if (cached === undefined) {
      const found = await this.#battleOfMessage(key, ev);
      if ('kind' in found) return found;
      cached = found;
    }
    // A battle in buttons mode takes votes by its buttons only: a reaction on its message is no vote.
    if (cached.buttons) return { kind: 'ignored', reason: 'buttons_battle' };
    const battle = { id: cached.id };
    const voterHash = hashVoterId(this.#secret, ev.platform, ev.userId);
    const res = await applyVoteEvent(this.#db, {
      battleId: battle.id,
      voterHash,
      platform: ev.platform,
      eventId: ev.eventId,
      kind: ev.added ? 'add' : 'remove',
      choice,
      emoji: ev.emoji,
      at: ev.at,
      ...(ev.seq !== undefined ? { seq: ev.seq } : {}),
      ...(ev.retryNum !== undefined ? { payload: { retryNum: ev.retryNum } } : {}),
      cap: this.#arena.vote_cap,
    });
    this.#log.debug(
      { battleId: battle.id, eventId: ev.eventId, effect: res.effect },
      'vote event applied',
    );
    if (res.effect === 'cast' || res.effect === 'changed' || res.effect === 'retracted')
      this.#metrics.vote(ev.platform, res.effect);
    if (res.effect === 'cast' || res.effect === 'changed')
      await this.#flag(battle.id, voterHash, res.effect, ev.at);
    if (res.closedByCap) await this.#closedByVote(battle.id, res.effect);
    return { kind: 'vote', battleId: battle.id, effect: res.effect, liveChoice: res.liveChoice };
  }

  /**
   * The battle a reaction's message holds, read once and kept in {@link #byMessage} (open or closed battles only);
   * reactions that arrive while it is being read share that read ({@link #lookingUp}).
   * @returns the battle, or why the reaction is ignored (`unknown_message`, `not_open`: not kept, read again next time).
   */
  #battleOfMessage(key: string, ev: ReactionEvent): Promise<ReactionOutcome | MessageBattle> {
    const under = this.#lookingUp.get(key);
    if (under) return under;
    const read = (async (): Promise<ReactionOutcome | MessageBattle> => {
      const battle = await findBattleByMessage(this.#db, ev.platform, ev.channelId, ev.messageId);
      if (!battle) return { kind: 'ignored', reason: 'unknown_message' };
      if (battle.status !== 'open' && battle.status !== 'closed')
        return { kind: 'ignored', reason: 'not_open' };
      const found = { id: battle.id, buttons: battle.voting === 'buttons' };
      if (this.#byMessage.size >= 10_000)
        this.#byMessage.delete(this.#byMessage.keys().next().value as string);
      this.#byMessage.set(key, found);
      return found;
    })().finally(() => this.#lookingUp.delete(key));
    this.#lookingUp.set(key, read);
    return read;
  }

  /**
   * A vote button pressed on a battle in buttons mode (docs/architecture.md "Arena battle"): the press is the
   * voter's `add` of that choice under the same vote rules as a reaction (storage/votes `applyVoteEvent`: the
   * latest press counts, a replayed press id counts once, the vote cap closes the battle), checked by the same
   * hygiene rules, and answered privately with what they chose ({@link buttonReply}): with
   * `arena.reveal_after_vote`, also which model answered left and which right, after which a further press is
   * refused (the vote is final once the voter has seen the models). A press on a closed, withdrawn or voided
   * battle changes nothing and says so. The answer is sent before a cap-closed battle is revealed.
   * @returns what the press did (for logs and tests).
   */
  async onButton(ev: ButtonPressEvent): Promise<ButtonReplyKind> {
    const platform = this.#platforms.get(ev.platform);
    const choice = choiceOfButton(ev.buttonId);
    const b = choice
      ? await findBattleByMessage(this.#db, ev.platform, ev.channelId, ev.messageId)
      : undefined;
    const answer = async (r: ButtonReplyKind, models?: { left: string; right: string }) => {
      await ev.reply(
        buttonReply(b?.number ?? 0, r, {
          emoji: this.emoji.emojisFor(ev.platform),
          emojiText: platform?.capabilities.emojiText ?? 'unicode',
          locale: ev.locale ?? this.#locale,
          ...(models ? { models } : {}),
        }),
      );
      return r;
    };
    if (!choice || !b || b.voting !== 'buttons' || b.status === 'pending')
      return answer({ kind: 'unknown' });
    if (b.status !== 'open')
      return answer({
        kind: b.status === 'void' ? 'void' : 'closed',
        closeReason: b.closeReason,
        closeCap: b.closeCap,
      });
    const voterHash = hashVoterId(this.#secret, ev.platform, ev.userId);
    const reveal = this.#arena.reveal_after_vote;
    if (reveal) {
      const [mine] = await liveVotes(this.#db, b.id, voterHash);
      if (mine) return answer({ kind: 'final', choice: mine.choice });
    }
    const res = await applyVoteEvent(this.#db, {
      battleId: b.id,
      voterHash,
      platform: ev.platform,
      eventId: ev.eventId,
      kind: 'add',
      choice,
      emoji: this.emoji.emojiFor(ev.platform, choice),
      at: ev.at,
      ...(ev.seq !== undefined ? { seq: ev.seq } : {}),
      payload: { button: ev.buttonId },
      cap: this.#arena.vote_cap,
    });
    this.#log.debug(
      { battleId: b.id, eventId: ev.eventId, effect: res.effect },
      'vote button press applied',
    );
    if (res.effect === 'cast' || res.effect === 'changed' || res.effect === 'retracted')
      this.#metrics.vote(ev.platform, res.effect);
    if (res.effect === 'cast' || res.effect === 'changed')
      await this.#flag(b.id, voterHash, res.effect, ev.at);
    let out: ButtonReplyKind;
    if (res.effect === 'ignored_closed') {
      const now = await getBattle(this.#db, b.id);
      out = await answer({
        kind: 'closed',
        closeReason: now?.closeReason ?? null,
        closeCap: now?.closeCap ?? null,
      });
    } else {
      const live = res.liveChoice ?? choice;
      const kind =
        res.effect === 'cast' ? 'cast' : res.effect === 'changed' ? 'changed' : 'unchanged';
      out = await answer(
        { kind, choice: live },
        reveal ? { left: b.leftModel, right: b.rightModel } : undefined,
      );
    }
    if (res.closedByCap) await this.#closedByVote(b.id, res.effect);
    return out;
  }

  /**
   * A vote (reaction or button press) that reached the cap closed its battle in SQL, atomically (storage/votes
   * `applyVoteEvent`): logged, and the battle revealed.
   */
  async #closedByVote(battleId: number, effect: VoteEffect): Promise<void> {
    this.#log.info(
      { battleId, cap: this.#arena.vote_cap, effect },
      'vote cap reached; battle closed',
    );
    this.#metrics.battlesClosed('cap', 1);
    await this.#revealSafely(battleId);
  }

  /**
   * Vote hygiene (docs/scoring.md §4.3): flags the live vote just cast or changed when it is over the voter's
   * daily cap or cast too fast; nothing when `arena.hygiene` checks nothing. A failure is logged (the vote stays).
   */
  async #flag(battleId: number, voterHash: string, effect: 'cast' | 'changed', at: Date) {
    const h = this.#arena.hygiene;
    if (h.daily_vote_cap === 0 && h.read_ms_per_char === 0) return;
    try {
      const r = await flagVote(this.#db, battleId, voterHash, effect, at, {
        dailyVoteCap: h.daily_vote_cap,
        readMsPerChar: h.read_ms_per_char,
      });
      if (r.flag) this.#log.info({ battleId, flag: r.flag, detail: r.detail }, 'vote flagged');
    } catch (err) {
      this.#log.warn(
        { battleId, err: (err as Error).message },
        'checking the vote for flags failed',
      );
    }
  }

  /**
   * Closes every open battle whose window ended by `now`, then reveals every closed, unrevealed battle on the
   * platforms this process holds (a worker without chat connections closes; a bot reveals). `o.due`: those battles
   * as {@link dueBattles} just read them for the same `now` (default: read here); `o.reveal` false: close only.
   */
  async closeDue(
    now: Date,
    o: { readonly reveal?: boolean; readonly due?: readonly BattleRow[] } = {},
  ): Promise<{ closed: number[]; revealed: number[] }> {
    const closed: number[] = [];
    for (const b of o.due ?? (await listOpenBattles(this.#db, now))) {
      // The tally revealed is the one the message shows: read it once more just before closing. A re-read that
      // fails leaves the stored votes, as a process without the platform closes (it never holds up closing).
      // A button battle has nothing on the platform to read: its stored votes are the truth.
      const platform =
        b.messageId && b.voting !== 'buttons'
          ? this.#platforms.get(b.platform as PlatformName)
          : undefined;
      const reread = platform
        ? await this.#reread(platform, b).catch((err: unknown) => {
            this.#log.warn(
              { battleId: b.id, err: (err as Error).message },
              'the closing re-read failed; closing with the stored votes',
            );
            return undefined;
          })
        : undefined;
      if (reread?.kind === 'gone') continue;
      if (await closeBattle(this.#db, b.id, now)) closed.push(b.id);
    }
    if (closed.length > 0) {
      this.#log.info({ battles: closed }, 'battles closed (window ended)');
      this.#metrics.battlesClosed('window', closed.length);
    }
    // Battles that hold the cap already (it was lowered after they opened): no vote reached it, so none closed them.
    const capped = await closeBattlesAtCap(this.#db, this.#arena.vote_cap, now);
    if (capped.length > 0) {
      this.#log.info({ battles: capped, cap: this.#arena.vote_cap }, 'battles closed (vote cap)');
      this.#metrics.battlesClosed('cap', capped.length);
      closed.push(...capped);
    }
    if (o.reveal === false) return { closed, revealed: [] };
    return { closed, revealed: (await this.revealClosed()).revealed };
  }

  /** The open battles whose window ended by `now`, by ascending id (what {@link closeDue} would close). */
  dueBattles(now: Date): Promise<BattleRow[]> {
    return listOpenBattles(this.#db, now);
  }

  /** Reveals every closed, unrevealed battle on the platforms this process holds. */
  async revealClosed(): Promise<{ revealed: number[] }> {
    const revealed: number[] = [];
    for (const id of await listClosedUnrevealed(this.#db, this.platformNames)) {
      if (await this.#revealSafely(id)) revealed.push(id);
    }
    return { revealed };
  }

  async #revealSafely(battleId: number): Promise<boolean> {
    try {
      return await this.reveal(battleId);
    } catch (err) {
      this.#log.error(
        { err, battleId },
        'revealing the battle failed; will retry on the next loop',
      );
      return false;
    }
  }

  /** Edits a closed battle's message to reveal the models and the tally, then marks it revealed. */
  async reveal(battleId: number): Promise<boolean> {
    const b = await getBattle(this.#db, battleId);
    if (
      b?.status !== 'closed' ||
      b.revealedAt !== null ||
      !b.platform ||
      !b.channelId ||
      !b.messageId
    )
      return false;
    const platform = this.#platforms.get(b.platform as PlatformName);
    if (!platform) return false;
    const texts = await battleTexts(this.#db, b.id);
    if (!texts) return false;
    const t = await tally(this.#db, b.id);
    const view = this.#view(b.number, platform.name, texts, b.closesAt);
    const content = revealContent(
      {
        ...view,
        leftModel: b.leftModel,
        rightModel: b.rightModel,
        tally: t,
        closeReason: b.closeReason,
        closeCap: b.closeCap,
      },
      platform.capabilities.emojiText,
      this.#locale,
    );
    // Only the messages whose rendering changes are edited (the first one of a battle of several).
    try {
      await platform.edit(refOf(b), content, {
        previous: battleContent(view, platform.capabilities, this.#locale),
      });
    } catch (err) {
      if (!isAppError(err, 'chat_message_gone')) throw err;
      await this.#withdrawGone(b, 'the reveal found its message gone');
      return false;
    }
    await markRevealed(this.#db, b.id, this.#clock.now());
    this.#log.info({ battleId: b.id, tally: t }, 'battle revealed');
    return true;
  }

  /**
   * Makes the live votes of one battle equal what `snapshot` (the reactions present on its message) shows, by
   * the rules of the module doc; every change is a logged vote event whose id and payload `ids` gives. `pre`: the
   * stored reactions and events read before the snapshot (a re-read): nothing more is read when they match it, and
   * a voter with an event logged since is left alone.
   */
  async #syncBattle(
    platform: ChatPlatform,
    b: { readonly id: number },
    snapshot: readonly ReactionSnapshot[],
    ids: (
      voterHash: string,
      choice: VoteChoice,
      kind: 'add' | 'remove',
      n: number,
    ) => { eventId: string; payload: Record<string, unknown> },
    pre?: { stored: Map<string, Set<VoteChoice>>; events: readonly { voterHash: string }[] },
  ): Promise<{ added: number; removed: number }> {
    const platformName = platform.name;
    const held = new Map<string, Set<VoteChoice>>();
    for (const r of snapshot) {
      const choice = this.emoji.choiceOf(platformName, r.emoji);
      if (!choice) continue;
      for (const u of r.userIds) {
        if (u === platform.botUserId) continue;
        const h = hashVoterId(this.#secret, platformName, u);
        const set = held.get(h) ?? new Set<VoteChoice>();
        held.set(h, set);
        set.add(choice);
      }
    }
    const changes = reactionDiff(held, pre?.stored ?? (await heldReactions(this.#db, b.id)));
    let added = 0;
    let removed = 0;
    if (changes.length === 0) return { added, removed };
    const eventsPer = new Map<string, number>();
    const lastAt = new Map<string, number>();
    for (const e of await listVoteEvents(this.#db, b.id)) {
      eventsPer.set(e.voterHash, (eventsPer.get(e.voterHash) ?? 0) + 1);
      lastAt.set(e.voterHash, Math.max(lastAt.get(e.voterHash) ?? 0, e.eventAt.getTime()));
    }
    const before = new Map<string, number>();
    for (const e of pre?.events ?? []) before.set(e.voterHash, (before.get(e.voterHash) ?? 0) + 1);
    const now = this.#clock.now().getTime();
    for (const { voter, removes, adds } of changes) {
      // An event of this voter logged while the message was read is as new as the read: it is not overruled.
      if (pre && (eventsPer.get(voter) ?? 0) !== (before.get(voter) ?? 0)) continue;
      if (adds.length > 1)
        this.#log.info(
          { battleId: b.id, choices: adds },
          'voter added several vote emoji; not guessing',
        );
      // Removals first, then additions, all at one time (two emoji added at once have no order, so neither is
      // guessed to be the vote), later than anything logged for the voter even if the platform's clock (event
      // times) runs ahead of ours: a re-read is never discarded as stale.
      const at = new Date(Math.max(now, (lastAt.get(voter) ?? 0) + 1));
      for (const [kind, choice] of [
        ...removes.map((c) => ['remove', c] as const),
        ...adds.map((c) => ['add', c] as const),
      ]) {
        const n = eventsPer.get(voter) ?? 0;
        const { eventId, payload } = ids(voter, choice, kind, n);
        const res = await applyVoteEvent(this.#db, {
          battleId: b.id,
          voterHash: voter,
          platform: platformName,
          eventId,
          kind,
          choice,
          emoji: this.emoji.emojiFor(platformName, choice),
          at,
          payload,
          cap: this.#arena.vote_cap,
        });
        eventsPer.set(voter, n + 1);
        if (res.effect === 'cast' || res.effect === 'changed') {
          added++;
          // The hygiene rules hold for a vote found by a re-read too, judged at the re-read's time (the latest
          // the vote can have been cast, so it is never judged faster than it was).
          await this.#flag(b.id, voter, res.effect, at);
        }
        if (res.effect === 'retracted') removed++;
      }
    }
    return { added, removed };
  }

  /**
   * Reactions removed for everyone (a moderator's "remove all ⬅️" or "remove all reactions"): the live votes of
   * the battle are brought in line with what the message now shows, each change logged as a vote event
   * (payload `{cleared: emoji | "all"}`, ids derived from the platform event, so a replay writes nothing), and
   * the bot's own reactions that went with it are added again so people can still vote.
   *
   * What the message shows is read back from the platform (someone may react again at once); when that read
   * fails, the clear itself says it: no reactions at all, or none of that emoji. Closed battles keep their
   * votes (they were final at closing). Other emoji, and messages that are no battle, are ignored.
   */
  async onReactionsCleared(
    ev: ReactionsClearedEvent,
  ): Promise<{ battleId: number; added: number; removed: number } | undefined> {
    const platform = this.#platforms.get(ev.platform);
    if (!platform) return undefined;
    const choice = ev.emoji === null ? null : this.emoji.choiceOf(ev.platform, ev.emoji);
    if (choice === undefined) return undefined; // an emoji that is not a vote
    const b = await findBattleByMessage(this.#db, ev.platform, ev.channelId, ev.messageId);
    if (b?.status !== 'open' || !b.messageId || b.voting === 'buttons') return undefined;
    const log = this.#log.child({ battleId: b.id, platform: ev.platform });
    let snapshot: readonly ReactionSnapshot[];
    try {
      snapshot = await platform.listReactions(refOf(b));
    } catch (err) {
      log.warn(
        { err: (err as Error).message },
        'cannot read the reactions after a clear; applying the clear as received',
      );
      snapshot = [];
      if (choice !== null) return this.#retractChoice(platform, b, ev, choice);
    }
    const cleared =
      ev.emoji === null ? 'all' : this.emoji.emojiFor(ev.platform, choice as VoteChoice);
    const r = await this.#syncBattle(platform, b, snapshot, (voterHash, c, kind) => ({
      eventId: `${ev.eventId}:${voterHash}:${c}:${kind}`,
      payload: { cleared },
    }));
    log.info({ cleared, ...r }, 'reactions cleared on a battle message; votes follow the message');
    await this.#restoreBotReactions(platform, b, choice);
    return { battleId: b.id, ...r };
  }

  /**
   * A time for events the bot writes itself (clears, deletions): now, but after every event already logged for
   * the battle and not before the platform event, so the vote rules never discard it as stale when the
   * platform's clock runs ahead of ours.
   */
  async #writeTime(battleId: number, at: Date): Promise<Date> {
    let last = 0;
    for (const e of await listVoteEvents(this.#db, battleId))
      last = Math.max(last, e.eventAt.getTime());
    return new Date(Math.max(this.#clock.now().getTime(), at.getTime(), last + 1));
  }

  /**
   * The read-back failed: the cleared emoji is removed from every voter who holds it (their vote falls back to
   * another emoji they still hold, or is retracted; the others stay).
   */
  async #retractChoice(
    platform: ChatPlatform,
    b: BattleRow,
    ev: ReactionsClearedEvent,
    choice: VoteChoice,
  ): Promise<{ battleId: number; added: number; removed: number }> {
    let removed = 0;
    const at = await this.#writeTime(b.id, ev.at);
    for (const [voterHash, held] of await heldReactions(this.#db, b.id)) {
      if (!held.has(choice)) continue;
      const res = await applyVoteEvent(this.#db, {
        battleId: b.id,
        voterHash,
        platform: platform.name,
        eventId: `${ev.eventId}:${voterHash}:${choice}:remove`,
        kind: 'remove',
        choice,
        emoji: this.emoji.emojiFor(platform.name, choice),
        at,
        payload: { cleared: this.emoji.emojiFor(platform.name, choice) },
        cap: this.#arena.vote_cap,
      });
      if (res.effect === 'retracted') removed++;
    }
    await this.#restoreBotReactions(platform, b, choice);
    return { battleId: b.id, added: 0, removed };
  }

  /** Adds back the bot's reactions a clear took away: all three, or the cleared one. */
  async #restoreBotReactions(
    platform: ChatPlatform,
    b: BattleRow,
    choice: VoteChoice | null,
  ): Promise<void> {
    const emojis =
      choice === null
        ? this.emoji.emojisFor(platform.name)
        : [this.emoji.emojiFor(platform.name, choice)];
    try {
      await platform.addReactions(refOf(b), emojis);
    } catch (err) {
      this.#log.warn(
        { battleId: b.id, err: (err as Error).message },
        'could not add the vote reactions back after a clear',
      );
    }
  }

  /**
   * A battle message was deleted: its reactions are gone, so the battle is withdrawn before its reveal (see the
   * module doc: an open battle's live votes are retracted, each logged with payload `{message_deleted: true}`).
   * A revealed battle keeps its votes. Returns what it did, or undefined when the message was no withdrawable
   * battle (or another path withdrew it first).
   */
  async onMessageDeleted(
    ev: MessageDeletedEvent,
  ): Promise<{ battleId: number; removed: number } | undefined> {
    const b = await findBattleByMessage(this.#db, ev.platform, ev.channelId, ev.messageId);
    if (!b) return undefined;
    const r = await this.#withdrawGone(b, 'its message was deleted', {
      eventId: ev.eventId,
      at: ev.at,
    });
    return r ? { battleId: b.id, removed: r.removed } : undefined;
  }

  /**
   * Withdraws a battle whose message is gone, once (storage `withdrawBattle` says which call did it): an open
   * battle's live votes are retracted first (every emoji of a voter, choice null; event ids from `from.eventId`,
   * else `gone:<battle>`, so a replay writes nothing), then the battle becomes `void`. Logged once.
   * @returns the retractions, or undefined when the battle was not withdrawable (revealed, void) or already withdrawn.
   */
  async #withdrawGone(
    b: BattleRow,
    why: string,
    from?: { eventId: string; at: Date },
  ): Promise<{ removed: number } | undefined> {
    const open = b.status === 'open';
    if (!open && !(b.status === 'closed' && b.revealedAt === null)) return undefined;
    let removed = 0;
    if (open) {
      const at = await this.#writeTime(b.id, from?.at ?? this.#clock.now());
      for (const v of await liveVotes(this.#db, b.id)) {
        const res = await applyVoteEvent(this.#db, {
          battleId: b.id,
          voterHash: v.voterHash,
          platform: b.platform as PlatformName,
          eventId: `${from?.eventId ?? `gone:${b.id}`}:${v.voterHash}:remove`,
          kind: 'remove',
          choice: null,
          at,
          payload: { message_deleted: true },
        });
        if (res.effect === 'retracted') removed++;
      }
    }
    if (!(await withdrawBattle(this.#db, b.id))) return undefined;
    this.#log.info(
      { battleId: b.id, platform: b.platform, status: b.status, removed },
      `battle withdrawn: ${why}; ${open ? 'its votes are retracted' : 'its votes count nowhere'}`,
    );
    return { removed };
  }

  /**
   * Re-reads one posted battle's reactions and brings its stored votes in line (module doc); a message that is
   * gone withdraws the battle. Never throws for a platform failure (the battle is left as stored).
   */
  async #reread(platform: ChatPlatform, b: BattleRow): Promise<RereadOutcome> {
    const pre = {
      stored: await heldReactions(this.#db, b.id),
      events: await listVoteEvents(this.#db, b.id),
    };
    let snapshot: readonly ReactionSnapshot[];
    try {
      snapshot = await platform.listReactions(refOf(b));
    } catch (err) {
      if (isAppError(err, 'chat_message_gone')) {
        await this.#withdrawGone(b, 'its message is gone (found on re-reading it)');
        return { kind: 'gone' };
      }
      const earlierRun =
        !platform.capabilities.reactionsOutliveProcess && isAppError(err, 'not_found');
      if (!earlierRun)
        this.#log.warn(
          { battleId: b.id, err: (err as Error).message },
          'cannot read the reactions of a battle message; not reconciled',
        );
      return { kind: 'unreadable', earlierRun };
    }
    const r = await this.#syncBattle(
      platform,
      b,
      snapshot,
      (voterHash, choice, kind, n) => ({
        eventId: `reconcile:${b.id}:${voterHash}:${choice}:${kind}:${n}`,
        payload: { reconcile: true },
      }),
      pre,
    );
    if (r.added > 0) this.#metrics.reconcileCorrections(platform.name, 'added', r.added);
    if (r.removed > 0) this.#metrics.reconcileCorrections(platform.name, 'removed', r.removed);
    return { kind: 'synced', ...r };
  }

  /**
   * Re-reads every open battle of `platform` (at start, after a gap in its events, every
   * `arena.reconcile_minutes`): the stored live votes are made to match the reactions present, battles whose
   * message is gone are withdrawn (see module doc).
   */
  async reconcile(platformName: PlatformName): Promise<ReconcileReport> {
    const platform = this.#platforms.get(platformName);
    if (!platform) return { battles: 0, added: 0, removed: 0, skipped: 0, withdrawn: 0 };
    let added = 0;
    let removed = 0;
    let skipped = 0;
    let withdrawn = 0;
    /** Terminal battles of an earlier run: their reactions lived in that process only (expected, not a warning). */
    const earlierRun: number[] = [];
    // Button battles are not re-read: there is nothing on the platform to read (their votes are stored as pressed).
    const open = (await listOpenBattles(this.#db)).filter(
      (b) => b.platform === platformName && b.messageId !== null && b.voting !== 'buttons',
    );
    for (const b of open) {
      const r = await this.#reread(platform, b);
      if (r.kind === 'gone') withdrawn++;
      else if (r.kind === 'unreadable') {
        skipped++;
        if (r.earlierRun) earlierRun.push(b.id);
      } else {
        added += r.added;
        removed += r.removed;
      }
    }
    if (earlierRun.length > 0) {
      const n = earlierRun.length;
      this.#log.info(
        { battles: earlierRun },
        `${n} open terminal battle${n === 1 ? '' : 's'} from an earlier run keep${n === 1 ? 's its' : ' their'} stored votes`,
      );
    }
    const report = { battles: open.length, added, removed, skipped, withdrawn };
    this.#log.info({ platform: platformName, ...report }, 'open battles reconciled');
    return report;
  }
}

/**
 * Per voter, the emoji to remove (stored, not shown) and to add (shown, not stored), in {@link CHOICES} order;
 * voters with nothing to change are left out.
 */
function reactionDiff(
  shown: ReadonlyMap<string, ReadonlySet<VoteChoice>>,
  stored: ReadonlyMap<string, ReadonlySet<VoteChoice>>,
): { voter: string; removes: VoteChoice[]; adds: VoteChoice[] }[] {
  const out: { voter: string; removes: VoteChoice[]; adds: VoteChoice[] }[] = [];
  for (const voter of new Set([...shown.keys(), ...stored.keys()])) {
    const s = shown.get(voter) ?? new Set<VoteChoice>();
    const k = stored.get(voter) ?? new Set<VoteChoice>();
    const removes = CHOICES.filter((c) => k.has(c) && !s.has(c));
    const adds = CHOICES.filter((c) => s.has(c) && !k.has(c));
    if (removes.length > 0 || adds.length > 0) out.push({ voter, removes, adds });
  }
  return out;
}

/** The message ref of a posted battle. */
export function refOf(b: BattleRow): MessageRef {
  return {
    platform: b.platform as PlatformName,
    channelId: b.channelId as string,
    messageId: b.messageId as string,
    partIds: b.partIds,
  };
}
