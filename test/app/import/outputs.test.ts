import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { findModel } from '../../../src/storage/models.ts';
import { countResponses } from '../../../src/storage/responses.ts';
import { countRows, flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

const DIR = ['outputs', 'alpaca_eval', 'model_outputs'] as const;
const present = hasSharedData(...DIR);

describe.each(flowBackends())('import outputs (AlpacaEval) on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  // The same check on the full real files (6 models × 805 instructions) is in test/e2e/import-real-data.test.ts.
  it('stores every response of each model once, shares the items, and a second run adds none', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-alpaca-'));
    const models = ['model-a', 'model-b', 'model-c'];
    const files = models.map((model) => {
      const f = join(tmp, `${model}.json`);
      const rows = Array.from({ length: 40 }, (_, i) => ({
        instruction: `Instruction ${i}: explain topic ${i}.`,
        dataset: 'helpful_base',
        output: `${model} explains topic ${i}.`,
        generator: model,
      }));
      writeFileSync(f, JSON.stringify(rows, null, 2));
      return { model, f };
    });
    const items = await countRows(d, 'items');
    for (const { model, f } of files) {
      const r = await importOutputs(d.db, { file: f, model });
      expect(r).toMatchObject({ model, rows: 40, added: 40, skipped: 0, dataset: 'alpaca_eval' });
      const m = await findModel(d.db, model);
      expect(await countResponses(d.db, m?.id as number)).toBe(40);
    }
    // The instructions are shared: 40 items in all, not 3 × 40.
    expect(await countRows(d, 'items')).toBe(items + 40);
    const responses = await countRows(d, 'responses');
    for (const { model, f } of files) {
      expect(await importOutputs(d.db, { file: f, model })).toMatchObject({
        added: 0,
        skipped: 40,
      });
    }
    expect(await countRows(d, 'responses')).toBe(responses);
  });

  it.skipIf(!present)(
    'a copy with one corrupted line fails naming that line and leaves the tables unchanged',
    async () => {
      const text = readFileSync(sharedData(...DIR, 'alpaca-7b.json'), 'utf8');
      const lines = text.split('\n');
      const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-corrupt-'));
      const before = {
        responses: await countRows(d, 'responses'),
        items: await countRows(d, 'items'),
        models: await countRows(d, 'models'),
      };

      // 1. A syntax error on one line.
      const target = lines.findIndex((l, i) => i > 2000 && l.includes('"output"'));
      const broken = [...lines];
      broken[target] = (broken[target] as string).replace('"output":', '"output" ');
      const f1 = join(tmp, 'syntax.json');
      writeFileSync(f1, broken.join('\n'));
      const e1 = await importOutputs(d.db, { file: f1, model: 'corrupt-model' }).catch(
        (e: unknown) => e,
      );
      expect(isAppError(e1, 'import_invalid')).toBe(true);
      expect((e1 as Error).message).toContain(`${f1}:${target + 1}:`);

      // 2. Valid JSON, but one output is not a string.
      const wrongType = [...lines];
      wrongType[target] = (wrongType[target] as string).replace(
        /"output":\s*".*"(,?)$/,
        '"output":42$1',
      );
      const f2 = join(tmp, 'type.json');
      writeFileSync(f2, wrongType.join('\n'));
      const e2 = await importOutputs(d.db, { file: f2, model: 'alpaca-7b' }).catch(
        (e: unknown) => e,
      );
      expect(isAppError(e2, 'import_invalid')).toBe(true);
      expect((e2 as Error).message).toMatch(
        new RegExp(`${f2}:${target + 1}: element \\d+: "output" must be a string`),
      );

      expect({
        responses: await countRows(d, 'responses'),
        items: await countRows(d, 'items'),
        models: await countRows(d, 'models'),
      }).toEqual(before);
    },
  );

  it('imports JSONL {item, prompt, output} and reports bad lines by number', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-jsonl-'));
    const good = join(tmp, 'good.jsonl');
    writeFileSync(
      good,
      '{"item":"q1","prompt":"1+1=?","output":"2"}\n\n{"item":2,"prompt":"首都?","output":"北京"}\n',
    );
    expect(
      await importOutputs(d.db, { file: good, model: 'm-jsonl', format: 'jsonl' }),
    ).toMatchObject({ added: 2, dataset: 'good' });
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"item":"q1","prompt":"1+1=?","output":"2"}\n{"item":"q2","prompt":"x"}\n{"item":"q1","prompt":"y","output":"z"}\n',
    );
    const e = await importOutputs(d.db, { file: bad, model: 'm-jsonl', format: 'jsonl' }).catch(
      (x: unknown) => x,
    );
    expect((e as Error).message).toContain(`${bad}:2: "output" is missing`);
    const dup = join(tmp, 'dup.jsonl');
    writeFileSync(
      dup,
      '{"item":"q1","prompt":"1+1=?","output":"2"}\n{"item":"q1","prompt":"y","output":"z"}\n',
    );
    const e3 = await importOutputs(d.db, { file: dup, model: 'm-jsonl', format: 'jsonl' }).catch(
      (x: unknown) => x,
    );
    expect((e3 as Error).message).toContain(`${dup}:2: item "q1" appears again (first at line 1)`);
  });

  it('refuses bad model names, JSON arrays given as JSONL, clashing prompts and huge answers; accepts a BOM', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-edge-'));
    const f = join(tmp, 'edge.jsonl');
    writeFileSync(f, '\uFEFF{"item":"e1","prompt":"p1","output":"o1"}\n');
    for (const model of ['', '   ', ' a b', 'a\nb', 'a\tb']) {
      const e = await importOutputs(d.db, { file: f, model, format: 'jsonl' }).catch(
        (x: unknown) => x,
      );
      expect(isAppError(e, 'input_invalid'), JSON.stringify(model)).toBe(true);
      expect((e as Error).message).toContain(`--model ${JSON.stringify(model)}`);
    }
    expect(
      await importOutputs(d.db, { file: f, model: 'edge-model', format: 'jsonl' }),
    ).toMatchObject({ added: 1 });
    // Public names as they are: spaces, parentheses, CJK.
    expect(
      await importOutputs(d.db, { file: f, model: 'GPT 3.5 Turbo (16k)', format: 'jsonl' }),
    ).toMatchObject({ added: 1 });

    const arr = join(tmp, 'arr.json');
    writeFileSync(arr, '[{"instruction":"i","output":"o"}]');
    const e1 = await importOutputs(d.db, { file: arr, model: 'edge-model', format: 'jsonl' }).catch(
      (x: unknown) => x,
    );
    expect((e1 as Error).message).toBe(
      `${arr}:1: this is a JSON array, not one object per line; use --format alpaca_eval`,
    );

    const clash = join(tmp, 'edge2.jsonl');
    writeFileSync(clash, '{"item":"e1","prompt":"ANOTHER PROMPT","output":"o1"}\n');
    const e2 = await importOutputs(d.db, {
      file: clash,
      model: 'edge-model',
      format: 'jsonl',
      dataset: 'edge',
    }).catch((x: unknown) => x);
    expect((e2 as Error).message).toContain(
      `${clash}:1: item "e1" is already in dataset "edge" with a different prompt`,
    );

    const changed = join(tmp, 'edge3.jsonl');
    writeFileSync(changed, '{"item":"e1","prompt":"p1","output":"a NEW answer"}\n');
    expect(
      await importOutputs(d.db, {
        file: changed,
        model: 'edge-model',
        format: 'jsonl',
        dataset: 'edge',
      }),
    ).toMatchObject({ added: 0, skipped: 1, differing: 1 });

    const huge = join(tmp, 'huge.jsonl');
    writeFileSync(huge, `{"item":"h","prompt":"p","output":"${'x'.repeat(200_001)}"}\n`);
    const e3 = await importOutputs(d.db, {
      file: huge,
      model: 'edge-model',
      format: 'jsonl',
    }).catch((x: unknown) => x);
    expect((e3 as Error).message).toContain(
      `${huge}:1: "output" is longer than 200,000 characters`,
    );

    const bin = join(tmp, 'bin.json');
    writeFileSync(bin, Buffer.from([0x5b, 0x00, 0xff, 0x10]));
    const e4 = await importOutputs(d.db, { file: bin, model: 'edge-model' }).catch(
      (x: unknown) => x,
    );
    expect((e4 as Error).message).toContain(
      `${bin}:1: not a text file (it contains NUL bytes, the first NUL at byte offset 1)`,
    );
  });
});
