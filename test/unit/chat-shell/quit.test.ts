import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import { silentLogger } from '../../../src/core/logger.ts';

describe('terminal adapter input handling', () => {
  it('stops at `quit` in piped input: later lines are not run', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (b: Buffer) => {
      printed += b.toString();
    });
    const commands: string[] = [];
    const shell = new ShellAdapter({
      input,
      output,
      user: { id: 'local', name: 'you', maintainer: true },
      voteEmoji: { left: '⬅️', equal: '🟰', right: '➡️' },
      logger: silentLogger,
    });
    await shell.start(
      {
        onCommand: async (ctx) => {
          commands.push(ctx.name);
        },
        onReaction: async () => {},
      },
      [{ name: 'models', description: 'models', options: [] }],
    );
    input.end(`/models\nquit\n/models\n${'x'.repeat(500)}\n`);
    await shell.closed;
    await shell.stop();
    expect(commands).toEqual(['models']);
    expect(printed).toContain('bye');
    expect(printed).not.toContain('xxxxxxxxxx'.repeat(10));
  });
});
