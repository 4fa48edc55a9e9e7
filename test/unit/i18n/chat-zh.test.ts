/**
 * Chat surfaces in Simplified Chinese, through the real renderers (chat/discord/render, chat/slack/render,
 * chat/shell/render): the battle message and its reveal, an `/ask` refusal, the help. Each render must carry
 * Chinese and no English sentence of its own (what is left is data: model names, typed command words, emoji
 * names, numbers), and stay within the platform's limits (Discord 2,000 characters a message, Slack blocks).
 */
import { describe, expect, it } from 'vitest';
import { followUpRefusal, promptRefusal, rateRefusal } from '../../../src/arena/ask-policy.ts';
import { progressContent } from '../../../src/arena/ask-progress.ts';
import { battleContent, revealContent } from '../../../src/arena/message.ts';
import { type CommandDeps, createCommandHandler } from '../../../src/bot/commands/handlers.ts';
import { COMMAND_SPECS } from '../../../src/bot/commands/specs.ts';
import { DISCORD_LIMITS, renderDiscordMessages } from '../../../src/chat/discord/render.ts';
import { commandNameList } from '../../../src/chat/help.ts';
import type { CommandContext, MessageContent } from '../../../src/chat/port.ts';
import { shellHelp } from '../../../src/chat/shell/adapter.ts';
import { renderPlain } from '../../../src/chat/shell/render.ts';
import { renderSlackMessages } from '../../../src/chat/slack/render.ts';
import { appConfigSchema } from '../../../src/config/schema.ts';
import { silentLogger } from '../../../src/core/logger.ts';

const CJK = /[\u3400-\u9fff]/u;

/** The words of `s` in Latin letters (3 or more), minus the allowed ones (data and command words). */
function englishWords(s: string, allowed: readonly string[]): string[] {
  let rest = s;
  for (const a of allowed) rest = rest.replaceAll(a, ' ');
  return rest.match(/[A-Za-z]{3,}/gu) ?? [];
}

/** The texts a rendered message shows: its string values, minus those of structural keys (block types, ids). */
function shownTexts(x: unknown, key = ''): string[] {
  if (typeof x === 'string')
    return ['type', 'style', 'custom_id', 'action_id', 'block_id', 'value'].includes(key)
      ? []
      : [x];
  if (Array.isArray(x)) return x.flatMap((y) => shownTexts(y, key));
  if (x && typeof x === 'object') return Object.entries(x).flatMap(([k, v]) => shownTexts(v, k));
  return [];
}

/** Each render of `c`: Discord messages, Slack messages (as their shown texts), the terminal's text. */
function everyRender(c: MessageContent): string[] {
  return [
    ...renderDiscordMessages(c).map((m) => shownTexts(m).join('\n')),
    ...renderSlackMessages(c).map((m) => shownTexts(m).join('\n')),
    renderPlain(c),
  ];
}

