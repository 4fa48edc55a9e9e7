/**
 * @module leaderboard/views
 * Platform-neutral views of a board snapshot (overall, one ability, one method, one model's card), the CLI's JSON
 * shape, and the significant rank changes between two boards. Scores are shown on the ten-point scale with two
 * decimals; empty cells as "—".
 */
import {
  BOARD_ABILITIES,
  BOARD_METHODS,
  type Board,
  type BoardAbility,
  type BoardMethod,
  type BoardRow,
  type Interval,
  type RankBy,
  type RobustnessDrop,
} from '../aggregate/index.ts';
import { type MessageContent, markdownLiteral, type TableContent } from '../chat/port.ts';
import { type Locale, type MessageKey, type Params, t } from '../i18n/index.ts';
import type { BoardHistoryEntry } from '../storage/leaderboard.ts';
import type { ChartRow } from './chart.ts';
import type { Snapshot } from './service.ts';

/** Short ability headers for narrow chat tables. */
export const ABILITY_SHORT: Readonly<Record<BoardAbility, string>> = {
  knowledge: 'know',
  chinese_specific: 'zh',
  language: 'lang',
  reasoning: 'reas',
  refusal: 'refu',
  safety: 'safe',
  robustness: 'robu',
};

/** A score for display: two decimals, or "—" for an empty cell. */
export function fmt(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(digits);
}

/** "3 min ago" style age of a snapshot, in `locale` (default en). */
export function ageText(createdAt: Date, now: Date, locale: Locale = 'en'): string {
  const s = Math.max(0, Math.round((now.getTime() - createdAt.getTime()) / 1000));
  if (s < 60) return t(locale, 'board.age.seconds', { n: s });
  if (s < 3600) return t(locale, 'board.age.minutes', { n: Math.round(s / 60) });
  if (s < 86400) return t(locale, 'board.age.hours', { n: (s / 3600).toFixed(1) });
  return t(locale, 'board.age.days', { n: (s / 86400).toFixed(1) });
}

/** A method's name in `locale` (en: the identifier itself). */
export function methodName(m: BoardMethod, locale: Locale = 'en'): string {
  return t(locale, `method.${m}`);
}

/** An ability's name in `locale` (en: the identifier itself). */
export function abilityName(a: BoardAbility, locale: Locale = 'en'): string {
  return t(locale, `ability.${a}`);
}

/** The name of a ranking key (`overall`, `final`) in `locale`. */
export function keyName(k: RankBy, locale: Locale = 'en'): string {
  return t(locale, `key.${k}`);
}

/** The CLI's `--json` shape (exactly the issue's interface). */
export interface BoardJson {
  models: {
    model: string;
    rank: number | null;
    final: number | null;
    final_lo: number | null;
    final_hi: number | null;
    methods: Record<BoardMethod, number | null>;
    abilities: Record<BoardAbility, number | null>;
    overall: number | null;
    /** 95 % interval of `overall` (null without bootstrap rounds). */
    overall_lo: number | null;
    overall_hi: number | null;
    incomplete: boolean;
    votes: number;
    /** Why the row has no rank (e.g. "no scoring results"); null when ranked. */
    unranked_reason: string | null;
  }[];
  /** The one judge whose grades make every `scoring` figure (null: none chosen, docs/scoring.md §3). */
  scoring_judge: string | null;
  /** What `rank` (and the row order) follows: `overall` or `final` (config `aggregation.rank_by`). */
  rank_by: RankBy;
}

/**
 * The board as `{"models":[…],"scoring_judge","rank_by"}` (full precision): every row, ranked ones first, then the unranked ones, each with
 * `unranked_reason` (the text views leave out rows with no score in any method; the JSON keeps them).
 */
export function boardJson(board: Board): BoardJson {
  return {
    models: board.rows.map((r) => rowJson(board, r)),
    scoring_judge: scoringJudge(board),
    rank_by: rankKey(board),
  };
}

/** True when the row has a score under some method (a row with none is a judge, or a name known only from votes). */
export function hasFigure(r: BoardRow): boolean {
  return BOARD_METHODS.some((m) => r.methods[m] !== null);
}

/** The rows a board view shows: those with a score under some method (every row with `all`), in board order. */
export function shownRows(board: Board, all = false): readonly BoardRow[] {
  return all ? board.rows : board.rows.filter(hasFigure);
}

/** What the board is ranked by (docs/scoring.md §5 "Ranking"); boards stored before the option: final. */
export function rankKey(board: Board): RankBy {
  return board.rankBy ?? 'final';
}

/** A row's ranking key (overall or final) and its 95 % interval (nulls when it has none). */
export function keyScore(
  board: Board,
  r: BoardRow,
): { value: number | null; lo: number | null; hi: number | null } {
  return rankKey(board) === 'overall'
    ? { value: r.overall, lo: r.overallLo ?? null, hi: r.overallHi ?? null }
    : { value: r.final, lo: r.finalLo, hi: r.finalHi };
}

/** The methods that take part in the ranking: present on some row and not within their uncertainty. */
function rankingMethods(board: Board): BoardMethod[] {
  const within = board.withinUncertainty ?? [];
  return BOARD_METHODS.filter(
    (m) => !within.includes(m) && board.rows.some((r) => r.methods[m] !== null),
  );
}

/** The parts of the ranking key: the ability columns some row has (overall), or {@link rankingMethods} (final). */
function rankingParts(board: Board): string[] {
  return rankKey(board) === 'overall'
    ? BOARD_ABILITIES.filter((a) => board.rows.some((r) => r.abilities[a] !== null))
    : rankingMethods(board);
}

const MISSING_KEYS = {
  metrics: 'board.unranked.noMetrics',
  scoring: 'board.unranked.noScoring',
  comparative: 'board.unranked.noComparative',
} as const satisfies Record<BoardMethod, string>;

