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
  readonly final: number | null;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly abilities: Readonly<Record<string, number | null>>;
}

/** Options of {@link renderBoardChart}. */
export interface ChartOptions {
  readonly title: string;
  /** Output width in CSS pixels before the 2× zoom (default 560). */
  readonly width?: number;
}

/** The vega-lite spec of the chart (exported for tests and the results page). */
export function boardChartSpec(rows: readonly ChartRow[], o: ChartOptions): TopLevelSpec {
  const ranked = rows.filter((r) => r.final !== null);
  const order = ranked.map((r) => r.model);
  const width = o.width ?? 560;
  const bars = ranked.map((r) => ({
    model: r.model,
    final: r.final,
    lo: r.lo ?? r.final,
    hi: r.hi ?? r.final,
    label: r.final === null ? '' : r.final.toFixed(2),
  }));
  const heat = rows.flatMap((r) =>
    BOARD_ABILITIES.map((a) => ({
      model: r.model,
      ability: a,
      score: r.abilities[a] ?? null,
      label:
        r.abilities[a] === null || r.abilities[a] === undefined ? '—' : r.abilities[a]!.toFixed(1),
    })),
  );
  const modelsAll = [...order, ...rows.filter((r) => r.final === null).map((r) => r.model)];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: o.title, fontSize: 18 },
    background: 'white',
    padding: 12,
    config: { font: CHART_FONT_FAMILY, view: { stroke: null } },
    vconcat: [
      {
        width,
        height: Math.max(60, ranked.length * 26),
        data: { values: bars },
        layer: [
          {
            mark: { type: 'bar', color: '#9ecae1', height: 16 },
            encoding: {
              y: { field: 'model', type: 'nominal', sort: order, title: null },
              x: {
                field: 'final',
                type: 'quantitative',
                title: 'final score (95% interval)',
                scale: { domain: [0, 10] },
              },
            },
          },
          {
            mark: { type: 'rule', color: '#222', strokeWidth: 1.5 },
            encoding: {
              y: { field: 'model', type: 'nominal', sort: order },
              x: { field: 'lo', type: 'quantitative' },
              x2: { field: 'hi' },
            },
          },
          {
            mark: { type: 'text', align: 'left', dx: 5, fontSize: 11 },
            encoding: {
              y: { field: 'model', type: 'nominal', sort: order },
              x: { field: 'hi', type: 'quantitative' },
              text: { field: 'label' },
            },
          },
        ],
      },
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
 * An SVG of {@link renderBoardSvg} as a PNG (2× zoom for crisp text in chat clients). The shipped font is cut
 * down to the characters of the SVG first (leaderboard/font-subset.ts): resvg parses its font files on every
 * render, and the full CJK font alone costs about a second each time.
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
    fitTo: { mode: 'zoom', value: 2 },
    background: 'white',
  });
  return new Uint8Array(resvg.render().asPng());
}

/**
 * The board chart as a PNG (2× zoom for crisp text in chat clients).
 * @returns PNG bytes (starts with the PNG signature).
 */
export async function renderBoardPng(
  rows: readonly ChartRow[],
  o: ChartOptions,
): Promise<Uint8Array> {
  return renderSvgPng(await renderBoardSvg(rows, o));
}
