import { describe, expect, it } from 'vitest';
import { EmojiMap, normaliseEmoji } from '../../../src/arena/emoji.ts';
import { battleContent, revealContent } from '../../../src/arena/message.ts';

const map = new EmojiMap({
  discord: { left: '👈', equal: '🤝', right: '👉', bothbad: '👎' },
  slack: { left: 'point_left', equal: 'handshake', right: 'point_right', bothbad: '-1' },
  shell: { left: '⬅️', equal: '🟰', right: '➡️', bothbad: '👎' },
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

  it('folds every presentation and modifier form', () => {
    const arrows = new EmojiMap({
      discord: { left: '⬅️', equal: '🟰', right: '➡️', bothbad: '👎' },
      slack: {
        left: 'arrow_left',
        equal: 'heavy_equals_sign',
        right: 'arrow_right',
        bothbad: '-1',
      },
      shell: { left: '⬅️', equal: '🟰', right: '➡️', bothbad: '👎' },
    });
    expect(arrows.choiceOf('discord', '\u{27A1}\u{FE0E}')).toBe('right'); // ➡︎ text presentation
    expect(arrows.choiceOf('discord', '\u{27A1}')).toBe('right'); // bare
    expect(arrows.choiceOf('discord', '\u{27A1}\u{FE0F}')).toBe('right');
    expect(arrows.choiceOf('discord', '\u{2B05}\u{FE0E}')).toBe('left');
    expect(arrows.choiceOf('shell', '\u{27A1}\u{FE0E}')).toBe('right');
    expect(arrows.choiceOf('discord', '🟰\u{FE0F}')).toBe('equal');
    // Skin tones on person emoji, with or without FE0F, and a dangling ZWJ.
    expect(map.choiceOf('discord', '👈🏻\u{FE0F}')).toBe('left');
    expect(map.choiceOf('discord', '👉\u{200D}')).toBe('right');
    expect(map.choiceOf('discord', '🤝🏼')).toBe('equal');
    // Keycaps: with and without FE0F are one emoji; a plain digit is another.
    const keys = new EmojiMap({
      discord: { left: '1️⃣', equal: '2️⃣', right: '3️⃣', bothbad: '👎' },
      slack: { left: 'one', equal: 'two', right: 'three', bothbad: '-1' },
      shell: { left: '1️⃣', equal: '2️⃣', right: '3️⃣', bothbad: '👎' },
    });
    expect(keys.choiceOf('discord', '1\u{20E3}')).toBe('left');
    expect(keys.choiceOf('discord', '3\u{FE0E}\u{20E3}')).toBe('right');
    expect(keys.choiceOf('discord', '1')).toBeUndefined();
    // Slack: two-person skin tones and upper case.
    expect(map.choiceOf('slack', 'handshake::skin-tone-2::skin-tone-5')).toBe('equal');
    expect(map.choiceOf('slack', ':Point_Left:')).toBe('left');
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
    number: 7,
    prompt: 'Say hi',
    leftAnswer: 'hi',
    rightAnswer: 'hello',
    emoji: ['⬅️', '🟰', '➡️', '👎'] as const,
  };
  it('has the title, the three sections and the voting footer, and no model names', () => {
    const c = battleContent({ ...v, emoji: [...v.emoji] as [string, string, string, string] });
    expect(c.title).toBe('Arena battle #7');
    expect(c.sections?.map((s) => s.heading)).toEqual(['Prompt', 'Left answer', 'Right answer']);
    expect(c.footer).toContain('⬅️ left is better');
  });
  it('reveal adds models and tally', () => {
    const c = revealContent({
      ...v,
      emoji: [...v.emoji] as [string, string, string, string],
      leftModel: 'a-model',
      rightModel: 'b-model',
      tally: { left: 2, equal: 1, right: 0, bothbad: 3 },
    });
    expect(c.footer).toContain('Left: a-model · Right: b-model · tally ⬅️ 2 🟰 1 ➡️ 0 👎 3');
  });
});