/**
 * Why a row has no rank, in a few words ("no scoring results", "no metrics results and no comparative score"),
 * or null for a ranked row. docs/scoring.md §5 "Ranking".
 */
export function unrankedReason(board: Board, r: BoardRow, locale: Locale = 'en'): string | null {
  if (r.rank !== null) return null;
  const min = board.minVotes;
  if (keyScore(board, r).value === null) {
    if (hasFigure(r)) return t(locale, 'board.unranked.withinUncertainty');
    if (r.votes === 0) return t(locale, 'board.unranked.noScores');
    // Votes of battles without an ability count in no ability (docs/scoring.md §4): say so, not "too few".
    const labelled = BOARD_ABILITIES.reduce(
      (n, a) => n + (board.arena[a]?.find((e) => e.model === r.model)?.votes ?? 0),
      0,
    );
    return labelled === 0
      ? t(locale, 'board.unranked.noAbilityLabel', { n: r.votes })
      : t(locale, 'board.unranked.fewVotes', { min });
  }
  if (rankKey(board) === 'overall') {
    const gone = rankingParts(board).filter((a) => r.abilities[a as BoardAbility] === null);
    return gone.length === 0
      ? t(locale, 'board.unranked.abilityMissing')
      : t(locale, 'board.unranked.noAbilityScore', {
          abilities: gone
            .map((a) => abilityName(a as BoardAbility, locale))
            .join(t(locale, 'board.list.sep')),
        });
  }
  const missing = rankingMethods(board).filter((m) => r.methods[m] === null);
  if (missing.length === 0) return t(locale, 'board.unranked.methodMissing');
  return missing
    .map((m) => t(locale, MISSING_KEYS[m], { min }))
    .join(t(locale, 'board.unranked.and'));
}

/**
 * One line per method whose spread is within its uncertainty: its raw range and that it is neither normalised nor
 * in any final (docs/scoring.md §5 "Spread within uncertainty").
 */
export function withinUncertaintyNotes(board: Board, locale: Locale = 'en'): string[] {
  return (board.withinUncertainty ?? []).map((m) => {
    const xs = board.rows.map((r) => r.methods[m]).filter((x): x is number => x !== null);
    const range = xs.length > 0 ? `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}` : '—';
    return t(locale, 'board.withinUncertainty', { method: methodName(m, locale), range });
  });
}

/** The judge of a board's scoring figures (null when none was chosen or the board predates the field). */
export function scoringJudge(board: Board): string | null {
  return board.scoringJudge ?? null;
}

/** "scoring (judge X)": a scoring figure's label naming its judge. */
export function scoringLabel(board: Board, locale: Locale = 'en'): string {
  const j = scoringJudge(board);
  return j === null ? methodName('scoring', locale) : t(locale, 'board.scoringLabel', { judge: j });
}

/** The CLI's `--json` shape of a model card (`zhujiu leaderboard --view model NAME --json`). */
export interface ModelCardJson {
  model: BoardJson['models'][number] & { normalized: Record<BoardMethod, number | null> };
  /** Safety-violation rate (0–1) over the model's scoring items; null without scoring items. */
  sv_rate: number | null;
  record: { wins: number; losses: number; ties: number };
  opponents: {
    opponent: string;
    wins: number;
    losses: number;
    ties: number;
    win_rate: number | null;
  }[];
  datasets: {
    dataset: string;
    ability: BoardAbility;
    method: 'metrics' | 'scoring';
    n: number;
    failures: number;
    violations: number;
    score: number | null;
    /** 95 % paired-bootstrap interval of `score` (ten-point scale); null without rounds. */
    score_lo: number | null;
    score_hi: number | null;
    /** Raw mean before the safety-violation adjustment (= score where nothing was flagged) and its interval. */
    raw_score: number | null;
    raw_lo: number | null;
    raw_hi: number | null;
  }[];
  /** The judge of the card's scoring figures. */
  scoring_judge: string | null;
  /**
   * Each robustness dataset against the model's clean base items: `n` pairs, the perturbed and clean means (0–10)
   * and PromptBench's drop `pdr` = 1 − perturbed / clean (docs/scoring.md §2.7).
   */
  robustness: {
    dataset: string;
    base: string;
    n: number;
    perturbed: number | null;
    clean: number | null;
    pdr: number | null;
  }[];
}

function rowJson(board: Board, r: BoardRow): BoardJson['models'][number] {
  return {
    model: r.model,
    rank: r.rank,
    final: r.final,
    final_lo: r.finalLo,
    final_hi: r.finalHi,
    methods: { ...r.methods },
    abilities: { ...r.abilities },
    overall: r.overall,
    overall_lo: r.overallLo ?? null,
    overall_hi: r.overallHi ?? null,
    incomplete: r.incomplete,
    votes: r.votes,
    unranked_reason: unrankedReason(board, r),
  };
}

/**
 * One model's card as `{"model":{…board row…,"normalized"},"sv_rate","record","opponents":[…],"datasets":[…]}`
 * (full precision), or undefined when the model is not on the board.
 */
export function modelCardJson(board: Board, model: string): ModelCardJson | undefined {
  const card = modelCard(board, model);
  if (!card) return undefined;
  return {
    model: { ...rowJson(board, card.row), normalized: { ...card.row.normalized } },
    sv_rate: card.svRate,
    record: { ...card.record },
    opponents: card.opponents.map((p) => ({
      opponent: p.opponent,
      wins: p.wins,
      losses: p.losses,
      ties: p.ties,
      win_rate: p.winRate,
    })),
    datasets: card.datasets.map((d) => ({
      dataset: d.dataset,
      ability: d.ability,
      method: d.method,
      n: d.n,
      failures: d.failures,
      violations: d.violations,
      score: d.score,
      score_lo: d.scoreInterval?.lo ?? null,
      score_hi: d.scoreInterval?.hi ?? null,
      raw_score: d.rawScore ?? d.score,
      raw_lo: (d.rawInterval ?? d.scoreInterval)?.lo ?? null,
      raw_hi: (d.rawInterval ?? d.scoreInterval)?.hi ?? null,
    })),
    scoring_judge: scoringJudge(board),
    robustness: card.robustness.map((d) => ({
      dataset: d.dataset,
      base: d.base,
      n: d.n,
      perturbed: d.perturbed,
      clean: d.clean,
      pdr: d.pdr,
    })),
  };
}

