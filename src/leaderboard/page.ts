/**
 * @module leaderboard/page
 * The read-only results page (served by http/server.ts): the overall table, one page per ability and per method,
 * one card per model (with its details from config/models.yaml and its history) and the chart, all from the
 * latest board snapshot, each page with the snapshot's provenance. Plain server-rendered HTML with inline CSS and
 * SVG and no script or outside resource, so it works behind any proxy and loads with no console errors. Laid out
 * for a 390 px phone up to a desktop: wide tables scroll inside their own box, never the page.
 * Every sentence of the page's own is a key of the message catalogue (i18n/), in the page's locale
 * ({@link PageExtras.locale}); links keep a `?lang=` the page was asked with.
 */
import {
  BOARD_ABILITIES,
  BOARD_METHODS,
  type Board,
  type BoardAbility,
  type BoardMethod,
  type BoardRow,
} from '../aggregate/index.ts';
import type { ModelInfo } from '../config/schema.ts';
import {
  escapeHtml,
  html,
  type Locale,
  type MessageKey,
  type Params,
  t,
  th,
} from '../i18n/index.ts';
import type { BoardHistoryPoint } from '../storage/leaderboard.ts';
import { SHIPPED_FONT_VERSION } from './font.ts';
import type { Snapshot } from './service.ts';
import {
  abilityName,
  ageText,
  boardProvenance,
  fmt,
  headlineBody,
  keyName,
  keyScore,
  methodName,
  modelCard,
  pdrText,
  rankKey,
  scoringJudgeNote,
  scoringLabel,
  shownRows,
  unrankedReason,
  withinUncertaintyNotes,
  withoutAbilityText,
} from './views.ts';

/** Escapes text for HTML element content and attribute values. */
export const esc = escapeHtml;

/** The URL of the shipped CJK font (the package version in it, so it can be cached for a year). */
export const FONT_URL = `/assets/noto-sans-sc-400-${SHIPPED_FONT_VERSION}.ttf`;

/**
 * The `@font-face` of the shipped Noto Sans SC, for CJK characters only (`unicode-range`: CJK punctuation, kana,
 * unified ideographs and their extensions, full-width forms), so a page without any loads no font. The pages
 * name it first, before system-ui: Latin text falls through to system-ui by the range, and in Chromium a CJK run
 * that first fell back from system-ui (headings, table headers, the first link) kept the missing-glyph boxes after
 * the font arrived (seen in the screenshots of test/e2e/site-layout.test.ts).
 */
export const FONT_FACE = `@font-face{font-family:"Noto Sans SC";src:url("${FONT_URL}") format("truetype");font-display:swap;unicode-range:U+3000-30FF,U+3400-4DBF,U+4E00-9FFF,U+F900-FAFF,U+FF00-FFEF,U+20000-2FA1F}`;

const CSS = `${FONT_FACE}*{box-sizing:border-box}body{font-family:"Noto Sans SC",system-ui,sans-serif;margin:0 auto;padding:1rem;color:#222;max-width:1400px;line-height:1.4}
h1{font-size:1.5rem;margin:.2rem 0 .6rem;overflow-wrap:anywhere}h2{font-size:1.2rem;margin-top:1.6rem}
p,dd,li{overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%;-webkit-overflow-scrolling:touch;border:1px solid #eee;border-radius:4px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:.25rem .6rem;border-bottom:1px solid #ddd;white-space:nowrap}
td.n{text-align:right}th{background:#f3f5f8;text-align:left;position:sticky;top:0}.inc{color:#b45309}
nav{display:flex;flex-wrap:wrap;gap:.2rem .8rem;margin:.3rem 0}nav b{color:#555;font-weight:600}
.muted{color:#666;font-size:.9rem}img{max-width:100%;height:auto;margin-top:1rem}
.chart{border:0;margin-top:1rem}.chart img{min-width:600px;display:block;margin:0}
tr.unranked td{color:#666}tr.divider td{background:#f3f5f8;color:#555;font-style:italic;white-space:normal}.stale{color:#b45309}
.badge{display:inline-block;font-size:.7rem;padding:0 .3rem;margin-left:.3rem;border-radius:3px;background:#e6f4ea;color:#1e6b34;vertical-align:middle}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem}dl.kv dt{color:#555}dl.kv dd{margin:0}
svg.hist{width:100%;max-width:640px;height:auto;display:block}table.heat td{text-align:center;min-width:2.6rem}
table.heat th.r{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;vertical-align:bottom}
footer{margin-top:2rem;border-top:1px solid #ddd;padding-top:.5rem}details summary{cursor:pointer}`;

