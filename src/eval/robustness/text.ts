/**
 * @module eval/robustness/text
 * Where a perturbation may touch a question's text: its code points, with the ones to leave alone marked. Left
 * alone: option lines (`A. …`), the label that opens a line (`文章：`, `问题：`, `题目：`, `前提：`), and every
 * occurrence of a textual reference answer (a span dataset's gold answers, which must stay findable in the passage).
 */

/** A text as code points, with the positions a perturbation may change. */
export interface EditableText {
  readonly chars: readonly string[];
  /** `editable[i]`: code point `i` may be changed. */
  readonly editable: readonly boolean[];
}

const OPTION_LINE = /^[A-Z][.．、]\s?/;
const LINE_LABEL = /^[\p{Script=Han}]{1,4}[：:]/u;

/** The textual reference answers of `reference` (a string or a list of strings), else none. */
export function textReferences(reference: unknown): string[] {
  if (typeof reference === 'string') return reference.trim() === '' ? [] : [reference];
  if (Array.isArray(reference))
    return reference.filter((r): r is string => typeof r === 'string' && r.trim() !== '');
  return [];
}

/** Marks what of `text` a perturbation may change (see the module doc). Pure. */
export function editableText(text: string, reference: unknown): EditableText {
  const chars = Array.from(text);
  const editable = chars.map(() => true);
  let at = 0;
  for (const line of text.split('\n')) {
    const n = Array.from(line).length;
    const label = LINE_LABEL.exec(line);
    const fixed = OPTION_LINE.test(line) ? n : label ? Array.from(label[0]).length : 0;
    for (let i = 0; i < fixed; i++) editable[at + i] = false;
    at += n + 1; // the newline
  }
  for (const ref of textReferences(reference)) {
    const refChars = Array.from(ref);
    for (let i = 0; i + refChars.length <= chars.length; i++) {
      let same = true;
      for (let j = 0; j < refChars.length && same; j++) same = chars[i + j] === refChars[j];
      if (same) for (let j = 0; j < refChars.length; j++) editable[i + j] = false;
    }
  }
  for (let i = 0; i < chars.length; i++) if (chars[i] === '\n') editable[i] = false;
  return { chars, editable };
}
