/**
 * Typed commands (Slack's slash-command text, the terminal) name a model whose name holds spaces (README, "Model
 * names": `GPT 3.5 Turbo (16k)`) with quotes, or for `/eval` with a keyed value that runs to the next key.
 */
import { describe, expect, it } from 'vitest';
import { parseEvalArgs } from '../../../src/bot/commands/eval.ts';
import { leaderboardRequestOf } from '../../../src/bot/commands/leaderboard.ts';
import type { CommandContext } from '../../../src/chat/port.ts';
import { parseCommandArgs } from '../../../src/chat/slack/adapter.ts';
import { typedArgs, typedWords } from '../../../src/chat/typed-words.ts';
import { terminal } from './terminal.ts';

const evalArgs = (text: string) => parseEvalArgs({ args: {}, text } as unknown as CommandContext);

describe('typed command words', () => {
  it('splits at whitespace; quotes ("…", “…”, 「…」) group words, also inside a word', () => {
    expect(typedWords('  model "Acme Chat 7B"  x ')).toEqual(['model', 'Acme Chat 7B', 'x']);
    expect(typedWords('model:"GPT 3.5 Turbo (16k)" suite:smoke')).toEqual([
      'model:GPT 3.5 Turbo (16k)',
      'suite:smoke',
    ]);
    expect(typedWords('“文心 一言” 「通义 千问」')).toEqual(['文心 一言', '通义 千问']);
    expect(typedWords('"unclosed to the end')).toEqual(['unclosed to the end']);
    expect(typedWords('"" a')).toEqual(['a']);
    expect(typedArgs('name=“a b” view', ['view', 'name'])).toEqual({ name: 'a b', view: 'view' });
  });

  it('Slack and the terminal read a typed line alike', async () => {
    const spec = {
      name: 'leaderboard',
      description: '',
      options: [
        { name: 'view', description: '' },
        { name: 'name', description: '' },
      ],
    };
    const line = 'model "Acme Chat 7B"';
    expect(parseCommandArgs(line, spec)).toEqual({ view: 'model', name: 'Acme Chat 7B' });
    const { shell, input } = terminal();
    const seen: Record<string, string>[] = [];
    await shell.start(
      {
        onCommand: async (ctx) => {
          seen.push({ ...ctx.args });
        },
        onReaction: async () => undefined,
      },
      [spec],
    );
    input.end(`/leaderboard ${line}\n`);
    await shell.closed;
    expect(seen).toEqual([{ view: 'model', name: 'Acme Chat 7B' }]);
  });

  it('/eval: a quoted name, or a keyed value up to the next key; positional words as before', () => {
    expect(evalArgs('model:"Acme Chat 7B" suite:smoke')).toEqual({
      model: 'Acme Chat 7B',
      suite: 'smoke',
    });
    expect(evalArgs('model:Acme Chat 7B suite:smoke limit:5')).toEqual({
      model: 'Acme Chat 7B',
      suite: 'smoke',
      limit: '5',
    });
    expect(evalArgs('suite=smoke model=GPT 3.5 Turbo (16k)')).toEqual({
      model: 'GPT 3.5 Turbo (16k)',
      suite: 'smoke',
    });
    expect(evalArgs('qwen smoke')).toEqual({ model: 'qwen', suite: 'smoke' });
    expect(evalArgs('"Acme Chat 7B" smoke')).toEqual({ model: 'Acme Chat 7B', suite: 'smoke' });
    expect(evalArgs('cancel 12')).toEqual({ action: 'cancel', run: '12' });
    expect(evalArgs('status')).toEqual({ action: 'status' });
  });

  it('/leaderboard: the rest of the typed line is the name; Discord options as given', () => {
    const req = (text: string, args: Record<string, string> = {}) =>
      leaderboardRequestOf({ args, text });
    expect(req('model Acme Chat 7B')).toEqual({ ok: true, view: 'model', name: 'Acme Chat 7B' });
    expect(req('"Acme Chat 7B"')).toEqual({ ok: true, view: 'model', name: 'Acme Chat 7B' });
    expect(req('Acme Chat 7B')).toEqual({ ok: true, view: 'model', name: 'Acme Chat 7B' });
    expect(req('reasoning')).toEqual({ ok: true, view: 'ability', name: 'reasoning' });
    expect(req('')).toEqual({ ok: true, view: 'overall' });
    expect(req('', { view: 'model', name: 'GPT 3.5 Turbo' })).toEqual({
      ok: true,
      view: 'model',
      name: 'GPT 3.5 Turbo',
    });
  });
});
