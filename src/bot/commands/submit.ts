/**
 * @module bot/commands/submit
 * `/submit` (eval/submissions.ts):
 * - anyone: `/submit name:<name> url:<base URL> model:<model id> description:<text> org:<organisation>
 *   licence:<licence>` stores a pending submission and answers only the submitter; `/submit list` shows their own;
 * - maintainers: `/submit list` shows the pending ones (and the latest decided), `/submit approve <id>
 *   [api_key_env:<VAR>] [suites:<a,b>]` registers the model and queues its runs, `/submit reject <id> <reason>`.
 *
 * Typed forms (Slack, the terminal): `key:value` or `key=value`, where a value runs to the next key, so it may hold
 * spaces (`description:A 7B chat model org:Acme Lab`); quotes around a value are dropped. Discord gives the same
 * keys as options. The submitter is told of decisions by bot/submission-notices.ts.
 */

import { type CommandContext, type MessageContent, markdownLiteral } from '../../chat/port.ts';
import type { AppConfig } from '../../config/schema.ts';
import { parseRecordId, unknownRecordNumber } from '../../core/numbers.ts';
import { evalRefusalsText } from '../../eval/refusal.ts';
import { submissionProblemText } from '../../eval/submission-problems.ts';
import type { SubmissionInput, SubmissionService } from '../../eval/submissions.ts';
import { type Locale, t } from '../../i18n/index.ts';
import type { SubmissionRow } from '../../storage/submissions.ts';
import { isMaintainer } from './permissions.ts';

/** The keys `/submit` reads, with the other spellings accepted for them. */
const KEY_ALIASES: Readonly<Record<string, SubmitKey>> = {
  name: 'name',
  url: 'url',
  base_url: 'url',
  model: 'model',
  description: 'description',
  org: 'org',
  organisation: 'org',
  organization: 'org',
  licence: 'licence',
  license: 'licence',
  action: 'action',
  id: 'id',
  reason: 'reason',
  api_key_env: 'api_key_env',
  suites: 'suites',
};
type SubmitKey =
  | 'name'
  | 'url'
  | 'model'
  | 'description'
  | 'org'
  | 'licence'
  | 'action'
  | 'id'
  | 'reason'
  | 'api_key_env'
  | 'suites';

/** Parsed `/submit` arguments: the keys given, and the words before the first key. */
export interface SubmitArgs {
  readonly values: Partial<Record<SubmitKey, string>>;
  readonly words: readonly string[];
}

/** A value without the quotes around it ("…", '…', “…”, 「…」). */
function unquote(v: string): string {
  const t = v.trim();
  const m = /^(?:"(.*)"|'(.*)'|“(.*)”|「(.*)」)$/su.exec(t);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim() : t;
}

const QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '「': '」' };

/**
 * Parses typed `/submit` text: the words before the first `key:` / `key=` (an action, an id, a reason), then each
 * key's value up to the next key. Keys are those of {@link KEY_ALIASES}; any other `word:` is part of a value (so a
 * URL's `https:` is never a key). A value that starts with a quote runs to its closing quote, so it may hold a key
 * word (`description:"a chat model: fast"`).
 */
export function parseSubmitText(text: string): SubmitArgs {
  const keyAt = new RegExp(`^(${Object.keys(KEY_ALIASES).join('|')})[:=]`, 'iu');
  const nextKey = new RegExp(`\\s(?:${Object.keys(KEY_ALIASES).join('|')})[:=]`, 'iu');
  const values: Partial<Record<SubmitKey, string>> = {};
  const head: string[] = [];
  let rest = text.trim();
  let seenKey = false;
  while (rest !== '') {
    const k = keyAt.exec(rest);
    if (!k) {
      const cut = seenKey ? rest.search(nextKey) : rest.search(/\s|$/u);
      const part = cut < 0 ? rest : rest.slice(0, cut);
      if (seenKey) {
        // Text after a quoted value and before the next key: part of nothing; kept as words.
        head.push(...part.trim().split(/\s+/u).filter(Boolean));
      } else head.push(part);
      rest = (cut < 0 ? '' : rest.slice(cut)).trim();
      continue;
    }
    seenKey = true;
    const key = KEY_ALIASES[(k[1] ?? '').toLowerCase()] as SubmitKey;
    let after = rest.slice(k[0].length);
    const close = QUOTES[after[0] ?? ''];
    const end = close ? after.indexOf(close, 1) : -1;
    if (close && end > 0) {
      values[key] = after.slice(1, end).trim();
      after = after.slice(end + 1);
    } else {
      const cut = after.search(nextKey);
      values[key] = unquote(cut < 0 ? after : after.slice(0, cut));
      after = cut < 0 ? '' : after.slice(cut);
    }
    rest = after.trim();
  }
  return { values, words: head };
}