/** The CLI's `--json` shape of one ability (`zhujiu leaderboard --view ability NAME --json`). */
export interface AbilityJson {
  ability: BoardAbility;
  models: {
    model: string;
    score: number | null;
    /** 95 % paired-bootstrap interval of `score` (ten-point scale, not normalised); null without rounds. */
    score_lo: number | null;
    score_hi: number | null;
    /** The ability column from raw scores (before the safety-violation adjustment) and its interval. */
    raw_score: number | null;
    raw_lo: number | null;
    raw_hi: number | null;
    methods: Record<BoardMethod, number | null>;
    rating: number | null;
    votes: number;
  }[];
  /** The judge of the `scoring` figures. */
  scoring_judge: string | null;
}

/** One ability as `{"ability","models":[{"model","score","methods":{…},"rating","votes"}]}`, best first. */
export function abilityJson(board: Board, ability: BoardAbility): AbilityJson {
  const arena = new Map(board.arena[ability].map((e) => [e.model, e]));
  const rows = [...board.rows].sort(
    (x, y) =>
      (y.abilities[ability] ?? -1) - (x.abilities[ability] ?? -1) || x.model.localeCompare(y.model),
  );
  return {
    ability,
    models: rows.map((r) => ({
      model: r.model,
      score: r.abilities[ability],
      score_lo: r.abilityIntervals?.[ability]?.lo ?? null,
      score_hi: r.abilityIntervals?.[ability]?.hi ?? null,
      raw_score: r.rawAbilities?.[ability] ?? r.abilities[ability],
      raw_lo: (r.rawAbilityIntervals ?? r.abilityIntervals)?.[ability]?.lo ?? null,
      raw_hi: (r.rawAbilityIntervals ?? r.abilityIntervals)?.[ability]?.hi ?? null,
      methods: {
        metrics: r.cells.metrics[ability],
        scoring: r.cells.scoring[ability],
        comparative: r.cells.comparative[ability],
      },
      rating: arena.get(r.model)?.rating ?? null,
      votes: arena.get(r.model)?.votes ?? 0,
    })),
    scoring_judge: scoringJudge(board),
  };
}

/** The CLI's `--json` shape of one method (`zhujiu leaderboard --view method NAME --json`). */
export interface MethodJson {
  method: BoardMethod;
  models: {
    model: string;
    score: number | null;
    /** 95 % paired-bootstrap interval of `score` (E[m], ten-point scale, not normalised); null without rounds. */
    score_lo: number | null;
    score_hi: number | null;
    normalized: number | null;
    abilities: Record<BoardAbility, number | null>;
  }[];
  /** The judge of the `scoring` figures. */
  scoring_judge: string | null;
}

/** One method as `{"method","models":[{"model","score","normalized","abilities":{…}}]}`, best first. */
export function methodJson(board: Board, method: BoardMethod): MethodJson {
  const rows = [...board.rows].sort(
    (x, y) =>
      (y.methods[method] ?? -1) - (x.methods[method] ?? -1) || x.model.localeCompare(y.model),
  );
  return {
    method,
    models: rows.map((r) => ({
      model: r.model,
      score: r.methods[method],
      score_lo: r.methodIntervals?.[method]?.lo ?? null,
      score_hi: r.methodIntervals?.[method]?.hi ?? null,
      normalized: r.normalized[method],
      abilities: { ...r.cells[method] } as Record<BoardAbility, number | null>,
    })),
    scoring_judge: scoringJudge(board),
  };
}

/**
 * Chart rows from a board: the rows a view shows ({@link shownRows}), each with its ranking key ({@link keyScore})
 * as `final`/`lo`/`hi` and, when unranked, its reason (in `locale`, default English).
 */
export function chartRows(board: Board, all = false, locale: Locale = 'en'): ChartRow[] {
  return shownRows(board, all).map((r) => {
    const k = keyScore(board, r);
    return {
      model: r.model,
      rank: r.rank,
      key: rankKey(board),
      final: k.value,
      lo: k.lo,
      hi: k.hi,
      abilities: r.abilities,
      unranked: unrankedReason(board, r, locale),
    };
  });
}

/**
 * A board's standings as kept in the history (storage `board_history`): the rows a view shows ({@link shownRows}),
 * each with its rank, ranking-key score ({@link keyScore}) and its interval, and votes.
 */
export function historyEntries(board: Board): BoardHistoryEntry[] {
  return shownRows(board).map((r) => {
    const k = keyScore(board, r);
    return {
      model: r.model,
      rank: r.rank,
      score: k.value,
      scoreLo: k.lo,
      scoreHi: k.hi,
      votes: r.votes,
    };
  });
}

/** The lines under the chart's title ({@link withinUncertaintyNotes}), in `locale` (default English). */
export function chartNotes(board: Board, locale: Locale = 'en'): string[] {
  return withinUncertaintyNotes(board, locale);
}

/** A score with its 95 % interval when there is one: `6.20 (5.10–7.30)`. */
function withInterval(x: number | null, iv: Interval | null | undefined): string {
  return x === null || !iv ? fmt(x) : `${fmt(x)} (${fmt(iv.lo)}–${fmt(iv.hi)})`;
}

