/**
 * Shared helpers for the chat adapter contract tests: a recording ChatHandlers and a log capture.
 */

import { Writable } from 'node:stream';
import { pino } from 'pino';
import type {
  ChatHandlers,
  CommandContext,
  CommandSpec,
  PlatformGapEvent,
  ReactionEvent,
} from '../../../src/chat/port.ts';
import type { Logger } from '../../../src/core/logger.ts';

/**
 * Polls `cond` until it is truthy or `timeoutMs` passes (then throws with `what`). The bound only stops a hang: it
 * is far above any real wait, so a busy machine never fails a test here.
 */
export async function waitFor<T>(
  cond: () => T | undefined | false,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Handlers that record everything; `onCommandImpl` decides what a command does. */
export class Recorder implements ChatHandlers {
  readonly reactions: ReactionEvent[] = [];
  readonly commands: CommandContext[] = [];
  onCommandImpl: (ctx: CommandContext) => Promise<void> = async (ctx) => {
    await ctx.reply({ text: `ok ${ctx.name}` });
  };

  async onCommand(ctx: CommandContext): Promise<void> {
    this.commands.push(ctx);
    await this.onCommandImpl(ctx);
  }

  async onReaction(event: ReactionEvent): Promise<void> {
    this.reactions.push(event);
  }

  readonly gaps: PlatformGapEvent[] = [];
  async onGap(event: PlatformGapEvent): Promise<void> {
    this.gaps.push(event);
  }
}

/** A pino logger whose JSON lines are kept in `lines`. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n'))
        if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

/** The commands both adapters register in these tests (a public one, and a maintainer-only one with options). */
export const TEST_COMMANDS: CommandSpec[] = [
  {
    name: 'arena',
    description: 'Start a battle',
    options: [{ name: 'topic', description: 'Topic' }],
  },
  {
    name: 'eval',
    description: 'Run an evaluation',
    maintainerOnly: true,
    options: [
      { name: 'model', description: 'Model', required: true },
      { name: 'suite', description: 'Suite', required: true, choices: ['mmlu', 'ceval'] },
    ],
  },
];
