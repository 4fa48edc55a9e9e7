/**
 * @module bot/commands/ask
 * `/ask <prompt> [ability]` (everyone) and the maintainers' live-arena commands under `/arena`:
 * `/arena void <battle> [reason]`, `/arena ability <battle> <ability>`, `/arena unclassified`, `/arena flagged`.
 *
 * A battle number typed here is the battle's number in the community's arena (`battles.number`, what its message
 * shows): the commands act only on the community's own battles; an imported battle's number names none of them.
 *
 * Arguments: Discord passes `prompt` and `ability` as options (and `void`, `battle`, `reason`, `list` for
 * `/arena`). Slack and the terminal pass the text after the command: for `/ask` the whole text is the prompt,
 * except a last word that is one of the seven abilities (or `ability=NAME` anywhere), which is the tag — so
 * `/ask Is 91 prime? reasoning` asks "Is 91 prime?" tagged `reasoning`. An ability is its id or its display name in
 * either language (`推理`, i18n/display-names.ts), wherever one is typed or chosen (`/arena ability 12 推理`). A `/ask` run inside a battle's thread
 * (Discord) continues that battle's conversation.
 */
import type { Kysely } from 'kysely';
import type { AskService } from '../../arena/ask.ts';
import type { ArenaService } from '../../arena/service.ts';
import type { CommandContext, MessageContent } from '../../chat/port.ts';
import { ABILITIES, type Ability } from '../../config/abilities.ts';
import type { Clock } from '../../core/clock.ts';
import { parseRecordId, unknownRecordNumber } from '../../core/numbers.ts';
import { hashVoterId } from '../../core/voter-id.ts';
import { listText } from '../../i18n/cli.ts';
import { idOfName } from '../../i18n/display-names.ts';
import { type Locale, t } from '../../i18n/index.ts';
import { displayNameList, meantDisplayName } from '../../i18n/names.ts';
import { getArenaBattle, getBattle } from '../../storage/battles.ts';
import { listUnclassified, overrideAbility, voidAnyBattle } from '../../storage/live-battles.ts';
import type { Database } from '../../storage/schema.ts';
import { listFlaggedVotes } from '../../storage/vote-flags.ts';
import { flaggedVotesContent } from './flagged.ts';

/** The ability a typed name stands for: its id or display name in either language (i18n/display-names.ts). */
const abilityOf = (s: string): Ability | undefined => idOfName(s, ABILITIES, 'ability');

/** `key` (`ask.badAbility`, `reply.badAbility`) for an ability nobody knows, with its "did you mean", in `locale`. */
function badAbilityText(
  key: 'ask.badAbility' | 'reply.badAbility',
  raw: string,
  locale: Locale,
): string {
  return (
    t(locale, key, { ability: raw, abilities: displayNameList(ABILITIES, 'ability', locale) }) +
    meantDisplayName(raw, ABILITIES, 'ability', locale)
  );
}

/** The prompt and optional ability tag of an `/ask` (see the module doc); `reason` in `locale` (default en). */
export function parseAskArgs(
  ctx: Pick<CommandContext, 'args' | 'text'>,
  locale: Locale = 'en',
): { ok: true; prompt: string; ability?: Ability } | { ok: false; reason: string } {
  const bad = (raw: string) => ({
    ok: false as const,
    reason: badAbilityText('ask.badAbility', raw, locale),
  });
  if (ctx.text.trim() === '') {
    const prompt = (ctx.args.prompt ?? '').trim();
    const raw = (ctx.args.ability ?? '').trim();
    if (raw === '') return { ok: true, prompt };
    const ability = abilityOf(raw);
    return ability ? { ok: true, prompt, ability } : bad(raw);
  }
  let text = ctx.text.trim();
  let ability: Ability | undefined;
  const kv = /(?:^|\s)ability=(\S+)/u.exec(text);
  if (kv) {
    const raw = kv[1] as string;
    ability = abilityOf(raw);
    if (!ability) return bad(raw);
    text = (text.slice(0, kv.index) + text.slice(kv.index + kv[0].length)).trim();
  } else {
    const m = /\s(\S+)$/u.exec(text);
    ability = m ? abilityOf(m[1] as string) : undefined;
    if (m && ability) text = text.slice(0, m.index).trim();
  }
  return ability ? { ok: true, prompt: text, ability } : { ok: true, prompt: text };
}

