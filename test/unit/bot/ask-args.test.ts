/**
 * `/ask`'s ability (src/bot/commands/ask.ts `parseAskArgs`) and `/arena ability`'s: an ability is its id or its
 * display name in either language, as the Discord option (`ability: 推理`) or typed (Slack, the terminal:
 * `/ask 91 是质数吗？ 推理`, `ability=知识`); one nobody knows is refused in the asker's language with the
 * abilities and a "did you mean" in that language.
 */
import { describe, expect, it } from 'vitest';
import { arenaSubcommand, parseAskArgs } from '../../../src/bot/commands/ask.ts';

const typed = (text: string) => ({ args: {}, text });
const option = (prompt: string, ability: string) => ({ args: { prompt, ability }, text: '' });

describe('/ask ability names', () => {
  it('takes the Chinese name as the Discord option and typed, as the last word or ability=', () => {
    expect(parseAskArgs(option('91 是质数吗？', '推理'))).toEqual({
      ok: true,
      prompt: '91 是质数吗？',
      ability: 'reasoning',
    });
    expect(parseAskArgs(typed('91 是质数吗？ 推理'), 'zh-CN')).toEqual({
      ok: true,
      prompt: '91 是质数吗？',
      ability: 'reasoning',
    });
    expect(parseAskArgs(typed('ability=知识 长城有多长？'), 'zh-CN')).toEqual({
      ok: true,
      prompt: '长城有多长？',
      ability: 'knowledge',
    });
    expect(parseAskArgs(option('Is 91 prime?', 'Reasoning'))).toMatchObject({
      ability: 'reasoning',
    });
    // A last word that names no ability stays in the prompt.
    expect(parseAskArgs(typed('长城有多长 知识点'))).toEqual({
      ok: true,
      prompt: '长城有多长 知识点',
    });
  });

  it('refuses a misspelt ability with a did-you-mean in the asker language', () => {
    const zh = parseAskArgs(option('91 是质数吗？', '推里'), 'zh-CN');
    expect(zh.ok ? '' : zh.reason).toBe(
      '未知的能力“推里”。请使用以下之一：知识、中文特定、语言、推理、拒答、安全、鲁棒性（或不填：由竞技场自动分类）。你是不是想输入“推理”？',
    );
    const en = parseAskArgs(typed('ability=推里 Is 91 prime?'), 'en');
    expect(en.ok ? '' : en.reason).toMatch(
      /^Unknown ability "推里"\. .* Did you mean "reasoning"\?$/u,
    );
    const far = parseAskArgs(option('x', 'cooking'), 'en');
    expect(far.ok ? '' : far.reason).not.toContain('Did you mean');
  });

  it('/arena ability 12 推理 reads the battle and the typed name', () => {
    expect(arenaSubcommand(typed('ability 12 推理'))).toEqual({
      kind: 'ability',
      battle: '12',
      ability: '推理',
    });
  });
});
