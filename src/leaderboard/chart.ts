/**
 * @module leaderboard/chart
 * The board as a PNG: ranked final scores with their 95 % interval as whiskers, and an ability × model heat map
 * of the ability columns. vega-lite → vega (SVG, headless) → @resvg/resvg-js (PNG). The CJK font ships with the
 * app (Noto Sans SC from the `@expo-google-fonts/noto-sans-sc` package, OFL) and is handed to resvg explicitly
 * with system fonts off, so Chinese model names and titles render the same on a bare production image.
 */
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { BOARD_ABILITIES } from '../aggregate/index.ts';
import { subsetFontFile } from './font-subset.ts';

/** The font family name inside the shipped TTF. */
export const CHART_FONT_FAMILY = 'Noto Sans SC';

let fontPath: string | undefined;

/** Absolute path of the shipped CJK font (TTF). */
export function chartFontPath(): string {
  fontPath ??= createRequire(import.meta.url).resolve(
    '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  );
  return fontPath;
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

/** Options of {@link renderBoardChart}. */
export interface ChartOptions {
  readonly title: string;
  /** Output width in CSS pixels before the 2× zoom (default 560). */
  readonly width?: number;
  /** Lines under the title (e.g. a method whose spread is within its uncertainty). */
  readonly notes?: readonly string[];
}

/** One panel of the chart's vertical stack. */
type Panel = Extract<TopLevelSpec, { vconcat: unknown }>['vconcat'][number];

/** A bar panel of the chart: the rows' finals with their intervals (grey and with the reason when unranked). */
function barPanel(
  rows: readonly ChartRow[],
  width: number,
  unranked: boolean,
  title?: string,
): Panel {
  const score =
    rows[0]?.key === 'overall' ? 'overall (mean of the ability columns)' : 'final score';
  const order = rows.map((r) => r.model);
  const bars = rows.map((r) => ({
    model: r.model,
    final: r.final,
    lo: r.lo ?? r.final,
    hi: r.hi ?? r.final,
    label:
      r.final === null
        ? ''
        : unranked
          ? `${r.final.toFixed(2)} · not ranked: ${r.unranked ?? 'a method missing'}`
          : r.final.toFixed(2),
  }));
  const y = { field: 'model', type: 'nominal', sort: order, title: null } as const;
  return {
    width,
    height: Math.max(unranked ? 26 : 60, rows.length * 26),
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
            title: unranked ? `${score}, not comparable (95% interval)` : `${score} (95% interval)`,
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

/** The bar panels' titles for a ranking key. */
function panelTitles(key: 'overall' | 'final'): { ranked: string; none: string; unranked: string } {
  return key === 'overall'
    ? {
        ranked: 'Ranked: overall over every ability column',
        none: 'No ranked overall',
        unranked: 'Not ranked: these means cover fewer abilities and are not comparable',
      }
    : {
        ranked: 'Ranked: finals over every method',
        none: 'No ranked final',
        unranked: 'Not ranked: these finals combine fewer methods and are not comparable',
      };
}

/**
 * The vega-lite spec of the chart (exported for tests and the results page): the ranked finals first, then, apart
 * and in grey, the unranked finals with the reason of each; then the heat map (unranked rows marked).
 */
export function boardChartSpec(rows: readonly ChartRow[], o: ChartOptions): TopLevelSpec {
  const isRanked = (r: ChartRow) => r.final !== null && r.rank !== null;
  const ranked = rows.filter(isRanked);
  const unranked = rows.filter((r) => r.final !== null && !isRanked(r));
  const width = o.width ?? 560;
  const label = (r: ChartRow) =>
    isRanked(r) || r.final === null ? r.model : `${r.model} (not ranked)`;
  const heat = rows.flatMap((r) =>
    BOARD_ABILITIES.map((a) => ({
      model: label(r),
      ability: a,
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
  const t = panelTitles(rows[0]?.key ?? 'final');
  if (ranked.length > 0 || !split)
    panels.push(
      barPanel(
        ranked,
        width,
        false,
        split ? t.ranked : ranked.length === 0 && rows.length > 0 ? t.none : undefined,
      ),
    );
  if (split) panels.push(barPanel(unranked, width, true, t.unranked));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: o.title,
      fontSize: 18,
      ...(o.notes && o.notes.length > 0
        ? { subtitle: [...o.notes], subtitleFontSize: 11, subtitleColor: '#555' }
        : {}),
    },
    background: 'white',
    padding: 12,
    config: { font: CHART_FONT_FAMILY, view: { stroke: null } },
    vconcat: [
      ...panels,
      {
        width: Math.max(280, BOARD_ABILITIES.length * 70),
        height: Math.max(60, modelsAll.length * 24),
        data: { values: heat },
        layer: [
          {
            mark: 'rect',
            encoding: {
              x: {
                field: 'ability',
                type: 'nominal',
                sort: [...BOARD_ABILITIES],
                title: null,
                axis: { labelAngle: -30, orient: 'top' },
              },
              y: { field: 'model', type: 'nominal', sort: modelsAll, title: null },
              color: {
                field: 'score',
                type: 'quantitative',
                scale: { domain: [0, 10], scheme: 'blues' },
                title: 'score (0–10)',
              },
            },
          },
          {
            mark: { type: 'text', fontSize: 11 },
            encoding: {
              x: { field: 'ability', type: 'nominal', sort: [...BOARD_ABILITIES] },
              y: { field: 'model', type: 'nominal', sort: modelsAll },
              text: { field: 'label' },
              color: {
                condition: { test: 'datum.score > 6', value: 'white' },
                value: 'black',
              },
            },
          },
        ],
      },
    ],
  };
}

/** The chart as an SVG string (system-font-free: the font is chosen by name, resolved by the renderer). */
export async function renderBoardSvg(rows: readonly ChartRow[], o: ChartOptions): Promise<string> {
  const compiled = compile(boardChartSpec(rows, o)).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
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
