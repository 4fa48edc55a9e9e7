/**
 * @module http/results-page
 * The maintainers' item-level results on the HTTP server (read-only, GET only):
 * - `/runs`: the evaluation runs, newest first, 50 a page (`?before=ID`, keyset);
 * - `/runs/:id/items?dataset=&ability=&score=&failed=&page=`: one run's finished items, 100 a page, filtered by
 *   dataset, ability (its id; a display name, `知识`, is redirected to it), score (`correct`, `wrong`, or a
 *   fraction range such as `0.5-1`) and failure (`failed=1`: only failed items, `failed=0`: only scored ones); the
 *   next page is a keyset page (`after=` the last item id), a page number alone is an offset on the same index;
 * - `/runs/:id/items.csv` and `/runs/:id/items.jsonl`: the same filtered items as a download, streamed a page at a
 *   time (eval/item-results.ts, as `zhujiu results` writes them).
 *
 * Pages are in the configured locale or the one of `?lang=en|zh-CN` (links and the filter form keep it), with
 * every sentence from the message catalogue (i18n/). They are plain server-rendered HTML with inline CSS and no script, streamed as they are built; every stored
 * text (prompts and answers hold HTML) is escaped. Responses are never cached and carry the server's security
 * headers (http/server.ts `SECURITY_HEADERS`: `same-origin` resource and referrer policy, never framed); no
 * cross-origin header is sent. The server has no login: these pages show prompts and answers to whoever reaches
 * the port, so it listens on 127.0.0.1 by default and a public deployment puts it
 * behind the operator's proxy (README "Item-level results", docs/architecture.md "Exposure").
 */
import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { BOARD_ABILITIES, type BoardAbility } from '../aggregate/index.ts';
import { AppError, isAppError } from '../core/errors.ts';
import { failureCauseText } from '../eval/failure-cause.ts';
import {
  checkRunFilter,
  extractedAnswer,
  judgeRationale,
  parseScoreFilter,
  type ResultFormat,
  runResultChunks,
} from '../eval/item-results.ts';
import { sayCli } from '../i18n/cli.ts';
import { idOfName } from '../i18n/display-names.ts';
import { html, type Locale, type MessageKey, type Params, t, th } from '../i18n/index.ts';
import { esc, FONT_FACE, withLang } from '../leaderboard/page.ts';
import { abilityName } from '../leaderboard/views.ts';
import { getRun, type RunRow } from '../storage/eval-runs.ts';
import {
  listRunsPage,
  type RunItemFilter,
  type RunItemRow,
  runAbilities,
  runDatasetNames,
  runItemsPage,
} from '../storage/run-results.ts';
import type { Database } from '../storage/schema.ts';

/** What the results pages need from the app. */
export interface ResultsDeps {
  readonly db: Kysely<Database>;
}

/** Items per page of the item view. */
export const ITEMS_PER_PAGE = 100;
/** Runs per page of the run list. */
export const RUNS_PER_PAGE = 50;
/** Characters of a prompt or answer shown before the rest is folded away. */
const SHOWN_CHARS = 300;

const CSS = `${FONT_FACE}body{font-family:"Noto Sans SC",system-ui,sans-serif;margin:1rem;color:#222;max-width:100rem}
h1{font-size:1.4rem}.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top;text-align:left}
th{background:#f3f5f8}td.n{text-align:right;white-space:nowrap}.muted{color:#666;font-size:.9rem}
td.text{min-width:14rem;max-width:30rem}.text div,.text pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font:inherit}
details summary{cursor:pointer;overflow-wrap:anywhere}details summary::marker{color:#1d4ed8}td.x{max-width:12rem;overflow-wrap:anywhere}.failed{color:#b91c1c}.ok{color:#15803d}.part{color:#b45309}
form{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:.8rem 0}form label{display:flex;flex-direction:column;font-size:.9rem}
input,select,button{font:inherit;max-width:100%}nav a,.pager a{margin-right:1rem}.pager{margin:.8rem 0}
@media (max-width:700px){#items thead{display:none}#items,#items tbody,#items tr,#items td{display:block}#items tr{border-bottom:2px solid #bbb;padding:.4rem 0}
#items td{border:none;min-width:0;max-width:none;text-align:left;padding:.15rem 0}#items td:empty{display:none}
#items td[data-label]::before{content:attr(data-label);display:block;font-size:.8rem;font-weight:600;color:#555}}`;

