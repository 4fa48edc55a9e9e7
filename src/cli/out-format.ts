/**
 * @module cli/out-format
 * The file name of an output flag against what the command writes there (`leaderboard --png FILE`, `results --out
 * FILE --format csv`, `export battles --out`, `judge export --out`): a name whose ending says another format
 * (`--png board.jpg`, `--out results.csv` with JSON Lines) is a usage mistake, refused before any work with the
 * flag, the name and the fix, so no PNG data lands in a `.jpg` file. A name without an ending, or with one that
 * names no format, is the user's choice and is written as asked. Pure: no file is looked at.
 */
import { extname } from 'node:path';
import { AppError } from '../core/errors.ts';
import { tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';

/** A format zhujiu writes to a named file. */
export type OutFormat = 'png' | 'csv' | 'jsonl';

/** The formats' names (the same in every language: proper names of file formats). */
const FORMAT_NAMES: Readonly<Record<OutFormat, string>> = {
  png: 'PNG',
  csv: 'CSV',
  jsonl: 'JSON Lines',
};

/** The file name endings that fit each format, the first the one suggested. */
const FITTING: Readonly<Record<OutFormat, readonly string[]>> = {
  png: ['.png'],
  csv: ['.csv', '.txt'],
  jsonl: ['.jsonl', '.ndjson', '.json', '.txt'],
};

/** File name endings that name a format, with that format's name. */
const KNOWN_ENDINGS: Readonly<Record<string, string>> = {
  '.png': 'PNG',
  '.jpg': 'JPEG',
  '.jpeg': 'JPEG',
  '.gif': 'GIF',
  '.webp': 'WebP',
  '.svg': 'SVG',
  '.pdf': 'PDF',
  '.bmp': 'BMP',
  '.tif': 'TIFF',
  '.tiff': 'TIFF',
  '.csv': 'CSV',
  '.tsv': 'TSV',
  '.xlsx': 'Excel',
  '.xls': 'Excel',
  '.json': 'JSON',
  '.jsonl': 'JSON Lines',
  '.ndjson': 'JSON Lines',
  '.txt': 'TXT',
  '.html': 'HTML',
  '.htm': 'HTML',
  '.md': 'Markdown',
  '.yaml': 'YAML',
  '.yml': 'YAML',
  '.parquet': 'Parquet',
};

/** What {@link checkOutputFormat} checks: the flag and name given, the format written, and who says so. */
export interface OutputName {
  /** The flag that named the file, e.g. `--png`. */
  readonly flag: string;
  readonly path: string;
  readonly format: OutFormat;
  /** What decides the format, as the refusal names it: `--png`, `--format csv`, `zhujiu judge export`. */
  readonly by: string;
  /** Other formats the command writes, by the flag that asks for each (`{csv: '--format csv'}`). */
  readonly others?: Readonly<Partial<Record<OutFormat, string>>>;
}

/**
 * Refuses an output file name whose ending names another format than `o.format` (see the module comment).
 * @throws AppError `input_invalid` (exit 2) naming the flag, the name, what it is written in, a fitting name and,
 *   when the command writes the format the name asks for, the flag that asks for it; in `locale`.
 */
export function checkOutputFormat(o: OutputName, locale: Locale): void {
  const ext = extname(o.path).toLowerCase();
  const kind = KNOWN_ENDINGS[ext];
  if (kind === undefined || FITTING[o.format].includes(ext)) return;
  const wanted = (Object.keys(FITTING) as OutFormat[]).find((f) => FITTING[f][0] === ext);
  const other = wanted === undefined ? undefined : o.others?.[wanted];
  throw new AppError(
    'input_invalid',
    tc(locale, 'cli.outFile.extension', {
      flag: o.flag,
      path: o.path,
      ext,
      kind,
      by: o.by,
      format: FORMAT_NAMES[o.format],
      example: `${o.path.slice(0, o.path.length - ext.length)}${FITTING[o.format][0]}`,
      alt: other === undefined ? '' : tc(locale, 'cli.outFile.extensionOr', { flag: other }),
    }),
  );
}
