/**
 * @module bot/commands/leaderboard
 * `/leaderboard [overall|ability|method|model] [name]`: answers at once from the latest stored board snapshot
 * (leaderboard/service.ts) and says how old it is and, when the inputs changed since, what it misses ("built before
 * 412 newer votes and 2 runs"); a rebuild then runs in the background (in a worker thread). Only the very first call, with no snapshot stored yet, waits for a build (still off the event
 * loop). `/leaderboard reasoning` and `/leaderboard gpt-4o` are understood as the ability and model views.
 */
import {
  BOARD_ABILITIES,
  BOARD_METHODS,
  type BoardAbility,
  type BoardMethod,
} from '../../aggregate/index.ts';
import type { CommandContext, MessageContent } from '../../chat/port.ts';
import { typedWords } from '../../chat/typed-words.ts';
import { listText } from '../../i18n/cli.ts';
import { idOfName } from '../../i18n/display-names.ts';
import { type Locale, t } from '../../i18n/index.ts';
import { displayNameList, meantDisplayName } from '../../i18n/names.ts';
import type { LeaderboardService } from '../../leaderboard/service.ts';
import { styleContent } from '../../leaderboard/style.ts';
import {
  abilityContent,
  methodContent,
  modelContent,
  overallContent,
} from '../../leaderboard/views.ts';
import type { SourceSummary } from '../../storage/sources.ts';

/** The views `/leaderboard` offers. */
export const LEADERBOARD_VIEWS = ['overall', 'ability', 'method', 'model', 'style'] as const;

/** A parsed `/leaderboard` request, or why it is not one. */
export type LeaderboardRequest =
  | { readonly ok: true; readonly view: 'overall' }
  | { readonly ok: true; readonly view: 'style' }
  | { readonly ok: true; readonly view: 'ability'; readonly name: BoardAbility }
  | { readonly ok: true; readonly view: 'method'; readonly name: BoardMethod }
  | { readonly ok: true; readonly view: 'model'; readonly name: string }
  | { readonly ok: false; readonly reason: string };

/** Where a leaderboard request came from: chat (`/leaderboard …`) or the command line (`zhujiu leaderboard …`). */
export type LeaderboardSurface = 'chat' | 'cli';

/** How to ask for a view on a surface: `/leaderboard model NAME` or `zhujiu leaderboard --view model NAME`. */
export function leaderboardForm(surface: LeaderboardSurface, view: string, name = 'NAME'): string {
  return surface === 'chat'
    ? `\`/leaderboard ${view} ${name}\``
    : `\`zhujiu leaderboard --view ${view} ${name}\``;
}

/**
 * Parses the `view` and `name` arguments (either may be a bare ability, method or model name). Refusals name the
 * fix in the form of `surface` (chat: `/leaderboard ability NAME`; CLI: `zhujiu leaderboard --view ability NAME`),
 * in `locale` (default en).
 */
export function parseLeaderboardArgs(
  view: string | undefined,
  name: string | undefined,
  surface: LeaderboardSurface = 'chat',
  locale: Locale = 'en',
): LeaderboardRequest {
  const v = (view ?? '').trim();
  const n = (name ?? '').trim();
  const no = (reason: string) => ({ ok: false as const, reason });
  const form = (x: string) => leaderboardForm(surface, x);
  if (v === '' || v === 'overall') {
    if (n !== '' && v === 'overall')
      return no(t(locale, 'lbReq.overallNoName', { form: form('model') }));
    if (n === '') return { ok: true, view: 'overall' };
  }
  if (v === 'style') {
    // Style-controlled arena ratings (docs/scoring.md §4.6).
    if (n !== '') return no(t(locale, 'lbReq.styleNoName'));
    return { ok: true, view: 'style' };
  }
  if (v === 'ability') {
    const ability = idOfName(n, BOARD_ABILITIES, 'ability');
    if (ability) return { ok: true, view: 'ability', name: ability };
    const list = displayNameList(BOARD_ABILITIES, 'ability', locale);
    return no(
      n === ''
        ? t(locale, 'lbReq.nameAbility', { form: form('ability'), list })
        : t(locale, 'reply.badAbility', { ability: n, abilities: list }) +
            meantDisplayName(n, BOARD_ABILITIES, 'ability', locale),
    );
  }
  if (v === 'method') {
    const method = idOfName(n, BOARD_METHODS, 'method');
    if (method) return { ok: true, view: 'method', name: method };
    const list = displayNameList(BOARD_METHODS, 'method', locale);
    return no(
      n === ''
        ? t(locale, 'lbReq.nameMethod', { form: form('method'), list })
        : t(locale, 'lbReq.badMethod', { method: n, list }) +
            meantDisplayName(n, BOARD_METHODS, 'method', locale),
    );
  }
  if (v === 'model') {
    if (n === '') return no(t(locale, 'lbReq.nameModel', { form: form('model') }));
    return { ok: true, view: 'model', name: n };
  }
  // A bare name: an ability, a method, or else a model.
  const bare = [v, n].filter((x) => x !== '').join(' ');
  const ability = idOfName(bare, BOARD_ABILITIES, 'ability');
  if (ability) return { ok: true, view: 'ability', name: ability };
  const method = idOfName(bare, BOARD_METHODS, 'method');
  if (method) return { ok: true, view: 'method', name: method };
  return { ok: true, view: 'model', name: bare };
}

