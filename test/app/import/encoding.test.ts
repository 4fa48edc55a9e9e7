/**
 * Text that is not UTF-8 is refused by every reader of files, naming the file, the line and the
 * byte offset, and nothing is written.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRatings } from '../../../src/cli/ratings.ts';
import { loadConfig } from '../../../src/config/loader.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { countRows, flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

describe.each(flowBackends())('files that are not UTF-8 on %s', (backend) => {
  let d: TestDb;
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-enc-'));
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function nothingWritten(): Promise<void> {
    for (const t of ['models', 'items', 'responses', 'battles', 'votes', 'vote_events']) {
      expect(await countRows(d, t), t).toBe(0);
    }
  }

  it('a Latin-1 AlpacaEval outputs file (5 answers with "Café crème")', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({
      instruction: `Recipe ${i}?`,
      output: 'Café crème',
      generator: 'm1',
    }));
    const f = join(tmp, 'outputs.json');
    writeFileSync(f, latin1(JSON.stringify(rows, null, 2)));
    await expect(importOutputs(d.db, { file: f, model: 'm1' })).rejects.toThrow(
      /outputs\.json:4: not UTF-8 text: byte offset 56 \(byte 19 of line 4\) starts 0xE9/,
    );
    await nothingWritten();
  });

  it('a Latin-1 JSONL outputs file', async () => {
    const f = join(tmp, 'outputs.jsonl');
    writeFileSync(
      f,
      latin1(
        '{"item":"a","prompt":"p","output":"ok"}\n{"item":"b","prompt":"p","output":"crème"}\n',
      ),
    );
    await expect(
      importOutputs(d.db, { file: f, model: 'm1', format: 'jsonl' }),
    ).rejects.toMatchObject({
      code: 'import_invalid',
      message: expect.stringMatching(/^.*outputs\.jsonl:2: not UTF-8 text: byte offset 77 /),
    });
    await nothingWritten();
  });

  it('a Latin-1 battles file (a model named "café")', async () => {
    const f = join(tmp, 'battles.jsonl');
    const good = '{"model_a":"a","model_b":"b","winner":"tie"}\n';
    writeFileSync(
      f,
      Buffer.concat([
        Buffer.from(good.repeat(3)),
        latin1('{"model_a":"café","model_b":"b","winner":"model_a"}\n'),
      ]),
    );
    await expect(importBattles(d.db, { file: f })).rejects.toThrow(
      /battles\.jsonl:4: not UTF-8 text: byte offset 150 \(byte 16 of line 4\) starts 0xE9/,
    );
    await nothingWritten();
    // The same file given to `zhujiu ratings --battles`.
    await expect(runRatings({ battles: f }, { out: () => {} })).rejects.toMatchObject({
      code: 'rating_input_invalid',
      message: expect.stringMatching(/battles\.jsonl:4: not UTF-8 text: byte offset 150 /),
    });
  });
});

describe('config files that are not UTF-8', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-enc-config-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each([
    [
      'default.yaml',
      'log:\n  level: info # café\n',
      /default\.yaml:2: not UTF-8 text: byte offset 24 \(byte 20 of line 2\) /,
    ],
    [
      'models.yaml',
      'models:\n  - name: café\n    provider: recorded\n',
      /models\.yaml:2: not UTF-8 /,
    ],
    [
      'suites/s.yaml',
      'name: s\ndescription: crème\ndatasets:\n  - { name: d, ability: language, method: metrics }\n',
      /suites\/s\.yaml:2: not UTF-8 text: byte offset 23 \(byte 16 of line 2\)/,
    ],
  ])('%s', (name, body, re) => {
    const dir = join(tmp, name.replace(/\W/g, '_'));
    mkdirSync(join(dir, 'suites'), { recursive: true });
    writeFileSync(join(dir, name), latin1(body));
    expect(() => loadConfig({ configDir: dir, env: {}, cwd: dir })).toThrow(re);
    try {
      loadConfig({ configDir: dir, env: {}, cwd: dir });
    } catch (err) {
      expect((err as { code?: string }).code).toBe('config_invalid');
    }
  });
});
