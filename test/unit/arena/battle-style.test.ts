/** The battle message's wording follows the platform's capabilities, not its name. */
import { describe, expect, it } from 'vitest';
import { battleContent, revealContent } from '../../../src/arena/message.ts';

const v = {
  number: 12,
  prompt: 'p',
  leftAnswer: 'a',
  rightAnswer: 'b',
  emoji: ['arrow_left', 'heavy_equals_sign', 'arrow_right', '-1'] as [
    string,
    string,
    string,
    string,
  ],
};

describe('battle message by capability', () => {
  it('typed voting tells what to type; reactions say react; buttons say press', () => {
    expect(battleContent(v, { voting: 'typed', emojiText: 'unicode' }).footer).toContain(
      '`vote 12 left`',
    );
    expect(battleContent(v, { voting: 'reactions', emojiText: 'unicode' }).footer).toContain(
      'Vote by reacting',
    );
    expect(battleContent(v, { voting: 'buttons', emojiText: 'unicode' }).footer).toContain(
      'Vote with the buttons',
    );
  });

  it('shortcode emoji text writes emoji names as :name:, in the battle and in the reveal', () => {
    const shortcodes = battleContent(v, { voting: 'reactions', emojiText: 'shortcode' });
    expect(shortcodes.footer).toContain(':arrow_left: left is better');
    expect(battleContent(v).footer).toContain('arrow_left left is better');
    const tally = { left: 1, equal: 0, right: 2, bothbad: 0 };
    const reveal = { ...v, leftModel: 'm1', rightModel: 'm2', tally };
    expect(revealContent(reveal, 'shortcode').footer).toContain(':arrow_left: 1');
    expect(revealContent(reveal).footer).toContain('arrow_left 1');
  });
});
