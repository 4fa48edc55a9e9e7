/**
 * @module import/formats/json-locate
 * Where things are in a JSON text, so a bad row deep inside a JSON document can be reported as `file:line:
 * reason` (JSON.parse gives values without positions). Pure.
 */

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The 1-based line where each object or array value starts, by JSON path (`example.3`,
 * `data.0.paragraphs.1.qas.2`; keys and indexes joined with `.`; the root is `''`). Assumes valid JSON (call it
 * after JSON.parse succeeded). One pass over the text.
 */
export function containerLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  // Stack of open containers: for arrays the next index, for objects the last key read.
  const stack: { array: boolean; index: number; key: string }[] = [];
  let line = 1;
  let lastString = '';
  let pendingKey: string | undefined;
  const pathHere = (): string => {
    const parts: string[] = [];
    for (const f of stack) parts.push(f.array ? String(f.index) : f.key);
    return parts.join('.');
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      continue;
    }
    if (c === 34 /* " */) {
      let j = i + 1;
      let s = '';
      while (j < text.length && text.charCodeAt(j) !== 34) {
        if (text.charCodeAt(j) === 92 /* \ */) {
          s += text[j + 1] ?? '';
          j += 2;
          continue;
        }
        if (text.charCodeAt(j) === 10) line++;
        s += text[j];
        j++;
      }
      lastString = s;
      i = j;
      continue;
    }
    if (c === 58 /* : */) {
      pendingKey = lastString;
      const top = stack.at(-1);
      if (top && !top.array) top.key = pendingKey;
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      out.set(pathHere(), line);
      stack.push({ array: c === 91, index: 0, key: '' });
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      continue;
    }
    if (c === 44 /* , */) {
      const top = stack.at(-1);
      if (top?.array) top.index++;
    }
  }
  return out;
}