/**
 * The results' own cache rule: never stored (they show prompts and answers). Their security headers are the
 * server's, on every response (http/server.ts `SECURITY_HEADERS`).
 */
function guard(c: Context): void {
  c.header('cache-control', 'no-store');
}

/** One request's language: its messages, and hrefs that keep a `?lang=` the page was asked with. */
interface Ctx {
  readonly locale: Locale;
  t(key: MessageKey, params?: Params): string;
  th(key: MessageKey, params?: Params): string;
  /** `path` for an href, escaped, with `lang=` when the request had one. */
  href(path: string): string;
  /** The hidden `lang` field of a GET form ('' when the request had none). */
  readonly langField: string;
}

function ctxOf(c: Context, fallback: Locale): Ctx {
  const q = c.req.query('lang');
  const asked = q === 'en' || q === 'zh-CN' ? q : undefined;
  const locale = asked ?? fallback;
  return {
    locale,
    t: (k, p) => t(locale, k, p),
    th: (k, p) => th(locale, k, p),
    href: (path) => esc(asked ? withLang(path, asked) : path),
    langField: asked ? `<input type="hidden" name="lang" value="${asked}">` : '',
  };
}

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** A run status in the page's language (an unknown one as it is). */
function statusText(x: Ctx, status: string): string {
  return (STATUSES as readonly string[]).includes(status)
    ? x.t(`runs.status.${status as (typeof STATUSES)[number]}`)
    : status;
}

/** An ability's name in the page's language (one not on the board as it is). */
function abilityLabel(x: Ctx, ability: string): string {
  return (BOARD_ABILITIES as readonly string[]).includes(ability)
    ? abilityName(ability as BoardAbility, x.locale)
    : ability;
}

function head(x: Ctx, title: string, path: string): string {
  const other: Locale = x.locale === 'en' ? 'zh-CN' : 'en';
  return `<!doctype html><html lang="${x.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>${esc(title)}</title><style>${CSS}</style></head><body><nav><a href="${x.href('/board')}">${x.th('site.title')}</a><a href="${x.href('/runs')}">${x.th('site.nav.runs')}</a><a id="lang" lang="${other}" hreflang="${other}" href="${esc(withLang(path, other))}">${x.th('site.lang.switch')}</a></nav><h1>${esc(title)}</h1>`;
}

/**
 * A 400/404 answer in plain text, in the page's language: an error that carries its message as catalogue data (the
 * filters shared with `zhujiu results`, eval/item-results.ts) is said in it, any other is its message.
 */
function refuse(c: Context, x: Ctx, err: unknown): Response {
  if (!isAppError(err)) throw err;
  guard(c);
  return c.text(
    err.said ? sayCli(x.locale, err.said) : err.message,
    err.code === 'not_found' ? 404 : 400,
  );
}

/** A whole number ≥ `min` from a query parameter, undefined when absent. */
function intParam(c: Context, x: Ctx, name: string, min: number): number | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === '') return undefined;
  if (!/^\d{1,15}$/.test(v) || Number(v) < min)
    throw new AppError('input_invalid', x.t('runs.badNumber', { name, value: v, min }));
  return Number(v);
}

/** The run of `:id`, or a `not_found` naming it and the run list. */
async function runOf(c: Context, x: Ctx, db: Kysely<Database>): Promise<RunRow> {
  const raw = c.req.param('id') ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  const run = Number.isSafeInteger(id) ? await getRun(db, id) : undefined;
  if (!run) throw new AppError('not_found', x.t('runs.noRun', { id: raw }));
  return run;
}

/** The filter of the query string (`dataset`, `ability`, `score`, `failed`), checked against the run. */
async function filterOf(
  c: Context,
  x: Ctx,
  db: Kysely<Database>,
  runId: number,
): Promise<RunItemFilter> {
  const q = (k: string) => {
    const v = c.req.query(k);
    return v === undefined || v === '' ? undefined : v;
  };
  const failed = q('failed');
  if (failed !== undefined && failed !== '1' && failed !== '0')
    throw new AppError('input_invalid', x.t('runs.badFailed', { value: failed }));
  const score = q('score');
  const f: RunItemFilter = {
    ...(q('dataset') !== undefined ? { dataset: q('dataset') } : {}),
    ...(q('ability') !== undefined ? { ability: q('ability') } : {}),
    ...(failed !== undefined ? { failed: failed === '1' } : {}),
    ...(score !== undefined ? { score: parseScoreFilter('score', score) } : {}),
  };
  await checkRunFilter(db, runId, f, { dataset: 'dataset', ability: 'ability' });
  return f;
}

