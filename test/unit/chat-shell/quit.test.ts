import { describe, expect, it } from 'vitest';
import { terminal } from './terminal.ts';

describe('terminal adapter input handling', () => {
  it('stops at `quit` in piped input: later lines are not run', async () => {
    const { shell, input, printed } = terminal();
    const commands: string[] = [];
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
    expect(printed()).toContain('bye');
    expect(printed()).not.toContain('xxxxxxxxxx'.repeat(10));
  });
});
