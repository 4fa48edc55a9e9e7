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
import type { SubmissionInput, SubmissionService } from '../../eval/submissions.ts';
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

/** The usage line of `/submit`. */
export const SUBMIT_USAGE =
  'Usage: /submit name:<name> url:<OpenAI-compatible base URL> model:<model id> description:<text> org:<organisation> licence:<licence>. ' +
  'Never put an API key in chat: the maintainers set it in their environment. ' +
  '/submit list shows your submissions; maintainers: /submit approve <id> [api_key_env:<VAR>] [suites:<a,b>], /submit reject <id> <reason>.';

/** One submission as a table row. */
function row(s: SubmissionRow): string[] {
  return [
    `#${s.id}`,
    s.name,
    s.model,
    s.base_url,
    s.organisation,
    s.licence,
    s.status === 'rejected' && s.reason ? `rejected: ${s.reason}` : s.status,
  ];
}

/** The answer to `/submit list`. */
function listContent(rows: readonly SubmissionRow[], mine: boolean): MessageContent {
  if (rows.length === 0)
    return {
      text: mine ? `You have no submissions. ${SUBMIT_USAGE}` : 'No submissions yet.',
    };
  const pending = rows.filter((r) => r.status === 'pending').length;
  return {
    text: `${pending} pending ${pending === 1 ? 'submission' : 'submissions'}${mine ? ' of yours' : ''}`,
    title: mine ? 'Your submissions' : 'Submissions',
    table: {
      columns: ['id', 'name', 'model', 'base URL', 'organisation', 'licence', 'status'],
      rows: rows.map(row),
    },
    ...(mine
      ? {}
      : {
          footer:
            'Approve with /submit approve <id> [api_key_env:<VAR>]; reject with /submit reject <id> <reason>.',
        }),
  };
}

/** What the handler needs. */
export interface SubmitDeps {
  readonly submissions?: SubmissionService | undefined;
  readonly platforms: AppConfig['platforms'];
  /** Called after a decision, so the submitter is told at once (bot/submission-notices.ts). */
  readonly onDecided?: (() => void) | undefined;
}

/** Handles `/submit` (see the module comment). Answers only the caller unless a maintainer decides. */
export async function handleSubmit(deps: SubmitDeps, ctx: CommandContext): Promise<void> {
  const only = { ephemeral: true };
  const svc = deps.submissions;
  if (!svc) return ctx.reply({ text: 'Submissions are not available in this process.' }, only);
  const a = submitArgs(ctx);
  const action = (a.values.action ?? a.words[0] ?? '').toLowerCase();
  const maintainer = isMaintainer(ctx.user, ctx.platform, deps.platforms);
  if (action === 'list') {
    const rows = maintainer
      ? await svc.list({ limit: 25 })
      : await svc.list({ submitter: { platform: ctx.platform, userId: ctx.user.id }, limit: 25 });
    return ctx.reply(listContent(rows, !maintainer), only);
  }
  if (action === 'approve' || action === 'reject') {
    if (!maintainer)
      return ctx.reply({ text: `Sorry, only maintainers can ${action} submissions.` }, only);
    return decide(svc, ctx, a, action, deps.onDecided);
  }
  if (action !== '' || Object.keys(a.values).length === 0)
    return ctx.reply(
      {
        text: action === '' ? SUBMIT_USAGE : `Unknown /submit action "${action}". ${SUBMIT_USAGE}`,
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
  if (!r.ok) return ctx.reply({ text: `${r.reason} ${SUBMIT_USAGE}` }, only);
  await ctx.reply(
    {
      text:
        `Submission #${r.row.id} received: ${markdownLiteral(r.row.name)} (${markdownLiteral(r.row.model)}). ` +
        'It waits for a maintainer; you will be told here when it is approved or rejected.',
    },
    only,
  );
}

/** `/submit approve <id> …` and `/submit reject <id> <reason>` (the caller is a maintainer). */
async function decide(
  svc: SubmissionService,
  ctx: CommandContext,
  a: SubmitArgs,
  action: 'approve' | 'reject',
  onDecided: (() => void) | undefined,
): Promise<void> {
  const id = parseRecordId(a.values.id ?? a.words[1] ?? '');
  const unknown = unknownRecordNumber(a.values.id ?? a.words[1] ?? '');
  if (unknown !== undefined)
    return ctx.reply(
      { text: `There is no submission #${unknown}; see /submit list.` },
      { ephemeral: true },
    );
  if (id === undefined)
    return ctx.reply(
      {
        text: `Usage: /submit ${action} <id>${action === 'reject' ? ' <reason>' : ' [api_key_env:<VAR>] [suites:<a,b>]'} (see /submit list).`,
      },
      { ephemeral: true },
    );
  const by = `${ctx.platform}:${ctx.user.id}`;
  if (action === 'reject') {
    const reason = a.values.reason ?? a.words.slice(2).join(' ');
    const r = await svc.reject(id, { by, reason });
    if (!r.ok) return ctx.reply({ text: r.reason }, { ephemeral: true });
    onDecided?.();
    return ctx.reply({
      text: `Submission #${id} (${markdownLiteral(r.row.name)}) rejected: ${markdownLiteral(r.row.reason ?? '')}. The submitter is told.`,
    });
  }
  const suites = a.values.suites?.split(/[\s,]+/u).filter(Boolean);
  const r = await svc.approve(id, { by, apiKeyEnv: a.values.api_key_env, suites });
  if (!r.ok) return ctx.reply({ text: r.reason }, { ephemeral: true });
  onDecided?.();
  const runs = r.runs.map((x) => `#${x.run} (${x.suite})`).join(', ');
  const refused = r.refused.map((x) => `${x.suite}: ${x.reason}`).join(' ');
  await ctx.reply({
    text:
      `Submission #${id} approved: ${markdownLiteral(r.row.name)} is a model now. ` +
      (runs ? `Evaluation runs queued: ${runs}. ` : 'No evaluation run was queued. ') +
      (refused ? `Not queued: ${refused} ` : '') +
      'The submitter is told.',
  });
}
