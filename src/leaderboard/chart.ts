/**
 * @module leaderboard/chart
 * The board as a PNG: ranked final scores with their 95 % interval as whiskers, and an ability × model heat map
 * of the ability columns. vega-lite → vega (SVG, headless) → @resvg/resvg-js (PNG). The CJK font ships with the
 * app (Noto Sans SC from the `@expo-google-fonts/noto-sans-sc` package, OFL) and is handed to resvg explicitly
 * with system fonts off, so Chinese model names and titles render the same on a bare production image.
 */
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { BOARD_ABILITIES } from '../aggregate/index.ts';
import { type Locale, t } from '../i18n/index.ts';
import { shippedFontPath } from './font.ts';
import { subsetFontFile } from './font-subset.ts';

/** The font family name inside the shipped TTF. */
export const CHART_FONT_FAMILY = 'Noto Sans SC';

/** Absolute path of the shipped CJK font (TTF). */
export function chartFontPath(): string {
  return shippedFontPath();
}

/** One model in the chart. Scores on the ten-point scale; null = empty. */
export interface ChartRow {
  readonly model: string;
  readonly rank: number | null;
  /** The ranking key's score (with `lo`, `hi` its interval): the final, or the overall when `key` says so. */
  readonly final: number | null;
  /** Which score `final` holds (the board's ranking key, docs/scoring.md §5 "Ranking"); default `final`. */
  readonly key?: 'overall' | 'final';
  readonly lo: number | null;
  readonly hi: number | null;
  readonly abilities: Readonly<Record<string, number | null>>;
  /**
   * Why the row is not ranked (e.g. "no scoring results"); absent or null for a ranked row. An unranked row's bar
   * is drawn apart, in grey, under the ranked ones, with this reason beside it.
   */
  readonly unranked?: string | null;
}

/** Models drawn in the chart unless told otherwise (config `leaderboard.chart_rows`). */
export const DEFAULT_CHART_ROWS = 30;

/** Longest line of a model name on the chart's axes, characters; a longer name wraps ({@link wrapName}). */
export const CHART_LABEL_CHARS = 22;

/**
 * A model name cut into lines of at most `width` characters for an axis label, after a separator (`-`, `_`, `.`,
 * `/`, `:`, space) where there is one, mid-word only when a part is longer than `width`. Nothing is dropped: the
 * lines joined give the name back (`OpenHermes-2.5-Mistral-7B` → `OpenHermes-2.5-`, `Mistral-7B`).
 */
export function wrapName(name: string, width = CHART_LABEL_CHARS): string[] {
  const chars = [...name];
  if (chars.length <= width) return [name];
  const lines: string[] = [];
  let start = 0;
  while (chars.length - start > width) {
    let cut = -1;
    for (let i = start + width; i > start; i--)
      if (/[-_./: ]/u.test(chars[i - 1]!)) {
        cut = i;
        break;
      }
    if (cut <= start) cut = start + width;
    lines.push(chars.slice(start, cut).join(''));
    start = cut;
  }
  lines.push(chars.slice(start).join(''));
  return lines;
}

/**
 * Separates the lines of a wrapped axis label inside one field value (U+0001, a control character no model name
 * may hold: config/model-name.ts; not a line terminator, which vega's expressions refuse in the sort it builds),
 * split again by the axis' `labelExpr`.
 */
const LINE = '\u0001';

/** The wrapped label of a name as one field value ({@link wrapName}, lines joined by {@link LINE}). */
function wrapped(name: string): string {
  return wrapName(name).join(LINE);
}

/** Axis settings that draw a {@link wrapped} value on its lines, uncut. */
const WRAPPED_AXIS = { labelExpr: "split(datum.value, '\\u0001')", labelLimit: 0 } as const;

/** Options of {@link renderBoardChart}. */
export interface ChartOptions {
  readonly title: string;
  /**
   * Most models drawn (default {@link DEFAULT_CHART_ROWS}): the ranked ones first, then the unranked ones; the rest
   * are counted in a line under the title.
   */
  readonly maxRows?: number;
  /** Output width in CSS pixels before the 2× zoom (default 560). */
  readonly width?: number;
  /** Lines under the title (e.g. a method whose spread is within its uncertainty). */
  readonly notes?: readonly string[];
  /** The language of the chart's own words: axes, panel titles, notes (config `locale`; default English). */
  readonly locale?: Locale;
}

/** One panel of the chart's vertical stack. */
type Panel = Extract<TopLevelSpec, { vconcat: unknown }>['vconcat'][number];

