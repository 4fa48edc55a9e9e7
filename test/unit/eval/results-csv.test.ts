/**
 * Item-level results as CSV (src/eval/item-results.ts `formatRecords`): RFC 4180, so every field holding a line
 * break (CRLF, a bare LF or a bare CR), a comma or a quote is quoted, and a reader gets one record per item.
 */
import { describe, expect, it } from 'vitest';
import {
  formatRecords,
  RESULT_COLUMNS,
  type ResultRecord,
} from '../../../src/eval/item-results.ts';

function record(prompt: string): ResultRecord {
  const r = Object.fromEntries(RESULT_COLUMNS.map((c) => [c, null])) as ResultRecord;
  return { ...r, run: 1, prompt };
}

/**
 * The records of CSV text as lenient readers take it (Python's csv, spreadsheets): outside quotes CRLF, a bare LF
 * and a bare CR each end a record; quoted fields may hold them, commas and doubled quotes.
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else field += c;
  }
  return rows;
}

describe('results as CSV', () => {
  it('quotes fields with a bare LF or CR too: one record per item, the prompt whole', () => {
    const prompts = ['材料：\n这个地方我以前来过', 'a\rb', 'x, "y"', 'plain', 'crlf\r\nend'];
    const text = formatRecords(prompts.map(record), 'csv', true);
    const rows = parseCsv(text);
    expect(rows).toHaveLength(prompts.length + 1);
    expect(rows.every((r) => r.length === RESULT_COLUMNS.length)).toBe(true);
    const at = RESULT_COLUMNS.indexOf('prompt');
    expect(rows.slice(1).map((r) => r[at])).toEqual(prompts);
  });
});
