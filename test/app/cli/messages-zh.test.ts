/**
 * What the command line prints under a Chinese locale (LANG=zh_CN.UTF-8) for the texts that lower layers build:
 * suite descriptions, config file errors, import and dataset file errors, refusals and unwritable outputs. Each
 * case runs the command in-process (test/helpers/run-cli.ts); the English of the same cases is asserted by the
 * tests of each command.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcess } from '../../helpers/run-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-zh-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A config folder with these files (paths under it), and the environment for it. */
function setup(files: Record<string, string>): Record<string, string> {
  const dir = join(root, `c${++n}`);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), body);
  }
  return {
    ZHUJIU_CONFIG_DIR: dir,
    ZHUJIU_DATA_DIR: join(dir, 'data', 'pg'),
    ZHUJIU_DATASETS_DIR: join(dir, 'datasets'),
    ZHUJIU_DATASETS_CACHE: join(dir, 'cache'),
  };
}

const ZH = { LANG: 'zh_CN.UTF-8' };

const SUITE = `name: tiny
description:
  en: A tiny suite.
  zh-CN: 一个很小的评测套件。
datasets:
  - name: c3
    loader: c3
    ability: language
    method: metrics
    files: [c3/d-dev.json]
`;

describe('suite descriptions', () => {
  it('zhujiu suites shows the description of the command line language', async () => {
    const env = setup({ 'suites/tiny.yaml': SUITE });
    const zh = await inProcess(['suites'], { env: { ...env, ...ZH } });
    expect(zh.code, zh.stderr).toBe(0);
    expect(zh.stdout).toMatch(/^tiny {2}\S.* {2}— 一个很小的评测套件。$/mu);
    const en = await inProcess(['suites', '--json'], { env });
    expect(JSON.parse(en.stdout).suites[0].description).toBe('A tiny suite.');
  });

  it('a description map must give a language of the catalogue', async () => {
    const env = setup({
      'suites/tiny.yaml': SUITE.replace('  zh-CN: 一个很小的评测套件。\n', '  fr: Une suite.\n'),
    });
    const r = await inProcess(['config', 'check', '--no-connect'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tiny\.yaml:\d+:\d+ description/u);
  });
});
