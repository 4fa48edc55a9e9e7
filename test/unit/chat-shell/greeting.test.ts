/**
 * The terminal reads like a chat: a person at a terminal is greeted with how to get help, a piped script is
 * greeted with its first line (no "type help" to nobody), a headless bot (no input at all) says nothing, and a
 * vote typed as a bare emoji gets the exact command instead of "unknown input".
 */
import { describe, expect, it } from 'vitest';
import { terminal } from './terminal.ts';

async function session(
  lines: string,
  prompt: boolean,
  options: Parameters<typeof terminal>[0] = {},
): Promise<string> {
  const { shell, input, printed } = terminal({ prompt, ...options });
  await shell.start({ onCommand: async () => {}, onReaction: async () => {} }, []);
  input.end(lines);
  if (lines) await shell.closed; // a headless bot (no lines) runs until stopped
  await shell.idle();
  await shell.stop();
  return printed();
}

describe('terminal greeting and bare votes', () => {
  it('greets a person at a terminal at once, with how to get help', async () => {
    const out = await session('quit\n', true);
    expect(out.split('\n')[0]).toBe(
      'ZhuJiu Arena (terminal). You are you (maintainer). Type "help" for the commands.',
    );
  });

  it('greets the person at the terminal as "you" in its language when no name is configured (not 你是 you)', async () => {
    const me = { id: 'local', name: null, maintainer: true };
    expect((await session('quit\n', true, { user: me, locale: 'zh-CN' })).split('\n')[0]).toBe(
      '煮酒竞技场（终端）。你是维护者。输入 `help` 查看命令。',
    );
    expect((await session('quit\n', false, { user: me })).split('\n')[0]).toBe(
      'ZhuJiu Arena (terminal). You are a maintainer.',
    );
    const voter = { id: 'local', name: null, maintainer: false };
    expect((await session('quit\n', false, { user: voter, locale: 'zh-CN' })).split('\n')[0]).toBe(
      '煮酒竞技场（终端）。',
    );
    // A configured name is data, shown as it is.
    const alice = { id: 'local', name: 'alice', maintainer: true };
    expect((await session('quit\n', false, { user: alice, locale: 'zh-CN' })).split('\n')[0]).toBe(
      '煮酒竞技场（终端）。你是 alice（维护者）。',
    );
  });

  it('greets a piped script without "help", and a headless bot not at all', async () => {
    const script = await session('quit\n', false);
    expect(script).toBe('ZhuJiu Arena (terminal). You are you (maintainer).\nbye\n');
    expect(await session('', false)).toBe('');
  });

  it('answers a bare vote emoji or word with the command that votes', async () => {
    const out = await session('⬅️\nright\nquit\n', false);
    expect(out).toContain(
      'to vote ⬅️ (left), name the battle: vote <battle> left (e.g. "vote 1 ⬅️")',
    );
    expect(out).toContain(
      'to vote ➡️ (right), name the battle: vote <battle> right (e.g. "vote 1 ➡️")',
    );
    expect(out).not.toContain('unknown input');
  });

  it('help shows the emoji form that works', async () => {
    const out = await session('help\nquit\n', false);
    expect(out).toContain('vote <battle> <choice>');
    expect(out).toContain('(e.g. vote 1 left, vote 1 ⬅️)');
  });
});
