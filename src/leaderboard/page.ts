/**
 * @module leaderboard/page
 * The read-only results page (served by http/server.ts): the overall table, one page per ability and per method,
 * one card per model (with its details from config/models.yaml and its history) and the chart, all from the
 * latest board snapshot, each page with the snapshot's provenance. Plain server-rendered HTML with inline CSS and
 * SVG and no script or outside resource, so it works behind any proxy and loads with no console errors. Laid out
 * for a 390 px phone up to a desktop: wide tables scroll inside their own box, never the page.
 * Every sentence of the page's own is in {@link TEXT} (one place to hand to a message catalogue).
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
import type { BoardHistoryPoint } from '../storage/leaderboard.ts';
import type { Snapshot } from './service.ts';
import {
  ageText,
  boardProvenance,
  fmt,
  headline,
  keyScore,
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
export function esc(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The page's own words (headings, labels, sentences), in one place. */
export const TEXT = {
  site: 'ZhuJiu board',
  overall: 'Overall',
  abilities: 'Abilities',
  methods: 'Methods',
  ability: (a: string) => `Ability: ${a}`,
  method: (m: string) => `Method: ${m}`,
  model: (m: string) => `Model: ${m}`,
  building:
    'The first board is being built from the stored scores and votes; this page reloads in a few seconds.',
  noBoard:
    'No board yet: it is built when scores or votes arrive (or run <code>zhujiu leaderboard</code>).',
  openOnly: 'Open weights only',
  allModels: 'All models',
  openFilterOn: (shown: number, all: number) =>
    `Showing the ${shown} models with open weights (config/models.yaml open_weights) of ${all}.`,
  openBadge: 'open weights',
  winRates: 'Pairwise win rates',
  winRatesLink: 'Pairwise win rates of the arena →',
  winRatesNote: (shown: number, all: number) =>
    `Row model's win rate against the column model over their arena battles (a tie counts half; docs/scoring.md §4); models ordered by arena rating (vote-weighted mean over abilities)${shown < all ? `, the top ${shown} of ${all}` : ''}. Empty: no battle between the two.`,
  noBattles: 'No arena battles yet.',
  provenance: 'Provenance',
  builtAt: 'built at',
  sources: 'sources',
  seed: 'board seed',
  rounds: 'bootstrap rounds',
  judge: 'scoring judge',
  votesBattles: 'votes / battles',
  runs: 'runs counted',
  suites: 'suites (zhujiu version; templates)',
  snapshot: 'snapshot',
  none: 'none',
  details: 'Details',
  organisation: 'organisation',
  licence: 'licence',
  parameters: 'parameters',
  openWeights: 'open weights',
  link: 'link',
  yes: 'yes',
  no: 'no',
  history: 'History',
  historyNote: (n: number, key: string) =>
    `Rank and ${key} on the newest board of each day (UTC), ${n} ${n === 1 ? 'day' : 'days'}; the band is the 95% interval.`,
  noHistory: 'No history yet: each stored board adds a day.',
  historyCols: ['day', 'rank', 'score', '95%', 'votes'],
  methodNote: {
    metrics:
      'Metrics: objective datasets scored by rule (accuracy, exact match), per ability (docs/scoring.md §2).',
    scoring:
      'Scoring: open answers graded by one LLM judge with a versioned rubric, per ability (docs/scoring.md §3).',
    comparative:
      'Comparative: arena votes as Bradley–Terry ratings, per ability, normalised to the ten-point scale (docs/scoring.md §4).',
  } as Record<BoardMethod, string>,
  normalised: 'normalised',
} as const;

