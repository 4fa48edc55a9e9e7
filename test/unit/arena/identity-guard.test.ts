import { describe, expect, it } from 'vitest';
import { IdentityGuard, modelTokens } from '../../../src/arena/identity-guard.ts';

describe('modelTokens', () => {
  it('splits vendor tokens from model names', () => {
    expect(modelTokens('gpt-3.5-turbo-0301')).toEqual(['gpt-3.5-turbo-0301', 'gpt']);
    expect(modelTokens('gpt4_1106_preview')).toEqual(['gpt4_1106_preview', 'gpt']);
    expect(modelTokens('OpenHermes-2.5-Mistral-7B')).toEqual([
      'openhermes-2.5-mistral-7b',
      'openhermes',
      'mistral',
    ]);
    expect(modelTokens('chatglm2-6b')).toEqual(['chatglm2-6b', 'chatglm']);
    expect(modelTokens('claude-2')).toEqual(['claude-2', 'claude']);
    expect(modelTokens('alpaca-7b')).toEqual(['alpaca-7b', 'alpaca']);
  });
});

describe('IdentityGuard', () => {
  const guard = new IdentityGuard({
    words: ['openai', 'meta ai', '智谱', 'gpt-4'],
    patterns: [
      'as an ai (language )?model (developed|created|trained|made) by',
      '(我|本模型)是由.{0,12}(开发|训练|研发)',
    ],
  });
  const models = ['claude-2', 'gpt-3.5-turbo-0301'];

  it('refuses configured words case-insensitively with word-ish boundaries', () => {
    expect(guard.check('I was trained by OpenAI.', [])).toMatchObject({
      kind: 'word',
      term: 'openai',
    });
    expect(guard.check('Built by Meta AI', [])).toMatchObject({ kind: 'word', term: 'meta ai' });
    expect(guard.check('我来自智谱公司', [])).toMatchObject({ kind: 'word', term: '智谱' });
    expect(guard.check('GPT-4 is a model', [])).toMatchObject({ kind: 'word', term: 'gpt-4' });
    expect(guard.check('the reopenair festival', [])).toBeUndefined();
  });

  it('refuses configured patterns', () => {
    expect(guard.check('As an AI language model developed by a lab, I cannot', [])).toMatchObject({
      kind: 'pattern',
    });
    expect(guard.check('我是由某公司开发的助手', [])).toMatchObject({ kind: 'pattern' });
  });

  it('refuses the battle models’ names and vendor tokens, not lookalikes', () => {
    expect(guard.check("I'm Claude, an assistant", models)).toMatchObject({
      kind: 'model',
      term: 'claude',
    });
    expect(guard.check('Claude2 here', models)).toMatchObject({ kind: 'model', term: 'claude' });
    expect(guard.check('GPT4 and gpt-3.5 differ', models)).toMatchObject({
      kind: 'model',
      term: 'gpt',
    });
    expect(guard.check('Claudette is a name; ChatGPTesque is not a word', models)).toBeUndefined();
    expect(guard.check('A plain answer about cooking.', models)).toBeUndefined();
    // Knowingly refused: the vendor token of a Mistral-based model in an innocent sentence.
    expect(
      guard.check('The mistral winds blow in Provence.', ['OpenHermes-2.5-Mistral-7B']),
    ).toMatchObject({ term: 'mistral' });
  });

  it('checkPair reports the side', () => {
    expect(guard.checkPair('fine', 'I am Claude', models)).toMatchObject({
      side: 'right',
      term: 'claude',
    });
    expect(guard.checkPair('fine', 'also fine', models)).toBeUndefined();
  });
});
