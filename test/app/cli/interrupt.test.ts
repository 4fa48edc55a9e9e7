/**
 * Ctrl-C during an import (cli/interrupt.ts): before the commit everything is rolled back and the command says
 * "interrupted: nothing was imported" (exit 130); once the commit is under way it finishes and says so (exit 0).
 * The interrupt is delivered by calling the SIGINT listener the command installed, so nothing depends on timing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInterruptible } from '../../../src/cli/interrupt.ts';
import { takeRequestedExit } from '../../../src/cli/io.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { countRows, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';

/** Presses Ctrl-C: calls the SIGINT listener installed last (runInterruptible's). */
function ctrlC(): void {
  const l = process.listeners('SIGINT').at(-1);
  if (!l) throw new Error('no SIGINT listener installed');
  (l as () => void)();
}

function capture() {
  const err: string[] = [];
  return { io: { out: () => {}, err: (s: string) => err.push(s) }, err };
}

describe('Ctrl-C during an import', () => {
  let d: TestDb;
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-interrupt-'));
  const battles = join(dir, 'many.jsonl');
  beforeAll(async () => {
    d = await freshDb('pglite');
    writeFileSync(
      battles,
      Array.from(
        { length: 20_000 },
        (_, i) => `{"model_a":"m${i % 7}","model_b":"n${i % 5}","winner":"model_a"}`,
      ).join('\n'),
    );
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  useCleanRows(() => d);

  it('import battles: before the commit, nothing is imported, it says so and exits 130', async () => {
    const listeners = process.listenerCount('SIGINT');
    const { io, err } = capture();
    takeRequestedExit();
    const r = await runInterruptible(io, 'imported', async (signal) => {
      const p = importBattles(d.db, { file: battles, source: 'many', signal });
      ctrlC(); // while the file is being read
      ctrlC(); // a second Ctrl-C is ignored
      return p;
    });
    expect(r).toBeUndefined();
    expect(takeRequestedExit()).toBe(130);
    expect(err).toEqual([
      'interrupt: stopping; nothing will be imported unless the commit is already under way',
      'interrupted: nothing was imported',
    ]);
    expect(await countRows(d, 'battles')).toBe(0);
    expect(await countRows(d, 'models')).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  });

  it('import outputs: an interrupt before the commit writes nothing', async () => {
    const f = join(dir, 'outputs.jsonl');
    writeFileSync(f, '{"item":"1","prompt":"p","output":"o"}\n');
    const { io, err } = capture();
    const r = await runInterruptible(io, 'imported', (signal) => {
      ctrlC();
      return importOutputs(d.db, { file: f, model: 'm', format: 'jsonl', signal });
    });
    expect(r).toBeUndefined();
    expect(takeRequestedExit()).toBe(130);
    expect(err.at(-1)).toBe('interrupted: nothing was imported');
    expect(await countRows(d, 'responses')).toBe(0);
  });

  it('once the commit is under way it finishes, says so, and exits 0', async () => {
    const { io, err } = capture();
    const r = await runInterruptible(io, 'imported', async (signal) => {
      const res = await importBattles(d.db, { file: battles, source: 'many' });
      ctrlC(); // arrives during the commit: the import did not check the signal after it
      expect(signal.aborted).toBe(true);
      return res;
    });
    expect(r).toMatchObject({ added: 20_000 });
    expect(takeRequestedExit()).toBeUndefined();
    expect(err.at(-1)).toBe(
      'interrupted while committing: the commit finished, so everything was imported (see below)',
    );
    expect(await countRows(d, 'battles')).toBe(20_000);
  });
});
