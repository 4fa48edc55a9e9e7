/**
 * `zhujiu suites` and `zhujiu import outputs DIR --format gaokao` as a user runs them (a real child process).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GAOKAO_GPT4_RESULTS } from '../../helpers/gaokao.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../../helpers/shared-data.ts';

const run = promisify(execFile);

async function zhujiu(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await run(process.execPath, [join(PROJECT_ROOT, 'bin', 'zhujiu.js'), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: '', ...env },
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe.skipIf(!hasSharedData('datasets'))('zhujiu suites', () => {
  it('lists the shipped suites with their datasets and item counts', async () => {
    const env = { ZHUJIU_DATASETS_DIR: sharedData('datasets') };
    const r = await zhujiu(['suites', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      suites: {
        suite: string;
        items: number | null;
        datasets: { dataset: string; items: number | null }[];
      }[];
    };
    const sizes = Object.fromEntries(j.suites.map((s) => [s.suite, [s.datasets.length, s.items]]));
    expect(sizes).toEqual({
      'alpaca-eval': [1, null],
      'gaokao-objective': [10, 210],
      smoke: [3, 20],
      'zhujiu-metrics': [18, 1895],
      'zhujiu-scoring': [8, 1178],
    });
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

describe.skipIf(!hasSharedData(...GAOKAO_GPT4_RESULTS))(
  'zhujiu import outputs --format gaokao',
  () => {
    it('imports the GPT-4-0314 folder once', { timeout: 180_000 }, async () => {
      const env = { ZHUJIU_DATA_DIR: join(mkdtempSync(join(tmpdir(), 'zj-cli-gk-')), 'pg') };
      const dir = sharedData(...GAOKAO_GPT4_RESULTS);
      const r1 = await zhujiu(
        ['import', 'outputs', dir, '--format', 'gaokao', '--model', 'gpt-4-0314'],
        env,
      );
      expect(r1.code, r1.stderr).toBe(0);
      expect(r1.stdout).toMatch(
        /^imported 1781 responses for gpt-4-0314 from 14 GAOKAO-Bench files into 10 datasets \(.*gaokao_physics 64.*; 1781 items, 0 already present\)/,
      );
      const r2 = await zhujiu(
        ['import', 'outputs', dir, '--format', 'gaokao', '--model', 'gpt-4-0314'],
        env,
      );
      expect(r2.stdout).toMatch(/^imported 0 responses .*1781 already present/);
      const r3 = await zhujiu(
        ['import', 'outputs', dir, '--format', 'gaokao', '--model', 'x', '--dataset', 'd'],
        env,
      );
      expect(r3.code).toBe(2);
      expect(r3.stderr).toContain('--dataset does not apply to --format gaokao');
    });
  },
);
