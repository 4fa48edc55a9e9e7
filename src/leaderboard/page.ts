/**
 * @module leaderboard/page
 * The read-only results page (served by http/server.ts): the overall table, one page per ability, one card per
 * model and the chart, all from the latest board snapshot. Plain server-rendered HTML with inline CSS and no
 * script or outside resource, so it works behind any proxy and loads with no console errors.
 */
import {
  BOARD_ABILITIES,
  BOARD_METHODS,
  type BoardAbility,
  type BoardRow,
} from '../aggregate/index.ts';
import type { Snapshot } from './service.ts';
import {
  ageText,
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

const CSS = `body{font-family:system-ui,"Noto Sans SC",sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:.25rem .6rem;border-bottom:1px solid #ddd}
td.n{text-align:right}th{background:#f3f5f8;text-align:left}.inc{color:#b45309}nav a{margin-right:.8rem}
.muted{color:#666;font-size:.9rem}img{max-width:100%;margin-top:1rem}
tr.unranked td{color:#666}tr.divider td{background:#f3f5f8;color:#555;font-style:italic}.stale{color:#b45309}`;

function layout(
  title: string,
  body: string,
  s: Snapshot | undefined,
  now: Date,
  behind?: string,
): string {
  const nav = `<nav><a href="/board">Overall</a>${BOARD_ABILITIES.map((a) => `<a href="/board/ability/${a}">${a}</a>`).join('')}</nav>`;
  const age = s
    ? `<p class="muted" id="age">Board built ${esc(ageText(s.createdAt, now))} (${esc(s.createdAt.toISOString())})${behind ? `, <span class="stale" id="behind">${esc(behind)}</span>` : ''}; sources: ${esc(s.sources.join(', '))}; ${s.board.rounds > 0 ? `95% interval from ${s.board.rounds} paired bootstrap rounds` : 'no bootstrap'}${((n) => (n ? `; <span id="judge">${esc(n)}</span>` : ''))(scoringJudgeNote(s))}.</p>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>${esc(title)}</title><style>${CSS}</style></head><body><h1>${esc(title)}</h1>${nav}${age}${body}</body></html>`;
}

function modelLink(m: string): string {
  return `<a class="model" href="/board/model/${encodeURIComponent(m)}">${esc(m)}</a>`;
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
 * (the page then says so instead of "No board yet").
 */
export function emptyPage(now: Date, building = false): string {
  return layout(
    'ZhuJiu board',
    building
      ? '<p id="empty">The first board is being built from the stored scores and votes; reload in a few seconds.</p>'
      : '<p id="empty">No board yet: it is built when scores or votes arrive (or run <code>zhujiu leaderboard</code>).</p>',
    undefined,
    now,
  );
}

/**
 * Overall: the headline, then rank, model, final with interval, methods, abilities, overall, votes and a last
 * column (incomplete, or why the row is not ranked); the ranked rows first, the unranked ones under a "Not ranked"
 * divider; rows with no score in any method left out (counted under the table); the chart. `behind` says what a
 * stale snapshot misses.
 */
export function overallPage(s: Snapshot, now: Date, behind?: string): string {
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
  const shown = shownRows(s.board);
  const line = (r: BoardRow) => {
    const why = unrankedReason(s.board, r);
    const note = why === null ? (r.incomplete ? 'incomplete' : '') : `not ranked: ${why}`;
    const k = keyScore(s.board, r);
    return `<tr data-model="${esc(r.model)}"${why === null ? '' : ' class="unranked"'}><td class="n" data-col="rank">${r.rank ?? '—'}</td><td>${modelLink(r.model)}</td>${cell(k.value, key)}<td class="n" data-col="ci">${k.lo === null ? '' : `${fmt(k.lo)}–${fmt(k.hi)}`}</td>${BOARD_METHODS.map((m) => cell(r.methods[m], m)).join('')}${BOARD_ABILITIES.map((a) => cell(r.abilities[a], a)).join('')}${cell(key === 'overall' ? r.final : r.overall, other)}<td class="n" data-col="votes">${r.votes}</td><td class="inc" data-col="note">${esc(note)}</td></tr>`;
  };
  const ranked = shown.filter((r) => r.rank !== null);
  const unranked = shown.filter((r) => r.rank === null);
  const divider = unranked.length
    ? `<tr class="divider" id="not-ranked"><td colspan="${cols.length}">${key === 'overall' ? 'Not ranked: these overall means cover fewer abilities than the ranked ones and are not comparable with them' : 'Not ranked: these finals combine fewer methods than the ranked ones and are not comparable with them'}</td></tr>`
    : '';
  const rows = ranked.map(line).join('') + divider + unranked.map(line).join('');
  // Notes as HTML: plain sentences escaped, the left-out count with its command in <code>.
  const left = s.board.rows.length - shown.length;
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
  return layout(
    'ZhuJiu board',
    `<p id="headline">${esc(top)}</p><table id="board"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>${notes}<p class="muted">${key === 'overall' ? 'Ranked by overall = mean of the seven ability columns (the published ZhuJiu order); ' : ''}final = mean of the min–max normalised method scores (×10); empty cells (—) are missing data and mark the row incomplete, never a 0.</p>${s.chart ? `<img id="chart" alt="${key} scores with 95% intervals and the ability heat map" src="/board/chart.png?s=${s.id}">` : ''}`,
    s,
    now,
    behind,
  );
}

/** One ability: per-method cells, the ability column and the arena standing. */
export function abilityPage(s: Snapshot, ability: BoardAbility, now: Date): string {
  const arena = new Map(s.board.arena[ability].map((e) => [e.model, e]));
  const rows = [...s.board.rows]
    .sort((x, y) => (y.abilities[ability] ?? -1) - (x.abilities[ability] ?? -1))
    .map((r) => {
      const e = arena.get(r.model);
      return `<tr data-model="${esc(r.model)}"><td>${modelLink(r.model)}</td>${cell(r.abilities[ability], ability)}${ciCell(r.abilityIntervals?.[ability], 'ci')}${BOARD_METHODS.map((m) => cell(r.cells[m][ability], m)).join('')}<td class="n">${e?.rating == null ? '—' : e.rating.toFixed(0)}</td><td class="n">${e?.votes ?? 0}</td><td class="muted">${esc(e?.note ?? '')}</td></tr>`;
    })
    .join('');
  return layout(
    `Ability: ${ability}`,
    `<table id="ability"><thead><tr><th>model</th><th>${esc(ability)}</th><th>95%</th>${BOARD_METHODS.map((m) => `<th>${m}</th>`).join('')}<th>rating</th><th>votes</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
    s,
    now,
  );
}

/** A model's card: summary, datasets (n, failures, SV), arena record and win rates per opponent. */
export function modelPage(s: Snapshot, model: string, now: Date): string | undefined {
  const card = modelCard(s.board, model);
  if (!card) return undefined;
  const r = card.row;
  const summary = `<dl id="summary"><dt>rank (by ${rankKey(s.board)})</dt><dd>${r.rank ?? '—'}</dd><dt>final</dt><dd id="final">${fmt(r.final)}${r.finalLo !== null ? ` (95% ${fmt(r.finalLo)}–${fmt(r.finalHi)})` : ''}${r.incomplete ? ' <span class="inc">incomplete</span>' : ''}</dd>${BOARD_METHODS.map((m) => `<dt>${esc(m === 'scoring' ? scoringLabel(s.board) : m)}</dt><dd>${fmt(r.methods[m])}</dd>`).join('')}<dt>overall</dt><dd id="overall">${fmt(r.overall)}${r.overallLo != null ? ` (95% ${fmt(r.overallLo)}–${fmt(r.overallHi)})` : ''}</dd><dt>SV rate</dt><dd>${card.svRate === null ? '—' : `${(card.svRate * 100).toFixed(1)}%`}</dd><dt>arena record (W–L–T)</dt><dd>${card.record.wins}–${card.record.losses}–${card.record.ties}</dd></dl>`;
  const ds = card.datasets
    .map(
      (d) =>
        `<tr><td>${esc(d.dataset)}</td><td>${d.ability}</td><td>${esc(d.method === 'scoring' ? scoringLabel(s.board) : d.method)}</td><td class="n">${d.n}</td><td class="n">${d.failures}</td><td class="n">${d.violations}</td><td class="n">${fmt(d.score)}</td>${ciCell(d.scoreInterval, 'ci')}<td class="n">${fmt(d.rawScore ?? d.score)}</td>${ciCell(d.rawInterval ?? d.scoreInterval, 'raw-ci')}</tr>`,
    )
    .join('');
  const opp = card.opponents
    .map(
      (o) =>
        `<tr><td>${modelLink(o.opponent)}</td><td class="n">${o.wins}</td><td class="n">${o.losses}</td><td class="n">${o.ties}</td><td class="n">${o.winRate === null ? '—' : `${(o.winRate * 100).toFixed(0)}%`}</td></tr>`,
    )
    .join('');
  const rob = card.robustness
    .map(
      (d) =>
        `<tr><td>${esc(d.dataset)}</td><td>${esc(d.base)}</td><td class="n">${d.n}</td><td class="n">${fmt(d.perturbed)}</td><td class="n">${fmt(d.clean)}</td><td class="n pdr">${pdrText(d.pdr)}</td></tr>`,
    )
    .join('');
  const robTable = rob
    ? `<h2>Robustness</h2><p>Each robustness dataset against the same model's clean base items: PDR = 1 − perturbed / clean.</p><table id="robustness"><thead><tr><th>dataset</th><th>base</th><th>n</th><th>perturbed</th><th>clean</th><th>drop (PDR)</th></tr></thead><tbody>${rob}</tbody></table>`
    : '';
  return layout(
    `Model: ${model}`,
    `${summary}${robTable}<h2>Datasets</h2><table id="datasets"><thead><tr><th>dataset</th><th>ability</th><th>method</th><th>n</th><th>failures</th><th>SV</th><th>score</th><th>95%</th><th>raw</th><th>95%</th></tr></thead><tbody>${ds}</tbody></table><h2>Arena, against each opponent</h2><table id="opponents"><thead><tr><th>opponent</th><th>W</th><th>L</th><th>T</th><th>win rate</th></tr></thead><tbody>${opp}</tbody></table>`,
    s,
    now,
  );
}
