import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  IdentityGuard,
  modelTokens,
  normalizeForGuard,
} from '../../../src/arena/identity-guard.ts';

describe('modelTokens', () => {
  it('splits vendor tokens from model names', () => {
    expect(modelTokens('gpt-3.5-turbo-0301')).toEqual(['gpt-3.5-turbo-0301', 'gpt']);
    expect(modelTokens('gpt4_1106_preview')).toEqual(['gpt4_1106_preview', 'gpt']);
    expect(modelTokens('OpenHermes-2.5-Mistral-7B')).toEqual([
      'openhermes-2.5-mistral-7b',
      'openhermes',
      'mistral',
    ]);
    expect(modelTokens('chatglm2-6b')).toEqual([
      'chatglm2-6b',
      'chatglm',
      '智谱清言',
      '智谱',
      '清言',
    ]);
    expect(modelTokens('claude-2')).toEqual(['claude-2', 'claude']);
    expect(modelTokens('alpaca-7b')).toEqual(['alpaca-7b', 'alpaca', '羊驼']);
    expect(modelTokens('qwen-14b-chat')).toEqual([
      'qwen-14b-chat',
      'qwen',
      '通义千问',
      '通义',
      '千问',
    ]);
    expect(modelTokens('ＣｈａｔＧＬＭ２－６Ｂ')).toEqual([
      'chatglm2-6b',
      'chatglm',
      '智谱清言',
      '智谱',
      '清言',
    ]);
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

describe('IdentityGuard on mixed Chinese/Latin text', () => {
  const config = parse(readFileSync(join(process.cwd(), 'config', 'default.yaml'), 'utf8')) as {
    arena: { identity_guard: { words: string[]; patterns: string[] } };
  };
  const guard = new IdentityGuard(config.arena.identity_guard);
  const battle = ['claude-2', 'gpt-3.5-turbo-0301'];

  it('refuses the two answers of the issue: names glued to Han text and full-width punctuation', () => {
    expect(guard.check('我是ChatGPT，一个由OpenAI训练的大型语言模型。', [])).toMatchObject({
      kind: 'word',
      term: 'openai',
    });
    expect(guard.check('我是ChatGPT，一个大型语言模型。', [])).toMatchObject({ term: 'chatgpt' });
    expect(guard.check('你好！我是Claude，由Anthropic开发的AI助手。', [])).toMatchObject({
      term: 'anthropic',
    });
    expect(guard.check('你好！我是Claude，由Anthropic开发的AI助手。', battle)).toMatchObject({
      kind: 'model',
      term: 'claude',
    });
    expect(
      guard.checkPair('我是ChatGPT，一个由OpenAI训练的大型语言模型。', '一个普通的回答。', battle),
    ).toMatchObject({ side: 'left' });
  });

  const refused: [string, readonly string[]][] = [
    ['我是Claude。', battle], // Han on the left, full-width full stop on the right
    ['我叫Claude2，很高兴认识你', battle], // version digits, full-width comma
    ['这是GPT-4给出的答案', battle], // Han on both sides
    ['（ChatGPT）', []], // full-width parentheses
    ['「Claude」です', battle], // CJK brackets, kana
    ['私はClaudeです。', battle], // kana glued
    ['저는 Claude입니다', battle], // Hangul particle glued
    ['我是ＣｈａｔＧＰＴ，', []], // full-width Latin letters (NFKC)
    ['我是Ｃｌａｕｄｅ', battle],
    ['ＯｐｅｎＡＩ训练了我', []],
    ['我是Cl\u200baude', battle], // a zero-width space inside the name
    ['我是Chat\u00adGPT', []], // a soft hyphen inside the name
    ['我是通义千问，阿里云开发的模型', []],
    ['我是千问', ['qwen-14b-chat', 'alpaca-7b']],
    ['我是文心一言', ['ernie-bot', 'alpaca-7b']],
    ['我是智谱清言', ['chatglm2-6b', 'alpaca-7b']],
    ['作为月之暗面开发的助手', []],
    ['我是由谷歌公司开发的大型语言模型', []],
    ['我是一个由腾讯训练的模型', []],
    ['本模型由字节跳动研发', []],
    ['我是小羊驼', ['vicuna-13b', 'alpaca-7b']],
  ];
  it.each(refused)('refuses %s', (text, models) => {
    expect(guard.check(text, models)).toBeDefined();
  });

  const innocent: [string, readonly string[]][] = [
    ['我是一个AI助手，很高兴为你服务。', battle],
    ['Python的列表推导式很好用，例如[x*x for x in range(10)]。', battle],
    ['Claudette是一个法语名字。', battle], // a longer Latin word
    ['我用腾讯视频看电影，也用谷歌搜索。', battle], // vendor names as everyday words
    ['今天的天气很好，适合出去散步。', battle],
    ['ＡＢＣ是字母表的前三个字母', battle], // full-width Latin, nothing identifying
    ['GPTQ是一种量化方法', battle], // `gpt` glued to a Latin letter on the right
  ];
  it.each(innocent)('lets %s pass', (text, models) => {
    expect(guard.check(text, models)).toBeUndefined();
  });

  it('normalisation is idempotent', () => {
    for (const [t] of [...refused, ...innocent]) {
      expect(normalizeForGuard(normalizeForGuard(t))).toBe(normalizeForGuard(t));
    }
  });
});
