import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { type SuiteConfig, suiteSchema } from '../../../src/config/schema.ts';
import { isAppError } from '../../../src/core/errors.ts';
import {
  decodeUtf8,
  prepareDataset,
  prepareSuite,
  seededSample,
} from '../../../src/eval/datasets/index.ts';
import { shippedDefinitionsDir } from '../../helpers/config-dir.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../../helpers/shared-data.ts';

const DATASETS = sharedData('datasets');

function config() {
  return loadConfig({
    cwd: PROJECT_ROOT,
    configDir: shippedDefinitionsDir(),
    env: { ZHUJIU_DATASETS_DIR: DATASETS },
  });
}

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (isAppError(err)) return err.message;
    throw err;
  }
  throw new Error('expected an error');
}

describe.runIf(hasSharedData('datasets'))('shipped suites on the real datasets', () => {
  it('prepare with the expected sizes, abilities, metrics and profiles', async () => {
    const c = config();
    const loc = { datasetsDir: c.datasetsDir, cacheDir: c.datasetsCacheDir };
    const sizes: Record<string, Record<string, unknown>> = {};
    for (const name of ['smoke', 'zhujiu-metrics', 'gaokao-objective']) {
      const ds = await prepareSuite(c.suites.get(name) as SuiteConfig, loc);
      sizes[name] = Object.fromEntries(
        ds.map((d) => [d.name, `${d.items.length} ${d.ability} ${d.metric} ${d.profile}`]),
      );
    }
    expect(sizes.smoke).toEqual({
      c3: '8 language accuracy default',
      ocnli: '6 reasoning accuracy default',
      cmrc2018: '6 language char_f1 cmrc2018',
    });
    expect(sizes['zhujiu-metrics']).toMatchObject({
      c3: '202 language accuracy default',
      cmrc2018: '233 language char_f1 cmrc2018',
      drcd: '157 language char_f1 cmrc2018',
      ocnli: '293 reasoning accuracy default', // 300 rows, 7 with label "-" excluded
      cluewsc2020: '200 language accuracy default',
      chid: '200 chinese_specific accuracy default',
      ccpm: '200 chinese_specific accuracy default',
      math23k: '200 reasoning numeric_match default',
      gaokao_physics: '15 knowledge gaokao_objective gaokao',
      gaokao_math_sci: expect.stringMatching(/^\d+ reasoning gaokao_objective gaokao$/),
      gaokao_math_hum: expect.stringMatching(/^\d+ reasoning gaokao_objective gaokao$/),
    });
    expect(Object.keys(sizes['gaokao-objective'] ?? {})).toHaveLength(10);
  });

  it('a seeded sample is the same every time and differs with the seed', async () => {
    const c = config();
    const loc = { datasetsDir: c.datasetsDir, cacheDir: c.datasetsCacheDir };
    const smoke = c.suites.get('smoke') as SuiteConfig;
    const a = await prepareSuite(smoke, loc);
    const b = await prepareSuite(smoke, loc);
    expect(a.map((d) => d.items.map((i) => i.key))).toEqual(
      b.map((d) => d.items.map((i) => i.key)),
    );
    expect(seededSample(100, 5, 1).chosen).not.toEqual(seededSample(100, 5, 2).chosen);
    expect(seededSample(3, 10, 1)).toEqual({ chosen: [0, 1, 2], rest: [] });
  });

  it('messages carry the template; scoring works on raw text', async () => {
    const c = config();
    const [c3, ocnli, cmrc] = await prepareSuite(c.suites.get('smoke') as SuiteConfig, {
      datasetsDir: c.datasetsDir,
      cacheDir: c.datasetsCacheDir,
    });
    const item = c3?.items[0];
    if (!c3 || !ocnli || !cmrc || !item) throw new Error('smoke suite is empty');
    expect(c3.messages(item).at(-1)?.content).toContain('请只回答正确选项的字母。');
    const gold = (item.reference as { answer: string }).answer;
    expect(c3.score(item, `答案是${gold}`)).toMatchObject({ raw: 1, max: 1, metric: 'accuracy' });
    const q = cmrc.items[0];
    if (!q) throw new Error('no cmrc item');
    const ref = (q.reference as string[])[0] as string;
    expect(cmrc.score(q, `${ref}。`)).toMatchObject({ raw: 1, detail: { exact_match: 1 } });
  });

  it('few-shot: examples come from rows outside the sample, seeded', async () => {
    const entry = suiteSchema.parse({
      name: 'x',
      datasets: [
        {
          name: 'ocnli',
          loader: 'ocnli',
          ability: 'reasoning',
          method: 'metrics',
          path: 'ocnli/dev.sample.jsonl',
          sample: 5,
          shots: 2,
        },
      ],
    }).datasets[0];
    if (!entry) throw new Error('no entry');
    const d = await prepareDataset('x', entry, { datasetsDir: DATASETS, cacheDir: tmpdir() });
    const item = d.items[0];
    if (!item) throw new Error('no item');
    const m = d.messages(item);
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(m[1]?.content).toMatch(/^答案：[ABC]$/);
    expect(d.templateVersion).toBe('ocnli-v1+2shot');
    const sampled = new Set(d.items.map((i) => i.prompt));
    expect(sampled.has(m[0]?.content.replace('\n请只回答正确选项的字母。', '') ?? '')).toBe(false);
  });
});