/** What a page adds to the snapshot: model details, the open-weights filter, a model's history. */
export interface PageExtras {
  /** Card details of configured models (config/models.yaml), by name. */
  readonly models?: ReadonlyMap<string, ModelInfo>;
  /** Show only models with `open_weights: true`. */
  readonly openOnly?: boolean;
  /** The model's history (model card only), oldest first. */
  readonly history?: readonly BoardHistoryPoint[];
  /** The page's language (default en). */
  readonly locale?: Locale;
  /** Add `lang=<locale>` to the page's links (the page was asked for with `?lang=`). */
  readonly langInLinks?: boolean;
}

/** One page's words and links: its locale's messages, and hrefs that keep `?lang=` when asked to. */
interface Ctx {
  readonly locale: Locale;
  /** The message `key` as plain text. */
  t(key: MessageKey, params?: Params): string;
  /** The message `key` as HTML (text escaped, `html()` parameters as they are). */
  th(key: MessageKey, params?: Params): string;
  /** `path` (with its query and fragment) for an href, escaped, `lang=` added when the page keeps it. */
  href(path: string): string;
}

function ctxOf(x: PageExtras): Ctx {
  const locale = x.locale ?? 'en';
  return {
    locale,
    t: (k, p) => t(locale, k, p),
    th: (k, p) => th(locale, k, p),
    href: (path) => esc(x.langInLinks ? withLang(path, locale) : path),
  };
}

/** `path` with `lang=<locale>` in its query (replacing one it has), before any fragment. */
export function withLang(path: string, locale: Locale): string {
  const hash = path.indexOf('#');
  const [rest, frag] = hash < 0 ? [path, ''] : [path.slice(0, hash), path.slice(hash)];
  const q = rest.indexOf('?');
  const [base, query] = q < 0 ? [rest, ''] : [rest.slice(0, q), rest.slice(q + 1)];
  const p = new URLSearchParams(query);
  p.set('lang', locale);
  return `${base}?${p.toString()}${frag}`;
}

function nav(c: Ctx, path: string): string {
  const other: Locale = c.locale === 'en' ? 'zh-CN' : 'en';
  return `<nav><a href="${c.href('/board')}">${c.th('site.nav.overall')}</a><a id="lang" lang="${other}" hreflang="${other}" href="${esc(withLang(path, other))}">${c.th('site.lang.switch')}</a></nav><nav><b>${c.th('site.nav.abilities')}</b>${BOARD_ABILITIES.map((a) => `<a href="${c.href(`/board/ability/${a}`)}">${esc(abilityName(a, c.locale))}</a>`).join('')}</nav><nav><b>${c.th('site.nav.methods')}</b>${BOARD_METHODS.map((m) => `<a href="${c.href(`/board/method/${m}`)}">${esc(methodName(m, c.locale))}</a>`).join('')}</nav>`;
}

/** The snapshot's provenance as a definition list: when and from what it was built. */
function provenance(s: Snapshot, c: Ctx): string {
  const p = boardProvenance(s);
  const sep = c.t('board.list.sep');
  const suites = p.suites
    .map(
      (x) =>
        `<li>${c.th('site.provenance.suite', {
          suite: x.suite,
          n: x.runs.length,
          versions: x.versions.join(sep) || '—',
          templates: x.templates.join(sep) || '—',
          runs: x.runs
            .map(
              (r) =>
                `#${r.run_id} ${r.model}${r.seed === null ? '' : c.t('site.provenance.seed', { seed: r.seed })}`,
            )
            .join(sep),
        })}</li>`,
    )
    .join('');
  const dl = (
    [
      ['site.snapshot', `#${p.snapshot_id}`],
      ['site.builtAt', esc(p.built_at)],
      ['site.sources', esc(p.sources.join(sep))],
      ['site.seed', String(p.seed)],
      ['site.rounds', String(p.bootstrap_rounds)],
      ['site.judge', esc(p.scoring_judge ?? c.t('site.none'))],
      ['site.votesBattles', `${p.votes} / ${p.battles}`],
      ['site.runs', String(p.runs)],
      ['site.suites', suites ? `<ul>${suites}</ul>` : c.th('site.none')],
    ] as const
  )
    .map(([k, v]) => `<dt>${c.th(k)}</dt><dd>${v}</dd>`)
    .join('');
  return `<footer id="provenance"><details><summary>${c.th('site.provenance.summary', { at: p.built_at, sources: p.sources.join(sep), runs: p.runs })}</summary><dl class="kv">${dl}</dl></details></footer>`;
}

