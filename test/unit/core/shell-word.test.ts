/** A suggested command's values as shell words (src/core/shell-word.ts). */
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../../src/core/shell-word.ts';

describe('shellWord', () => {
  it.each([
    ['gpt-4o', 'gpt-4o'],
    ['qwen/qwen2.5-7b:free', 'qwen/qwen2.5-7b:free'],
    ['GPT 3.5 Turbo (16k)', "'GPT 3.5 Turbo (16k)'"],
    ['文心一言 4.0', "'文心一言 4.0'"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
    ['', "''"],
  ])('%j → %s', (s, word) => {
    expect(shellWord(s)).toBe(word);
  });
});