/** Dependencies of the live-arena commands. */
export interface AskCommandDeps {
  readonly db: Kysely<Database>;
  readonly arena: ArenaService;
  readonly ask?: AskService;
  readonly clock: Clock;
  readonly voterSecret: string;
  /** How many `arena: true` models are disabled (their API key variable is unset). */
  readonly disabledLive?: number;
}

/** `/ask`. */
export async function handleAsk(deps: AskCommandDeps, ctx: CommandContext): Promise<void> {
  const me = ctx.locale ?? deps.arena.locale;
  if (!deps.ask) {
    const off = (deps.disabledLive ?? 0) > 0 ? 'ask.off.disabled' : 'ask.off.none';
    await ctx.reply({ text: t(me, off) }, { ephemeral: true });
    return;
  }
  const parsed = parseAskArgs(ctx, me);
  if (!parsed.ok) return ctx.reply({ text: parsed.reason }, { ephemeral: true });
  if (ctx.thread) {
    const r = await deps.ask.followUp({
      platform: ctx.platform,
      channelId: ctx.thread.channelId,
      threadOf: ctx.thread.messageId,
      user: ctx.user,
      prompt: parsed.prompt,
      ...(ctx.locale ? { locale: ctx.locale } : {}),
      reply: (c, o) => ctx.reply(c, o),
    });
    if (r.kind !== 'ignored') return;
    // A thread that is not a battle's: a new question, posted where the command was run.
  }
  await deps.ask.ask({
    platform: ctx.platform,
    channelId: ctx.channelId,
    user: ctx.user,
    prompt: parsed.prompt,
    ...(parsed.ability ? { ability: parsed.ability } : {}),
    ...(ctx.locale ? { locale: ctx.locale } : {}),
    reply: (c, o) => ctx.reply(c, o),
  });
}

/** The live-arena subcommand of an `/arena` invocation, if it is one. */
export function arenaSubcommand(
  ctx: Pick<CommandContext, 'args' | 'text'>,
):
  | { kind: 'void'; battle: string; reason: string }
  | { kind: 'ability'; battle: string; ability: string }
  | { kind: 'unclassified' }
  | { kind: 'flagged' }
  | undefined {
  const words = ctx.text.trim().split(/\s+/u).filter(Boolean);
  const head = words[0]?.toLowerCase();
  if (head === 'void')
    return { kind: 'void', battle: words[1] ?? '', reason: words.slice(2).join(' ') };
  if (head === 'ability' || head === 'set-ability')
    return { kind: 'ability', battle: words[1] ?? '', ability: words[2] ?? '' };
  if (head === 'unclassified') return { kind: 'unclassified' };
  if (head === 'flagged') return { kind: 'flagged' };
  if (words.length === 0) {
    if (ctx.args.void)
      return { kind: 'void', battle: ctx.args.void, reason: ctx.args.reason ?? '' };
    if (ctx.args.battle)
      return { kind: 'ability', battle: ctx.args.battle, ability: ctx.args.ability ?? '' };
    if (ctx.args.list === 'unclassified') return { kind: 'unclassified' };
    if (ctx.args.list === 'flagged') return { kind: 'flagged' };
  }
  return undefined;
}

const battleNumberOf = (s: string): number | undefined => parseRecordId(s);

/**
 * The answer to a battle number that names none of the community's battles (an imported one's included), in
 * `locale` (default en).
 */
export function noArenaBattle(number: number | string, locale: Locale = 'en'): string {
  return t(locale, 'arenaCmd.noBattle', { n: number });
}

/** The answer to `/arena void|ability` whose battle is not a battle number: no such battle, or the usage. */
function notABattleNumber(kind: 'void' | 'ability', typed: string, locale: Locale): string {
  const unknown = unknownRecordNumber(typed);
  if (unknown !== undefined) return noArenaBattle(unknown, locale);
  return kind === 'void'
    ? t(locale, 'arenaCmd.usage.void')
    : t(locale, 'arenaCmd.usage.ability', { abilities: listText(locale, ABILITIES) });
}

