/**
 * @module config/model-name
 * The one rule for model names, shared by config/models.yaml (config/schema.ts), `--model` / `--judge` and every
 * import (`import outputs`, `import battles`, `import judgments`, GAOKAO-Bench files, `ratings --battles`). No
 * dependencies, so the light commands that read names load nothing heavy. Pure.
 */

/** Longest model name (characters): the database's limit (`models.name`, migrations/0001). */
export const MAX_MODEL_NAME_CHARS = 200;

/**
 * Characters a model name may not hold: Python's `str.isprintable()` rule (Unicode categories Cc control, Cf format,
 * Cs surrogate, Co private use, Cn unassigned, Zl / Zp line and paragraph separators, and every Zs space but
 * U+0020), so tabs, line breaks, zero-width and bidi-override characters are refused.
 */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

/**
 * The one rule for model names, in every reader (config/models.yaml, `--model`, `--judge`, the model names inside
 * imported files): public names as they are, `GPT 3.5 Turbo (16k)`, `文心一言 4.0`, `Code Llama Instruct (13B)`:
 * 1–200 characters (code points; the database's limit) of printable text (no {@link NOT_PRINTABLE} character, so
 * no control characters or line breaks), with no space at either end. Wherever a name is shown it is escaped for
 * that medium (HTML on the results page, Markdown in chat, text in the chart).
 * @returns a phrase to put after the name (e.g. `starts or ends with a space; remove it`), or undefined when the
 *   name is fine.
 */
export function modelNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty; give the model a name';
  const n = [...name].length;
  if (n > MAX_MODEL_NAME_CHARS)
    return `is ${n} characters long, over ${MAX_MODEL_NAME_CHARS}; use a shorter name`;
  if (name.trim() === '') return 'is blank; give the model a name';
  const bad = NOT_PRINTABLE.exec(name);
  if (bad !== null) {
    const cp = bad[0].codePointAt(0) ?? 0;
    return `holds U+${cp.toString(16).toUpperCase().padStart(4, '0')}, a control, format or line-break character; use printable text only`;
  }
  if (name !== name.trim()) return 'starts or ends with a space; remove it';
  return undefined;
}