const CSS = `*{box-sizing:border-box}body{font-family:system-ui,"Noto Sans SC",sans-serif;margin:0 auto;padding:1rem;color:#222;max-width:1400px;line-height:1.4}
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
}

function nav(): string {
  return `<nav><a href="/board">${esc(TEXT.overall)}</a></nav><nav><b>${esc(TEXT.abilities)}</b>${BOARD_ABILITIES.map((a) => `<a href="/board/ability/${a}">${a}</a>`).join('')}</nav><nav><b>${esc(TEXT.methods)}</b>${BOARD_METHODS.map((m) => `<a href="/board/method/${m}">${m}</a>`).join('')}</nav>`;
}

/** The snapshot's provenance as a definition list: when and from what it was built. */
function provenance(s: Snapshot): string {
  const p = boardProvenance(s);
  const suites = p.suites
    .map(
      (x) =>
        `<li>${esc(x.suite)}: ${x.runs.length} ${x.runs.length === 1 ? 'run' : 'runs'} (${esc(x.versions.join(', ') || '—')}; ${esc(x.templates.join(', ') || '—')}); ${esc(x.runs.map((r) => `#${r.run_id} ${r.model}${r.seed === null ? '' : ` seed ${r.seed}`}`).join(', '))}</li>`,
    )
    .join('');
  return `<footer id="provenance"><details><summary>${esc(TEXT.provenance)}: ${esc(TEXT.builtAt)} ${esc(p.built_at)}, ${esc(p.sources.join(', '))}, ${p.runs} ${esc(TEXT.runs)}</summary><dl class="kv"><dt>${esc(TEXT.snapshot)}</dt><dd>#${p.snapshot_id}</dd><dt>${esc(TEXT.builtAt)}</dt><dd>${esc(p.built_at)}</dd><dt>${esc(TEXT.sources)}</dt><dd>${esc(p.sources.join(', '))}</dd><dt>${esc(TEXT.seed)}</dt><dd>${p.seed}</dd><dt>${esc(TEXT.rounds)}</dt><dd>${p.bootstrap_rounds}</dd><dt>${esc(TEXT.judge)}</dt><dd>${esc(p.scoring_judge ?? TEXT.none)}</dd><dt>${esc(TEXT.votesBattles)}</dt><dd>${p.votes} / ${p.battles}</dd><dt>${esc(TEXT.runs)}</dt><dd>${p.runs}</dd><dt>${esc(TEXT.suites)}</dt><dd>${suites ? `<ul>${suites}</ul>` : esc(TEXT.none)}</dd></dl></details></footer>`;
}

function layout(
  title: string,
  body: string,
  s: Snapshot | undefined,
  now: Date,
  behind?: string,
  head = '',
): string {
  const age = s
    ? `<p class="muted" id="age">Board built ${esc(ageText(s.createdAt, now))} (${esc(s.createdAt.toISOString())})${behind ? `, <span class="stale" id="behind">${esc(behind)}</span>` : ''}; sources: ${esc(s.sources.join(', '))}; ${s.board.rounds > 0 ? `95% interval from ${s.board.rounds} paired bootstrap rounds` : 'no bootstrap'}${((n) => (n ? `; <span id="judge">${esc(n)}</span>` : ''))(scoringJudgeNote(s))}.</p>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${head}<link rel="icon" href="data:,"><title>${esc(title)}</title><style>${CSS}</style></head><body><h1>${esc(title)}</h1>${nav()}${age}${body}${s ? provenance(s) : ''}</body></html>`;
}

/** A wide table inside its own horizontal scroll box (the page itself never scrolls sideways). */
function scroll(table: string): string {
  return `<div class="scroll">${table}</div>`;
}