const view = {
  number: 12,
  prompt: '用一句话解释量子纠缠。',
  leftAnswer: '两个粒子的状态相互关联。',
  rightAnswer: '这是一种非经典的关联。',
  emoji: ['⬅️', '🟰', '➡️', '👎'] as [string, string, string, string],
  closesAt: new Date('2026-01-02T03:04:05.678Z'),
};
describe('chat surfaces in zh-CN', () => {
  it('the battle message, in each voting style, is Chinese through every renderer', () => {
    for (const voting of ['reactions', 'buttons', 'typed'] as const) {
      const c = battleContent(view, { voting, emojiText: 'unicode' }, 'zh-CN');
      expect(c.title).toBe('竞技场对战 #12');
      expect(c.footer).toContain('投票截止时间 2026-01-02T03:04:05Z。');
      for (const r of everyRender(c)) {
        expect(r).toMatch(CJK);
        expect(englishWords(r, ['vote', 'unvote', 'left', 'equal', 'right', 'bothbad'])).toEqual(
          [],
        );
      }
    }
    const buttons = battleContent(view, { voting: 'buttons', emojiText: 'unicode' }, 'zh-CN');
    expect(buttons.buttons?.map((b) => b.label)).toEqual([
      '左边更好',
      '一样好',
      '右边更好',
      '都不好',
    ]);
  });

  it('the reveal names the models and why voting ended, in Chinese', () => {
    const reveal = revealContent(
      {
        ...view,
        leftModel: 'Qwen2.5-72B',
        rightModel: 'GLM-4',
        tally: { left: 3, equal: 1, right: 2, bothbad: 0 },
        closeReason: 'vote_cap',
        closeCap: 6,
      },
      'unicode',
      'zh-CN',
    );
    expect(reveal.title).toBe('竞技场对战 #12（已结束）');
    expect(reveal.footer).toBe(
      '投票已结束（达到了 6 票的投票上限）。左：Qwen2.5-72B · 右：GLM-4 · 计票 ⬅️ 3 🟰 1 ➡️ 2 👎 0',
    );
    for (const r of everyRender(reveal)) expect(englishWords(r, ['Qwen', 'GLM'])).toEqual([]);
  });

  it('a long Chinese battle stays within Discord and Slack limits', () => {
    const long = { ...view, leftAnswer: '长'.repeat(9_000), maxMessages: 3 };
    const c = battleContent(long, { voting: 'reactions', emojiText: 'unicode' }, 'zh-CN');
    const discord = renderDiscordMessages(c);
    expect(discord.length).toBeLessThanOrEqual(3);
    for (const m of discord) {
      expect((m.content ?? '').length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
      for (const e of m.embeds ?? [])
        expect((e.description ?? '').length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
    }
    expect(renderSlackMessages(c).length).toBeLessThanOrEqual(3);
  });

  it('/ask refusals and the progress message are Chinese', () => {
    const refusals = [
      promptRefusal('', 100, 'zh-CN'),
      promptRefusal('长'.repeat(101), 100, 'zh-CN'),
      promptRefusal('你是谁？', 100, 'zh-CN'),
      rateRefusal(
        { askTimes: [new Date(0), new Date(60_000)], inFlight: 0, now: 120_000 },
        { max: 2, window_minutes: 10 },
        'zh-CN',
      ),
      followUpRefusal(
        {
          number: 7,
          status: 'closed',
          closeReason: 'window',
          closeCap: null,
          live: true,
          turns: 1,
        },
        5,
        'zh-CN',
      ),
    ];
    expect(refusals[1]?.text).toBe('你的问题有 101 个字符，竞技场最多接受 100 个。请缩短后再问。');
    expect(refusals[3]?.text).toContain('大约 8 分钟后可以再问');
    expect(refusals[4]?.text).toBe(
      '对战 #7 的投票已结束（投票时间已结束），对话也随之结束。请用 /ask 提一个新问题。',
    );
    for (const r of refusals) {
      const c = { text: r?.text ?? '' };
      for (const shown of everyRender(c)) {
        expect(shown).toMatch(CJK);
        expect(englishWords(shown, ['ask', 'reasoning'])).toEqual([]);
      }
    }
    const progress = progressContent(
      '潮汐是怎么形成的？',
      [
        { ready: true, note: '' },
        { ready: false, note: '' },
      ],
      'zh-CN',
    );
    expect(progress.footer).toBe('已完成回答：1/2。两个回答都到齐后发布对战。');
    for (const shown of everyRender(progress)) expect(englishWords(shown, [])).toEqual([]);
    // Two replacement notes: Chinese sentences follow each other without a space after 。.
    const noted = progressContent(
      '潮汐是怎么形成的？',
      [
        { ready: false, note: '一个模型没有及时回答，已换另一个模型回答。' },
        { ready: false, note: '另一个模型也没有回答，已再换一个。' },
      ],
      'zh-CN',
    );
    expect(noted.footer).toContain('已换另一个模型回答。另一个模型也没有回答');
    expect(noted.footer).not.toMatch(/。 /u);
  });

  it('the help describes every command form in Chinese; the forms stay as they are typed', () => {
    const help = shellHelp(COMMAND_SPECS, 'zh-CN');
    const lines = help.split('\n');
    expect(lines[0]).toBe('命令：');
    expect(lines).toContain(
      '  /ask <prompt> [ability]     两个匿名的在线模型回答你的问题；为回答投票',
    );
    // Every line after the heading: a typed form (ASCII), then its description in Chinese.
    for (const l of lines.slice(1)) {
      const what = l.replace(/^\s+\S.*?\s{2,}/u, '');
      expect(what, l).toMatch(CJK);
    }
    expect(commandNameList(COMMAND_SPECS, 'zh-CN')).toBe(
      '/arena、/ask、/leaderboard、/judge、/eval、/submit 或 /models',
    );
  });

  it("a reply only the caller sees follows the caller's language over the configured one", async () => {
    // The unknown-command and maintainers-only answers need only the config and a logger (no database).
    const deps = {
      config: appConfigSchema.parse({ locale: 'en' }),
      logger: silentLogger,
    } as unknown as CommandDeps;
    const onCommand = createCommandHandler(deps);
    const replies: MessageContent[] = [];
    const ctx = (name: string, locale?: 'zh-CN'): CommandContext => ({
      platform: 'discord',
      eventId: `e-${name}`,
      name,
      args: {},
      text: '',
      user: { id: 'u1', name: 'u1', roles: [] },
      channelId: 'c1',
      ...(locale ? { locale } : {}),
      reply: async (c) => {
        replies.push(c);
      },
    });
    await onCommand(ctx('nope', 'zh-CN'));
    await onCommand(ctx('arena', 'zh-CN'));
    await onCommand(ctx('nope'));
    expect(replies.map((r) => r.text)).toEqual([
      '未知的命令 /nope。可以试试 /arena、/ask、/leaderboard、/judge、/eval、/submit 或 /models。',
      '抱歉，只有竞技场维护者可以使用这个命令。维护者发起对战后，给它添加表情回应即可投票！',
      'Unknown command /nope. Try /arena, /ask, /leaderboard, /judge, /eval, /submit or /models.',
    ]);
    // Command names are typed as they are.
    const names = ['nope', ...COMMAND_SPECS.map((c) => c.name)];
    for (const r of replies.slice(0, 2))
      for (const shown of everyRender(r)) expect(englishWords(shown, names)).toEqual([]);
  });
});
