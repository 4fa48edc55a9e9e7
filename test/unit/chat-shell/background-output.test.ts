/**
 * What the bot prints on its own between typed lines (a notice, a battle posted or closed, an evaluation's
 * progress) runs past the `> ` prompt already shown, so the terminal shows the prompt again after it; output of a
 * line being handled is followed by that line's one prompt.
 */
import { describe, expect, it } from 'vitest';
import { terminal } from './terminal.ts';

describe('terminal output between typed lines', () => {
  it('shows the prompt again after a notice, a post, an edit and reactions; once per typed line', async () => {
    const { shell, printed } = terminal({ prompt: true });
    await shell.start(
      {
        onCommand: async (ctx) => {
          const ref = await shell.post(ctx.channelId, { text: 'posted by a command' });
          await shell.addReactions(ref, ['⬅️']);
        },
        onReaction: async () => undefined,
      },
      [{ name: 'arena', description: 'a battle', options: [] }],
    );
    expect(printed().endsWith('\n> ')).toBe(true);
    await shell.notify(shell.channelId, 'local', { text: 'Your submission #1 was approved.' });
    expect(printed().endsWith('(only you) Your submission #1 was approved.\n> ')).toBe(true);
    const ref = await shell.post(shell.channelId, { text: 'Arena battle #2' });
    await shell.addReactions(ref, ['⬅️']);
    expect(printed().endsWith('\n> \n[m1] Arena battle #2\n> \n[m1] reactions: ⬅️\n> ')).toBe(true);
    await shell.edit(ref, { text: 'Arena battle #2: closed' });
    expect(printed().endsWith('edited] Arena battle #2: closed\n> ')).toBe(true);
    const before = printed().length;
    await shell.say('/arena');
    // The command's own post and reactions, then one prompt.
    expect(printed().slice(before)).toMatch(
      /^\n\[m2\] posted by a command\n\[m2\] reactions: ⬅️\n> $/u,
    );
    await shell.stop();
  });
});
