/**
 * @module bot/commands/handlers
 * The platform-neutral command handlers, written once for Discord, Slack and the terminal:
 * `/arena [ability]` (maintainers: post a battle now in the caller's channel),
 * `/leaderboard [overall|ability|method|model] [name]` (from the board service's latest snapshot),
 * `/models`, `/judge agree` (maintainers: judge vs crowd agreement). Handlers never throw: unexpected errors are logged and answered with a short ephemeral apology.
 */

import type { Kysely } from 'kysely';
import type { AskService } from '../../arena/ask.ts';
import { postRefusalText, terminalVoteHint } from '../../arena/message.ts';
import type { ArenaService } from '../../arena/service.ts';
import { commandNameList } from '../../chat/help.ts';
import {
  type CommandContext,
  markdownLiteral,
  type PlatformCapabilities,
  type PlatformName,
} from '../../chat/port.ts';
import { ABILITIES, type AppConfig } from '../../config/schema.ts';
import { type DisabledModel, missingKeyReason } from '../../config/start-checks.ts';
import { type Clock, systemClock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { EvalService } from '../../eval/service.ts';
import type { SubmissionService } from '../../eval/submissions.ts';
import { listText } from '../../i18n/cli.ts';
import { idOfName } from '../../i18n/display-names.ts';
import { type Locale, t } from '../../i18n/index.ts';
import { displayNameList, meantDisplayName } from '../../i18n/names.ts';
import type { LeaderboardService } from '../../leaderboard/service.ts';
import { importedOnlyModelCount, modelResponseCounts } from '../../storage/arena-queries.ts';
import type { Database } from '../../storage/schema.ts';
import { ARENA_SOURCE, sourceNames } from '../../storage/sources.ts';
import { arenaSubcommand, handleArenaSubcommand, handleAsk } from './ask.ts';
import { handleEval } from './eval.ts';
import { judgeAgreeContent, judgeCrowdAgreement } from './judge.ts';
import { leaderboardReply, leaderboardRequestOf } from './leaderboard.ts';
import { isMaintainer } from './permissions.ts';
import { COMMAND_SPECS } from './specs.ts';
import { handleSubmit } from './submit.ts';

/** After "Battle #N posted.": how to vote where it was posted (unknown platform: by reacting), in `locale`. */
function postedVoteHint(
  voting: PlatformCapabilities['voting'] | undefined,
  n: number,
  locale: Locale,
): string {
  if (voting === 'typed')
    return t(locale, 'reply.voteHint.typed', { hint: terminalVoteHint(n, locale) });
  return t(locale, voting === 'buttons' ? 'reply.voteHint.buttons' : 'reply.voteHint.reactions');
}

/** Dependencies of the command handlers. */
export interface CommandDeps {
  readonly db: Kysely<Database>;
  readonly arena: ArenaService;
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The board service `/leaderboard` reads. */
  readonly leaderboard: LeaderboardService;
  /** The live arena (`/ask`); undefined when no model is marked `arena: true`. */
  readonly ask?: AskService;
  /** For maintainer actions' times and the board's age (default the system clock). */
  readonly clock?: Clock;
  /** Server secret: maintainers are recorded in the audit log as the same HMAC as voters. */
  readonly voterSecret?: string;
  /** Evaluation runs (`/eval`); undefined where this process offers none. */
  readonly evals?: EvalService;
  /** Called when `/eval` queued a run (the bot reports its progress at once). */
  readonly onEvalStarted?: () => void;
  /** Model submissions (`/submit`); undefined where this process offers none. */
  readonly submissions?: SubmissionService;
  /** Called after `/submit approve` or `/submit reject` (the bot tells the submitter at once). */
  readonly onSubmissionDecided?: () => void;
  /** Configured models disabled in this environment (their API key variable is unset); `/models` names them. */
  readonly disabledModels?: readonly DisabledModel[];
}

/** The polite refusal maintainer-only commands give everyone else when no battles are scheduled (English). */
export const MAINTAINER_REFUSAL = t('en', 'reply.maintainersOnly');

/** The refusal when battles are also posted on a schedule (English). */
export const MAINTAINER_REFUSAL_SCHEDULED = t('en', 'reply.maintainersOnly.scheduled');

/**
 * The refusal for `platform`, in `locale` (default en): it mentions the schedule only when battles really are
 * scheduled there (`arena.schedule.every_minutes` > 0 and a scheduled channel on that platform).
 */
export function maintainerRefusal(
  schedule: AppConfig['arena']['schedule'],
  platform: PlatformName,
  locale: Locale = 'en',
): string {
  const scheduled =
    schedule.every_minutes > 0 && schedule.channels.some((c) => c.platform === platform);
  return t(locale, scheduled ? 'reply.maintainersOnly.scheduled' : 'reply.maintainersOnly');
}

/** The language of a reply only the caller sees: theirs when the platform says it, else the configured one. */
function callerLocale(deps: CommandDeps, ctx: CommandContext): Locale {
  return ctx.locale ?? deps.config.locale;
}

/**
 * The `ability` option of `/arena`: its id, given as the id or its display name in either language
 * (i18n/display-names.ts); a name nobody knows is refused with the abilities and a "did you mean", in `locale`.
 */
function abilityArg(
  ctx: CommandContext,
  locale: Locale,
): { ok: true; value?: string } | { ok: false; reason: string } {
  const raw = (ctx.args.ability ?? '').trim();
  if (raw === '') return { ok: true };
  const value = idOfName(raw, ABILITIES, 'ability');
  if (value) return { ok: true, value };
  const abilities = displayNameList(ABILITIES, 'ability', locale);
  return {
    ok: false,
    reason:
      t(locale, 'reply.badAbility', { ability: raw, abilities }) +
      meantDisplayName(raw, ABILITIES, 'ability', locale),
  };
}

/**
 * `/models`: the models that can battle (stored answers to items, or a live `arena: true` model), the others
 * named apart in the footer.
 */
async function handleModels(deps: CommandDeps, ctx: CommandContext): Promise<void> {
  // Can battle: a model with stored answers to items (recorded battles) or a live `arena: true` model (/ask).
  // Others (an endpoint evaluated only, with no answers yet) are named apart.
  const locale = deps.config.locale;
  const live = new Set(deps.ask?.modelNames ?? []);
  const all = await modelResponseCounts(deps.db);
  const rows = all.filter((r) => r.items > 0 || live.has(r.name));
  for (const name of live)
    if (!all.some((r) => r.name === name))
      rows.push({ name, provider: 'openai', responses: 0, items: 0 });
  rows.sort((a, b) => a.name.localeCompare(b.name));
  const idle = all.filter((r) => r.items === 0 && !live.has(r.name)).map((r) => r.name);
  const importedOnly = await importedOnlyModelCount(deps.db);
  const imported =
    importedOnly > 0 ? (await sourceNames(deps.db)).filter((s) => s !== ARENA_SOURCE) : [];
  const notes: string[] = [];
  if (idle.length > 0)
    notes.push(
      t(locale, 'models.idle', {
        n: idle.length,
        names: listText(locale, idle.map(markdownLiteral)),
      }),
    );
  if (importedOnly > 0) {
    const sources = listText(locale, imported) || t(locale, 'models.unknownSource');
    notes.push(t(locale, 'models.importedOnly', { n: importedOnly, sources }));
  }
  for (const d of deps.disabledModels ?? [])
    notes.push(
      t(locale, 'models.disabled', {
        name: markdownLiteral(d.name),
        reason: missingKeyReason(d.variable, d.empty, locale, d.file),
      }),
    );
  // One note a line: several disabled models are several sentences, never run together.
  const note = notes.length > 0 ? notes.join('\n') : undefined;
  if (rows.length === 0) {
    const more = note ? t(locale, 'models.note', { note }) : '';
    return ctx.reply({ text: t(locale, 'models.none', { note: more }) });
  }
  await ctx.reply({
    text: t(locale, 'models.count', { n: rows.length }),
    title: t(locale, 'models.title'),
    table: {
      columns: [
        t(locale, 'models.col.model'),
        t(locale, 'models.col.provider'),
        t(locale, 'models.col.answers'),
      ],
      align: ['left', 'left', 'right'],
      rows: rows.map((r) => [
        r.name,
        live.has(r.name) ? t(locale, 'models.live', { provider: r.provider }) : r.provider,
        String(r.responses),
      ]),
    },
    ...(note ? { footer: note } : {}),
  });
}

/** Builds the single `onCommand` function the adapters call. */
export function createCommandHandler(deps: CommandDeps): (ctx: CommandContext) => Promise<void> {
  const log = deps.logger.child({ component: 'commands' });
  const specs = new Map(COMMAND_SPECS.map((s) => [s.name, s]));

  const askDeps = {
    db: deps.db,
    arena: deps.arena,
    ...(deps.ask ? { ask: deps.ask } : {}),
    clock: deps.clock ?? systemClock,
    voterSecret: deps.voterSecret ?? '',
    disabledLive: (deps.disabledModels ?? []).filter((d) => d.live).length,
  };
  const handlers: Record<string, (ctx: CommandContext) => Promise<void>> = {
    ask: (ctx) => handleAsk(askDeps, ctx),
    eval: (ctx) => handleEval(deps.evals, ctx, deps.onEvalStarted, deps.config.locale),
    submit: (ctx) =>
      handleSubmit(
        {
          submissions: deps.submissions,
          platforms: deps.config.platforms,
          locale: deps.config.locale,
          onDecided: () => {
            deps.onSubmissionDecided?.();
            deps.onEvalStarted?.();
          },
        },
        ctx,
      ),
    arena: async (ctx) => {
      const sub = arenaSubcommand(ctx);
      if (sub) return handleArenaSubcommand(askDeps, ctx, sub);
      const me = callerLocale(deps, ctx);
      const ability = abilityArg(ctx, me);
      if (!ability.ok) return ctx.reply({ text: ability.reason }, { ephemeral: true });
      const res = await deps.arena.postBattle(
        ctx.platform,
        ctx.channelId,
        ability.value ? { ability: ability.value } : {},
      );
      if (!res.ok)
        return ctx.reply(
          { text: t(me, 'reply.notPosted', { reason: postRefusalText(res.reason, me) }) },
          { ephemeral: true },
        );
      const n = res.value.number;
      const voting = deps.arena.platform(ctx.platform)?.capabilities.voting;
      await ctx.reply(
        { text: t(me, 'reply.posted', { n, hint: postedVoteHint(voting, n, me) }) },
        { ephemeral: true },
      );
    },
    leaderboard: async (ctx) => {
      const req = leaderboardRequestOf(ctx, callerLocale(deps, ctx));
      if (!req.ok) return ctx.reply({ text: req.reason }, { ephemeral: true });
      await ctx.reply(
        await leaderboardReply(
          {
            leaderboard: deps.leaderboard,
            now: () => (deps.clock ?? systemClock).now(),
            publicUrl: deps.config.leaderboard.public_url,
            locale: deps.config.locale,
          },
          req,
        ),
      );
    },
    judge: async (ctx) => {
      const action = (ctx.args.action ?? '').trim();
      if (action !== 'agree') {
        return ctx.reply(
          { text: t(callerLocale(deps, ctx), 'reply.judge.badAction', { action }) },
          { ephemeral: true },
        );
      }
      const judge = (ctx.args.judge ?? '').trim();
      const rows = await judgeCrowdAgreement(deps.db, judge ? { judge } : {});
      await ctx.reply(judgeAgreeContent(rows, deps.config.locale));
    },
    models: (ctx) => handleModels(deps, ctx),
  };

  return async (ctx) => {
    const spec = specs.get(ctx.name);
    const handler = handlers[ctx.name];
    const me = callerLocale(deps, ctx);
    try {
      if (!spec || !handler) {
        const names = commandNameList(COMMAND_SPECS, me);
        await ctx.reply(
          { text: t(me, 'reply.unknownCommand', { name: ctx.name, names }) },
          { ephemeral: true },
        );
        return;
      }
      if (spec.maintainerOnly && !isMaintainer(ctx.user, ctx.platform, deps.config.platforms)) {
        log.info({ command: ctx.name, platform: ctx.platform }, 'maintainer-only command refused');
        await ctx.reply(
          {
            text:
              ctx.name === 'eval'
                ? t(me, 'eval.refusal')
                : maintainerRefusal(deps.config.arena.schedule, ctx.platform, me),
          },
          { ephemeral: true },
        );
        return;
      }
      await handler(ctx);
    } catch (err) {
      log.error({ err, command: ctx.name, eventId: ctx.eventId }, 'command failed');
      await ctx.reply({ text: t(me, 'reply.failed') }, { ephemeral: true }).catch(() => undefined);
    }
  };
}
