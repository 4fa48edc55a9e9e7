/**
 * @module http/results-page
 * The maintainers' item-level results on the HTTP server (read-only, GET only):
 * - `/runs`: the evaluation runs, newest first, 50 a page (`?before=ID`, keyset);
 * - `/runs/:id/items?dataset=&ability=&score=&failed=&page=`: one run's finished items, 100 a page, filtered by
 *   dataset, ability, score (`correct`, `wrong`, or a fraction range such as `0.5-1`) and failure (`failed=1`: only
 *   failed items, `failed=0`: only scored ones); the next page is a keyset page (`after=` the last item id), a page
 *   number alone is an offset on the same index;
 * - `/runs/:id/items.csv` and `/runs/:id/items.jsonl`: the same filtered items as a download, streamed a page at a
 *   time (eval/item-results.ts, as `zhujiu results` writes them).
 *
 * Pages are plain server-rendered HTML with inline CSS and no script, streamed as they are built; every stored
 * text (prompts and answers hold HTML) is escaped. Responses say `same-origin` for resource and referrer policy
 * and may not be framed; no cross-origin header is sent. The server has no login: these pages show prompts and
 * answers to whoever reaches the port, so it listens on 127.0.0.1 by default and a public deployment puts it
 * behind the operator's proxy (README "Item-level results", docs/architecture.md "Exposure").
 */
import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { AppError, isAppError } from '../core/errors.ts';
import {
  checkRunFilter,
  extractedAnswer,
  judgeRationale,
  parseScoreFilter,
  type ResultFormat,
  runResultChunks,
} from '../eval/item-results.ts';
import { esc } from '../leaderboard/page.ts';
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

const CSS = `body{font-family:system-ui,"Noto Sans SC",sans-serif;margin:1rem;color:#222;max-width:100rem}
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

/** Security headers of every results response: same-origin, never framed, never sniffed. */
function guard(c: Context): void {
  c.header('cross-origin-resource-policy', 'same-origin');
  c.header('referrer-policy', 'same-origin');
  c.header('x-frame-options', 'DENY');
  c.header('x-content-type-options', 'nosniff');
  c.header(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'",
  );
  c.header('cache-control', 'no-store');
}

function head(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>${esc(title)}</title><style>${CSS}</style></head><body><nav><a href="/board">Board</a><a href="/runs">Runs</a></nav><h1>${esc(title)}</h1>`;
}

/** A 400/404 answer in plain text. */
function refuse(c: Context, err: unknown): Response {
  if (isAppError(err)) return c.text(err.message, err.code === 'not_found' ? 404 : 400);
  throw err;
}

/** A whole number ≥ `min` from a query parameter, undefined when absent. */
function intParam(c: Context, name: string, min: number): number | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === '') return undefined;
  if (!/^\d{1,15}$/.test(v) || Number(v) < min)
    throw new AppError('input_invalid', `${name}=${v}: give a whole number ≥ ${min}`);
  return Number(v);
}

/** The run of `:id`, or a `not_found` naming it and the run list. */
async function runOf(c: Context, db: Kysely<Database>): Promise<RunRow> {
  const raw = c.req.param('id') ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  const run = Number.isSafeInteger(id) ? await getRun(db, id) : undefined;
  if (!run) throw new AppError('not_found', `no evaluation run "${raw}"; /runs lists the runs`);
  return run;
}