/** The arguments of a `/submit` invocation: Discord options, or the typed text (which wins when given). */
export function submitArgs(ctx: CommandContext): SubmitArgs {
  if (ctx.text.trim() !== '') return parseSubmitText(ctx.text);
  const values: Partial<Record<SubmitKey, string>> = {};
  for (const [k, v] of Object.entries(ctx.args)) {
    const key = KEY_ALIASES[k];
    if (key && v.trim() !== '') values[key] = unquote(v);
  }
  return { values, words: [] };
}

/** The usage line of `/submit` (English; `submit.usage` in other languages). */
export const SUBMIT_USAGE = t('en', 'submit.usage');

/** One submission as a table row; its status in `locale`. */
function row(s: SubmissionRow, locale: Locale): string[] {
  return [
    `#${s.id}`,
    s.name,
    s.model,
    s.base_url,
    s.organisation,
    s.licence,
    s.status === 'rejected' && s.reason
      ? t(locale, 'submit.rejectedStatus', { reason: s.reason })
      : t(locale, `submit.status.${s.status}`),
  ];
}

/** The answer to `/submit list`, in `locale`. */
function listContent(
  rows: readonly SubmissionRow[],
  mine: boolean,
  locale: Locale,
): MessageContent {
  if (rows.length === 0)
    return {
      text: mine
        ? t(locale, 'submit.noneOfYours', { usage: t(locale, 'submit.usage') })
        : t(locale, 'submit.none'),
    };
  const n = rows.filter((r) => r.status === 'pending').length;
  const cols = ['id', 'name', 'model', 'url', 'org', 'licence', 'status'] as const;
  return {
    text: t(locale, mine ? 'submit.pendingOfYours' : 'submit.pending', { n }),
    title: t(locale, mine ? 'submit.title.yours' : 'submit.title'),
    table: {
      columns: cols.map((c) => t(locale, `submit.col.${c}`)),
      rows: rows.map((r) => row(r, locale)),
    },
    ...(mine ? {} : { footer: t(locale, 'submit.footer') }),
  };
}

/** What the handler needs. */
export interface SubmitDeps {
  readonly submissions?: SubmissionService | undefined;
  readonly platforms: AppConfig['platforms'];
  /** Called after a decision, so the submitter is told at once (bot/submission-notices.ts). */
  readonly onDecided?: (() => void) | undefined;
  /** The configured language (config `locale`; default en): a decision, which the channel sees, is in it. */
  readonly locale?: Locale;
}

/**
 * Handles `/submit` (see the module comment). Answers only the caller, in their language when the platform says
 * it (`ctx.locale`), unless a maintainer decides.
 */