/** The 95 % interval of the row's ranking key, `lo–hi`, or '' without one. */
function interval(board: Board, r: BoardRow): string {
  const k = keyScore(board, r);
  return k.lo === null || k.hi === null ? '' : `${fmt(k.lo)}–${fmt(k.hi)}`;
}

/** "N battle(s) without an ability …" with the fix for each origin (live: `/arena ability`; imported: `--ability`). */
export function withoutAbilityText(
  inputs: Snapshot['inputs'],
  locale: Locale = 'en',
): string | undefined {
  const n = inputs.battlesWithoutAbility;
  if (n <= 0) return undefined;
  const live = Math.min(n, inputs.liveBattlesWithoutAbility ?? 0);
  const imported = n - live;
  const commands = {
    tag: '`/arena ability <battle> <ability>`',
    list: '`/arena unclassified`',
    flag: '`--ability`',
    // The same source keeps its stored battles as they are (README "import battles"): a new one is needed.
    source: '`--source`',
  };
  const fixes: string[] = [];
  if (live > 0)
    fixes.push(
      t(locale, live === n ? 'board.withoutAbility.allLive' : 'board.withoutAbility.someLive', {
        n,
        live,
        ...commands,
      }),
    );
  if (imported > 0)
    fixes.push(
      t(
        locale,
        imported === n ? 'board.withoutAbility.allImported' : 'board.withoutAbility.someImported',
        { n, imported, ...commands },
      ),
    );
  return t(locale, 'board.withoutAbility', {
    n,
    fixes: fixes.join(t(locale, 'board.withoutAbility.sep')),
  });
}

/** Footer line: age (and what a stale snapshot misses), sources, rounds, notes, link; in `o.locale`. */
function footer(s: Snapshot, o: ViewOptions, extra = ''): string {
  const locale = o.locale ?? 'en';
  const tr = (k: MessageKey, p?: Params) => t(locale, k, p);
  const sep = tr('board.list.sep');
  const b = s.board;
  const parts = [
    tr('chat.footer.built', {
      age: ageText(s.createdAt, o.now, locale),
      at: s.createdAt.toISOString().slice(0, 16).replace('T', ' '),
      behind: o.behind ? `${tr('board.behind.sep')}${o.behind}` : '',
    }),
    tr('chat.footer.sources', { sources: s.sources.join(sep) }),
    b.rounds > 0 ? tr('site.age.rounds', { rounds: b.rounds }) : tr('site.age.noRounds'),
    tr('chat.footer.minVotes', { min: b.minVotes }),
  ];
  if (b.unnormalized.length > 0)
    parts.push(
      tr('chat.footer.unnormalised', {
        methods: b.unnormalized.map((m) => methodName(m, locale)).join(sep),
      }),
    );
  parts.push(...withinUncertaintyNotes(b, locale));
  const judgeNote = scoringJudgeNote(s, locale);
  if (judgeNote) parts.push(judgeNote);
  const shown = shownRows(b, o.all);
  const unranked = shown.filter((r) => r.rank === null && keyScore(b, r).value !== null).length;
  const byOverall = rankKey(b) === 'overall';
  if (unranked > 0)
    parts.push(
      tr('chat.footer.unranked', {
        n: unranked,
        part: tr(byOverall ? 'board.headline.part.ability' : 'board.headline.part.method'),
        key: keyName(rankKey(b), locale),
      }),
    );
  const left = b.rows.length - shown.length;
  if (left > 0)
    parts.push(
      o.surface === 'cli'
        ? tr('chat.footer.leftOut.cli', { n: left, all: '`--all`' })
        : tr('chat.footer.leftOut.chat', {
            n: left,
            one: '`/leaderboard model NAME`',
            all: '`zhujiu leaderboard --all`',
          }),
    );
  const noAbility = withoutAbilityText(s.inputs, locale);
  if (noAbility) parts.push(noAbility);
  return `${parts.join(tr('chat.footer.sep'))}${tr('chat.footer.end')}${extra}${o.link ? tr('chat.footer.link', { link: o.link }) : ''}`;
}

/**
 * Which judge the scoring figures are from, and the other judges left off (docs/scoring.md §3): "scoring = grades
 * of judge X (not shown: Y; `zhujiu leaderboard --judge NAME`)"; undefined when no judge has grades.
 */
export function scoringJudgeNote(s: Snapshot, locale: Locale = 'en'): string | undefined {
  const judge = scoringJudge(s.board);
  const all = s.inputs.judges ?? [];
  const others = all.filter((j) => j !== judge).join(t(locale, 'board.list.sep'));
  const hint = '`zhujiu leaderboard --judge NAME`';
  if (judge === null) {
    return all.length > 1
      ? t(locale, 'board.judge.noneChosen', { judges: others, hint })
      : undefined;
  }
  return others
    ? t(locale, 'board.judge.others', { judge, others, hint })
    : t(locale, 'board.judge.chosen', { judge });
}

/**
 * Overall view: rank, model, final with interval, methods, abilities, votes, and a last column, "notes", with the
 * incomplete marker or, for an unranked row, why it is not ranked (left out when no row has a note). Ranked rows
 * first; the unranked ones follow under a "not ranked" divider row. Rows with no score in any method are left out
 * unless `all`.
 */
