/**
 * cli/terminal.ts in a real pseudo-terminal: a process that hid the cursor and turned line wrap off gets both
 * back however it ends, here by an exception thrown from a timer that nothing catches (the way a progress bar's
 * redraw fails), and by `process.exit`. The compiled module (dist/) is what `zhujiu` runs.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESC, startInPty, terminalRestored } from '../../helpers/pty.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const MODULE = join(PROJECT_ROOT, 'dist', 'src', 'cli', 'terminal.js');

/** A script that takes the terminal, turns both modes off as cli-progress does, then ends by `end`. */
const script = (end: string) => `
  const { guardTerminal } = await import(${JSON.stringify(MODULE)});
  guardTerminal(process.stderr);
  process.stderr.write(${JSON.stringify(ESC.hideCursor + ESC.wrapOff)} + 'drawing\\n');
  ${end}
`;

describe.concurrent('terminal modes given back on every way out', () => {
  for (const [name, end, code] of [
    [
      'an uncaught exception from a timer',
      "setTimeout(() => { throw new Error('redraw failed'); }, 10);",
      1,
    ],
    ['process.exit(3)', 'setTimeout(() => process.exit(3), 10);', 3],
  ] as const) {
    it(name, async () => {
      const p = startInPty(['--input-type=module', '-e', script(end)], {}, { node: true });
      expect(await p.exit(), p.text()).toBe(code);
      expect(p.output()).toContain(ESC.wrapOff);
      expect(terminalRestored(p.output()), JSON.stringify(p.output())).toBe(true);
    });
  }
});