/**
 * Runs a live-arena subcommand of `/arena` (the caller has checked the maintainer role). The replies only the
 * caller sees are in their language (`ctx.locale`) when the platform says it, the voided battle's message in the
 * configured one.
 */
export async function handleArenaSubcommand(
  deps: AskCommandDeps,
  ctx: CommandContext,
  sub: NonNullable<ReturnType<typeof arenaSubcommand>>,
): Promise<void> {
  const me = ctx.locale ?? deps.arena.locale;
  const say = (content: MessageContent) => ctx.reply(content, { ephemeral: true });
  const actor = hashVoterId(deps.voterSecret, ctx.platform, ctx.user.id);
  if (sub.kind === 'flagged') return say(flaggedVotesContent(await listFlaggedVotes(deps.db), me));
  if (sub.kind === 'unclassified') {
    const rows = await listUnclassified(deps.db);
    if (rows.length === 0) return say({ text: t(me, 'arenaCmd.allClassified') });
    const cols = ['battle', 'status', 'asked', 'prompt', 'classifier'] as const;
    return say({
      text: t(me, 'arenaCmd.unclassified', { n: rows.length }),
      title: t(me, 'arenaCmd.unclassified.title'),
      table: {
        columns: cols.map((c) => t(me, `arenaCmd.col.${c}`)),
        align: ['right', 'left', 'left', 'left', 'left'],
        rows: rows.map((r) => [
          `#${r.number}`,
          r.status,
          r.createdAt.toISOString().slice(0, 16).replace('T', ' '),
          r.prompt.length > 60 ? `${r.prompt.slice(0, 60)}…` : r.prompt,
          r.classifier ?? '—',
        ]),
      },
    });
  }
  const number = battleNumberOf(sub.battle);
  if (number === undefined) return say({ text: notABattleNumber(sub.kind, sub.battle, me) });
  const ability = sub.kind === 'ability' ? abilityOf(sub.ability) : undefined;
  if (sub.kind === 'ability' && !ability)
    return say({ text: badAbilityText('reply.badAbility', sub.ability, me) });
  const target = await getArenaBattle(deps.db, number);
  if (!target) return say({ text: noArenaBattle(number, me) });
  const id = target.id;
  const now = deps.clock.now();
  if (sub.kind === 'ability') {
    const ok = ability !== undefined && (await overrideAbility(deps.db, id, ability, actor, now));
    return say({
      text: ok
        ? t(me, 'arenaCmd.filed', { n: number, ability: ability ?? sub.ability })
        : noArenaBattle(number, me),
    });
  }
  const before = await voidAnyBattle(deps.db, id, actor, sub.reason || null, now);
  if (before === undefined) return say({ text: noArenaBattle(number, me) });
  if (before === 'void') return say({ text: t(me, 'arenaCmd.alreadyVoid', { n: number }) });
  // Tell the channel (best effort): the message stays, marked void, so the thread and reactions still make sense.
  const b = await getBattle(deps.db, id);
  const platform = b?.platform
    ? deps.arena.platform(b.platform as CommandContext['platform'])
    : undefined;
  if (b && platform && b.channelId && b.messageId) {
    await platform
      .edit(
        {
          platform: platform.name,
          channelId: b.channelId,
          messageId: b.messageId,
          partIds: b.partIds,
        },
        voidedContent(number, sub.reason, deps.arena.locale),
      )
      .catch(() => undefined);
  }
  return say({ text: t(me, 'arenaCmd.voided', { n: number }) });
}

/** What a voided battle's message becomes (it stays, marked void), in `locale`; `reason` as the maintainer typed it. */
function voidedContent(number: number, reason: string, locale: Locale): MessageContent {
  const why = reason ? t(locale, 'arenaCmd.voidedMessage.reason', { reason }) : '';
  return {
    text: t(locale, 'arenaCmd.voidedMessage', { n: number, reason: why }),
    title: t(locale, 'arenaCmd.voidedTitle', { n: number }),
  };
}