/**
 * The 308 redirect to the same page with `?ability=` as its id when the request names the ability by a display name
 * (`知识`, `Knowledge`), as `zhujiu results --ability` reads it (i18n/display-names.ts `idOfName`): one address per
 * page. Undefined when the parameter is absent, already an id, or no ability's name (the filter refuses it then).
 */
function abilityRedirect(c: Context): Response | undefined {
  const typed = c.req.query('ability');
  const id = typed ? idOfName(typed, BOARD_ABILITIES, 'ability') : undefined;
  if (id === undefined || id === typed) return undefined;
  const url = new URL(c.req.url);
  url.searchParams.set('ability', id);
  return c.redirect(`${url.pathname}${url.search}`, 308);
}

/** The query string of a filter plus `extra` (empty values left out), with a leading `?` when not empty. */
function query(c: Context, extra: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const k of ['dataset', 'ability', 'score', 'failed', 'lang']) {
    const v = c.req.query(k);
    if (v) p.set(k, v);
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** A ReadableStream of HTML pieces produced one after another by `parts` (pulled as the client reads). */
function htmlStream(c: Context, parts: AsyncIterable<string>): Response {
  const it = parts[Symbol.asyncIterator]();
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(ctl) {
      const r = await it.next();
      if (r.done) ctl.close();
      else ctl.enqueue(enc.encode(r.value));
    },
    async cancel() {
      await it.return?.();
    },
  });
  return c.body(body, 200, { 'content-type': 'text/html; charset=utf-8' });
}

/** Long text: the start, and the whole under a fold when longer than {@link SHOWN_CHARS}. */
function longText(s: string | null): string {
  if (s === null || s === '') return '<span class="muted">—</span>';
  if (s.length <= SHOWN_CHARS) return `<div>${esc(s)}</div>`;
  return `<details><summary><span>${esc(s.slice(0, SHOWN_CHARS))}…</span></summary><div>${esc(s)}</div></details>`;
}

function scoreCell(r: RunItemRow, x: Ctx): string {
  const label = x.th('runs.col.score');
  if (r.status === 'failed')
    return `<td class="n failed" data-label="${label}">${x.th('runs.item.failed')}</td>`;
  if (r.rawScore === null || r.maxScore === null)
    return `<td class="n" data-label="${label}">—</td>`;
  const cls = r.rawScore >= r.maxScore ? 'ok' : r.rawScore > 0 ? 'part' : 'failed';
  return `<td class="n ${cls}" data-label="${label}">${r.rawScore}/${r.maxScore}</td>`;
}

function valueText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A cell labelled for the narrow layout (the label shows above its content there); empty content, no label. */
function cellOf(cls: string, label: string, html: string): string {
  return html === ''
    ? `<td class="${cls}"></td>`
    : `<td class="${cls}" data-label="${label}">${html}</td>`;
}

/** A stored failure cause in the page's language (eval/failure-cause.ts: a known wording said again), or null. */
function failureText(message: string | null, locale: Locale): string | null {
  return message === null ? null : failureCauseText(message, locale);
}

function itemRow(r: RunItemRow, x: Ctx): string {
  const j = r.judge;
  const judge = j
    ? `<div>${esc(j.name)}: ${j.status === 'judged' ? `${j.rawScore ?? '—'}/${j.maxScore ?? '—'}` : x.th('runs.item.failed')}${j.safetyViolation === true ? ` · <span class="failed">${x.th('runs.item.safetyViolation')}</span>` : j.safetyViolation === false ? ` · ${x.th('runs.item.safe')}` : ''}</div>${longText(judgeRationale(j.output))}`
    : '';
  const failure =
    r.failureCode !== null || j?.failureCode
      ? `<div class="failed">${esc(r.failureCode ?? j?.failureCode ?? '')}</div>${longText(failureText(r.failureMessage ?? j?.failureMessage ?? null, x.locale))}`
      : '';
  const answer = `${longText(r.answer)}${r.reasoning ? `<details><summary>${x.th('runs.item.reasoning')}</summary><div>${esc(r.reasoning)}</div></details>` : ''}`;
  return `<tr data-item="${r.itemId}" data-status="${r.status}"><td>${esc(r.itemKey)}<div class="muted">${esc(r.dataset)} · ${esc(abilityLabel(x, r.ability))}</div></td>${scoreCell(r, x)}${cellOf('x', x.th('runs.col.extracted'), esc(valueText(extractedAnswer(r.detail))))}${cellOf('text', x.th('runs.col.prompt'), longText(r.prompt))}${cellOf('text', x.th('runs.col.answer'), answer)}${cellOf('text', x.th('runs.col.judge'), judge)}${cellOf('text', x.th('runs.col.failure'), failure)}</tr>`;
}

