/**
 * Import errors that name items by what the user wrote: rows whose answer differs from the
 * stored one are named by the instruction text (AlpacaEval) or the item key (JSONL) with their line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOutputs } from '../../../src/import/outputs.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';

describe.each(flowBackends())('import outputs names differing rows on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('rows that differ from the stored answer are named by the instruction text or the item key', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-differ-'));
    const f = join(tmp, 'differ.json');
    const rows = (answer: string) =>
      Array.from({ length: 5 }, (_, i) => ({
        instruction: `Write a short poem about the number ${i} and its place among the other numbers`,
        output: i < 4 ? `${answer} ${i}` : 'same',
        generator: 'differ-model',
      }));
    writeFileSync(f, JSON.stringify(rows('first'), null, 2));
    await importOutputs(d.db, { file: f, model: 'differ-model', dataset: 'differ' });
    writeFileSync(f, JSON.stringify(rows('second'), null, 2));
    const r = await importOutputs(d.db, { file: f, model: 'differ-model', dataset: 'differ' });
    expect(r).toMatchObject({ added: 0, skipped: 5, differing: 4 });
    expect(r.differingItems).toEqual(
      [0, 1, 2, 3].map(
        (i) =>
          `instruction "Write a short poem about the number ${i} and its pla…" (line ${2 + i * 5})`,
      ),
    );
    const j = join(tmp, 'differ.jsonl');
    writeFileSync(j, '{"item":"k1","prompt":"p","output":"one"}\n');
    await importOutputs(d.db, { file: j, model: 'differ-model', format: 'jsonl', dataset: 'dj' });
    writeFileSync(j, '\n{"item":"k1","prompt":"p","output":"two"}\n');
    expect(
      (
        await importOutputs(d.db, {
          file: j,
          model: 'differ-model',
          format: 'jsonl',
          dataset: 'dj',
        })
      ).differingItems,
    ).toEqual(['item "k1" (line 2)']);
  });
});
