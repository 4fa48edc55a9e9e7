/**
 * The slash command list (bot/commands/specs.ts) in Chinese: every fixed choice of every option has a zh-CN name
 * (Discord's choice `name_localizations`), so a Chinese Discord user never picks from English words.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_SPECS } from '../../../src/bot/commands/specs.ts';

describe('slash command choices', () => {
  it('every choice of every option has a Chinese name (Discord: at most 100 characters)', () => {
    const missing: string[] = [];
    let choices = 0;
    for (const c of COMMAND_SPECS)
      for (const o of c.options)
        for (const ch of o.choices ?? []) {
          choices++;
          const zh = o.choiceLocalizations?.[ch]?.['zh-CN'];
          if (zh === undefined || !/\p{Script=Han}/u.test(zh) || zh.length > 100)
            missing.push(`/${c.name} ${o.name}: ${ch} → ${zh}`);
        }
    expect(missing).toEqual([]);
    // The options with fixed choices: /arena ability and list, /ask ability, /leaderboard view, the actions.
    expect(choices).toBeGreaterThanOrEqual(25);
  });

  it('names the non-ability choices from the catalogue', () => {
    const choiceOf = (command: string, option: string, value: string) =>
      COMMAND_SPECS.find((c) => c.name === command)?.options.find((o) => o.name === option)
        ?.choiceLocalizations?.[value];
    expect(choiceOf('leaderboard', 'view', 'overall')).toEqual({ 'zh-CN': '总榜' });
    expect(choiceOf('arena', 'list', 'flagged')).toEqual({ 'zh-CN': '被标记的投票' });
    expect(choiceOf('eval', 'action', 'cancel')).toEqual({ 'zh-CN': '取消' });
    expect(choiceOf('submit', 'action', 'approve')).toEqual({ 'zh-CN': '批准' });
    expect(choiceOf('judge', 'action', 'agree')).toEqual({ 'zh-CN': '一致性' });
  });
});
