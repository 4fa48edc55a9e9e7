import { describe, expect, it } from 'vitest';
import { EmojiMap, normaliseEmoji } from '../../../src/arena/emoji.ts';
import { battleContent, revealContent } from '../../../src/arena/message.ts';

const map = new EmojiMap({
  discord: { left: '👈', equal: '🤝', right: '👉' },
  slack: { left: 'point_left', equal: 'handshake', right: 'point_right' },
  shell: { left: '⬅️', equal: '🟰', right: '➡️' },
});

describe('emoji → choice', () => {
  it('normalises FE0F and skin tones on Discord and the terminal', () => {
    expect(map.choiceOf('discord', '👈')).toBe('left');
    expect(map.choiceOf('discord', '👈🏽')).toBe('left');
    expect(map.choiceOf('discord', '🤝\u{FE0F}')).toBe('equal');
    expect(map.choiceOf('shell', '⬅')).toBe('left');
    expect(map.choiceOf('shell', '➡️')).toBe('right');
    expect(map.choiceOf('discord', '🔥')).toBeUndefined();
    expect(map.choiceOf('discord', 'point_left')).toBeUndefined();
  });

  it('normalises colons and ::skin-tone-N on Slack', () => {
    expect(map.choiceOf('slack', 'point_left::skin-tone-3')).toBe('left');
    expect(map.choiceOf('slack', ':point_right:')).toBe('right');
    expect(map.choiceOf('slack', ':handshake::skin-tone-6:')).toBe('equal');
    expect(map.choiceOf('slack', '👈')).toBeUndefined();
  });

  it('normalisation is idempotent', () => {
    for (const [p, e] of [
      ['discord', '👈🏿\u{FE0F}'],
      ['slack', ':point_left::skin-tone-2:'],
    ] as const) {
      expect(normaliseEmoji(p, normaliseEmoji(p, e))).toBe(normaliseEmoji(p, e));
    }
  });
});

describe('battle message', () => {
  const v = {
    battleId: 7,
    prompt: 'Say hi',
    leftAnswer: 'hi',
    rightAnswer: 'hello',
    emoji: ['⬅️', '🟰', '➡️'] as const,
  };
  it('has the title, the three sections and the voting footer, and no model names', () => {
    const c = battleContent({ ...v, emoji: [...v.emoji] as [string, string, string] });
    expect(c.title).toBe('Arena battle #7');
    expect(c.sections?.map((s) => s.heading)).toEqual(['Prompt', 'Left answer', 'Right answer']);
    expect(c.footer).toContain('⬅️ left is better');
  });
  it('reveal adds models and tally', () => {
    const c = revealContent({
      ...v,
      emoji: [...v.emoji] as [string, string, string],
      leftModel: 'a-model',
      rightModel: 'b-model',
      tally: { left: 2, equal: 1, right: 0 },
    });
    expect(c.footer).toContain('Left: a-model · Right: b-model · tally ⬅️ 2 🟰 1 ➡️ 0');
  });
});