export function overallTable(board: Board, all = false, locale: Locale = 'en'): TableContent {
  const rows = shownRows(board, all);
  // Ranked by overall: the overall first (with its interval), then App. A's final as a column of its own.
  const byOverall = rankKey(board) === 'overall';
  const line = (r: BoardRow): string[] => {
    const why = unrankedReason(board, r, locale);
    return [
      r.rank === null ? '—' : String(r.rank),
      r.model,
      fmt(keyScore(board, r).value),
      interval(board, r),
      ...(byOverall ? [fmt(r.final)] : []),
      ...BOARD_METHODS.map((m) => fmt(r.methods[m])),
      ...BOARD_ABILITIES.map((a) => fmt(r.abilities[a])),
      String(r.votes),
      why === null ? (r.incomplete ? '*' : '') : t(locale, 'chat.notRanked', { why }),
    ];
  };
  const ranked = rows.filter((r) => r.rank !== null);
  const unranked = rows.filter((r) => r.rank === null);
  const width = 4 + (byOverall ? 1 : 0) + BOARD_METHODS.length + BOARD_ABILITIES.length + 2;
  const divider = ['', t(locale, 'chat.divider'), ...Array.from({ length: width - 2 }, () => '')];
  const lines = [
    ...ranked.map(line),
    ...(ranked.length > 0 && unranked.length > 0 ? [divider] : []),
    ...unranked.map(line),
  ];
  const notes = lines.some((l) => l[width - 1] !== '' && l !== divider);
  const table: TableContent = {
    columns: [
      t(locale, 'chat.col.rank'),
      t(locale, 'chat.col.model'),
      keyName(byOverall ? 'overall' : 'final', locale),
      t(locale, 'chat.col.ci'),
      ...(byOverall ? [keyName('final', locale)] : []),
      ...BOARD_METHODS.map((m) => t(locale, `chat.col.${m}`)),
      ...BOARD_ABILITIES.map((a) => t(locale, `chat.col.${a}`)),
      t(locale, 'chat.col.votes'),
      t(locale, 'chat.col.notes'),
    ],
    align: [
      'right',
      'left',
      'right',
      'right',
      ...(byOverall ? ['right' as const] : []),
      ...BOARD_METHODS.map(() => 'right' as const),
      ...BOARD_ABILITIES.map(() => 'right' as const),
      'right',
      'left',
    ],
    rows: lines,
  };
  if (notes) return table;
  return {
    columns: table.columns.slice(0, -1),
    align: table.align?.slice(0, -1),
    rows: lines.map((l) => l.slice(0, -1)),
  };
}

/**
 * The overall headline: the leader among the ranked rows (how many are ranked, how many are not), or why no final
 * is ranked. Never an unranked figure. A lone ranked row is "the only model with every method" only when the
 * ranking uses all three methods; otherwise "the only ranked model (metrics only)", naming the methods used.
 * @param name how a model name is written into the line (chat: {@link markdownLiteral}; default: as it is).
 */
export function headline(
  board: Board,
  title: string,
  all = false,
  name: (model: string) => string = (m) => m,
  locale: Locale = 'en',
): string {
  return `${title}${locale === 'en' ? ': ' : '：'}${headlineBody(board, all, name, locale)}`;
}

/** {@link headline} without its title: the sentence after "ZhuJiu board: ", in `locale`. */
export function headlineBody(
  board: Board,
  all = false,
  name: (model: string) => string = (m) => m,
  locale: Locale = 'en',
): string {
  const tr = (k: Parameters<typeof t>[1], p?: Parameters<typeof t>[2]) => t(locale, k, p);
  const rows = shownRows(board, all);
  const key = (r: BoardRow) => keyScore(board, r).value;
  const ranked = rows.filter((r) => r.rank !== null && key(r) !== null);
  const unranked = rows.filter((r) => r.rank === null && key(r) !== null).length;
  const byOverall = rankKey(board) === 'overall';
  const rest =
    unranked > 0
      ? tr('board.headline.more', {
          n: unranked,
          part: tr(byOverall ? 'board.headline.part.ability' : 'board.headline.part.method'),
        })
      : '';
  const ci = (r: BoardRow) => (interval(board, r) ? ` (${interval(board, r)})` : '');
  const top = ranked[0];
  if (top && ranked.length === 1) {
    // "every method" (every ability) only when the ranking uses all of them; else name those it uses.
    const used = rankingParts(board);
    const which =
      used.length === (byOverall ? BOARD_ABILITIES.length : BOARD_METHODS.length)
        ? tr(byOverall ? 'board.headline.onlyEvery.ability' : 'board.headline.onlyEvery.method')
        : tr('board.headline.onlyRanked', {
            parts: used
              .map((u) =>
                byOverall
                  ? abilityName(u as BoardAbility, locale)
                  : methodName(u as BoardMethod, locale),
              )
              .join(byOverall ? tr('board.list.sep') : tr('board.unranked.and')),
          });
    return tr('board.headline.single', {
      model: name(top.model),
      which,
      key: keyName(rankKey(board), locale),
      score: fmt(key(top)),
      ci: ci(top),
      rest,
    });
  }
  if (top) {
    const tied = ranked.filter((r) => r.rank === top.rank).length;
    const by = byOverall ? tr('board.headline.by.overall') : '';
    const score = fmt(key(top));
    return tied > 1
      ? tr('board.headline.shared', { n: tied, score, by, ranked: ranked.length, rest })
      : tr('board.headline.leads', {
          model: name(top.model),
          ranked: ranked.length,
          score,
          by,
          ci: ci(top),
          rest,
        });
  }
  const within = withinUncertaintyNotes(board, locale);
  if (unranked > 0 && byOverall) return tr('board.headline.noOverall');
  if (unranked > 0) return tr('board.headline.noFinal');
  if (within.length > 0)
    return tr('board.headline.within', { notes: within.join(tr('board.withoutAbility.sep')) });
  return tr('board.headline.noScores', { min: board.minVotes });
}

