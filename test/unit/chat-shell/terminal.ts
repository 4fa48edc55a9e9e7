/**
 * A terminal chat (the ShellAdapter) on in-memory streams, for the chat-shell unit tests: what is typed goes to
 * `input`, and `printed()` is everything the adapter wrote so far. A maintainer named `you` with the default vote
 * emoji unless `options` say otherwise.
 */
import { PassThrough } from 'node:stream';
import { ShellAdapter, type ShellAdapterOptions } from '../../../src/chat/shell/adapter.ts';
import { silentLogger } from '../../../src/core/logger.ts';

/** A terminal: the adapter, its input stream and what it printed. */
export interface Terminal {
  readonly shell: ShellAdapter;
  readonly input: PassThrough;
  readonly output: PassThrough;
  printed(): string;
}

/** A new terminal with these adapter options over the defaults (nothing started). */
export function terminal(options: Partial<ShellAdapterOptions> = {}): Terminal {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (b: Buffer) => {
    printed += b.toString();
  });
  const shell = new ShellAdapter({
    input,
    output,
    user: { id: 'local', name: 'you', maintainer: true },
    voteEmoji: { left: '⬅️', equal: '🟰', right: '➡️' },
    logger: silentLogger,
    ...options,
  });
  return { shell, input, output, printed: () => printed };
}