describe('bad dataset files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zj-ds-'));
  const entry = (path: string, loader: 'ocnli' | 'cmrc2018' | 'c3' = 'ocnli') =>
    suiteSchema.parse({
      name: 't',
      datasets: [{ name: 'd', loader, ability: 'language', method: 'metrics', path }],
    }).datasets[0] as SuiteConfig['datasets'][number];
  const loc = { datasetsDir: dir, cacheDir: join(dir, 'cache') };

  it('an empty file, or one of blank lines, is refused: a run of no items would succeed with no score', async () => {
    for (const [file, text] of [
      ['empty.jsonl', ''],
      ['blank.jsonl', '\n\n'],
    ] as const) {
      writeFileSync(join(dir, file), text);
      const msg = await errorOf(prepareDataset('t', entry(file), loc));
      expect(msg).toBe(
        `suite t, dataset d: its files (${file}) hold no items; name the right file, or fill it (is it empty?)`,
      );
    }
  });

  it('bad rows are reported as file:line: reason and the dataset is refused', async () => {
    writeFileSync(
      join(dir, 'bad.jsonl'),
      [
        '{"id":1,"sentence1":"a","sentence2":"b","label":"entailment"}',
        '{"id":2,"sentence1":"a","label":"neutral"}',
        'not json',
        '{"id":4,"sentence1":"a","sentence2":"b","label":"maybe"}',
      ].join('\n'),
    );
    const msg = await errorOf(prepareDataset('t', entry('bad.jsonl'), loc));
    expect(msg).toContain('suite t, dataset d: 3 bad row(s)');
    expect(msg).toContain(`${join(dir, 'bad.jsonl')}:2: "sentence2"`);
    expect(msg).toContain(
      `${join(dir, 'bad.jsonl')}:3:1: not valid JSON (expected a value (an object, array, string, number, true, false or null), found 'n')`,
    );
    expect(msg).toContain(
      `${join(dir, 'bad.jsonl')}:4: "label" must be entailment, neutral, contradiction or -, got "maybe"`,
    );
  });

  it('a C3 file broken on line 5 is reported at line 5 and its column, on every Node version', async () => {
    const good = JSON.stringify(
      [[['句子一。'], [{ question: '问？', choice: ['甲', '乙'], answer: '甲' }], 'd1']],
      null,
      2,
    ).split('\n');
    // Line 5 is `    ],` (the sentences array closing); a single-quoted string after it breaks the syntax there,
    // an error for which the engine's message carries no position.
    good[4] = `    ], 'x',`;
    writeFileSync(join(dir, 'c3-m-dev.json'), good.join('\n'));
    const msg = await errorOf(prepareDataset('t', entry('c3-m-dev.json', 'c3'), loc));
    expect(msg).toContain(
      `${join(dir, 'c3-m-dev.json')}:5:8: not valid JSON (expected a value (an object, array, string, number, true, false or null), found ''')`,
    );
  });

  it('a bad question deep inside SQuAD-style JSON is located by line', async () => {
    writeFileSync(
      join(dir, 'squad.json'),
      JSON.stringify(
        {
          data: [
            {
              paragraphs: [
                {
                  context: '北京是首都',
                  qas: [
                    { id: 'q1', question: '首都？', answers: [{ text: '北京' }] },
                    { id: 'q2', question: '', answers: [] },
                  ],
                },
              ],
            },
          ],
        },
        null,
        2,
      ),
    );
    const msg = await errorOf(prepareDataset('t', entry('squad.json', 'cmrc2018'), loc));
    expect(msg).toMatch(/squad\.json:(\d+): "question"/);
    expect(Number(/squad\.json:(\d+):/.exec(msg)?.[1])).toBe(17); // where the bad question object starts
  });

  it('a file that is not UTF-8 is refused naming file, line and byte offset', async () => {
    const gbk = Buffer.concat([
      Buffer.from('{"id":1}\n{"id":2,"sentence1":"'),
      Buffer.from([0xb1, 0xb1, 0xbe, 0xa9]),
      Buffer.from('"}\n'),
    ]);
    writeFileSync(join(dir, 'gbk.jsonl'), gbk);
    const msg = await errorOf(prepareDataset('t', entry('gbk.jsonl'), loc));
    expect(msg).toContain(
      `${join(dir, 'gbk.jsonl')}:2: not UTF-8 text: byte offset 30 (byte 22 of line 2) starts 0xB1 0xB1`,
    );
    expect(() => decodeUtf8(new Uint8Array([0x61, 0xe4, 0xb8]), 'x')).toThrow(
      /x:1: not UTF-8 text: byte offset 1 /,
    );
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0xe4, 0xb8, 0xad]), 'x')).toBe('中');
  });

  it('a missing file names the datasets folder and ZHUJIU_DATASETS_DIR', async () => {
    const msg = await errorOf(prepareDataset('t', entry('nope.jsonl'), loc));
    expect(msg).toContain('no such file');
    expect(msg).toContain('ZHUJIU_DATASETS_DIR');
  });

  it('a profile the format does not have is refused with the valid ones', async () => {
    const e = { ...entry('x.jsonl'), profile: 'gaokao' };
    expect(await errorOf(prepareDataset('t', e, loc))).toBe(
      'suite t, dataset d: profile "gaokao" is not one of default (loader ocnli)',
    );
  });
});