/** Options of the content builders. */
export interface ViewOptions {
  readonly now: Date;
  /** Link to the results page, when a public URL is configured. */
  readonly link?: string;
  /** The chart PNG to attach. */
  readonly image?: Uint8Array;
  readonly title?: string;
  /** What a stale snapshot misses ("built before 412 newer votes and 2 runs"), from the service. */
  readonly behind?: string;
  /** Also the rows with no score in any method (CLI `--all`). */
  readonly all?: boolean;
  /** Where the view is shown: the hints name that surface's command (default chat). */
  readonly surface?: 'chat' | 'cli';
  /** The language of the texts (default en). */
  readonly locale?: Locale;
}

/** The overall board as chat content, in `o.locale`. */
export function overallContent(s: Snapshot, o: ViewOptions): MessageContent {
  const locale = o.locale ?? 'en';
  const b = s.board;
  if (b.rows.length === 0) return { text: t(locale, 'chat.noModels') };
  const title = o.title ?? t(locale, 'site.title');
  return {
    locale,
    text: headline(b, title, o.all, markdownLiteral, locale),
    title,
    // With every row left out (no score in any method) the footer counts them; no empty table.
    ...(shownRows(b, o.all).length > 0 ? { table: overallTable(b, o.all, locale) } : {}),
    ...(o.image
      ? {
          image: {
            filename: 'leaderboard.png',
            data: o.image,
            alt: t(locale, 'chat.imageAlt', { title, key: keyName(rankKey(b), locale) }),
            mimeType: 'image/png',
          },
        }
      : {}),
    footer: footer(
      s,
      o,
      t(locale, 'chat.legend', {
        overall: rankKey(b) === 'overall' ? t(locale, 'chat.legend.overall') : '',
      }),
    ),
  };
}

/** One ability: each model's score under each method, the ability column, and the arena standing; in `o.locale`. */
export function abilityContent(s: Snapshot, ability: BoardAbility, o: ViewOptions): MessageContent {
  const locale = o.locale ?? 'en';
  const b = s.board;
  const arena = new Map(b.arena[ability].map((e) => [e.model, e]));
  const rows = [...b.rows].sort(
    (x, y) =>
      (y.abilities[ability] ?? -1) - (x.abilities[ability] ?? -1) || x.model.localeCompare(y.model),
  );
  const name = abilityName(ability, locale);
  return {
    text: t(locale, 'chatView.scored', {
      what: name,
      n: rows.filter((r) => r.abilities[ability] !== null).length,
      total: rows.length,
    }),
    title: t(locale, 'site.ability.title', { ability: name }),
    table: {
      columns: [
        t(locale, 'site.col.model'),
        name,
        ...BOARD_METHODS.map((m) => methodName(m, locale)),
        t(locale, 'site.col.rating'),
        t(locale, 'site.col.votes'),
      ],
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      rows: rows.map((r) => {
        const e = arena.get(r.model);
        return [
          r.model,
          withInterval(r.abilities[ability], r.abilityIntervals?.[ability]),
          fmt(r.cells.metrics[ability]),
          fmt(r.cells.scoring[ability]),
          e && e.score === null && e.note ? e.note : fmt(r.cells.comparative[ability]),
          e?.rating === null || e === undefined ? '—' : e.rating.toFixed(0),
          String(e?.votes ?? 0),
        ];
      }),
    },
    footer: footer(s, o),
  };
}

/** One method: method score, normalised score and the per-ability cells; in `o.locale`. */
export function methodContent(s: Snapshot, method: BoardMethod, o: ViewOptions): MessageContent {
  const locale = o.locale ?? 'en';
  const b = s.board;
  const rows = [...b.rows].sort(
    (x, y) =>
      (y.methods[method] ?? -1) - (x.methods[method] ?? -1) || x.model.localeCompare(y.model),
  );
  const name = methodName(method, locale);
  return {
    text: t(locale, 'chatView.scored', {
      what: method === 'scoring' ? scoringLabel(b, locale) : name,
      n: rows.filter((r) => r.methods[method] !== null).length,
      total: rows.length,
    }),
    title: t(locale, 'site.method.title', { method: name }),
    table: {
      columns: [
        t(locale, 'site.col.model'),
        name,
        t(locale, 'site.col.normalised'),
        ...BOARD_ABILITIES.map((a) => t(locale, `chat.col.${a}`)),
      ],
      align: ['left', 'right', 'right', ...BOARD_ABILITIES.map(() => 'right' as const)],
      rows: rows.map((r) => [
        r.model,
        withInterval(r.methods[method], r.methodIntervals?.[method]),
        fmt(r.normalized[method]),
        ...BOARD_ABILITIES.map((a) => fmt(r.cells[method][a])),
      ]),
    },
    footer: footer(s, o),
  };
}

/** A model card's data (also used by the results page). */
export interface ModelCard {
  readonly row: BoardRow;
  readonly datasets: Board['datasets'];
  /** Safety-violation rate over the model's scoring items (null without scoring items). */
  readonly svRate: number | null;
  readonly record: { wins: number; losses: number; ties: number };
  readonly opponents: readonly {
    opponent: string;
    wins: number;
    losses: number;
    ties: number;
    winRate: number | null;
  }[];
  /** Each robustness dataset's drop against the model's clean base items (docs/scoring.md §2.7). */
  readonly robustness: readonly RobustnessDrop[];
}

/** The card of one model, or undefined when it is not on the board. */
export function modelCard(board: Board, model: string): ModelCard | undefined {
  const row = board.rows.find((r) => r.model === model);
  if (!row) return undefined;
  const datasets = board.datasets.filter((d) => d.model === model);
  let sv = 0;
  let n = 0;
  for (const d of datasets) {
    if (d.method !== 'scoring') continue;
    sv += d.violations;
    n += d.n;
  }
  const record = { wins: 0, losses: 0, ties: 0 };
  const opponents = board.headToHead
    .filter((h) => h.model === model)
    .map((h) => {
      record.wins += h.wins;
      record.losses += h.losses;
      record.ties += h.ties;
      const total = h.wins + h.losses + h.ties;
      return {
        opponent: h.opponent,
        wins: h.wins,
        losses: h.losses,
        ties: h.ties,
        // A tie counts half, as in the ratings (docs/scoring.md §4).
        winRate: total === 0 ? null : (h.wins + 0.5 * h.ties) / total,
      };
    });
  const robustness = (board.robustness ?? []).filter((d) => d.model === model);
  return { row, datasets, svRate: n === 0 ? null : sv / n, record, opponents, robustness };
}