function layout(
  c: Ctx,
  title: string,
  body: string,
  s: Snapshot | undefined,
  now: Date,
  path: string,
  behind?: string,
  head = '',
): string {
  const judge = s ? scoringJudgeNote(s, c.locale) : undefined;
  const age = s
    ? `<p class="muted" id="age">${c.th('site.age', {
        age: ageText(s.createdAt, now, c.locale),
        at: s.createdAt.toISOString(),
        behind: html(
          behind
            ? `${esc(c.t('board.behind.sep'))}<span class="stale" id="behind">${esc(behind)}</span>`
            : '',
        ),
        sources: s.sources.join(c.t('board.list.sep')),
        rounds:
          s.board.rounds > 0
            ? c.t('site.age.rounds', { rounds: s.board.rounds })
            : c.t('site.age.noRounds'),
        judge: html(judge ? `; <span id="judge">${esc(judge)}</span>` : ''),
      })}</p>`
    : '';
  return `<!doctype html><html lang="${c.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${head}<link rel="icon" href="data:,"><title>${esc(title)}</title><style>${CSS}</style></head><body><h1>${esc(title)}</h1>${nav(c, path)}${age}${body}${s ? provenance(s, c) : ''}</body></html>`;
}

/** A wide table inside its own horizontal scroll box (the page itself never scrolls sideways). */
function scroll(table: string): string {
  return `<div class="scroll">${table}</div>`;
}

function modelLink(m: string, x: PageExtras, c: Ctx): string {
  const open = x.models?.get(m)?.open_weights === true;
  return `<a class="model" href="${c.href(`/board/model/${encodeURIComponent(m)}`)}">${esc(m)}</a>${open ? `<span class="badge">${c.th('site.openBadge')}</span>` : ''}`;
}

function cell(x: number | null, name: string): string {
  return `<td class="n" data-col="${name}">${fmt(x)}</td>`;
}

/** A 95 % interval cell on the rubric scale (docs/scoring.md §5 "Uncertainty"), empty without one. */
function ciCell(iv: { lo: number; hi: number } | null | undefined, name: string): string {
  return `<td class="n" data-col="${name}">${iv ? `${fmt(iv.lo)}–${fmt(iv.hi)}` : ''}</td>`;
}

/**
 * The page when no snapshot exists yet; `building` when a first board is being built from stored scores or votes
 * (the page then says so, and reloads itself every few seconds, instead of "No board yet").
 */
export function emptyPage(now: Date, building = false, x: PageExtras = {}): string {
  const c = ctxOf(x);
  return layout(
    c,
    c.t('site.title'),
    building
      ? `<p id="empty">${c.th('site.building')}</p>`
      : `<p id="empty">${c.th('site.noBoard', { cmd: html('<code>zhujiu leaderboard</code>') })}</p>`,
    undefined,
    now,
    '/board',
    undefined,
    building ? '<meta http-equiv="refresh" content="3">' : '',
  );
}

/** The rows `x` keeps: every row, or only those with open weights (`x.openOnly`). */
function filtered(rows: readonly BoardRow[], x: PageExtras): readonly BoardRow[] {
  return x.openOnly ? rows.filter((r) => x.models?.get(r.model)?.open_weights === true) : rows;
}

/**
 * Overall: the headline, then rank, model, final with interval, methods, abilities, overall, votes and a last
 * column (incomplete, or why the row is not ranked); the ranked rows first, the unranked ones under a "Not ranked"
 * divider; rows with no score in any method left out (counted under the table); the chart. `behind` says what a
 * stale snapshot misses; `x.openOnly` keeps the models with open weights (ranks stay those of the whole board).
 */
