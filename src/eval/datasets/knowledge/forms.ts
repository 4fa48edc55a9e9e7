/**
 * @module eval/datasets/knowledge/forms
 * The accepted forms of a constructed answer (docs/scoring.md §2.8): a number in Arabic and Chinese numerals,
 * with and without its unit; a date as 某月某日, with its year, and in ISO form; a pinyin syllable with tone marks
 * and with a tone number. Exact match compares the normalised answer with each form. Pure.
 */

const DIGITS = '零一二三四五六七八九';

/**
 * A whole number 0–99 in Chinese numerals (`10` → 十, `21` → 二十一).
 * @throws RangeError outside 0–99.
 */
export function chineseNumber(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 99)
    throw new RangeError(`chineseNumber: ${n} is not 0–99`);
  if (n < 10) return DIGITS[n] as string;
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return `${tens === 1 ? '' : DIGITS[tens]}十${ones === 0 ? '' : DIGITS[ones]}`;
}

/** `n` as 8, 八, 8天, 八天 (with `unit`). */
export function numberForms(n: number, unit: string): string[] {
  const cn = chineseNumber(n);
  return [String(n), `${n}${unit}`, cn, `${cn}${unit}`];
}

/**
 * An ISO date `YYYY-MM-DD` as 1月28日 (first: the reference form), 2025年1月28日, 01月28日, 2025-01-28, 1/28.
 * @throws RangeError for a string that is not an ISO date.
 */
export function dateForms(iso: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new RangeError(`dateForms: "${iso}" is not YYYY-MM-DD`);
  const [, y, mm, dd] = m as unknown as [string, string, string, string];
  const md = `${Number(mm)}月${Number(dd)}日`;
  return [...new Set([md, `${y}年${md}`, `${mm}月${dd}日`, iso, `${Number(mm)}/${Number(dd)}`])];
}

const TONE_MARKS: Readonly<Record<string, [string, number]>> = Object.fromEntries(
  ['āáǎà', 'ēéěè', 'īíǐì', 'ōóǒò', 'ūúǔù', 'ǖǘǚǜ'].flatMap((marks, v) =>
    [...marks].map((c, t) => [c, ['aeiouü'[v] as string, t + 1]]),
  ),
);

/**
 * The tone of a pinyin syllable written with tone marks (1–4; 5 for the neutral tone, no mark), and the syllable
 * with a tone number (`hàn` → `han4`, `lǜ` → `lü4`).
 */
export function toneOf(syllable: string): { tone: number; numbered: string } {
  let tone = 5;
  let plain = '';
  for (const c of syllable.normalize('NFC')) {
    const m = TONE_MARKS[c];
    if (m) {
      tone = m[1];
      plain += m[0];
    } else plain += c;
  }
  return { tone, numbered: `${plain}${tone === 5 ? '' : tone}` };
}

/** Accepted forms of a pinyin syllable: `hàn`, `han4`; with ü also `lv4` and `lu:4`. */
export function pinyinForms(syllable: string): string[] {
  const { numbered } = toneOf(syllable);
  const out = [syllable, numbered];
  if (numbered.includes('ü')) out.push(numbered.replace('ü', 'v'), numbered.replace('ü', 'u:'));
  return out;
}

/** The names of the four tones, for answers: 第四声, 四声, 4, 去声 (tone 1–4). */
export function toneForms(tone: number): string[] {
  const names = ['阴平', '阳平', '上声', '去声'];
  const cn = chineseNumber(tone);
  return [`第${cn}声`, `${cn}声`, String(tone), `第${tone}声`, names[tone - 1] as string];
}