/** The heading of a model card's robustness drops (English; `chatView.model.robustness`). */
export const ROBUSTNESS_HEADING = t('en', 'chatView.model.robustness');

/** A drop rate as a percentage (`32.5%`), or — without one. */
export function pdrText(pdr: number | null): string {
  return pdr === null ? '—' : `${(pdr * 100).toFixed(1)}%`;
}

/**
 * One line per robustness dataset: its score, the clean score of its base items, the drop and the pairs; in
 * `locale` (default en).
 */
export function robustnessLines(drops: readonly RobustnessDrop[], locale: Locale = 'en'): string[] {
  return drops.map((d) =>
    t(locale, 'chatView.model.robustnessLine', {
      dataset: d.dataset,
      perturbed: fmt(d.perturbed),
      base: markdownLiteral(d.base),
      clean: fmt(d.clean),
      pdr: pdrText(d.pdr),
      n: d.n,
    }),
  );
}

/** The summary lines of a model card: rank, methods, abilities, overall and SV rate, arena record; in `locale`. */
function cardSummary(board: Board, card: ModelCard, locale: Locale): string {
  const r = card.row;
  const tr = (k: MessageKey, p?: Params) => t(locale, k, p);
  const sep = tr('board.list.sep');
  const ci = (lo: number | null | undefined, hi: number | null | undefined) =>
    lo != null ? tr('site.card.interval', { lo: fmt(lo), hi: fmt(hi ?? null) }) : '';
  const methodLabel = (m: BoardMethod) =>
    m === 'scoring' ? scoringLabel(board, locale) : methodName(m, locale);
  const sv = card.svRate === null ? '—' : `${(card.svRate * 100).toFixed(1)}%`;
  return [
    tr('chatView.model.rank', {
      rank: r.rank ?? '—',
      key: keyName(rankKey(board), locale),
      final: fmt(r.final),
      ci: r.finalLo !== null ? ci(r.finalLo, r.finalHi) : '',
      incomplete: r.incomplete ? tr('chatView.model.incomplete') : '',
    }),
    tr('chatView.model.methods', {
      list: BOARD_METHODS.map((m) => `${methodLabel(m)} ${fmt(r.methods[m])}`).join(sep),
    }),
    tr('chatView.model.abilities', {
      list: BOARD_ABILITIES.map((a) => `${abilityName(a, locale)} ${fmt(r.abilities[a])}`).join(
        sep,
      ),
    }),
    tr('chatView.model.overall', { overall: fmt(r.overall), ci: ci(r.overallLo, r.overallHi), sv }),
    tr('chatView.model.record', {
      w: card.record.wins,
      l: card.record.losses,
      t: card.record.ties,
      n: r.votes,
    }),
  ].join('\n');
}

/** One model's card as chat content, in `o.locale`. */
export function modelContent(s: Snapshot, model: string, o: ViewOptions): MessageContent {
  const locale = o.locale ?? 'en';
  const tr = (k: MessageKey, p?: Params) => t(locale, k, p);
  const card = modelCard(s.board, model);
  if (!card) {
    const models = s.board.rows.map((r) => markdownLiteral(r.model)).join(tr('board.list.sep'));
    return {
      text: tr('chatView.noModel', {
        model: markdownLiteral(model),
        models: models || tr('chatView.none'),
      }),
    };
  }
  const r = card.row;
  const sections = [
    { heading: tr('chatView.model.summary'), body: cardSummary(s.board, card, locale) },
  ];
  if (card.opponents.length > 0) {
    sections.push({
      heading: tr('chatView.model.opponents'),
      body: card.opponents
        .map(
          (p) =>
            `${markdownLiteral(p.opponent)}: ${p.wins}–${p.losses}–${p.ties}, ${p.winRate === null ? '—' : `${(p.winRate * 100).toFixed(0)}%`}`,
        )
        .join('\n'),
    });
  }
  if (card.robustness.length > 0) {
    sections.push({
      heading: tr('chatView.model.robustness'),
      body: robustnessLines(card.robustness, locale).join('\n'),
    });
  }
  const cols = [
    tr('site.col.dataset'),
    tr('site.col.ability'),
    tr('site.col.method'),
    tr('chatView.col.n'),
    tr('site.col.failures'),
    tr('site.col.sv'),
    tr('chatView.col.score'),
    tr('chatView.col.raw'),
  ];
  return {
    text: `${markdownLiteral(model)}: ${keyName(rankKey(s.board), locale)} ${fmt(keyScore(s.board, r).value)}`,
    title: tr('site.model.title', { model: markdownLiteral(model) }),
    sections,
    ...(card.datasets.length > 0
      ? {
          table: {
            columns: cols,
            align: ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right'],
            rows: card.datasets.map((d) => [
              d.dataset,
              abilityName(d.ability, locale),
              d.method === 'scoring' ? scoringLabel(s.board, locale) : methodName(d.method, locale),
              String(d.n),
              String(d.failures),
              String(d.violations),
              withInterval(d.score, d.scoreInterval),
              withInterval(d.rawScore ?? d.score, d.rawInterval ?? d.scoreInterval),
            ]),
          },
        }
      : {}),
    footer: footer(s, o),
  };
}

/** One rank change worth naming. */
export interface RankMove {
  readonly model: string;
  readonly from: number;
  readonly to: number;
  /** Models it moved past (up) or that moved past it (down), whose intervals are separated from its own. */
  readonly past: readonly string[];
}

