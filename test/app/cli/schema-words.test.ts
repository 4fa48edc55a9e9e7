/**
 * What a schema check says to the user of the command line, in both languages, through the commands that show it:
 * zod's own findings in words that fit what was checked (a string `must not be empty` / 不能为空, never zod's
 * "Too small: expected string to have >=1 characters" nor 数值过小 for a string), and every problem of a model of
 * config/models.yaml at once, even when its `provider:` is wrong. `import outputs` runs in-process on one open
 * database; `config check --no-connect` opens none.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useCliFiles } from '../../helpers/cli-files.ts';
import { inProcess } from '../../helpers/run-cli.ts';

const ZH = { LANG: 'zh_CN.UTF-8' };
/** zod's English and zod's own Chinese, which no reader should see. */
const ZOD_WORDS = /Too small|Too big|Invalid input|expected string|>=|数值过小|无效输入|期望/u;

describe('import outputs: the problems of JSON Lines rows', () => {
  const { zhujiu, file } = useCliFiles('zhujiu-schema-words-');

  it('says an empty key, an empty prompt, a wrong type and a missing answer in words, in both languages', async () => {
    const f = file(
      'bad.jsonl',
      [
        '{"item": "", "prompt": "p", "output": "o"}',
        '{"item": "a", "prompt": "", "output": "o"}',
        '{"item": true, "prompt": "p"}',
      ].join('\n'),
    );
    const args = ['import', 'outputs', f, '--format', 'jsonl', '--model', 'm1'];
    const en = await zhujiu(args);
    expect(en.code).toBe(1);
    expect(en.stderr).toBe(
      `error [import_invalid]: ${f}:1: "item" must not be empty\n` +
        `${f}:2: "prompt" must be a non-empty string\n` +
        `${f}:3: "item" must be a non-empty string or an integer id; "output" is missing\n`,
    );
    const zh = await zhujiu(args, ZH);
    expect(zh.stderr).toBe(
      `错误 [import_invalid]：${f}:1：\`item\` 不能为空\n` +
        `${f}:2：\`prompt\` 必须是非空字符串\n` +
        `${f}:3：\`item\` 必须是非空字符串或整数 id；\`output\` 缺失\n`,
    );
    expect(en.stderr + zh.stderr).not.toMatch(ZOD_WORDS);
  });
});

describe('config check: config/models.yaml', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-schema-models-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;

  /** `config check --no-connect` on a config folder holding `models` as its models.yaml. */
  const check = async (models: string, env: Record<string, string> = {}) => {
    const dir = join(root, `c${++n}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'models.yaml'), models);
    return inProcess(['config', 'check', '--no-connect'], {
      env: { ZHUJIU_CONFIG_DIR: dir, ZHUJIU_DATA_DIR: join(dir, 'pg'), ...env },
    });
  };

  it('says an empty model id in words (a string is empty, not a number too small)', async () => {
    const yaml =
      'models:\n  - name: a\n    provider: openai\n    base_url: http://127.0.0.1:1/v1\n    model: ""\n';
    const en = await check(yaml);
    expect(en.code).toBe(1);
    expect(en.stderr).toMatch(/models\.yaml:5:12 models\[1\]\.model: must not be empty$/mu);
    const zh = await check(yaml, ZH);
    expect(zh.stderr).toMatch(/models\.yaml:5:12 models\[1\]\.model：不能为空$/mu);
    expect(en.stderr + zh.stderr).not.toMatch(ZOD_WORDS);
  });

  it('reports every problem of a model whose provider is wrong, not the provider alone', async () => {
    const yaml = [
      'models:',
      '  - name: b',
      '    provider: openaii',
      '    base_url: 3',
      '    model: ""',
      '    max_concurrency: 0',
      '    params: []',
      '    colour: red',
      '  - name: c',
      '    provider: recorded',
      '',
    ].join('\n');
    const en = await check(yaml);
    expect(en.code).toBe(1);
    const lines = en.stderr.trim().split('\n');
    expect(lines.map((l) => /models\[1\]\.(\w+)/u.exec(l)?.[1])).toEqual([
      'provider',
      'base_url',
      'model',
      'max_concurrency',
      'params',
      'colour',
    ]);
    expect(lines[0]).toMatch(
      /provider: expected one of openai, recorded, got text "openaii"; did you mean "openai"\?$/u,
    );
    expect(lines[1]).toMatch(/base_url: expected text, got number 3$/u);
    expect(lines[2]).toMatch(/model: must not be empty$/u);
    expect(lines[3]).toMatch(/max_concurrency: must be greater than 0$/u);
    expect(lines[4]).toMatch(/params: expected a mapping \(key: value lines\), got a list$/u);
    expect(lines[5]).toMatch(/colour: unknown key "colour"/u);
    const zh = await check(yaml, ZH);
    const zhLines = zh.stderr.trim().split('\n');
    expect(zhLines).toHaveLength(6);
    expect(zhLines[3]).toMatch(/max_concurrency：必须大于 0$/u);
    expect(zhLines[4]).toMatch(/params：应为映射（key: value 形式的行），实际是列表$/u);
  });

  it('an unclosed [ says which bracket is missing in both languages, not only that the indentation is wrong', async () => {
    const en = await check('models: [\n');
    expect(en.code).toBe(1);
    expect(en.stderr).toMatch(
      /models\.yaml:2:1: YAML syntax error \(a \[ is never closed: add the \] that ends it; /u,
    );
    const zh = await check('models: [\n', ZH);
    expect(zh.stderr).toMatch(
      /models\.yaml:2:1：YAML 语法错误（BAD_INDENT：\[ 没有闭合：请补上与它配对的 \]；/u,
    );
  });

  it('a model without provider: asks for it once, and checks the keys it has', async () => {
    const en = await check('models:\n  - name: c\n    model: ""\n');
    expect(
      en.stderr
        .trim()
        .split('\n')
        .map((l) => l.replace(/^.*models\.yaml:/u, '')),
    ).toEqual([
      '2:5 models[1].provider: missing required key "provider": add `provider: openai` or `provider: recorded`',
      '3:12 models[1].model: must not be empty',
    ]);
  });
});
