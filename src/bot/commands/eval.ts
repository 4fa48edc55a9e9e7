/**
 * @module bot/commands/eval
 * `/eval model:<name> suite:<name> [limit:<n>]` (maintainers): validates the names (listing the valid ones),
 * creates and queues the run and answers at once; the bot's {@link EvalReporter} then posts and edits the progress
 * message and the summary. `/eval status` lists active and recent runs; `/eval cancel <run>` cancels one.
 * Arguments come as Discord options, or as words on Slack and the terminal: `model:x`, `model=x` or positional
 * (`/eval qwen smoke`); a keyed value runs to the next key and quotes group words (`model:"GPT 3.5 Turbo"`).
 */
import { type CommandContext, type MessageContent, markdownLiteral } from '../../chat/port.ts';
import { typedWords } from '../../chat/typed-words.ts';
import { parseRecordId, parseWholeNumber, unknownRecordNumber } from '../../core/numbers.ts';
import { cancelledText, evalRefusalsText, evalRefusalText } from '../../eval/refusal.ts';
import type { EvalService } from '../../eval/service.ts';
import { listText } from '../../i18n/cli.ts';
import { type Locale, runStatusText, t } from '../../i18n/index.ts';

/** The refusal non-maintainers get for `/eval` (English; `eval.refusal` in the caller's language). */
export const EVAL_REFUSAL = t('en', 'eval.refusal');

const KEYS = ['model', 'suite', 'limit', 'action', 'run'] as const;
type Key = (typeof KEYS)[number];

/**
 * Parses the arguments of `/eval` from Discord options or from typed words: `key:value` / `key=value` (a value
 * runs to the next key; quotes group words), else positional `model suite`, `status`, `cancel <run>`.
 */
export function parseEvalArgs(ctx: CommandContext): Partial<Record<Key, string>> {
  const out: Partial<Record<Key, string>> = {};
  for (const k of KEYS) {
    const v = ctx.args[k]?.trim();
    if (v) out[k] = v;
  }
  const text = ctx.text.trim();
  if (text === '') return out;
  // Typed words (Slack, terminal): they win over the adapter's positional guess. Quotes group words, and a keyed
  // value runs to the next key (as /submit reads it), so a model name with spaces can be typed either way:
  // `model:"GPT 3.5 Turbo" suite:smoke` or `model:GPT 3.5 Turbo suite:smoke`.
  const words = typedWords(text);
  const positional: string[] = [];
  const typed: Partial<Record<Key, string>> = {};
  let last: Key | undefined;
  for (const w of words) {
    const m = /^([a-z]+)[:=](.*)$/su.exec(w);
    if (m && (KEYS as readonly string[]).includes(m[1] as string)) {
      last = m[1] as Key;
      typed[last] = m[2];
    } else if (last !== undefined) typed[last] = `${typed[last]} ${w}`.trim();
    else positional.push(w);
  }
  const first = positional[0]?.toLowerCase();
  if (first === 'status' || first === 'cancel') {
    typed.action = first;
    positional.shift();
    if (first === 'cancel' && positional[0] && typed.run === undefined)
      typed.run = positional.shift();
  }
  for (const k of ['model', 'suite'] as const) {
    if (typed[k] === undefined && positional.length > 0) typed[k] = positional.shift();
  }
  return typed;
}

/** `/eval status` as a message, in `locale`: active and recent runs. */
function statusContent(
  runs: Awaited<ReturnType<EvalService['status']>>,
  locale: Locale,
): MessageContent {
  if (runs.length === 0) return { text: t(locale, 'eval.noRuns') };
  const active = runs.filter((r) => r.status === 'queued' || r.status === 'running').length;
  return {
    text: t(locale, 'eval.active', { n: active }),
    title: t(locale, 'eval.title'),
    table: {
      columns: (['run', 'model', 'suite', 'status', 'done', 'failures'] as const).map((c) =>
        t(locale, `eval.col.${c}`),
      ),
      align: ['right', 'left', 'left', 'left', 'right', 'right'],
      rows: runs.map((r) => [
        `#${r.id}`,
        r.model,
        r.suite,
        runStatusText(r.status, locale),
        `${r.done}/${r.total || '?'}`,
        String(r.failed),
      ]),
    },
  };
}

/**
 * Handles `/eval` for a maintainer (the caller checked the role). What the channel sees is in `locale` (config
 * `locale`, default en), what only the caller sees in theirs (`ctx.locale`) when the platform says it.
 */
export async function handleEval(
  evals: EvalService | undefined,
  ctx: CommandContext,
  onStarted?: () => void,
  locale: Locale = 'en',
): Promise<void> {
  const me = ctx.locale ?? locale;
  if (!evals) return ctx.reply({ text: t(me, 'eval.unavailable') }, { ephemeral: true });
  const a = parseEvalArgs(ctx);
  if (a.action === 'status') return ctx.reply(statusContent(await evals.status(), locale));
  if (a.action === 'cancel') {
    const id = parseRecordId(a.run ?? '');
    const unknown = unknownRecordNumber(a.run ?? '');
    if (unknown !== undefined)
      return ctx.reply({ text: t(me, 'eval.noRun', { n: unknown }) }, { ephemeral: true });
    if (id === undefined)
      return ctx.reply({ text: t(me, 'eval.cancelUsage') }, { ephemeral: true });
    const r = await evals.cancel(id);
    // A cancel is announced to the channel; a refusal is told to the caller only.
    return r.ok
      ? ctx.reply({ text: cancelledText(r.run, locale) })
      : ctx.reply({ text: evalRefusalText(r.refusal, me, 'chat') }, { ephemeral: true });
  }
  if (!a.model || !a.suite) {
    const suites = evals.suiteNames();
    const models = await evals.modelNames();
    return ctx.reply(
      {
        text: t(me, 'eval.usage', {
          models: listText(me, models.map(markdownLiteral)) || t(me, 'eval.noModels'),
          suites: listText(me, suites) || t(me, 'eval.noSuites'),
        }),
      },
      { ephemeral: true },
    );
  }
  let limit: number | undefined;
  if (a.limit !== undefined) {
    limit = parseWholeNumber(a.limit, 1);
    if (limit === undefined)
      return ctx.reply({ text: t(me, 'eval.badLimit', { limit: a.limit }) }, { ephemeral: true });
  }
  const started = await evals.start({
    model: a.model,
    suite: a.suite,
    limit,
    requestedBy: `${ctx.platform}:${ctx.user.id}`,
    report: { platform: ctx.platform, channelId: ctx.channelId },
  });
  if (!started.ok)
    return ctx.reply({ text: evalRefusalsText(started.refusals, me, 'chat') }, { ephemeral: true });
  if (started.resumed) {
    const r = started.run;
    await ctx.reply({
      text: t(locale, 'eval.resumed', {
        id: r.id,
        model: markdownLiteral(r.model),
        suite: r.suite,
        done: r.done,
        total: r.total,
      }),
    });
    onStarted?.();
    return;
  }
  await ctx.reply({
    text: t(locale, 'eval.queued', {
      id: started.run.id,
      model: markdownLiteral(a.model),
      suite: a.suite,
      limit: limit ? t(locale, 'eval.limit', { n: limit }) : '',
    }),
  });
  onStarted?.();
}
