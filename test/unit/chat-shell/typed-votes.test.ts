/**
 * The terminal's typed votes reach the application through the port's handlers like every platform's reactions:
 * `findBattle` names the battle, `onReaction` stores the vote and returns what the vote rules did.
 */
import { describe, expect, it } from 'vitest';
import type { ChatHandlers, MessageRef, ReactionEvent } from '../../../src/chat/port.ts';
import { terminal } from './terminal.ts';

/** A terminal of a person who is not a maintainer (`interactive`: whether a person reads it). */
function voterTerminal(interactive?: boolean) {
  return terminal({
    user: { id: 'local', name: 'you', maintainer: false },
    ...(interactive !== undefined ? { interactive } : {}),
  });
}

describe('terminal typed votes through the port', () => {
  it('declares typed voting, and owns the terminal only when a person reads it', () => {
    expect(voterTerminal().shell.capabilities).toMatchObject({
      voting: 'typed',
      markup: 'plain',
      reactionsOutliveProcess: false,
      ownsTerminal: false,
    });
    expect(voterTerminal(true).shell.capabilities.ownsTerminal).toBe(true);
  });

  it('`vote 7 left` asks findBattle, sends a reaction to onReaction and prints its feedback', async () => {
    const { shell, input, printed } = voterTerminal();
    const reactions: ReactionEvent[] = [];
    const asked: [string, number, string][] = [];
    let ref: MessageRef | undefined;
    const handlers: ChatHandlers = {
      onCommand: async (ctx) => {
        ref = await shell.post(ctx.channelId, { text: 'Arena battle #7' });
      },
      findBattle: async (platform, n, userId) => {
        asked.push([platform, n, userId]);
        return n === 7 ? { ref, status: 'open', liveChoice: null } : undefined;
      },
      onReaction: async (ev) => {
        reactions.push(ev);
        return { kind: 'vote', battleId: 7, effect: 'cast', liveChoice: 'left' };
      },
    };
    await shell.start(handlers, [{ name: 'arena', description: 'a battle', options: [] }]);
    input.end('/arena\nvote 7 left\nvote 8 left\n');
    await shell.closed;
    await shell.stop();
    expect(asked).toEqual([
      ['shell', 7, 'local'],
      ['shell', 8, 'local'],
    ]);
    expect(reactions).toHaveLength(1);
    expect(reactions[0]).toMatchObject({
      platform: 'shell',
      messageId: ref?.messageId,
      userId: 'local',
      emoji: '⬅️',
      added: true,
    });
    expect(printed()).toContain('you voted ⬅️ (left) on battle #7');
    expect(printed()).toContain("no battle #8 in this community's arena");
  });

  it('says your own vote as 你 in Chinese when no name is configured (not "you 在对战")', async () => {
    const { shell, input, printed } = terminal({
      user: { id: 'local', name: null, maintainer: false },
      locale: 'zh-CN',
    });
    let ref: MessageRef | undefined;
    let effect: 'cast' | 'changed' = 'cast';
    await shell.start(
      {
        onCommand: async (ctx) => {
          ref = await shell.post(ctx.channelId, { text: 'Arena battle #7' });
        },
        findBattle: async () => ({ ref, status: 'open', liveChoice: null }),
        onReaction: async () => {
          const r = { kind: 'vote' as const, battleId: 7, effect, liveChoice: 'left' as const };
          effect = 'changed';
          return r;
        },
      },
      [{ name: 'arena', description: 'a battle', options: [] }],
    );
    input.end('/arena\nvote 7 left\nvote 7 right\nas bob vote 7 left\n');
    await shell.closed;
    await shell.stop();
    expect(printed()).toContain('你在对战 #7 中投了 ⬅️（左边更好）');
    expect(printed()).toContain('你把对战 #7 的投票改为 ➡️（右边更好）');
    // Another user typed with `as` is named by their id.
    expect(printed()).toContain('bob 把对战 #7 的投票改为 ⬅️（左边更好）');
    expect(printed()).not.toMatch(/\byou\b/u);
  });

  it('says the vote was not stored when onReaction reports a failure', async () => {
    const { shell, input, printed } = voterTerminal();
    let ref: MessageRef | undefined;
    await shell.start(
      {
        onCommand: async (ctx) => {
          ref = await shell.post(ctx.channelId, { text: 'Arena battle #1' });
        },
        findBattle: async () => ({ ref, status: 'open', liveChoice: null }),
        onReaction: async () => ({ kind: 'failed' }),
      },
      [{ name: 'arena', description: 'a battle', options: [] }],
    );
    input.end('/arena\nvote 1 right\n');
    await shell.closed;
    await shell.stop();
    expect(printed()).toContain('the vote on battle #1 could not be stored (see logs)');
  });
});
