/**
 * Long content within the platforms' limits (chat/render/fit.ts and the renderers' fitted layout), checked with
 * the limits the wire fakes enforce as Discord and Slack do: a battle cut to `maxMessages`, the cut said with its
 * size, the full text whole, and a reveal that changes the first message only.
 */
import { describe, expect, it } from 'vitest';
import { battleContent, revealContent } from '../../../src/arena/message.ts';
import { renderDiscordFitted, renderDiscordMessages } from '../../../src/chat/discord/render.ts';
import { cutBody, fullText } from '../../../src/chat/render/index.ts';
import { renderSlackFitted, renderSlackMessages } from '../../../src/chat/slack/render.ts';
import { discordMessageErrors } from '../../fakes/discord.ts';
import { slackMessageError } from '../../fakes/slack.ts';

const para = (tag: string, i: number): string =>
  `${tag} ${i}: the tide rises and falls twice a day as the moon pulls the sea, and the sun adds its pull.`;
const long = (tag: string, n: number): string =>
  Array.from({ length: Math.ceil(n / 90) }, (_, i) => para(tag, i))
    .join('\n\n')
    .slice(0, n);

const view = (maxMessages: number) => ({
  number: 12,
  prompt: 'Explain tides.',
  leftAnswer: long('Left', 120_000),
  rightAnswer: long('Right', 30_000),
  emoji: ['⬅️', '🟰', '➡️', '👎'] as const,
  closesAt: new Date('2026-01-02T00:00:00Z'),
  maxMessages,
});
const reveal = (maxMessages: number) =>
  revealContent({
    ...view(maxMessages),
    leftModel: 'model-a',
    rightModel: 'model-b',
    tally: { left: 3, equal: 1, right: 2, bothbad: 1 },
    closeReason: 'window',
  });

describe('battles that fit', () => {
  it('Discord: at most max_messages within every limit, the cut said, the reveal changes message 1 only', () => {
    for (const max of [1, 2, 3, 5]) {
      const battle = renderDiscordFitted(battleContent(view(max)), max);
      expect(battle.messages.length).toBeLessThanOrEqual(max);
      expect(battle.cutChars).toBeGreaterThan(0);
      for (const m of battle.messages) expect(discordMessageErrors({ ...m })).toBeUndefined();
      expect(JSON.stringify(battle.messages)).toMatch(
        /\[… [\d,]+ more characters not shown: the full text is in battle-12\.txt, attached to the first message\]/u,
      );
      const after = renderDiscordFitted(reveal(max), battle.messages.length).messages;
      expect(after).toHaveLength(battle.messages.length);
      for (const m of after) expect(discordMessageErrors({ ...m })).toBeUndefined();
      expect(after.slice(1)).toEqual(battle.messages.slice(1));
      expect(after[0]).not.toEqual(battle.messages[0]);
    }
    // Without a limit the same battle is 40 messages or so.
    const { fit: _, ...unlimited } = battleContent(view(3));
    expect(renderDiscordMessages(unlimited).length).toBeGreaterThan(10);
  });

  it('Slack: one message under 50 blocks and the block-text limit, the reveal fits the same message', () => {
    const battle = renderSlackFitted(battleContent(view(1)), 1);
    expect(battle.messages).toHaveLength(1);
    expect(slackMessageError({ ...battle.messages[0] })).toBeUndefined();
    expect(JSON.stringify(battle.messages)).toMatch(/in the first message's thread\]_/u);
    const after = renderSlackFitted(reveal(1), 1).messages;
    expect(after).toHaveLength(1);
    expect(slackMessageError({ ...after[0] })).toBeUndefined();
    // Three messages: the reveal changes the first only.
    const three = renderSlackFitted(battleContent(view(3)), 3).messages;
    expect(three.length).toBeLessThanOrEqual(3);
    expect(renderSlackFitted(reveal(3), three.length).messages.slice(1)).toEqual(three.slice(1));
  });

  it('Slack: long content without a limit is packed into messages Slack accepts (was one of 22 blocks)', () => {
    const messages = renderSlackMessages({
      text: 'Battle',
      sections: [
        { heading: 'Left', body: long('Left', 15_000) },
        { heading: 'Right', body: long('Right', 15_000) },
      ],
    });
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(slackMessageError({ ...m })).toBeUndefined();
  });

  it('the full text holds every section whole; a cut closes an open code block and says its size', () => {
    const c = battleContent(view(3));
    const text = fullText(c);
    expect(text).toContain(view(3).leftAnswer);
    expect(text).toContain(view(3).rightAnswer);
    const body = `intro\n\n\`\`\`python\n${'x = 1\n'.repeat(100)}\`\`\``;
    const cut = cutBody(body, 100, (n) => `[cut ${n}]`);
    expect(cut).toMatch(/\n```\n\n\[cut \d+\]$/u);
    expect(cutBody('short', 100, () => 'x')).toBe('short');
  });
});