function select(
  name: string,
  label: string,
  options: readonly [string, string][],
  current: string | undefined,
): string {
  return `<label>${esc(label)}<select name="${name}">${options.map(([v, t]) => `<option value="${esc(v)}"${(current ?? '') === v ? ' selected' : ''}>${esc(t)}</option>`).join('')}</select></label>`;
}

async function itemsView(c: Context, db: Kysely<Database>, locale: Locale): Promise<Response> {
  const canonical = abilityRedirect(c);
  if (canonical) return canonical;
  const x = ctxOf(c, locale);
  let run: RunRow;
  let filter: RunItemFilter;
  let after: number | undefined;
  let page: number;
  try {
    run = await runOf(c, x, db);
    filter = await filterOf(c, x, db, run.id);
    after = intParam(c, x, 'after', 0);
    page = intParam(c, x, 'page', 1) ?? 1;
  } catch (err) {
    return refuse(c, x, err);
  }
  const [datasets, abilities] = await Promise.all([
    runDatasetNames(db, run.id),
    runAbilities(db, run.id),
  ]);
  // Keyset when the previous page handed its last id; a typed page number alone is an offset on the same index.
  const rows = await runItemsPage(db, run.id, filter, {
    limit: ITEMS_PER_PAGE + 1,
    ...(after !== undefined ? { after } : { offset: (page - 1) * ITEMS_PER_PAGE }),
  });
  const more = rows.length > ITEMS_PER_PAGE;
  const shown = rows.slice(0, ITEMS_PER_PAGE);
  guard(c);
  const q = (k: string) => c.req.query(k);
  const all = x.t('runs.filter.all');
  const form = `<form method="get" action="/runs/${run.id}/items">${x.langField}${select('dataset', x.t('runs.filter.dataset'), [['', all], ...datasets.map((d): [string, string] => [d, d])], q('dataset'))}${select('ability', x.t('runs.filter.ability'), [['', all], ...abilities.map((a): [string, string] => [a, abilityLabel(x, a)])], q('ability'))}<label>${x.th('runs.filter.score')}<input name="score" size="9" placeholder="${x.th('runs.filter.scoreHint')}" value="${esc(q('score') ?? '')}"></label>${select(
    'failed',
    x.t('runs.filter.outcome'),
    [
      ['', all],
      ['1', x.t('runs.filter.failed')],
      ['0', x.t('runs.filter.scored')],
    ],
    q('failed'),
  )}<button type="submit">${x.th('runs.filter.submit')}</button></form>`;
  const last = shown[shown.length - 1];
  const base = `/runs/${run.id}/items`;
  const pager = `<p class="pager" id="pager">${page > 1 ? `<a id="prev" href="${base}${query(c, { page: page - 1 })}">${x.th('runs.page.prev', { n: page - 1 })}</a>` : ''}<span>${x.th('runs.page', { n: page })}</span>${more && last ? ` <a id="next" href="${base}${query(c, { after: last.itemId, page: page + 1 })}">${x.th('runs.page.next', { n: page + 1 })}</a>` : ''}</p>`;
  const dl = (format: string, id: string, label: string) =>
    html(`<a id="${id}" href="/runs/${run.id}/items.${format}${query(c, {})}">${label}</a>`);
  const downloads = `<p class="muted">${x.th('runs.download', { csv: dl('csv', 'csv', 'CSV'), jsonl: dl('jsonl', 'jsonl', x.th('runs.download.jsonl')), cmd: html('<code>zhujiu results</code>') })}</p>`;
  const cols = (
    ['item', 'score', 'extracted', 'prompt', 'answer', 'judge', 'failure'] as const
  ).map((k) => `<th>${x.th(`runs.col.${k}`)}</th>`);
  async function* parts(): AsyncGenerator<string> {
    yield `${head(x, x.t('runs.run.title', { id: run.id, model: run.model, suite: run.suite }), c.req.url.slice(new URL(c.req.url).origin.length))}<p class="muted" id="run">${x.th('runs.run.status', { status: statusText(x, run.status), done: run.done, failed: run.failed, total: run.total, at: run.createdAt.toISOString() })}</p>${form}${downloads}`;
    yield `<div class="scroll"><table id="items"><thead><tr>${cols.join('')}</tr></thead><tbody>`;
    for (let i = 0; i < shown.length; i += 20)
      yield shown
        .slice(i, i + 20)
        .map((r) => itemRow(r, x))
        .join('');
    yield `</tbody></table></div>${shown.length === 0 ? `<p id="none">${x.th('runs.noMatch')}</p>` : ''}${pager}</body></html>`;
  }
  return htmlStream(c, parts());
}