export function overallPage(s: Snapshot, now: Date, behind?: string, x: PageExtras = {}): string {
  const c = ctxOf(x);
  // The ranking key (overall or final) with its interval after the model; the other score in the last score column.
  const key = rankKey(s.board);
  const other = key === 'overall' ? 'final' : 'overall';
  const cols = [
    c.t('site.col.rank'),
    c.t('site.col.model'),
    keyName(key, c.locale),
    c.t('site.col.ci'),
    ...BOARD_METHODS.map((m) => methodName(m, c.locale)),
    ...BOARD_ABILITIES.map((a) => abilityName(a, c.locale)),
    keyName(other, c.locale),
    c.t('site.col.votes'),
    '',
  ];
  const head = cols.map((h) => `<th>${esc(h)}</th>`).join('');
  const whole = shownRows(s.board);
  const shown = filtered(whole, x);
  const line = (r: BoardRow) => {
    const why = unrankedReason(s.board, r, c.locale);
    const note =
      why === null ? (r.incomplete ? c.t('site.incomplete') : '') : c.t('site.notRanked', { why });
    const k = keyScore(s.board, r);
    return `<tr data-model="${esc(r.model)}"${why === null ? '' : ' class="unranked"'}><td class="n" data-col="rank">${r.rank ?? '—'}</td><td>${modelLink(r.model, x, c)}</td>${cell(k.value, key)}<td class="n" data-col="ci">${k.lo === null ? '' : `${fmt(k.lo)}–${fmt(k.hi)}`}</td>${BOARD_METHODS.map((m) => cell(r.methods[m], m)).join('')}${BOARD_ABILITIES.map((a) => cell(r.abilities[a], a)).join('')}${cell(key === 'overall' ? r.final : r.overall, other)}<td class="n" data-col="votes">${r.votes}</td><td class="inc" data-col="note">${esc(note)}</td></tr>`;
  };
  const ranked = shown.filter((r) => r.rank !== null);
  const unranked = shown.filter((r) => r.rank === null);
  const divider = unranked.length
    ? `<tr class="divider" id="not-ranked"><td colspan="${cols.length}">${c.th(key === 'overall' ? 'site.divider.overall' : 'site.divider.final')}</td></tr>`
    : '';
  const rows = ranked.map(line).join('') + divider + unranked.map(line).join('');
  // Notes as HTML: plain sentences escaped, the left-out count with its command in <code>.
  const left = s.board.rows.length - whole.length;
  const noAbility = withoutAbilityText(s.inputs, c.locale);
  const upper = (n: string) => (c.locale === 'en' ? `${n[0]!.toUpperCase()}${n.slice(1)}` : n);
  const notes = [
    ...(s.board.unnormalized.length
      ? [
          c.th('site.unnormalised', {
            methods: s.board.unnormalized
              .map((m) => methodName(m, c.locale))
              .join(c.t('board.list.sep')),
          }),
        ]
      : []),
    ...withinUncertaintyNotes(s.board, c.locale).map((n) => c.th('site.note', { note: upper(n) })),
    ...(left > 0
      ? [
          c.th('site.leftOut', {
            n: left,
            cmd: html('<code>zhujiu leaderboard --all</code>'),
          }),
        ]
      : []),
    ...(noAbility ? [c.th('site.note', { note: noAbility })] : []),
  ]
    .map((n) => `<p class="muted">${n}</p>`)
    .join('');
  const top = headlineBody(s.board, false, (m) => m, c.locale);
  const hasOpen = [...(x.models?.values() ?? [])].some((i) => i.open_weights === true);
  const filter = hasOpen
    ? `<p id="filter">${x.openOnly ? `${c.th('site.openFilterOn', { shown: shown.length, all: whole.length })} <a href="${c.href('/board')}">${c.th('site.allModels')}</a>` : `<a href="${c.href('/board?open=1')}">${c.th('site.openOnly')}</a>`}</p>`
    : '';
  const legend = c.th('site.legend', {
    overall: key === 'overall' ? c.t('site.legend.overall') : '',
  });
  const alt = c.th('site.chartAlt', { key: keyName(key, c.locale) });
  return layout(
    c,
    c.t('site.title'),
    `<p id="headline">${esc(top)}</p>${filter}${scroll(`<table id="board"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`)}${notes}<p class="muted">${legend}</p>${s.board.headToHead.length > 0 ? `<p><a id="winrates-link" href="${c.href('/board/method/comparative#winrates')}">${c.th('site.winRatesLink')}</a></p>` : ''}${s.chart ? `<div class="scroll chart"><a href="/board/chart.png?s=${s.id}"><img id="chart" alt="${alt}" src="/board/chart.png?s=${s.id}"></a></div>` : ''}`,
    s,
    now,
    x.openOnly ? '/board?open=1' : '/board',
    behind,
  );
}

