/**
 * @module chat/render/table
 * Plain-text tables for monospace display (Discord/Slack code blocks, the terminal). Column widths are
 * display widths: East Asian wide and fullwidth characters (CJK) and most emoji count as 2, combining marks
 * and joiners as 0.
 */
import type { TableContent } from '../port.ts';

/** Inclusive code-point ranges rendered two columns wide in a monospace font. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** Zero-width: combining marks, variation selectors, zero-width joiner/space, skin-tone modifiers. */
const ZERO: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
];

function inRanges(cp: number, ranges: readonly (readonly [number, number])[]): boolean {
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true;
  return false;
}

/** Display width of one code point (0, 1 or 2). */
export function charWidth(codePoint: number): number {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  if (inRanges(codePoint, ZERO)) return 0;
  return inRanges(codePoint, WIDE) ? 2 : 1;
}

/**
 * Display width of a string in a monospace font.
 * @example displayWidth('模型A') // 5
 */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0) ?? 0);
  return w;
}

function pad(cell: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(cell)));
  return align === 'right' ? fill + cell : cell + fill;
}

/**
 * Renders a table as aligned monospace lines: header, a dashed rule, then the rows. Cells are separated by two
 * spaces; trailing spaces are trimmed; newlines inside cells become spaces; missing cells are empty.
 * @example renderTable({ columns: ['#', 'Model'], rows: [['1', '文心']] }) // '#  Model\n-  -----\n1  文心'
 */
export function renderTable(table: TableContent): string {
  const n = table.columns.length;
  const clean = (s: string | undefined): string => (s ?? '').replace(/[\r\n\t]+/gu, ' ');
  const header = table.columns.map(clean);
  const rows = table.rows.map((r) => Array.from({ length: n }, (_, i) => clean(r[i])));
  const widths = header.map((h, i) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => pad(c, widths[i] ?? 0, table.align?.[i] ?? 'left'))
      .join('  ')
      .replace(/\s+$/u, '');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