/**
 * The request of one `/leaderboard` command. Typed text (Slack, the terminal): the first word is the view and the
 * rest of the line the name, so a model name with spaces needs no quotes (`/leaderboard model GPT 3.5 Turbo`;
 * quotes group words too, chat/typed-words.ts); Discord gives its `view` and `name` options.
 */
export function leaderboardRequestOf(
  ctx: Pick<CommandContext, 'args' | 'text'>,
  locale: Locale = 'en',
): LeaderboardRequest {
  const words = typedWords(ctx.text);
  return words.length > 0
    ? parseLeaderboardArgs(words[0], words.slice(1).join(' '), 'chat', locale)
    : parseLeaderboardArgs(ctx.args.view, ctx.args.name, 'chat', locale);
}

/** What `/leaderboard` needs. */
export interface LeaderboardCommandDeps {
  readonly leaderboard: LeaderboardService;
  readonly now: () => Date;
  /** Public URL of the results page (config `leaderboard.public_url`), linked from posts. */
  readonly publicUrl?: string | null;
  /** The language of the board (config `locale`; default en). */
  readonly locale?: Locale;
}

/** The results page URL for a view, when a public URL is configured. */
export function pageLink(
  base: string | null | undefined,
  req?: LeaderboardRequest,
): string | undefined {
  if (!base) return undefined;
  const root = base.replace(/\/+$/, '');
  if (!req?.ok || req.view === 'overall') return `${root}/board`;
  if (req.view === 'model') return `${root}/board/model/${encodeURIComponent(req.name)}`;
  if (req.view === 'ability') return `${root}/board/ability/${req.name}`;
  return `${root}/board`;
}

/** Answers one `/leaderboard` request from the latest snapshot, in `deps.locale`. */
export async function leaderboardReply(
  deps: LeaderboardCommandDeps,
  req: LeaderboardRequest,
): Promise<MessageContent> {
  if (!req.ok) return { text: req.reason };
  if (req.view === 'style') {
    const s = await deps.leaderboard.styleControl();
    return styleContent(s.result, s.votes, s.leftOut, deps.locale);
  }
  let snap = await deps.leaderboard.latest();
  let behind: string | undefined;
  // A stale snapshot says what it misses (and a rebuild starts); the very first call waits for a build.
  if (!snap) snap = await deps.leaderboard.refresh();
  else behind = await deps.leaderboard.checkStale(snap);
  const link = pageLink(deps.publicUrl, req);
  const o = {
    now: deps.now(),
    ...(link ? { link } : {}),
    ...(behind ? { behind } : {}),
    ...(deps.locale ? { locale: deps.locale } : {}),
  };
  const content = (() => {
    switch (req.view) {
      case 'overall':
        return overallContent(snap, { ...o, ...(snap.chart ? { image: snap.chart } : {}) });
      case 'ability':
        return abilityContent(snap, req.name, o);
      case 'method':
        return methodContent(snap, req.name, o);
      case 'model':
        return modelContent(snap, req.name, o);
    }
  })();
  if (snap.board.rows.length > 0) return content;
  // An empty board while imported sources hold votes: say where they are and how to see them.
  const note = votesElsewhereNote(
    snap.sources,
    await deps.leaderboard.votesElsewhere(),
    deps.locale,
  );
  return note ? { ...content, text: `${content.text}\n${note}` } : content;
}

/**
 * The note under an empty board when other stored sources hold votes: the sources counted (`counted`), the others
 * with their vote counts, and how to see them (`zhujiu leaderboard --source NAME`; chat's `/leaderboard` has no
 * source option) or count them (`ratings.include_sources`), in `locale`; undefined when `others` is empty.
 */
export function votesElsewhereNote(
  counted: readonly string[],
  others: readonly SourceSummary[],
  locale: Locale = 'en',
): string | undefined {
  if (others.length === 0) return undefined;
  return t(locale, 'chat.votesElsewhere', {
    counted: listText(locale, counted),
    n: others.length,
    stored: listText(
      locale,
      others.map((s) =>
        t(locale, 'chat.votesElsewhere.item', { source: s.source, votes: s.votes, n: s.votes }),
      ),
    ),
    commands: others
      .map((s) => `\`zhujiu leaderboard --source ${s.source}\``)
      .join(t(locale, 'chat.votesElsewhere.or')),
  });
}
