/**
 * @module chat/typed-words
 * The words of a typed command (Slack's slash-command text, a terminal line): split at whitespace, where a quoted
 * run ("…", “…”, 「…」) is one word without its quotes, also inside a word (`model:"GPT 3.5 Turbo"` is the word
 * `model:GPT 3.5 Turbo`). Model names may hold spaces (README, "Model names"), so this is how one is named in a
 * typed command. Every platform that takes typed commands splits them here, so they read a line alike.
 */

const CLOSE: Readonly<Record<string, string>> = { '"': '"', '“': '”', '「': '」' };

/**
 * Splits `text` into words (whitespace-separated; a quoted run is part of its word, quotes dropped). An unclosed
 * quote runs to the end of the text.
 * @returns the words, none empty (a lone `""` is dropped).
 */
export function typedWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const close = CLOSE[c];
    if (close) {
      const end = text.indexOf(close, i + 1);
      word += text.slice(i + 1, end < 0 ? text.length : end);
      inWord = true;
      i = end < 0 ? text.length : end;
    } else if (/\s/u.test(c)) {
      if (inWord && word !== '') words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord && word !== '') words.push(word);
  return words;
}

/**
 * A command's arguments from its typed text: `name=value` words for the options named in `optionNames`, and the
 * other words given to the remaining options in order (quoted runs as in {@link typedWords}).
 * @param optionNames the command's option names, in their order.
 */
export function typedArgs(text: string, optionNames: readonly string[]): Record<string, string> {
  const names = new Set(optionNames);
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const w of typedWords(text)) {
    const eq = w.indexOf('=');
    const key = eq > 0 ? w.slice(0, eq) : '';
    if (key && names.has(key)) args[key] = w.slice(eq + 1);
    else positional.push(w);
  }
  for (const name of optionNames) {
    if (args[name] !== undefined) continue;
    const next = positional.shift();
    if (next === undefined) break;
    args[name] = next;
  }
  return args;
}
