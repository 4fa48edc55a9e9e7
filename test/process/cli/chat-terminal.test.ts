/**
 * The terminal chat (`zhujiu bot` with no chat token, what `npm start` gives a newcomer) in a real
 * pseudo-terminal: it greets with how to get help, `/help` lists every command (the maintainers' `/eval` and
 * `/arena void` included), and Ctrl-D or Ctrl-C ends it cleanly (exit 0) with the terminal as it was: echo and
 * line editing on (read with `stty -a` in the same terminal after the bot), cursor and line wrap on.
 */
import { describe, expect, it } from 'vitest';
import { pgliteDataDir } from '../../helpers/db.ts';
import { startInPty, terminalRestored } from '../../helpers/pty.ts';

describe.concurrent('the terminal chat in a terminal', () => {
  for (const [how, keys] of [
    ['Ctrl-D', '\u0004'],
    ['Ctrl-C', '\u0003'],
  ] as const) {
    it(`/help lists every command; ${how} ends it cleanly`, async ({ onTestFinished }) => {
      const d = pgliteDataDir();
      onTestFinished(d.remove);
      const p = startInPty(
        ['bot'],
        { ZHUJIU_DATA_DIR: d.dataDir, ZHUJIU_VOTER_SECRET: 'chat-pty-test-0123456789', PORT: '0' },
        { after: 'echo; echo "modes: $(stty -a | tr "\\n" " ")"' },
      );
      onTestFinished(p.kill);
      // The shipped config's locale is zh-CN.
      await p.waitFor(/输入 `help` 查看命令。/u);
      p.type('/help\r');
      await p.waitFor(/\/eval cancel <run>/u);
      const help = p.text();
      for (const form of [
        '/arena void <battle> [reason]',
        '/arena ability <battle> <ability>',
        '/arena unclassified',
        '/eval model:<name> suite:<name> [limit:<n>]',
        '/eval status',
        '/leaderboard',
        '/ask <prompt> [ability]',
        'vote <battle> <choice>',
        'quit',
      ]) {
        expect(help).toContain(form);
      }
      p.type(keys);
      expect(await p.exit(), p.text()).toBe(0);
      const modes = /modes: (.*)/u.exec(p.text())?.[1] ?? '';
      expect(modes, p.text()).toMatch(/(^| )icanon( |$)/u);
      expect(modes).toMatch(/(^| )echo( |$)/u);
      expect(terminalRestored(p.output())).toBe(true);
      expect(p.text()).not.toMatch(/unexpected error|Unhandled/iu);
    });
  }

  it('Ctrl-C as soon as the greeting shows (the bot may still be starting) shuts it down cleanly', async ({
    onTestFinished,
  }) => {
    const d = pgliteDataDir();
    onTestFinished(d.remove);
    const p = startInPty(['bot'], {
      ZHUJIU_DATA_DIR: d.dataDir,
      ZHUJIU_VOTER_SECRET: 'chat-pty-test-0123456789',
      PORT: '0',
    });
    onTestFinished(p.kill);
    await p.waitFor(/输入 `help` 查看命令。/u);
    p.type('\u0003');
    expect(await p.exit(), p.text()).toBe(0);
  });
});