/** A bar panel of the chart: the rows' finals with their intervals (grey and with the reason when unranked). */
function barPanel(
  rows: readonly ChartRow[],
  width: number,
  unranked: boolean,
  locale: Locale,
  title?: string,
): Panel {
  const score = t(locale, rows[0]?.key === 'overall' ? 'chart.score.overall' : 'chart.score.final');
  const order = rows.map((r) => wrapped(r.model));
  const lines = Math.max(1, ...rows.map((r) => wrapName(r.model).length));
  const bars = rows.map((r) => ({
    model: wrapped(r.model),
    final: r.final,
    lo: r.lo ?? r.final,
    hi: r.hi ?? r.final,
    label:
      r.final === null
        ? ''
        : unranked
          ? t(locale, 'chart.label.unranked', {
              score: r.final.toFixed(2),
              why: r.unranked ?? t(locale, 'board.unranked.methodMissing'),
            })
          : r.final.toFixed(2),
  }));
  const y = {
    field: 'model',
    type: 'nominal',
    sort: order,
    title: null,
    axis: WRAPPED_AXIS,
  } as const;
  return {
    width,
    height: Math.max(unranked ? 26 : 60, rows.length * Math.max(26, lines * 14)),
    ...(title
      ? { title: { text: title, fontSize: 12, anchor: 'start' as const, color: '#444' } }
      : {}),
    data: { values: bars },
    layer: [
      {
        mark: { type: 'bar', color: unranked ? '#d9d9d9' : '#9ecae1', height: 16 },
        encoding: {
          y,
          x: {
            field: 'final',
            type: 'quantitative',
            title: t(locale, unranked ? 'chart.axis.unranked' : 'chart.axis', { score }),
            scale: { domain: [0, 10] },
          },
        },
      },
      {
        mark: { type: 'rule', color: unranked ? '#888' : '#222', strokeWidth: 1.5 },
        encoding: {
          y,
          x: { field: 'lo', type: 'quantitative' },
          x2: { field: 'hi' },
        },
      },
      {
        mark: {
          type: 'text',
          align: 'left',
          dx: 5,
          fontSize: 11,
          ...(unranked ? { color: '#555' } : {}),
        },
        encoding: {
          y,
          x: { field: 'hi', type: 'quantitative' },
          text: { field: 'label' },
        },
      },
    ],
  };
}

/** The bar panels' titles for a ranking key, in `locale`. */
function panelTitles(
  key: 'overall' | 'final',
  locale: Locale,
): { ranked: string; none: string; unranked: string } {
  return {
    ranked: t(locale, `chart.panel.${key}.ranked`),
    none: t(locale, `chart.panel.${key}.none`),
    unranked: t(locale, `chart.panel.${key}.unranked`),
  };
}

function isRanked(r: ChartRow): boolean {
  return r.final !== null && r.rank !== null;
}

/**
 * The rows a chart draws: the ranked ones (in rank order), then the unranked ones with a score, then the rest,
 * cut at `max`; `cutNote` counts what was left out (empty when nothing was).
 * @throws when `max` is not a positive integer.
 */
export function drawnRows(
  input: readonly ChartRow[],
  max: number,
  locale: Locale = 'en',
): { rows: ChartRow[]; cutNote: string[] } {
  if (!Number.isInteger(max) || max < 1)
    throw new Error(
      `chart: maxRows must be a positive integer (got ${max}); set leaderboard.chart_rows in config/default.yaml`,
    );
  const all = [
    ...input.filter(isRanked),
    ...input.filter((r) => r.final !== null && !isRanked(r)),
    ...input.filter((r) => r.final === null),
  ];
  const rows = all.slice(0, max);
  return {
    rows,
    cutNote:
      all.length > rows.length
        ? [t(locale, 'chart.cut', { n: rows.length, total: all.length })]
        : [],
  };
}

/**
 * The heat map panel: each drawn model's ability scores (0–10) under the ability names `abilities` (in the chart's
 * language, the board's order); `labels` the rows' axis labels, `order` their order.
 */