async function runsView(c: Context, db: Kysely<Database>, locale: Locale): Promise<Response> {
  const x = ctxOf(c, locale);
  let before: number | undefined;
  try {
    before = intParam(c, x, 'before', 1);
  } catch (err) {
    return refuse(c, x, err);
  }
  const runs = await listRunsPage(db, {
    limit: RUNS_PER_PAGE + 1,
    ...(before !== undefined ? { before } : {}),
  });
  const shown = runs.slice(0, RUNS_PER_PAGE);
  const last = shown[shown.length - 1];
  guard(c);
  const rows = shown
    .map(
      (r) =>
        `<tr data-run="${r.id}"><td class="n"><a href="${x.href(`/runs/${r.id}/items`)}">${r.id}</a></td><td>${esc(r.model)}</td><td>${esc(r.suite)}</td><td>${esc(statusText(x, r.status))}</td><td class="n">${r.done}</td><td class="n">${r.failed}</td><td class="n">${r.total}</td><td class="n">${esc(r.createdAt.toISOString().slice(0, 16).replace('T', ' '))}</td></tr>`,
    )
    .join('');
  const cols = (
    ['run', 'model', 'suite', 'status', 'finished', 'failed', 'planned', 'created'] as const
  )
    .map((k) => `<th>${x.th(`runs.col.${k}`)}</th>`)
    .join('');
  return c.html(
    `${head(x, x.t('runs.title'), before === undefined ? '/runs' : `/runs?before=${before}`)}<div class="scroll"><table id="runs"><thead><tr>${cols}</tr></thead><tbody>${rows}</tbody></table></div>${shown.length === 0 ? `<p id="none">${x.th('runs.none')}</p>` : ''}<p class="pager">${runs.length > RUNS_PER_PAGE && last ? `<a id="older" href="${x.href(`/runs?before=${last.id}`)}">${x.th('runs.older')}</a>` : ''}</p></body></html>`,
  );
}

async function download(
  c: Context,
  db: Kysely<Database>,
  format: ResultFormat,
  locale: Locale,
): Promise<Response> {
  const canonical = abilityRedirect(c);
  if (canonical) return canonical;
  const x = ctxOf(c, locale);
  let run: RunRow;
  let filter: RunItemFilter;
  try {
    run = await runOf(c, x, db);
    filter = await filterOf(c, x, db, run.id);
  } catch (err) {
    return refuse(c, x, err);
  }
  guard(c);
  const chunks = runResultChunks(
    db,
    { id: run.id, model: run.model, suite: run.suite },
    filter,
    format,
  );
  const res = htmlStream(c, chunks);
  res.headers.set(
    'content-type',
    format === 'csv'
      ? 'text/csv; charset=utf-8; header=present'
      : 'application/jsonl; charset=utf-8',
  );
  res.headers.set('content-disposition', `attachment; filename="run-${run.id}-items.${format}"`);
  return res;
}

/** Adds the results routes (see the module comment) to `app`, in `locale` unless a request asks `?lang=`. */
export function addResultsRoutes(app: Hono, deps: ResultsDeps, locale: Locale = 'en'): void {
  app.get('/runs', (c) => runsView(c, deps.db, locale));
  app.get('/runs/:id/items.csv', (c) => download(c, deps.db, 'csv', locale));
  app.get('/runs/:id/items.jsonl', (c) => download(c, deps.db, 'jsonl', locale));
  app.get('/runs/:id/items', (c) => itemsView(c, deps.db, locale));
}