/** The filter of the query string (`dataset`, `ability`, `score`, `failed`), checked against the run. */
async function filterOf(c: Context, db: Kysely<Database>, runId: number): Promise<RunItemFilter> {
  const q = (k: string) => {
    const v = c.req.query(k);
    return v === undefined || v === '' ? undefined : v;
  };
  const failed = q('failed');
  if (failed !== undefined && failed !== '1' && failed !== '0')
    throw new AppError(
      'input_invalid',
      `failed=${failed}: use failed=1 (only failed items) or failed=0 (only scored ones)`,
    );
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

/** The query string of a filter plus `extra` (empty values left out), with a leading `?` when not empty. */
function query(c: Context, extra: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const k of ['dataset', 'ability', 'score', 'failed']) {
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

function scoreCell(r: RunItemRow): string {
  if (r.status === 'failed') return '<td class="n failed" data-label="score">failed</td>';
  if (r.rawScore === null || r.maxScore === null) return '<td class="n" data-label="score">—</td>';
  const cls = r.rawScore >= r.maxScore ? 'ok' : r.rawScore > 0 ? 'part' : 'failed';
  return `<td class="n ${cls}" data-label="score">${r.rawScore}/${r.maxScore}</td>`;
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

function itemRow(r: RunItemRow): string {
  const j = r.judge;
  const judge = j
    ? `<div>${esc(j.name)}: ${j.status === 'judged' ? `${j.rawScore ?? '—'}/${j.maxScore ?? '—'}` : 'failed'}${j.safetyViolation === true ? ' · <span class="failed">safety violation</span>' : j.safetyViolation === false ? ' · safe' : ''}</div>${longText(judgeRationale(j.output))}`
    : '';
  const failure =
    r.failureCode !== null || j?.failureCode
      ? `<div class="failed">${esc(r.failureCode ?? j?.failureCode ?? '')}</div>${longText(r.failureMessage ?? j?.failureMessage ?? null)}`
      : '';
  const answer = `${longText(r.answer)}${r.reasoning ? `<details><summary>reasoning</summary><div>${esc(r.reasoning)}</div></details>` : ''}`;
  return `<tr data-item="${r.itemId}" data-status="${r.status}"><td>${esc(r.itemKey)}<div class="muted">${esc(r.dataset)} · ${esc(r.ability)}</div></td>${scoreCell(r)}${cellOf('x', 'extracted', esc(valueText(extractedAnswer(r.detail))))}${cellOf('text', 'prompt', longText(r.prompt))}${cellOf('text', 'answer', answer)}${cellOf('text', 'judge', judge)}${cellOf('text', 'failure', failure)}</tr>`;
}

function select(
  name: string,
  label: string,
  options: readonly [string, string][],
  current: string | undefined,
): string {
  return `<label>${esc(label)}<select name="${name}">${options.map(([v, t]) => `<option value="${esc(v)}"${(current ?? '') === v ? ' selected' : ''}>${esc(t)}</option>`).join('')}</select></label>`;
}

async function itemsView(c: Context, db: Kysely<Database>): Promise<Response> {
  let run: RunRow;
  let filter: RunItemFilter;
  let after: number | undefined;
  let page: number;
  try {
    run = await runOf(c, db);
    filter = await filterOf(c, db, run.id);
    after = intParam(c, 'after', 0);
    page = intParam(c, 'page', 1) ?? 1;
  } catch (err) {
    return refuse(c, err);
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
  const form = `<form method="get" action="/runs/${run.id}/items">${select('dataset', 'dataset', [['', 'all'], ...datasets.map((d): [string, string] => [d, d])], q('dataset'))}${select('ability', 'ability', [['', 'all'], ...abilities.map((a): [string, string] => [a, a])], q('ability'))}<label>score<input name="score" size="9" placeholder="correct, wrong, 0.5-1" value="${esc(q('score') ?? '')}"></label>${select(
    'failed',
    'outcome',
    [
      ['', 'all'],
      ['1', 'failed'],
      ['0', 'scored'],
    ],
    q('failed'),
  )}<button type="submit">Filter</button></form>`;
  const last = shown[shown.length - 1];
  const pager = `<p class="pager" id="pager">${page > 1 ? `<a id="prev" href="/runs/${run.id}/items${query(c, { page: page - 1 })}">← page ${page - 1}</a>` : ''}<span>page ${page}</span>${more && last ? ` <a id="next" href="/runs/${run.id}/items${query(c, { after: last.itemId, page: page + 1 })}">page ${page + 1} →</a>` : ''}</p>`;
  const downloads = `<p class="muted">Download these items: <a id="csv" href="/runs/${run.id}/items.csv${query(c, {})}">CSV</a> · <a id="jsonl" href="/runs/${run.id}/items.jsonl${query(c, {})}">JSON lines</a> (the columns of <code>zhujiu results</code>)</p>`;
  async function* parts(): AsyncGenerator<string> {
    yield `${head(`Run ${run.id}: ${run.model} on ${run.suite}`)}<p class="muted" id="run">${esc(run.status)}; ${run.done} finished, ${run.failed} failed of ${run.total} planned; created ${esc(run.createdAt.toISOString())}</p>${form}${downloads}`;
    yield `<div class="scroll"><table id="items"><thead><tr><th>item</th><th>score</th><th>extracted</th><th>prompt</th><th>answer</th><th>judge</th><th>failure</th></tr></thead><tbody>`;
    for (let i = 0; i < shown.length; i += 20)
      yield shown
        .slice(i, i + 20)
        .map(itemRow)
        .join('');
    yield `</tbody></table></div>${shown.length === 0 ? '<p id="none">No item matches these filters.</p>' : ''}${pager}</body></html>`;
  }
  return htmlStream(c, parts());
}

async function runsView(c: Context, db: Kysely<Database>): Promise<Response> {
  let before: number | undefined;
  try {
    before = intParam(c, 'before', 1);
  } catch (err) {
    return refuse(c, err);
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
        `<tr data-run="${r.id}"><td class="n"><a href="/runs/${r.id}/items">${r.id}</a></td><td>${esc(r.model)}</td><td>${esc(r.suite)}</td><td>${esc(r.status)}</td><td class="n">${r.done}</td><td class="n">${r.failed}</td><td class="n">${r.total}</td><td class="n">${esc(r.createdAt.toISOString().slice(0, 16).replace('T', ' '))}</td></tr>`,
    )
    .join('');
  return c.html(
    `${head('Evaluation runs')}<div class="scroll"><table id="runs"><thead><tr><th>run</th><th>model</th><th>suite</th><th>status</th><th>finished</th><th>failed</th><th>planned</th><th>created (UTC)</th></tr></thead><tbody>${rows}</tbody></table></div>${shown.length === 0 ? '<p id="none">No evaluation runs yet.</p>' : ''}<p class="pager">${runs.length > RUNS_PER_PAGE && last ? `<a id="older" href="/runs?before=${last.id}">older runs →</a>` : ''}</p></body></html>`,
  );
}

async function download(c: Context, db: Kysely<Database>, format: ResultFormat): Promise<Response> {
  let run: RunRow;
  let filter: RunItemFilter;
  try {
    run = await runOf(c, db);
    filter = await filterOf(c, db, run.id);
  } catch (err) {
    return refuse(c, err);
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

/** Adds the results routes (see the module comment) to `app`. */
export function addResultsRoutes(app: Hono, deps: ResultsDeps): void {
  app.get('/runs', (c) => runsView(c, deps.db));
  app.get('/runs/:id/items.csv', (c) => download(c, deps.db, 'csv'));
  app.get('/runs/:id/items.jsonl', (c) => download(c, deps.db, 'jsonl'));
  app.get('/runs/:id/items', (c) => itemsView(c, deps.db));
}