function heatPanel(
  labels: readonly string[],
  order: readonly string[],
  abilities: readonly string[],
  heat: readonly {
    model: string;
    ability: string;
    score: number | null;
    label: string;
  }[],
  locale: Locale,
): Panel {
  const heatLines = Math.max(1, ...labels.map((l) => l.split(LINE).length));
  const modelsAll = [...order];
  return {
    width: Math.max(280, BOARD_ABILITIES.length * 70),
    height: Math.max(60, modelsAll.length * Math.max(24, heatLines * 14)),
    data: { values: [...heat] },
    layer: [
      {
        mark: 'rect',
        encoding: {
          x: {
            field: 'ability',
            type: 'nominal',
            sort: [...abilities],
            title: null,
            axis: { labelAngle: -30, orient: 'top' },
          },
          y: {
            field: 'model',
            type: 'nominal',
            sort: modelsAll,
            title: null,
            axis: WRAPPED_AXIS,
          },
          color: {
            field: 'score',
            type: 'quantitative',
            scale: { domain: [0, 10], scheme: 'blues' },
            title: t(locale, 'chart.heat.score'),
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 11 },
        encoding: {
          x: { field: 'ability', type: 'nominal', sort: [...abilities] },
          y: { field: 'model', type: 'nominal', sort: modelsAll },
          text: { field: 'label' },
          color: {
            condition: { test: 'datum.score > 6', value: 'white' },
            value: 'black',
          },
        },
      },
    ],
  };
}

/**
 * The vega-lite spec of the chart (exported for tests and the results page): the ranked finals first, then, apart
 * and in grey, the unranked finals with the reason of each; then the heat map (unranked rows marked).
 */
export function boardChartSpec(input: readonly ChartRow[], o: ChartOptions): TopLevelSpec {
  const locale = o.locale ?? 'en';
  const { rows, cutNote } = drawnRows(input, o.maxRows ?? DEFAULT_CHART_ROWS, locale);
  const ranked = rows.filter(isRanked);
  const unranked = rows.filter((r) => r.final !== null && !isRanked(r));
  const notes = [...(o.notes ?? []), ...cutNote];
  const width = o.width ?? 560;
  const label = (r: ChartRow) =>
    wrapped(
      isRanked(r) || r.final === null ? r.model : t(locale, 'chart.notRanked', { model: r.model }),
    );
  // The heat map's columns, named in the chart's language, in the board's order.
  const abilities = BOARD_ABILITIES.map((a) => t(locale, `ability.${a}`));
  const heat = rows.flatMap((r) =>
    BOARD_ABILITIES.map((a, i) => ({
      model: label(r),
      ability: abilities[i] as string,
      score: r.abilities[a] ?? null,
      label:
        r.abilities[a] === null || r.abilities[a] === undefined ? '—' : r.abilities[a]!.toFixed(1),
    })),
  );
  const modelsAll = [...ranked, ...unranked, ...rows.filter((r) => r.final === null)].map(label);
  const panels: Panel[] = [];
  // With no ranked row the ranked panel keeps its place (empty), so the chart's layout does not move.
  // Panel titles only when both kinds are drawn: a board of ranked rows only looks as it always did.
  const split = unranked.length > 0;
  const titles = panelTitles(rows[0]?.key ?? 'final', locale);
  if (ranked.length > 0 || !split)
    panels.push(
      barPanel(
        ranked,
        width,
        false,
        locale,
        split ? titles.ranked : ranked.length === 0 && rows.length > 0 ? titles.none : undefined,
      ),
    );
  if (split) panels.push(barPanel(unranked, width, true, locale, titles.unranked));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: o.title,
      fontSize: 18,
      ...(notes.length > 0 ? { subtitle: notes, subtitleFontSize: 11, subtitleColor: '#555' } : {}),
    },
    background: 'white',
    padding: 12,
    config: { font: CHART_FONT_FAMILY, view: { stroke: null } },
    vconcat: [...panels, heatPanel(rows.map(label), modelsAll, abilities, heat, locale)],
  };
}

/** The chart as an SVG string (system-font-free: the font is chosen by name, resolved by the renderer). */
export async function renderBoardSvg(rows: readonly ChartRow[], o: ChartOptions): Promise<string> {
  const compiled = compile(boardChartSpec(rows, o)).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    // A wrapped name's separator left in the SVG's descriptions (aria-label) becomes a space: XML refuses it.
    return (await view.toSVG()).replaceAll(LINE, ' ');
  } finally {
    view.finalize();
  }
}

/**
 * Pixels at most in a chart PNG (8 megapixels). Up to that the chart is drawn at 2× zoom; a taller chart (a board
 * of more than ~40 models: 50 CSS px per model) gets the largest zoom that keeps it within this many pixels, so a
 * board of 129 models renders in about a quarter of a second instead of more than one (25 megapixels at 2×).
 */
export const CHART_MAX_PIXELS = 8_000_000;

/** The zoom of a chart whose SVG is `svg`: 2, or less to stay within {@link CHART_MAX_PIXELS}. */
export function chartZoom(svg: string): number {
  const head = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const width = Number(/\swidth="([\d.]+)"/.exec(head)?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(head)?.[1]);
  if (!(width > 0 && height > 0)) return 2;
  return Math.min(2, Math.sqrt(CHART_MAX_PIXELS / (width * height)));
}

/**
 * An SVG of {@link renderBoardSvg} as a PNG (2× zoom for crisp text in chat clients, less for very tall charts:
 * {@link chartZoom}). The shipped font is cut down to the characters of the SVG first (leaderboard/font-subset.ts):
 * resvg parses its font files on every render, and the full CJK font alone costs about a second each time.
 * @returns PNG bytes (starts with the PNG signature).
 */
export function renderSvgPng(svg: string): Uint8Array {
  const resvg = new Resvg(svg, {
    font: {
      fontFiles: [subsetFontFile(chartFontPath(), svg)],
      loadSystemFonts: false,
      defaultFontFamily: CHART_FONT_FAMILY,
      sansSerifFamily: CHART_FONT_FAMILY,
    },
    fitTo: { mode: 'zoom', value: chartZoom(svg) },
    background: 'white',
  });
  return new Uint8Array(resvg.render().asPng());
}

/**
 * The board chart as a PNG (2× zoom for crisp text in chat clients; see {@link chartZoom}).
 * @returns PNG bytes (starts with the PNG signature).
 */
export async function renderBoardPng(
  rows: readonly ChartRow[],
  o: ChartOptions,
): Promise<Uint8Array> {
  return renderSvgPng(await renderBoardSvg(rows, o));
}