function modelLink(m: string, x: PageExtras = {}): string {
  const open = x.models?.get(m)?.open_weights === true;
  return `<a class="model" href="/board/model/${encodeURIComponent(m)}">${esc(m)}</a>${open ? `<span class="badge">${esc(TEXT.openBadge)}</span>` : ''}`;
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
export function emptyPage(now: Date, building = false): string {
  return layout(
    TEXT.site,
    building ? `<p id="empty">${esc(TEXT.building)}</p>` : `<p id="empty">${TEXT.noBoard}</p>`,
    undefined,
    now,
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
  // The ranking key (overall or final) with its interval after the model; the other score in the last score column.
  const key = rankKey(s.board);
  const other = key === 'overall' ? 'final' : 'overall';
  const cols = [
    'rank',
    'model',
    key,
    '95% CI',
    ...BOARD_METHODS,
    ...BOARD_ABILITIES,
    other,
    'votes',
    '',
  ];
  const head = cols.map((h) => `<th>${esc(h)}</th>`).join('');
  const whole = shownRows(s.board);
  const shown = filtered(whole, x);
  const line = (r: BoardRow) => {
    const why = unrankedReason(s.board, r);
    const note = why === null ? (r.incomplete ? 'incomplete' : '') : `not ranked: ${why}`;
    const k = keyScore(s.board, r);
    return `<tr data-model="${esc(r.model)}"${why === null ? '' : ' class="unranked"'}><td class="n" data-col="rank">${r.rank ?? '—'}</td><td>${modelLink(r.model, x)}</td>${cell(k.value, key)}<td class="n" data-col="ci">${k.lo === null ? '' : `${fmt(k.lo)}–${fmt(k.hi)}`}</td>${BOARD_METHODS.map((m) => cell(r.methods[m], m)).join('')}${BOARD_ABILITIES.map((a) => cell(r.abilities[a], a)).join('')}${cell(key === 'overall' ? r.final : r.overall, other)}<td class="n" data-col="votes">${r.votes}</td><td class="inc" data-col="note">${esc(note)}</td></tr>`;
  };
  const ranked = shown.filter((r) => r.rank !== null);
  const unranked = shown.filter((r) => r.rank === null);
  const divider = unranked.length
    ? `<tr class="divider" id="not-ranked"><td colspan="${cols.length}">${key === 'overall' ? 'Not ranked: these overall means cover fewer abilities than the ranked ones and are not comparable with them' : 'Not ranked: these finals combine fewer methods than the ranked ones and are not comparable with them'}</td></tr>`
    : '';
  const rows = ranked.map(line).join('') + divider + unranked.map(line).join('');
  // Notes as HTML: plain sentences escaped, the left-out count with its command in <code>.
  const left = s.board.rows.length - whole.length;
  const noAbility = withoutAbilityText(s.inputs);
  const notes = [
    ...(s.board.unnormalized.length
      ? [esc(`Not normalisable (shown as means): ${s.board.unnormalized.join(', ')}.`)]
      : []),
    ...withinUncertaintyNotes(s.board).map((n) => esc(`${n[0]!.toUpperCase()}${n.slice(1)}.`)),
    ...(left > 0
      ? [
          `${esc(`${left} ${left === 1 ? 'model' : 'models'} with no score in any method left out (each has its card at /board/model/NAME;`)} <code>zhujiu leaderboard --all</code> lists them).`,
        ]
      : []),
    ...(noAbility ? [esc(`${noAbility}.`)] : []),
  ]
    .map((n) => `<p class="muted">${n}</p>`)
    .join('');
  const top = headline(s.board, 'ZhuJiu board').replace(/^ZhuJiu board: /, '');
  const hasOpen = [...(x.models?.values() ?? [])].some((i) => i.open_weights === true);
  const filter = hasOpen
    ? `<p id="filter">${x.openOnly ? `${esc(TEXT.openFilterOn(shown.length, whole.length))} <a href="/board">${esc(TEXT.allModels)}</a>` : `<a href="/board?open=1">${esc(TEXT.openOnly)}</a>`}</p>`
    : '';
  return layout(
    TEXT.site,
    `<p id="headline">${esc(top)}</p>${filter}${scroll(`<table id="board"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`)}${notes}<p class="muted">${key === 'overall' ? 'Ranked by overall = mean of the seven ability columns (the published ZhuJiu order); ' : ''}final = mean of the min–max normalised method scores (×10); empty cells (—) are missing data and mark the row incomplete, never a 0.</p>${s.board.headToHead.length > 0 ? `<p><a id="winrates-link" href="/board/method/comparative#winrates">${esc(TEXT.winRatesLink)}</a></p>` : ''}${s.chart ? `<div class="scroll chart"><a href="/board/chart.png?s=${s.id}"><img id="chart" alt="${key} scores with 95% intervals and the ability heat map" src="/board/chart.png?s=${s.id}"></a></div>` : ''}`,
    s,
    now,
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
  const arena = new Map(s.board.arena[ability].map((e) => [e.model, e]));
  const rows = [...filtered(s.board.rows, x)]
    .sort((p, q) => (q.abilities[ability] ?? -1) - (p.abilities[ability] ?? -1))
    .map((r) => {
      const e = arena.get(r.model);
      return `<tr data-model="${esc(r.model)}"><td>${modelLink(r.model, x)}</td>${cell(r.abilities[ability], ability)}${ciCell(r.abilityIntervals?.[ability], 'ci')}${BOARD_METHODS.map((m) => cell(r.cells[m][ability], m)).join('')}<td class="n">${e?.rating == null ? '—' : e.rating.toFixed(0)}</td><td class="n">${e?.votes ?? 0}</td><td class="muted">${esc(e?.note ?? '')}</td></tr>`;
    })
    .join('');
  return layout(
    TEXT.ability(ability),
    scroll(
      `<table id="ability"><thead><tr><th>model</th><th>${esc(ability)}</th><th>95%</th>${BOARD_METHODS.map((m) => `<th>${m}</th>`).join('')}<th>rating</th><th>votes</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
    ),
    s,
    now,
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
  const rows = [...filtered(s.board.rows, x)]
    .filter((r) => r.methods[method] !== null || r.votes > 0 || method !== 'comparative')
    .sort(
      (p, q) =>
        (q.methods[method] ?? -1) - (p.methods[method] ?? -1) || p.model.localeCompare(q.model),
    )
    .map(
      (r) =>
        `<tr data-model="${esc(r.model)}"><td>${modelLink(r.model, x)}</td>${cell(r.methods[method], method)}${ciCell(r.methodIntervals?.[method], 'ci')}${cell(r.normalized[method], 'normalised')}${BOARD_ABILITIES.map((a) => cell(r.cells[method][a], a)).join('')}</tr>`,
    )
    .join('');
  const label = method === 'scoring' ? scoringLabel(s.board) : method;
  const heat = method === 'comparative' ? winRateHeatMap(s.board, x) : '';
  return layout(
    TEXT.method(method),
    `<p id="method-note">${esc(TEXT.methodNote[method])}</p>${scroll(`<table id="method"><thead><tr><th>model</th><th>${esc(label)}</th><th>95%</th><th>${esc(TEXT.normalised)}</th>${BOARD_ABILITIES.map((a) => `<th>${a}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`)}${heat}`,
    s,
    now,
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
    return `<h2 id="winrates">${esc(TEXT.winRates)}</h2><p>${esc(TEXT.noBattles)}</p>`;
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
          return `<td data-a="${esc(a)}" data-b="${esc(b)}" title="${esc(`${a} vs ${b}: ${p.w}–${p.l}–${p.t}`)}" style="background:${bg};color:${d > 0.55 ? '#fff' : '#222'}">${Math.round(rate * 100)}</td>`;
        })
        .join('');
      return `<tr><th>${modelLink(a, x)}</th>${cells}</tr>`;
    })
    .join('');
  return `<h2 id="winrates">${esc(TEXT.winRates)}</h2><p class="muted">${esc(TEXT.winRatesNote(order.length, all.length))}</p>${scroll(`<table class="heat" id="heatmap"><thead><tr><th></th>${head}</tr></thead><tbody>${body}</tbody></table>`)}`;
}

/**
 * A model's history as an inline SVG (no script): the ranking-key score per day with its 95 % band (top, 0–10)
 * and the rank per day (bottom, 1 at the top). Sized by its viewBox, so it scales with the page.
 */
export function historySvg(points: readonly BoardHistoryPoint[]): string {
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
  const key = points.at(-1)?.rankBy ?? 'final';
  return `<svg class="hist" id="history-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${key} and rank per day, ${first} to ${last}`)}" font-size="10" font-family="system-ui,sans-serif" fill="#444"><text x="${L}" y="12">${esc(key)} (0–10)</text>${grid}${band}${scoreSeries}<text x="${L}" y="${bot.y0 - 8}">rank</text>${rgrid}${rankSeries}<text x="${L}" y="${H - 4}">${esc(first)}</text><text x="${W - R}" y="${H - 4}" text-anchor="end">${esc(last)}</text></svg>`;
}

/** The card's details from config/models.yaml, or '' when there are none. */
function infoList(info: ModelInfo | undefined): string {
  if (!info) return '';
  const items: [string, string][] = [];
  if (info.organisation) items.push([TEXT.organisation, esc(info.organisation)]);
  if (info.licence) items.push([TEXT.licence, esc(info.licence)]);
  if (info.parameters) items.push([TEXT.parameters, esc(info.parameters)]);
  if (info.open_weights !== undefined)
    items.push([TEXT.openWeights, esc(info.open_weights ? TEXT.yes : TEXT.no)]);
  if (info.link)
    items.push([
      TEXT.link,
      `<a href="${esc(info.link)}" rel="nofollow noopener">${esc(info.link)}</a>`,
    ]);
  if (items.length === 0) return '';
  return `<h2>${esc(TEXT.details)}</h2><dl class="kv" id="info">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

/** The card's history: the chart and the table of days (newest first). */
function historySection(points: readonly BoardHistoryPoint[] | undefined): string {
  if (points === undefined) return '';
  if (points.length === 0)
    return `<h2>${esc(TEXT.history)}</h2><p id="history">${esc(TEXT.noHistory)}</p>`;
  const key = points.at(-1)!.rankBy;
  const rows = [...points]
    .reverse()
    .map(
      (p) =>
        `<tr><td>${esc(p.day)}</td><td class="n">${p.rank ?? '—'}</td><td class="n">${fmt(p.score)}</td><td class="n">${p.scoreLo === null ? '' : `${fmt(p.scoreLo)}–${fmt(p.scoreHi)}`}</td><td class="n">${p.votes}</td></tr>`,
    )
    .join('');
  return `<h2>${esc(TEXT.history)}</h2><p class="muted" id="history">${esc(TEXT.historyNote(points.length, key))}</p>${historySvg(points)}<details><summary>${esc(TEXT.historyCols.join(' · '))}</summary>${scroll(`<table id="history-table"><thead><tr>${TEXT.historyCols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`)}</details>`;
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
  const r = card.row;
  const summary = `<dl id="summary" class="kv"><dt>rank (by ${rankKey(s.board)})</dt><dd>${r.rank ?? '—'}</dd><dt>final</dt><dd id="final">${fmt(r.final)}${r.finalLo !== null ? ` (95% ${fmt(r.finalLo)}–${fmt(r.finalHi)})` : ''}${r.incomplete ? ' <span class="inc">incomplete</span>' : ''}</dd>${BOARD_METHODS.map((m) => `<dt>${esc(m === 'scoring' ? scoringLabel(s.board) : m)}</dt><dd>${fmt(r.methods[m])}</dd>`).join('')}<dt>overall</dt><dd id="overall">${fmt(r.overall)}${r.overallLo != null ? ` (95% ${fmt(r.overallLo)}–${fmt(r.overallHi)})` : ''}</dd><dt>SV rate</dt><dd>${card.svRate === null ? '—' : `${(card.svRate * 100).toFixed(1)}%`}</dd><dt>arena record (W–L–T)</dt><dd>${card.record.wins}–${card.record.losses}–${card.record.ties}</dd></dl>`;
  const ds = card.datasets
    .map(
      (d) =>
        `<tr><td>${esc(d.dataset)}</td><td>${d.ability}</td><td>${esc(d.method === 'scoring' ? scoringLabel(s.board) : d.method)}</td><td class="n">${d.n}</td><td class="n">${d.failures}</td><td class="n">${d.violations}</td><td class="n">${fmt(d.score)}</td>${ciCell(d.scoreInterval, 'ci')}<td class="n">${fmt(d.rawScore ?? d.score)}</td>${ciCell(d.rawInterval ?? d.scoreInterval, 'raw-ci')}</tr>`,
    )
    .join('');
  const opp = card.opponents
    .map(
      (o) =>
        `<tr><td>${modelLink(o.opponent, x)}</td><td class="n">${o.wins}</td><td class="n">${o.losses}</td><td class="n">${o.ties}</td><td class="n">${o.winRate === null ? '—' : `${(o.winRate * 100).toFixed(0)}%`}</td></tr>`,
    )
    .join('');
  const rob = card.robustness
    .map(
      (d) =>
        `<tr><td>${esc(d.dataset)}</td><td>${esc(d.base)}</td><td class="n">${d.n}</td><td class="n">${fmt(d.perturbed)}</td><td class="n">${fmt(d.clean)}</td><td class="n pdr">${pdrText(d.pdr)}</td></tr>`,
    )
    .join('');
  const robTable = rob
    ? `<h2>Robustness</h2><p>Each robustness dataset against the same model's clean base items: PDR = 1 − perturbed / clean.</p>${scroll(`<table id="robustness"><thead><tr><th>dataset</th><th>base</th><th>n</th><th>perturbed</th><th>clean</th><th>drop (PDR)</th></tr></thead><tbody>${rob}</tbody></table>`)}`
    : '';
  return layout(
    TEXT.model(model),
    `${infoList(x.models?.get(model))}${summary}${historySection(x.history)}${robTable}<h2>Datasets</h2>${scroll(`<table id="datasets"><thead><tr><th>dataset</th><th>ability</th><th>method</th><th>n</th><th>failures</th><th>SV</th><th>score</th><th>95%</th><th>raw</th><th>95%</th></tr></thead><tbody>${ds}</tbody></table>`)}<h2>Arena, against each opponent</h2>${scroll(`<table id="opponents"><thead><tr><th>opponent</th><th>W</th><th>L</th><th>T</th><th>win rate</th></tr></thead><tbody>${opp}</tbody></table>`)}`,
    s,
    now,
  );
}