/** One ability: per-method cells, the ability column and the arena standing. */
export function abilityPage(
  s: Snapshot,
  ability: BoardAbility,
  now: Date,
  x: PageExtras = {},
): string {
  const c = ctxOf(x);
  const arena = new Map(s.board.arena[ability].map((e) => [e.model, e]));
  const rows = [...filtered(s.board.rows, x)]
    .sort((p, q) => (q.abilities[ability] ?? -1) - (p.abilities[ability] ?? -1))
    .map((r) => {
      const e = arena.get(r.model);
      return `<tr data-model="${esc(r.model)}"><td>${modelLink(r.model, x, c)}</td>${cell(r.abilities[ability], ability)}${ciCell(r.abilityIntervals?.[ability], 'ci')}${BOARD_METHODS.map((m) => cell(r.cells[m][ability], m)).join('')}<td class="n">${e?.rating == null ? '—' : e.rating.toFixed(0)}</td><td class="n">${e?.votes ?? 0}</td><td class="muted">${esc(e?.note ?? '')}</td></tr>`;
    })
    .join('');
  return layout(
    c,
    c.t('site.ability.title', { ability: abilityName(ability, c.locale) }),
    scroll(
      `<table id="ability"><thead><tr><th>${c.th('site.col.model')}</th><th>${esc(abilityName(ability, c.locale))}</th><th>95%</th>${BOARD_METHODS.map((m) => `<th>${esc(methodName(m, c.locale))}</th>`).join('')}<th>${c.th('site.col.rating')}</th><th>${c.th('site.col.votes')}</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
    ),
    s,
    now,
    `/board/ability/${ability}${x.openOnly ? '?open=1' : ''}`,
  );
}

/**
 * One method: each model's method score with its 95 % interval, the normalised score and the per-ability cells,
 * best first; the comparative method adds the pairwise win-rate heat map ({@link winRateHeatMap}).
 */
export function methodPage(
  s: Snapshot,
  method: BoardMethod,
  now: Date,
  x: PageExtras = {},
): string {
  const c = ctxOf(x);
  const rows = [...filtered(s.board.rows, x)]
    .filter((r) => r.methods[method] !== null || r.votes > 0 || method !== 'comparative')
    .sort(
      (p, q) =>
        (q.methods[method] ?? -1) - (p.methods[method] ?? -1) || p.model.localeCompare(q.model),
    )
    .map(
      (r) =>
        `<tr data-model="${esc(r.model)}"><td>${modelLink(r.model, x, c)}</td>${cell(r.methods[method], method)}${ciCell(r.methodIntervals?.[method], 'ci')}${cell(r.normalized[method], 'normalised')}${BOARD_ABILITIES.map((a) => cell(r.cells[method][a], a)).join('')}</tr>`,
    )
    .join('');
  const label =
    method === 'scoring' ? scoringLabel(s.board, c.locale) : methodName(method, c.locale);
  const heat = method === 'comparative' ? winRateHeatMap(s.board, x) : '';
  return layout(
    c,
    c.t('site.method.title', { method: methodName(method, c.locale) }),
    `<p id="method-note">${c.th(`site.methodNote.${method}`)}</p>${scroll(`<table id="method"><thead><tr><th>${c.th('site.col.model')}</th><th>${esc(label)}</th><th>95%</th><th>${c.th('site.col.normalised')}</th>${BOARD_ABILITIES.map((a) => `<th>${esc(abilityName(a, c.locale))}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`)}${heat}`,
    s,
    now,
    `/board/method/${method}${x.openOnly ? '?open=1' : ''}`,
  );
}

/** Most models in the win-rate heat map. */
export const HEATMAP_MODELS = 20;

/**
 * Each model's arena rating for ordering: the vote-weighted mean of its ability ratings (docs/scoring.md §4), or
 * null without any.
 */
export function arenaRatings(board: Board): Map<string, number> {
  const sum = new Map<string, { w: number; r: number }>();
  for (const a of BOARD_ABILITIES)
    for (const e of board.arena[a]) {
      if (e.rating === null || e.votes <= 0) continue;
      const t = sum.get(e.model) ?? { w: 0, r: 0 };
      t.w += e.votes;
      t.r += e.rating * e.votes;
      sum.set(e.model, t);
    }
  return new Map([...sum].map(([m, t]) => [m, t.r / t.w]));
}

/**
 * The pairwise win-rate heat map of the arena (as LMArena's): row model's win rate against the column model
 * (wins + ties / 2 over their battles, all abilities), the models with battles ordered by {@link arenaRatings}
 * (then by name), at most `top` of them. An HTML table with cell colours: readable, copyable, no script.
 */
export function winRateHeatMap(board: Board, x: PageExtras = {}, top = HEATMAP_MODELS): string {
  const c = ctxOf(x);
  const pairs = new Map<string, { w: number; l: number; t: number }>();
  const models = new Set<string>();
  for (const h of board.headToHead) {
    if (h.wins + h.losses + h.ties === 0) continue;
    pairs.set(`${h.model}\u0000${h.opponent}`, { w: h.wins, l: h.losses, t: h.ties });
    models.add(h.model);
  }
  const keep = x.openOnly
    ? (m: string) => x.models?.get(m)?.open_weights === true
    : (_m: string) => true;
  const rating = arenaRatings(board);
  const all = [...models]
    .filter(keep)
    .sort(
      (a, b) =>
        (rating.get(b) ?? Number.NEGATIVE_INFINITY) - (rating.get(a) ?? Number.NEGATIVE_INFINITY) ||
        a.localeCompare(b),
    );
  if (all.length === 0)
    return `<h2 id="winrates">${c.th('site.winRates')}</h2><p>${c.th('site.noBattles')}</p>`;
  const order = all.slice(0, top);
  const head = order.map((m) => `<th class="r" title="${esc(m)}">${esc(m)}</th>`).join('');
  const body = order
    .map((a) => {
      const cells = order
        .map((b) => {
          if (a === b) return '<td class="self" style="background:#eee"></td>';
          const p = pairs.get(`${a}\u0000${b}`);
          if (!p) return '<td></td>';
          const n = p.w + p.l + p.t;
          const rate = (p.w + p.t / 2) / n;
          // Blue above one half, red below (ColorBrewer RdBu ends), paler near one half.
          const d = Math.abs(rate - 0.5) * 2;
          const [r, g, bl] = rate >= 0.5 ? [33, 102, 172] : [178, 24, 43];
          const bg = `rgba(${r},${g},${bl},${(0.08 + 0.8 * d).toFixed(2)})`;
          return `<td data-a="${esc(a)}" data-b="${esc(b)}" title="${c.th('site.winRateTitle', { a, b, w: p.w, l: p.l, t: p.t })}" style="background:${bg};color:${d > 0.55 ? '#fff' : '#222'}">${Math.round(rate * 100)}</td>`;
        })
        .join('');
      return `<tr><th>${modelLink(a, x, c)}</th>${cells}</tr>`;
    })
    .join('');
  const topNote =
    order.length < all.length
      ? c.t('site.winRatesTop', { shown: order.length, all: all.length })
      : '';
  return `<h2 id="winrates">${c.th('site.winRates')}</h2><p class="muted">${c.th('site.winRatesNote', { top: topNote })}</p>${scroll(`<table class="heat" id="heatmap"><thead><tr><th></th>${head}</tr></thead><tbody>${body}</tbody></table>`)}`;
}

/**
 * A model's history as an inline SVG (no script): the ranking-key score per day with its 95 % band (top, 0–10)
 * and the rank per day (bottom, 1 at the top). Sized by its viewBox, so it scales with the page.
 */
export function historySvg(points: readonly BoardHistoryPoint[], locale: Locale = 'en'): string {
  const W = 360;
  const H = 220;
  const L = 30;
  const R = 10;
  const top = { y0: 20, y1: 110 };
  const bot = { y0: 140, y1: 200 };
  const n = points.length;
  const xAt = (i: number) => (n <= 1 ? (L + W - R) / 2 : L + ((W - R - L) * i) / (n - 1));
  const sy = (v: number) => top.y1 - ((top.y1 - top.y0) * Math.max(0, Math.min(10, v))) / 10;
  const ranks = points.map((p) => p.rank).filter((r): r is number => r !== null);
  const maxRank = Math.max(2, ...ranks);
  const ry = (r: number) => bot.y0 + ((bot.y1 - bot.y0) * (r - 1)) / (maxRank - 1);
  const f = (v: number) => v.toFixed(1);
  const path = (pts: [number, number][]) =>
    pts.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${f(x)},${f(y)}`).join('');
  const scored = points.map((p, i) => ({ p, i })).filter((q) => q.p.score !== null);
  const banded = scored.filter((q) => q.p.scoreLo !== null && q.p.scoreHi !== null);
  const band =
    banded.length > 1
      ? `<path d="${path([...banded.map((q) => [xAt(q.i), sy(q.p.scoreHi!)] as [number, number]), ...[...banded].reverse().map((q) => [xAt(q.i), sy(q.p.scoreLo!)] as [number, number])])}Z" fill="#9ecae1" opacity=".45"/>`
      : '';
  // A series: its line (two points or more) and a dot at each point.
  const series = (pts: [number, number][], color: string) =>
    (pts.length > 1
      ? `<path d="${path(pts)}" fill="none" stroke="${color}" stroke-width="2"/>`
      : '') +
    pts.map(([x, y]) => `<circle cx="${f(x)}" cy="${f(y)}" r="2.5" fill="${color}"/>`).join('');
  // Grid lines at `values`, each labelled at the left.
  const gridAt = (values: number[], y: (v: number) => number) =>
    values
      .map(
        (v) =>
          `<line x1="${L}" x2="${W - R}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#e5e5e5"/><text x="${L - 4}" y="${f(y(v) + 3)}" text-anchor="end">${v}</text>`,
      )
      .join('');
  const scoreSeries = series(
    scored.map((q) => [xAt(q.i), sy(q.p.score!)]),
    '#2171b5',
  );
  const rk = points.map((p, i) => ({ p, i })).filter((q) => q.p.rank !== null);
  const rankSeries = series(
    rk.map((q) => [xAt(q.i), ry(q.p.rank!)]),
    '#d94801',
  );
  const grid = gridAt([0, 5, 10], sy);
  const rgrid = gridAt([1, maxRank], ry);
  const first = points[0]?.day ?? '';
  const last = points.at(-1)?.day ?? '';
  const key = keyName(points.at(-1)?.rankBy ?? 'final', locale);
  return `<svg class="hist" id="history-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${th(locale, 'site.history.chartLabel', { key, first, last })}" font-size="10" font-family="&quot;Noto Sans SC&quot;,system-ui,sans-serif" fill="#444"><text x="${L}" y="12">${esc(key)} (0–10)</text>${grid}${band}${scoreSeries}<text x="${L}" y="${bot.y0 - 8}">${th(locale, 'site.col.rank')}</text>${rgrid}${rankSeries}<text x="${L}" y="${H - 4}">${esc(first)}</text><text x="${W - R}" y="${H - 4}" text-anchor="end">${esc(last)}</text></svg>`;
}

/** The card's details from config/models.yaml, or '' when there are none. */
function infoList(info: ModelInfo | undefined, c: Ctx): string {
  if (!info) return '';
  const items: [MessageKey, string][] = [];
  if (info.organisation) items.push(['site.organisation', esc(info.organisation)]);
  if (info.licence) items.push(['site.licence', esc(info.licence)]);
  if (info.parameters) items.push(['site.parameters', esc(info.parameters)]);
  if (info.open_weights !== undefined)
    items.push(['site.openWeights', c.th(info.open_weights ? 'site.yes' : 'site.no')]);
  if (info.link)
    items.push([
      'site.link',
      `<a href="${esc(info.link)}" rel="nofollow noopener">${esc(info.link)}</a>`,
    ]);
  if (items.length === 0) return '';
  return `<h2>${c.th('site.details')}</h2><dl class="kv" id="info">${items.map(([k, v]) => `<dt>${c.th(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

/** The card's history: the chart and the table of days (newest first). */
function historySection(points: readonly BoardHistoryPoint[] | undefined, c: Ctx): string {
  if (points === undefined) return '';
  if (points.length === 0)
    return `<h2>${c.th('site.history')}</h2><p id="history">${c.th('site.noHistory')}</p>`;
  const key = keyName(points.at(-1)!.rankBy, c.locale);
  const rows = [...points]
    .reverse()
    .map(
      (p) =>
        `<tr><td>${esc(p.day)}</td><td class="n">${p.rank ?? '—'}</td><td class="n">${fmt(p.score)}</td><td class="n">${p.scoreLo === null ? '' : `${fmt(p.scoreLo)}–${fmt(p.scoreHi)}`}</td><td class="n">${p.votes}</td></tr>`,
    )
    .join('');
  const cols = [
    c.t('site.history.day'),
    c.t('site.col.rank'),
    c.t('site.col.score'),
    '95%',
    c.t('site.col.votes'),
  ];
  return `<h2>${c.th('site.history')}</h2><p class="muted" id="history">${c.th('site.historyNote', { n: points.length, key })}</p>${historySvg(points, c.locale)}<details><summary>${esc(cols.join(' · '))}</summary>${scroll(`<table id="history-table"><thead><tr>${cols.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`)}</details>`;
}

/** The `<th>` cells of `keys`' messages (an empty key: an empty cell, a non-key string: as it is). */
function heads(c: Ctx, cols: readonly (MessageKey | { raw: string })[]): string {
  return cols.map((k) => `<th>${typeof k === 'string' ? c.th(k) : esc(k.raw)}</th>`).join('');
}

/** A model's card: details, summary, history, datasets (n, failures, SV), arena record and win rates per opponent. */
export function modelPage(
  s: Snapshot,
  model: string,
  now: Date,
  x: PageExtras = {},
): string | undefined {
  const card = modelCard(s.board, model);
  if (!card) return undefined;
  const c = ctxOf(x);
  const r = card.row;
  const iv = (lo: number | null | undefined, hi: number | null | undefined) =>
    lo != null ? c.th('site.card.interval', { lo: fmt(lo), hi: fmt(hi) }) : '';
  const label = (m: BoardMethod) =>
    esc(m === 'scoring' ? scoringLabel(s.board, c.locale) : methodName(m, c.locale));
  const summary = `<dl id="summary" class="kv"><dt>${c.th('site.card.rankBy', { key: keyName(rankKey(s.board), c.locale) })}</dt><dd>${r.rank ?? '—'}</dd><dt>${esc(keyName('final', c.locale))}</dt><dd id="final">${fmt(r.final)}${iv(r.finalLo, r.finalHi)}${r.incomplete ? ` <span class="inc">${c.th('site.incomplete')}</span>` : ''}</dd>${BOARD_METHODS.map((m) => `<dt>${label(m)}</dt><dd>${fmt(r.methods[m])}</dd>`).join('')}<dt>${esc(keyName('overall', c.locale))}</dt><dd id="overall">${fmt(r.overall)}${iv(r.overallLo, r.overallHi)}</dd><dt>${c.th('site.card.svRate')}</dt><dd>${card.svRate === null ? '—' : `${(card.svRate * 100).toFixed(1)}%`}</dd><dt>${c.th('site.card.record')}</dt><dd>${card.record.wins}–${card.record.losses}–${card.record.ties}</dd></dl>`;
  const ds = card.datasets
    .map(
      (d) =>
        `<tr><td>${esc(d.dataset)}</td><td>${esc(abilityName(d.ability, c.locale))}</td><td>${label(d.method)}</td><td class="n">${d.n}</td><td class="n">${d.failures}</td><td class="n">${d.violations}</td><td class="n">${fmt(d.score)}</td>${ciCell(d.scoreInterval, 'ci')}<td class="n">${fmt(d.rawScore ?? d.score)}</td>${ciCell(d.rawInterval ?? d.scoreInterval, 'raw-ci')}</tr>`,
    )
    .join('');
  const opp = card.opponents
    .map(
      (o) =>
        `<tr><td>${modelLink(o.opponent, x, c)}</td><td class="n">${o.wins}</td><td class="n">${o.losses}</td><td class="n">${o.ties}</td><td class="n">${o.winRate === null ? '—' : `${(o.winRate * 100).toFixed(0)}%`}</td></tr>`,
    )
    .join('');
  const rob = card.robustness
    .map(
      (d) =>
        `<tr><td>${esc(d.dataset)}</td><td>${esc(d.base)}</td><td class="n">${d.n}</td><td class="n">${fmt(d.perturbed)}</td><td class="n">${fmt(d.clean)}</td><td class="n pdr">${pdrText(d.pdr)}</td></tr>`,
    )
    .join('');
  const robTable = rob
    ? `<h2>${c.th('site.card.robustness')}</h2><p>${c.th('site.card.robustnessNote')}</p>${scroll(`<table id="robustness"><thead><tr>${heads(c, ['site.col.dataset', 'site.col.base', { raw: 'n' }, 'site.col.perturbed', 'site.col.clean', 'site.col.pdr'])}</tr></thead><tbody>${rob}</tbody></table>`)}`
    : '';
  const dsHead = heads(c, [
    'site.col.dataset',
    'site.col.ability',
    'site.col.method',
    { raw: 'n' },
    'site.col.failures',
    'site.col.sv',
    'site.col.score',
    { raw: '95%' },
    'site.col.raw',
    { raw: '95%' },
  ]);
  const oppHead = heads(c, [
    'site.col.opponent',
    'site.col.w',
    'site.col.l',
    'site.col.t',
    'site.col.winRate',
  ]);
  return layout(
    c,
    c.t('site.model.title', { model }),
    `${infoList(x.models?.get(model), c)}${summary}${historySection(x.history, c)}${robTable}<h2>${c.th('site.card.datasets')}</h2>${scroll(`<table id="datasets"><thead><tr>${dsHead}</tr></thead><tbody>${ds}</tbody></table>`)}<h2>${c.th('site.card.opponents')}</h2>${scroll(`<table id="opponents"><thead><tr>${oppHead}</tr></thead><tbody>${opp}</tbody></table>`)}`,
    s,
    now,
    `/board/model/${encodeURIComponent(model)}`,
  );
}
