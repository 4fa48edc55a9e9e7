/**
 * A typed vote the arena did not count: the terminal says why in the configured language, from the arena's code
 * (chat/port.ts VoteFeedback), never the code itself.
 */
import { describe, expect, it } from 'vitest';
import type { VoteFeedback } from '../../../src/chat/port.ts';
import type { Locale } from '../../../src/i18n/index.ts';
import { terminal } from './terminal.ts';

/** What the terminal prints for `vote 1 left` when the arena answers `feedback`. */
async function voteLine(feedback: VoteFeedback, locale: Locale): Promise<string> {
  const { shell, input, printed } = terminal({
    locale,
    user: { id: 'local', name: 'you', maintainer: false },
  });
  await shell.start(
    {
      onCommand: async () => {},
      onReaction: async () => feedback,
      findBattle: async () => ({
        ref: { platform: 'shell', channelId: 'c', messageId: 'm1', partIds: [] },
        status: 'open',
      }),
    },
    [],
  );
  input.end('vote 1 left\nquit\n');
  await shell.closed;
  await shell.stop();
  return (
    printed()
      .split('\n')
      .find((l) => l.includes('#1')) ?? printed()
  );
}

describe('a vote not counted on the terminal', () => {
  it('says the reason in words in both languages', async () => {
    const ignored: VoteFeedback = { kind: 'ignored', reason: 'buttons_battle' };
    expect(await voteLine(ignored, 'en')).toContain(
      'the vote on battle #1 was not counted (this battle takes votes by its buttons only)',
    );
    expect(await voteLine(ignored, 'zh-CN')).toContain(
      '对战 #1 的投票未被计入（这场对战只接受按钮投票）',
    );
    const stale: VoteFeedback = {
      kind: 'vote',
      battleId: 1,
      effect: 'ignored_stale',
      liveChoice: null,
    };
    const zh = await voteLine(stale, 'zh-CN');
    expect(zh).toContain('（这一操作早于已记录的投票）');
    expect(zh).not.toMatch(/ignored_stale/);
  });
});