/**
 * Rank changes from `prev` to `cur`, naming only significant moves (docs/scoring.md §5): a model that swapped
 * order with another is named when, on the current board, the 95 % intervals of its ranking key (overall or
 * final, {@link keyScore}) do not overlap.
 */
export function significantMoves(prev: Board, cur: Board): RankMove[] {
  const before = new Map(prev.rows.filter((r) => r.rank !== null).map((r) => [r.model, r.rank!]));
  const now = cur.rows.filter((r) => r.rank !== null && before.has(r.model));
  const moves: RankMove[] = [];
  for (const r of now) {
    const from = before.get(r.model)!;
    if (from === r.rank) continue;
    const past: string[] = [];
    for (const o of now) {
      if (o.model === r.model) continue;
      const wasAbove = before.get(o.model)! < from;
      const isAbove = o.rank! < r.rank!;
      if (wasAbove === isAbove) continue;
      const a = keyScore(cur, r);
      const b = keyScore(cur, o);
      const sep =
        a.lo !== null &&
        a.hi !== null &&
        b.lo !== null &&
        b.hi !== null &&
        (a.lo > b.hi || b.lo > a.hi);
      if (sep) past.push(o.model);
    }
    if (past.length > 0) moves.push({ model: r.model, from, to: r.rank!, past });
  }
  return moves.sort((a, b) => a.to - b.to);
}

/** Words for the moves ("gpt-4o ↑ 3 → 1 (past x, y)"), as chat Markdown (names through {@link markdownLiteral}). */
export function movesText(moves: readonly RankMove[], locale: Locale = 'en'): string {
  if (moves.length === 0) return t(locale, 'daily.noMoves');
  return moves
    .map((m) =>
      t(locale, 'daily.move', {
        model: markdownLiteral(m.model),
        arrow: m.to < m.from ? '↑' : '↓',
        from: m.from,
        to: m.to,
        dir: t(locale, m.to < m.from ? 'daily.move.past' : 'daily.move.behind'),
        past: m.past.map(markdownLiteral).join(t(locale, 'board.list.sep')),
      }),
    )
    .join('\n');
}

/** Where a stored board came from (the results page's footer and `/board.json`'s `provenance`). */
export interface BoardProvenance {
  /** The snapshot's id (0: a trial board, not stored). */
  snapshot_id: number;
  /** When the board was built (ISO 8601, UTC). */
  built_at: string;
  /** The vote sources counted. */
  sources: string[];
  /** The seed of the board's bootstrap (config `aggregation.seed`) and its rounds. */
  seed: number;
  bootstrap_rounds: number;
  scoring_judge: string | null;
  votes: number;
  battles: number;
  item_scores: number;
  /** How many evaluation runs count. */
  runs: number;
  /**
   * Each suite with runs that count: the zhujiu versions and prompt-template versions they ran with, and the runs
   * (id, model, seed, finish time, version; seed and version null in snapshots stored before they were recorded).
   */
  suites: {
    suite: string;
    versions: string[];
    templates: string[];
    runs: {
      run_id: number;
      model: string;
      seed: number | null;
      finished_at: string | null;
      version: string | null;
    }[];
  }[];
}

/** The provenance of a snapshot (its inputs summary, seed and rounds), suites by name and runs by model. */
export function boardProvenance(s: Snapshot): BoardProvenance {
  const bySuite = new Map<string, BoardProvenance['suites'][number]>();
  for (const r of s.inputs.runs) {
    const x = bySuite.get(r.suite) ?? { suite: r.suite, versions: [], templates: [], runs: [] };
    x.runs.push({
      run_id: r.runId,
      model: r.model,
      seed: r.seed ?? null,
      finished_at: r.finishedAt,
      version: r.version ?? null,
    });
    if (r.version && !x.versions.includes(r.version)) x.versions.push(r.version);
    for (const t of r.templates ?? []) if (!x.templates.includes(t)) x.templates.push(t);
    bySuite.set(r.suite, x);
  }
  const suites = [...bySuite.values()]
    .map((x) => ({
      ...x,
      versions: x.versions.sort(),
      templates: x.templates.sort(),
      runs: x.runs.sort((a, b) => a.model.localeCompare(b.model) || a.run_id - b.run_id),
    }))
    .sort((a, b) => a.suite.localeCompare(b.suite));
  return {
    snapshot_id: s.id,
    built_at: s.createdAt.toISOString(),
    sources: [...s.sources],
    seed: s.inputs.seed,
    bootstrap_rounds: s.inputs.rounds,
    scoring_judge: scoringJudge(s.board),
    votes: s.inputs.votes,
    battles: s.inputs.battles,
    item_scores: s.inputs.itemScores,
    runs: s.inputs.runs.length,
    suites,
  };
}

/** A model's card details as `/board.json` carries them (config/models.yaml; every key optional). */
export type ModelInfoJson = {
  organisation?: string;
  licence?: string;
  parameters?: string;
  open_weights?: boolean;
  link?: string;
};

/**
 * The results page's `/board.json`: {@link boardJson} plus each model's `info` (config/models.yaml; `{}` when none)
 * and the snapshot's `provenance` ({@link boardProvenance}).
 */
export function boardPageJson(
  s: Snapshot,
  infos: ReadonlyMap<string, ModelInfoJson> = new Map(),
): Omit<BoardJson, 'models'> & {
  models: (BoardJson['models'][number] & { info: ModelInfoJson })[];
  provenance: BoardProvenance;
} {
  const j = boardJson(s.board);
  return {
    ...j,
    models: j.models.map((m) => ({ ...m, info: { ...(infos.get(m.model) ?? {}) } })),
    provenance: boardProvenance(s),
  };
}
