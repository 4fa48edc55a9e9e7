/**
 * `--since` dates (src/cli/index.ts `dateArg`): UTC unless the value gives an offset, whatever the machine's time
 * zone (`TZ`): a date alone is its UTC midnight, a date and time without an offset is that time in UTC.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CliDeps } from '../../../src/cli/deps.ts';
import { buildProgram } from '../../../src/cli/index.ts';
import type { CliIo } from '../../../src/cli/io.ts';

const io: CliIo = { out: () => {}, err: () => {}, stdout: process.stdout } as unknown as CliIo;

/** The `--since` commander parsed for `zhujiu votes flagged --since <value>` (the action is not run). */
async function sinceOf(value: string): Promise<Date> {
  const program = buildProgram(io, { env: {} } as unknown as CliDeps);
  program.exitOverride();
  let since: Date | undefined;
  program.hook('preAction', (_program, action) => {
    since = action.opts().since as Date;
    throw new Error('stop before the action');
  });
  await program
    .parseAsync(['votes', 'flagged', '--since', value], { from: 'user' })
    .catch(() => undefined);
  if (!since) throw new Error(`--since ${value} was not parsed`);
  return since;
}

describe('--since dates', () => {
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it('reads a date and time without an offset as UTC, in any time zone', async () => {
    process.env.TZ = 'Asia/Shanghai';
    expect((await sinceOf('2026-11-30T12:00:00')).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    expect((await sinceOf('2026-11-30T12:00')).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    expect((await sinceOf('2026-11-30 12:00:00')).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    expect((await sinceOf('2026-11-30')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('keeps an offset that is given', async () => {
    process.env.TZ = 'America/New_York';
    expect((await sinceOf('2026-11-30T12:00:00+08:00')).toISOString()).toBe(
      '2026-11-30T04:00:00.000Z',
    );
    expect((await sinceOf('2026-11-30T12:00:00Z')).toISOString()).toBe('2026-11-30T12:00:00.000Z');
  });
});