export async function handleSubmit(deps: SubmitDeps, ctx: CommandContext): Promise<void> {
  const only = { ephemeral: true };
  const svc = deps.submissions;
  const me = ctx.locale ?? deps.locale ?? 'en';
  const usage = t(me, 'submit.usage');
  if (!svc) return ctx.reply({ text: t(me, 'submit.unavailable') }, only);
  const a = submitArgs(ctx);
  const action = (a.values.action ?? a.words[0] ?? '').toLowerCase();
  const maintainer = isMaintainer(ctx.user, ctx.platform, deps.platforms);
  if (action === 'list') {
    const rows = maintainer
      ? await svc.list({ limit: 25 })
      : await svc.list({ submitter: { platform: ctx.platform, userId: ctx.user.id }, limit: 25 });
    return ctx.reply(listContent(rows, !maintainer, me), only);
  }
  if (action === 'approve' || action === 'reject') {
    if (!maintainer) return ctx.reply({ text: t(me, `submit.maintainersOnly.${action}`) }, only);
    return decide(svc, ctx, a, action, { ...deps, me });
  }
  if (action !== '' || Object.keys(a.values).length === 0)
    return ctx.reply(
      {
        text: action === '' ? usage : t(me, 'submit.badAction', { action, usage }),
      },
      only,
    );
  const input: SubmissionInput = {
    name: a.values.name ?? '',
    baseUrl: a.values.url ?? '',
    model: a.values.model ?? '',
    description: a.values.description ?? '',
    organisation: a.values.org ?? '',
    licence: a.values.licence ?? '',
  };
  const r = await svc.submit(input, {
    platform: ctx.platform,
    userId: ctx.user.id,
    channelId: ctx.channelId,
  });
  if (!r.ok) {
    const reason = submissionProblemText(r.problem, me);
    return ctx.reply({ text: t(me, 'submit.invalid', { reason, usage }) }, only);
  }
  const name = markdownLiteral(r.row.name);
  await ctx.reply(
    { text: t(me, 'submit.received', { id: r.row.id, name, model: markdownLiteral(r.row.model) }) },
    only,
  );
}

/** `/submit approve <id> …` and `/submit reject <id> <reason>` (the caller is a maintainer). */
async function decide(
  svc: SubmissionService,
  ctx: CommandContext,
  a: SubmitArgs,
  action: 'approve' | 'reject',
  o: {
    readonly onDecided?: (() => void) | undefined;
    readonly locale?: Locale;
    readonly me: Locale;
  },
): Promise<void> {
  const { onDecided, me } = o;
  const locale = o.locale ?? 'en';
  const id = parseRecordId(a.values.id ?? a.words[1] ?? '');
  const unknown = unknownRecordNumber(a.values.id ?? a.words[1] ?? '');
  if (unknown !== undefined)
    return ctx.reply({ text: t(me, 'submit.noSubmission', { n: unknown }) }, { ephemeral: true });
  if (id === undefined)
    return ctx.reply({ text: t(me, `submit.usage.${action}`) }, { ephemeral: true });
  const by = `${ctx.platform}:${ctx.user.id}`;
  if (action === 'reject') {
    const reason = a.values.reason ?? a.words.slice(2).join(' ');
    const r = await svc.reject(id, { by, reason });
    if (!r.ok)
      return ctx.reply({ text: submissionProblemText(r.problem, me) }, { ephemeral: true });
    onDecided?.();
    return ctx.reply({
      text: t(locale, 'submit.rejected', {
        id,
        name: markdownLiteral(r.row.name),
        reason: markdownLiteral(r.row.reason ?? ''),
      }),
    });
  }
  const suites = a.values.suites?.split(/[\s,]+/u).filter(Boolean);
  const r = await svc.approve(id, { by, apiKeyEnv: a.values.api_key_env, suites });
  if (!r.ok) return ctx.reply({ text: submissionProblemText(r.problem, me) }, { ephemeral: true });
  onDecided?.();
  const runs = r.runs
    .map((x) => t(locale, 'submit.runOn', { run: x.run, suite: x.suite }))
    .join(t(locale, 'board.list.sep'));
  const refused = r.refused
    .map((x) => {
      const reason = evalRefusalsText(x.refusals, locale, 'chat');
      // No suite to queue on: the reason names submissions.suites itself (the service's `suite` is its English list).
      return x.refusals[0]?.code === 'no_submission_suites'
        ? reason
        : t(locale, 'submit.refusedSuite', { suite: x.suite, reason });
    })
    .join('\n');
  await ctx.reply({
    text: t(locale, 'submit.approved', {
      id,
      name: markdownLiteral(r.row.name),
      runs: runs ? t(locale, 'submit.runs', { runs }) : t(locale, 'submit.noRuns'),
      refused: refused ? t(locale, 'submit.refused', { refused }) : '',
    }),
  });
}
