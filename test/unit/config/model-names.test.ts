/**
 * The one rule of model names (config/schema.ts `modelNameProblem`, used by config/models.yaml, `--model`,
 * `--judge` and every import): 1–200 printable characters, no control characters or line breaks, no space at
 * either end.
 */
import { describe, expect, it } from 'vitest';
import { modelNameProblem } from '../../../src/config/schema.ts';

/** [name, undefined when accepted, else a word of the problem]. */
const TABLE: [string, string | undefined][] = [
  ['gpt-4o', undefined],
  ['GPT 3.5 Turbo (16k)', undefined],
  ['Code Llama Instruct (13B)', undefined],
  ['文心一言 4.0', undefined],
  ['meta-llama/Llama-3-70b-chat-hf', undefined],
  ['claude-3-5-sonnet@20240620', undefined],
  ['<b>model</b> & "quotes" \'single\'', undefined],
  ['*bold* _italic_ ~strike~ `code` | [link](x) # > @everyone', undefined],
  ['name with  two spaces inside', undefined],
  ['😀 emoji model', undefined],
  ['x'.repeat(200), undefined],
  ['𠀀'.repeat(200), undefined], // 200 characters, 400 UTF-16 units
  ['', 'empty'],
  [' ', 'blank'],
  ['x'.repeat(201), 'over 200'],
  ['𠀀'.repeat(201), 'over 200'],
  [' leading', 'space'],
  ['trailing ', 'space'],
  ['tab\there', 'U+0009'],
  ['line\nbreak', 'U+000A'],
  ['carriage\rreturn', 'U+000D'],
  ['nul\u0000', 'U+0000'],
  ['del\u007f', 'U+007F'],
  ['next\u0085line', 'U+0085'],
  ['line\u2028separator', 'U+2028'],
  ['para\u2029separator', 'U+2029'],
  ['zero\u200bwidth', 'U+200B'],
  ['\ufeffbom', 'U+FEFF'],
  ['bidi\u202eoverride', 'U+202E'],
  ['no\u00a0break', 'U+00A0'],
  ['ideographic\u3000space', 'U+3000'],
  ['private\ue000use', 'U+E000'],
  ['lone \ud800 surrogate', 'U+D800'],
];

describe('model names: one rule for every reader', () => {
  it.each(TABLE)('%j → %s', (name, problem) => {
    const got = modelNameProblem(name);
    if (problem === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(problem);
  });
});
