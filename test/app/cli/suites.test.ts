/**
 * `zhujiu suites` in-process through `runCli` (it opens no database). `zhujiu import outputs DIR --format gaokao`
 * runs in test/e2e/gaokao-eval.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcess } from '../../helpers/run-cli.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

/** `zhujiu ARGS…` in-process with these variables (no database is opened). */
const zhujiu = (args: string[], env: Record<string, string> = {}) => inProcess(args, { env });

describe.skipIf(!hasSharedData('datasets'))('zhujiu suites', () => {
  it('lists the shipped suites with their datasets and item counts', async () => {
    const env = {
      ZHUJIU_DATASETS_DIR: sharedData('datasets'),
      ZHUJIU_DATASETS_CACHE: mkdtempSync(join(tmpdir(), 'zj-suites-cache-')),
    };
    const r = await zhujiu(['suites', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      suites: {
        suite: string;
        items: number | null;
        includes: { suite: string; sample: number | null; seed: number | null }[];
        abilities: string[];
        datasets: { dataset: string; ability: string; items: number | null; from: string }[];
      }[];
    };
    const sizes = Object.fromEntries(j.suites.map((s) => [s.suite, [s.datasets.length, s.items]]));
    expect(sizes).toEqual({
      'alpaca-eval': [1, null],
      'gaokao-objective': [10, 210],
      smoke: [3, 20],
      // Constructed from the installed data packages into the cache folder on first use.
      'zhujiu-knowledge': [15, 1500],
      'zhujiu-metrics': [18, 1895],
      'zhujiu-robustness': [6, 300],
      'zhujiu-scoring': [9, 1178],
      zhujiu: [48, 3234],
    });
    const robust = j.suites.find((s) => s.suite === 'zhujiu-robustness');
    expect(robust?.datasets.map((d) => [d.dataset, d.items])).toEqual([
      ['robust_error_message_c3', 50],
      ['robust_redundant_information_math23k', 50],
      ['robust_redundant_dialogue_ocnli', 50],
      ['robust_format_output_c3', 50],
      ['robust_dialect_cmrc2018', 50],
      ['robust_unique_solution_math23k', 50],
    ]);
    // zhujiu: the suites it includes, capped, every dataset with its ability, items and the suite it is from
    const z = j.suites.find((s) => s.suite === 'zhujiu');
    expect(z?.includes).toEqual([
      { suite: 'zhujiu-metrics', sample: 100, seed: null },
      { suite: 'zhujiu-scoring', sample: 50, seed: null },
      { suite: 'zhujiu-robustness', sample: null, seed: null },
      { suite: 'zhujiu-knowledge', sample: null, seed: null },
    ]);
    expect(z?.abilities).toEqual([
      'knowledge',
      'chinese_specific',
      'language',
      'reasoning',
      'refusal',
      'safety',
      'robustness',
    ]);
    expect(z?.datasets.find((d) => d.dataset === 'ocnli')).toMatchObject({
      ability: 'reasoning',
      items: 100,
      from: 'zhujiu-metrics',
    });
    expect(z?.datasets.find((d) => d.dataset === 'gaokao_subjective_math')).toMatchObject({
      ability: 'reasoning',
      items: 24,
      from: 'zhujiu-scoring',
    });
    expect(j.suites.find((s) => s.suite === 'smoke')?.datasets[0]?.from).toBe('smoke');
    const text = await zhujiu(['suites'], env);
    expect(text.stdout).toContain('smoke  3 datasets, 20 items');
    expect(text.stdout).toMatch(
      / {2}cmrc2018 +language +metrics +char_f1\/cmrc2018 +6 of 233 items/,
    );
  });

  it('says where it looked when the dataset files are not there', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'zj-nodata-'));
    const r = await zhujiu(['suites'], { ZHUJIU_DATASETS_DIR: empty });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`datasets folder: ${empty} (set ZHUJIU_DATASETS_DIR to change it)`);
    expect(r.stdout).toMatch(/smoke {2}unavailable \(see below\)/);
    expect(r.stdout).toContain('no such file');
  });
});

