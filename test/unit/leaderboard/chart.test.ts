/**
 * The board chart renders Chinese and Latin labels with the shipped font (system fonts off): the PNG has the
 * expected size, its label regions have ink, and they differ from a render whose labels are empty.
 */
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import {
  CHART_MAX_PIXELS,
  type ChartRow,
  chartZoom,
  DEFAULT_CHART_ROWS,
  drawnRows,
  renderBoardPng,
  renderBoardSvg,
  wrapName,
} from '../../../src/leaderboard/chart.ts';
import { abilityScores } from '../../helpers/chart-rows.ts';

const ab = abilityScores;
const ROWS: ChartRow[] = [
  { model: 'gpt-4o', rank: 1, final: 8.2, lo: 7.1, hi: 9.0, abilities: ab(8) },
  { model: '通义千问-Max', rank: 2, final: 6.5, lo: 5.0, hi: 7.7, abilities: ab(6) },
  { model: '文心一言 4.0', rank: 3, final: 4.1, lo: 2.2, hi: 5.0, abilities: ab(4) },
];
const TITLE = '每日排行榜 2026-11-30';

/** Decodes a PNG to RGBA with resvg (an <image> in an SVG of the same size). */
function decode(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const view = new DataView(png.buffer, png.byteOffset);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}"><image width="${width}" height="${height}" xlink:href="data:image/png;base64,${Buffer.from(png).toString('base64')}"/></svg>`;
  const img = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  return { width, height, rgba: new Uint8Array(img.pixels) };
}

/** Dark pixels (any channel < 128) in a rectangle. */
function ink(
  d: { width: number; rgba: Uint8Array },
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): number {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const k = (y * d.width + x) * 4;
      if (d.rgba[k]! < 128 || d.rgba[k + 1]! < 128 || d.rgba[k + 2]! < 128) n++;
    }
  }
  return n;
}

/** Number of pixels that differ between two same-size images in a rectangle. */
function diff(
  a: { width: number; rgba: Uint8Array },
  b: { rgba: Uint8Array },
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): number {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const k = (y * a.width + x) * 4;
      if (Math.abs(a.rgba[k]! - b.rgba[k]!) > 40) n++;
    }
  }
  return n;
}

describe('board chart', () => {
  it('renders CJK labels and title with the shipped font', async () => {
    const png = await renderBoardPng(ROWS, { title: TITLE });
    expect(Buffer.from(png.subarray(1, 4)).toString()).toBe('PNG');
    const full = decode(png);
    // 2× zoom of a ~560 px wide bar chart plus the legend: wide and tall enough for 3 rows and the heat map.
    expect(full.width).toBeGreaterThan(1000);
    expect(full.width).toBeLessThan(2400);
    expect(full.height).toBeGreaterThan(500);
    expect(full.height).toBeLessThan(2000);

    // The same chart with empty labels (names and title): same layout, no glyphs.
    const blank = ROWS.map((r, i) => ({ ...r, model: ' '.repeat(i + 1) }));
    const empty = decode(await renderBoardPng(blank, { title: ' ' }));
    // Title band (top) and the model-label column (left of the bars).
    const title = { x0: 0, y0: 0, x1: Math.floor(full.width / 2), y1: 70 };
    expect(ink(full, title.x0, title.y0, title.x1, title.y1)).toBeGreaterThan(300);
    expect(ink(empty, title.x0, title.y0, title.x1, title.y1)).toBeLessThan(50);
    const labels = { x0: 0, y0: 80, x1: 260, y1: 400 };
    expect(ink(full, labels.x0, labels.y0, labels.x1, labels.y1)).toBeGreaterThan(500);
    if (empty.width === full.width && empty.height === full.height) {
      expect(diff(full, empty, labels.x0, labels.y0, labels.x1, labels.y1)).toBeGreaterThan(500);
    } else {
      expect(ink(empty, labels.x0, labels.y0, labels.x1, labels.y1)).toBeLessThan(
        ink(full, labels.x0, labels.y0, labels.x1, labels.y1) / 4,
      );
    }
  });

  it('draws the Chinese glyphs themselves, not the missing-glyph box', async () => {
    // Two titles of five different CJK characters each: missing glyphs would draw five identical boxes in both.
    const a = decode(await renderBoardPng(ROWS, { title: '每日排行榜' }));
    const b = decode(await renderBoardPng(ROWS, { title: '通义千问心' }));
    expect([b.width, b.height]).toEqual([a.width, a.height]);
    const title = { x0: 0, y0: 0, x1: Math.floor(a.width / 2), y1: 70 };
    expect(ink(a, title.x0, title.y0, title.x1, title.y1)).toBeGreaterThan(300);
    expect(diff(a, b, title.x0, title.y0, title.x1, title.y1)).toBeGreaterThan(300);
  });
});

describe('chart zoom', () => {
  it('is 2 for a chart of a few models and keeps a tall chart within CHART_MAX_PIXELS', () => {
    expect(chartZoom('<svg class="marks" width="700" height="500" viewBox="0 0 700 500">')).toBe(2);
    const z = chartZoom('<svg width="939" height="6628" xmlns="http://www.w3.org/2000/svg">');
    expect(z).toBeLessThan(2);
    expect(939 * 6628 * z * z).toBeLessThanOrEqual(CHART_MAX_PIXELS * (1 + 1e-12));
    expect(chartZoom('<svg xmlns="http://www.w3.org/2000/svg">')).toBe(2);
  });

  it('a board of 129 models renders within CHART_MAX_PIXELS', async () => {
    const rows: ChartRow[] = Array.from({ length: 129 }, (_, i) => ({
      model: `model-${i}`,
      rank: i + 1,
      final: 10 - i / 13,
      lo: 9.5 - i / 13,
      hi: 10 - i / 14,
      abilities: ab(8 - i / 20),
    }));
    const png = await renderBoardPng(rows, { title: TITLE, maxRows: 129 });
    const view = new DataView(png.buffer, png.byteOffset);
    const pixels = view.getUint32(16) * view.getUint32(20);
    expect(pixels).toBeLessThanOrEqual(CHART_MAX_PIXELS * 1.01);
    expect(pixels).toBeGreaterThan(CHART_MAX_PIXELS * 0.9);
  });
});

describe('chart rows and names', () => {
  const row = (i: number, ranked = true): ChartRow => ({
    model: `model-${i}`,
    rank: ranked ? i + 1 : null,
    final: 9 - i / 20,
    lo: 8.5 - i / 20,
    hi: 9.5 - i / 20,
    abilities: ab(7),
    unranked: ranked ? null : 'no scoring results',
  });

  it('draws at most maxRows models (default 30), the ranked first, and counts the rest under the title', async () => {
    const rows = [row(200, false), ...Array.from({ length: 129 }, (_, i) => row(i))];
    const d = drawnRows(rows, DEFAULT_CHART_ROWS);
    expect(DEFAULT_CHART_ROWS).toBe(30);
    expect(d.rows.map((r) => r.model)).toEqual(Array.from({ length: 30 }, (_, i) => `model-${i}`));
    expect(d.cutNote).toEqual([
      '30 of 130 models drawn (ranked first); every model is on the results page and in /board.json',
    ]);
    expect(drawnRows(rows.slice(0, 5), 30).cutNote).toEqual([]);
    expect(() => drawnRows(rows, 0)).toThrow(/leaderboard\.chart_rows/);
    const svg = await renderBoardSvg(rows, { title: TITLE });
    expect(svg).toContain('30 of 130 models drawn');
    expect(svg).not.toContain('model-30<');
  });

  it('wraps a long name at its separators, never dropping a character', () => {
    expect(wrapName('OpenHermes-2.5-Mistral-7B')).toEqual(['OpenHermes-2.5-', 'Mistral-7B']);
    expect(wrapName('gpt-4o')).toEqual(['gpt-4o']);
    const long = 'a'.repeat(50);
    expect(wrapName(long)).toEqual(['a'.repeat(22), 'a'.repeat(22), 'a'.repeat(6)]);
    for (const n of [
      'Code Llama Instruct (13B)',
      'mixtral-8x7b-instruct-v0.1',
      '文心一言 4.0 Turbo 超长的模型名字测试一下',
    ])
      expect(wrapName(n).join('')).toBe(n);
  });

  it('shows a long name whole in the chart, on two lines', async () => {
    const svg = await renderBoardSvg([{ ...row(0), model: 'OpenHermes-2.5-Mistral-7B' }, row(1)], {
      title: TITLE,
    });
    expect(svg).toContain('>OpenHermes-2.5-<');
    expect(svg).toContain('>Mistral-7B<');
    expect(svg).not.toContain('…');
  });
});