describe('zhujiu suites without a datasets folder', () => {
  it('says once that the folder does not exist and what sets it, not each missing file', async () => {
    const gone = join(mkdtempSync(join(tmpdir(), 'zj-nofolder-')), 'datasets');
    const r = await zhujiu(['suites'], { ZHUJIU_DATASETS_DIR: gone });
    expect(r.code, r.stderr).toBe(0);
    const sentence = `the datasets folder ${gone} does not exist (the environment variable ZHUJIU_DATASETS_DIR sets it; default: datasets in the working folder)`;
    expect(r.stdout.split(sentence)).toHaveLength(2);
    expect(r.stdout).toMatch(/^smoke {2}unavailable \(no datasets folder, see above\)/m);
    expect(r.stdout).not.toContain('no such file');
    const json = await zhujiu(['suites', '--json'], { ZHUJIU_DATASETS_DIR: gone });
    const smoke = (
      JSON.parse(json.stdout) as { suites: { suite: string; error?: string }[] }
    ).suites.find((s) => s.suite === 'smoke');
    expect(smoke?.error).toContain(sentence);
    const zh = await zhujiu(['suites'], { ZHUJIU_DATASETS_DIR: gone, LANG: 'zh_CN.UTF-8' });
    expect(zh.stdout).toContain(`数据集目录 ${gone} 不存在（由环境变量 ZHUJIU_DATASETS_DIR 设置`);
    expect(zh.stdout).toMatch(/^smoke {2}不可用（没有数据集目录，见上方）/m);
  });
});

describe('zhujiu suites with a datasets folder under a file, or a file', () => {
  it('says once that a file is in the way (ENOTDIR), naming the file, not that the folder does not exist', async () => {
    const root = mkdtempSync(join(tmpdir(), 'zj-underfile-'));
    const file = join(root, 'hostname');
    writeFileSync(file, 'a file\n');
    const under = join(file, 'x');
    const cache = mkdtempSync(join(tmpdir(), 'zj-underfile-cache-'));
    const r = await zhujiu(['suites'], {
      ZHUJIU_DATASETS_DIR: under,
      ZHUJIU_DATASETS_CACHE: cache,
    });
    expect(r.code, r.stderr).toBe(0);
    const sentence = `the datasets folder ${under} is under a file (${file} is a file, not a folder: ENOTDIR; the environment variable ZHUJIU_DATASETS_DIR sets it)`;
    expect(r.stdout.split(sentence)).toHaveLength(2);
    expect(r.stdout).not.toContain('does not exist');
    expect(r.stdout).not.toContain('a file is in its path');
    expect(r.stdout).toMatch(/^smoke {2}unavailable \(no datasets folder, see above\)/m);
    const zh = await zhujiu(['suites'], {
      ZHUJIU_DATASETS_DIR: under,
      ZHUJIU_DATASETS_CACHE: cache,
      LANG: 'zh_CN.UTF-8',
    });
    expect(zh.stdout).toContain(
      `数据集目录 ${under} 位于一个文件之下（${file} 是文件，不是目录：ENOTDIR；`,
    );
    const itself = await zhujiu(['suites'], {
      ZHUJIU_DATASETS_DIR: file,
      ZHUJIU_DATASETS_CACHE: cache,
    });
    expect(itself.stdout).toContain(`the datasets folder ${file} is a file, not a folder`);
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  it('a datasets cache folder under a file refuses the constructed sets naming the file, never an unexpected error', async () => {
    const root = mkdtempSync(join(tmpdir(), 'zj-cacheunder-'));
    const file = join(root, 'f');
    writeFileSync(file, '');
    const r = await zhujiu(['suites'], {
      ZHUJIU_DATASETS_DIR: root,
      ZHUJIU_DATASETS_CACHE: join(file, 'cache'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^zhujiu-knowledge {2}unavailable \(see below\)/m);
    expect(r.stdout).toContain(
      `the datasets cache folder ${join(file, 'cache')} cannot be written (${file} is a file, not a folder: ENOTDIR; the environment variable ZHUJIU_DATASETS_CACHE sets it`,
    );
    rmSync(root, { recursive: true, force: true });
  });
});

describe('zhujiu suites with a dataset file of bad rows', () => {
  it('lists each bad row under the refused suite, as eval does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'zj-badrows-'));
    mkdirSync(join(root, 'config', 'suites'), { recursive: true });
    mkdirSync(join(root, 'datasets', 'c3'), { recursive: true });
    writeFileSync(
      join(root, 'config', 'suites', 'tiny.yaml'),
      'name: tiny\ndatasets:\n  - name: c3\n    loader: c3\n    ability: language\n    method: metrics\n    files: [c3/d-dev.json]\n',
    );
    writeFileSync(
      join(root, 'datasets', 'c3', 'd-dev.json'),
      '[[["s"], [{"question": "q", "choice": ["a", "b"], "answer": "c"}], "d1"]]',
    );
    const env = {
      ZHUJIU_CONFIG_DIR: join(root, 'config'),
      ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
    };
    const r = await zhujiu(['suites'], env);
    expect(r.stdout).toContain('  suite tiny, dataset c3: 1 bad row(s); fix or remove them:\n');
    expect(r.stdout).toMatch(
      /^ {2}\S+c3\/d-dev\.json:1: document d1 question 0: "answer" is not one of "choice"$/mu,
    );
    rmSync(root, { recursive: true, force: true });
  });
});
