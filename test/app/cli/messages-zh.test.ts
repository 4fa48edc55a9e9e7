/**
 * What the command line prints under a Chinese locale (LANG=zh_CN.UTF-8) for the texts that lower layers build:
 * suite descriptions, config file errors, import and dataset file errors, refusals and unwritable outputs. Each
 * case runs the command in-process (test/helpers/run-cli.ts); the English of the same cases is asserted by the
 * tests of each command.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
    mkdirSync(env.ZHUJIU_DATASETS_DIR as string); // the folder exists, its file does not
    const zh = await inProcess(['suites'], { env: { ...env, ...ZH } });
    expect(zh.code, zh.stderr).toBe(0);
    expect(zh.stdout).toMatch(/^tiny {2}\S.* {2}— 一个很小的评测套件。$/mu);
    // Its dataset file is missing: the loader's reason, in Chinese too.
    expect(zh.stdout).toMatch(
      /^ {2}\S+c3\/d-dev\.json：没有这个文件（数据集目录 \S+）；请把数据集文件放到那里，或者把 ZHUJIU_DATASETS_DIR 设为存放它们的目录$/mu,
    );
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

/** A models.yaml with one OpenAI-compatible model whose key is in `ZJ_KEY`, plus `extra` lines of the model. */
const models = (extra = '') =>
  `models:\n  - name: m1\n    provider: openai\n    base_url: http://127.0.0.1:1/v1\n    model: x\n    api_key_env: ZJ_KEY\n${extra}`;

describe('config errors, warnings and endpoint failures', () => {
  it('a bad models.yaml is said in Chinese, zod messages too, in the order of the file', async () => {
    const env = setup({
      'models.yaml': models('    max_retries: two\n    colour: red\n'),
      'suites/tiny.yaml': SUITE.replace('method: metrics', 'method: metric'),
    });
    const r = await inProcess(['config', 'check', '--no-connect'], {
      env: { ...env, ...ZH, ZJ_KEY: 'k' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^错误 \[config_invalid\]：\S*models\.yaml:7:18 models\[1\]\.max_retries：应为数字，例如 2，实际是文本“two”$/mu,
    );
    expect(r.stderr).toMatch(
      /^\S*models\.yaml:8:5 models\[1\]\.colour：未知的键“colour”：请删除它或修正拼写；此处可用的键有 name、/mu,
    );
    // A value of a fixed list: the values in Chinese (the methods by their Chinese names) and a "did you mean".
    expect(r.stderr).toMatch(
      /tiny\.yaml:\d+:\d+ datasets\[1\]\.method：应为 指标评估、打分评估、对比评估 之一，实际是文本“metric”；你是不是想写“metrics”？$/mu,
    );
  });

  it('config check warns of a disabled model in Chinese', async () => {
    const env = setup({ 'models.yaml': models() });
    const r = await inProcess(['config', 'check', '--no-connect'], { env: { ...env, ...ZH } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^ {2}警告：\S*models\.yaml:6:18 models\[1\]\.api_key_env：环境中没有设置 ZJ_KEY，因此模型“m1”已停用（无法调用它；其余功能正常）。/mu,
    );
  });

  it('config check says an unreachable endpoint in Chinese', async () => {
    const env = setup({ 'models.yaml': models() });
    const r = await inProcess(['config', 'check'], { env: { ...env, ...ZH, ZJ_KEY: 'k' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^已读取配置：/u);
    expect(r.stderr).toMatch(
      /^ {2}模型 m1：无法连接 127\.0\.0\.1:1（.*）；请检查它在 \S*models\.yaml 中的 base_url，以及服务器是否在运行$/mu,
    );
  });
});

describe('cannot write', () => {
  it('an --out that is a folder is refused in Chinese before the database is opened', async () => {
    const env = setup({});
    const r = await inProcess(['export', 'battles', '--out', root], { env: { ...env, ...ZH } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `错误 [file_unwritable]：--out ${root}：无法写入（${root} 是一个目录；请给出其中的文件路径，例如 ${join(root, 'battles.jsonl')}）\n`,
    );
  });
});

describe('import file errors', () => {
  /** A file under the test folder with `body`. */
  const file = (name: string, body: string) => {
    const p = join(root, name);
    writeFileSync(p, body);
    return p;
  };

  it('a JSON syntax error of an outputs file is said in Chinese', async () => {
    const f = file('bad.json', '[{"instruction": "a", "output": "x"}');
    const r = await inProcess(['import', 'outputs', f, '--model', 'm'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${f}:1:37：不是有效的 JSON（应为 ',' 或 ']'，实际是文本结尾）；请修正该行的语法\n`,
    );
  });

  it('an empty .jsonl file without --format hints --format jsonl in both languages', async () => {
    const f = file('empty.jsonl', '\n');
    const r = await inProcess(['import', 'outputs', f, '--model', 'm'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${f}:1：文件是空的；应为由 {instruction, output} 组成的 JSON 数组（默认的 --format alpaca_eval）；每行一个 {item, prompt, output} 对象的 .jsonl 文件请加上 --format jsonl\n`,
    );
    const en = await inProcess(['import', 'outputs', f, '--model', 'm'], { env: setup({}) });
    expect(en.stderr).toBe(
      `error [import_invalid]: ${f}:1: the file is empty; expected a JSON array of {instruction, output} (--format alpaca_eval, the default); for a .jsonl file of one {item, prompt, output} object per line add --format jsonl\n`,
    );
    // Given on purpose, the format is not second-guessed; a .json file gets no hint of JSON Lines.
    const given = ['import', 'outputs', f, '--model', 'm', '--format', 'alpaca_eval'];
    expect((await inProcess(given, { env: setup({}) })).stderr).toBe(
      `error [import_invalid]: ${f}:1: the file is empty; expected a JSON array of {instruction, output}\n`,
    );
    const json = file('empty.json', '');
    expect(
      (await inProcess(['import', 'outputs', json, '--model', 'm'], { env: setup({}) })).stderr,
    ).toBe(
      `error [import_invalid]: ${json}:1: the file is empty; expected a JSON array of {instruction, output}\n`,
    );
  });

  it('missing and mistyped fields of JSON Lines rows are said in Chinese, grouped by reason', async () => {
    const f = file(
      'rows.jsonl',
      '{"item": "a", "prompt": "p", "output": 1}\n{"item": "b", "prompt": "p"}\n{"item": "c", "prompt": "p"}\n',
    );
    const r = await inProcess(['import', 'outputs', f, '--model', 'm', '--format', 'jsonl'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${f}:1：\`output\` 必须是字符串（模型的回答）\n${f}:2：\`output\` 缺失\n${f}:3：\`output\` 缺失\n`,
    );
  });

  it('import battles says bad lines in Chinese', async () => {
    const f = file(
      'votes.jsonl',
      '{"model_a": "x", "model_b": "x", "winner": "tie"}\n{"model_a": "x", "model_b": "y"}\n',
    );
    const r = await inProcess(['import', 'battles', f, '--source', 'zh-test'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${f}:1：自己对战自己：\`model_a\` 和 \`model_b\` 都是“x”；请删除这一行\n` +
        `${f}:2：缺少 \`winner\`；请使用 \`model_a\`、\`model_b\`、\`tie\` 或 \`tie (bothbad)\`\n`,
    );
  });

  it('ratings --battles with a line that is not JSON is refused in Chinese', async () => {
    const f = file('battles.jsonl', '{"model_a": "x", \n');
    const r = await inProcess(['ratings', '--battles', f], { env: ZH });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^错误 \[rating_input_invalid\]：\S+:1:18：不是有效的 JSON（应为双引号括起的字符串键，实际是文本结尾）；每行必须是一个 JSON 对象，例如 \{/u,
    );
  });
});

describe('the embedded database refused', () => {
  it('a data folder made by PostgreSQL 17 is refused in Chinese by config check', async () => {
    const env = setup({ 'data/pg/PG_VERSION': '17\n' });
    const r = await inProcess(['config', 'check', '--no-endpoints'], { env: { ...env, ...ZH } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^错误 \[db_unavailable\]：\S+ 中的嵌入式数据库由 PostgreSQL 17 创建（旧版 zhujiu，PGlite 0\.4），而这个 zhujiu 运行的是 PostgreSQL 18，无法打开它。请运行 `zhujiu migrate --upgrade-data-dir`/u,
    );
  });

  it('a data folder this process holds is refused in Chinese by import', async () => {
    const env = setup({ 'out.json': '[{"instruction": "a", "output": "x"}]' });
    const { lockDataDir } = await import('../../../src/storage/data-dir-lock.ts');
    const release = await lockDataDir(env.ZHUJIU_DATA_DIR as string);
    try {
      const f = join(env.ZHUJIU_CONFIG_DIR as string, 'out.json');
      const r = await inProcess(['import', 'outputs', f, '--model', 'm'], {
        env: { ...env, ...ZH },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `错误 [db_unavailable]：${env.ZHUJIU_DATA_DIR} 中的嵌入式数据库已在本进程中打开；请先关闭它\n`,
      );
    } finally {
      release();
    }
  });
});

describe('model names and import outputs in Chinese', () => {
  const file = (name: string, body: string) => {
    const p = join(root, name);
    writeFileSync(p, body);
    return p;
  };

  it('a --model with a space at an end is a usage error in Chinese (import outputs, eval)', async () => {
    const f = file('ok.json', '[{"instruction": "a", "output": "x"}]');
    const imp = await inProcess(['import', 'outputs', f, '--model', ' m1'], {
      env: { ...setup({}), ...ZH },
    });
    expect(imp.code).toBe(2);
    expect(imp.stderr).toBe('错误 [input_invalid]：--model “ m1”首尾有空格；请删除\n');
    const ev = await inProcess(['eval', '--model', 'm\u200b1', '--suite', 's'], {
      env: { ...setup({}), ...ZH },
    });
    expect(ev.code).toBe(2);
    expect(ev.stderr).toBe(
      '错误 [input_invalid]：--model “m\u200b1”含有 U+200B，这是控制、格式或换行字符；请只用可打印的文字\n',
    );
  });

  it('a generator other than --model is refused in Chinese with the fix', async () => {
    const f = file('gen.json', '[{"instruction": "a", "output": "x", "generator": "gpt 4"}]');
    const r = await inProcess(['import', 'outputs', f, '--model', 'm'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${f}:1：\`generator\` 是“gpt 4”，但 --model 是“m”；请改用 --model 'gpt 4'，或导入正确的文件\n`,
    );
  });

  it('judge run names an unknown suite in Chinese', async () => {
    const env = setup({ 'suites/tiny.yaml': SUITE });
    const r = await inProcess(['judge', 'run', '--suite', 'nope', '--model', 'm', '--judge', 'j'], {
      env: { ...env, ...ZH },
    });
    expect(r.stderr).toMatch(/--suite nope：没有这个评测套件；现有的评测套件：tiny/u);
  });
});

describe("the config schema's own messages", () => {
  it('are said in Chinese (a scoring dataset without a rubric, a duplicate dataset name)', async () => {
    const env = setup({
      'suites/tiny.yaml': `${SUITE.replace('method: metrics', 'method: scoring')}  - name: c3\n    loader: c3\n    ability: language\n    method: metrics\n    files: [c3/d-dev.json]\n`,
    });
    const r = await inProcess(['config', 'check', '--no-connect'], { env: { ...env, ...ZH } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /tiny\.yaml:\d+:\d+ datasets\[1\]\.rubric：打分评估数据集需要 `rubric:`（ten_point 或 industry_0_3，见 config\/rubrics\/）$/mu,
    );
    expect(r.stderr).toMatch(/tiny\.yaml:\d+:\d+ datasets：同一评测套件中的数据集名称必须唯一$/mu);
    const en = await inProcess(['config', 'check', '--no-connect'], { env });
    expect(en.stderr).toMatch(/datasets\[1\]\.rubric: a scoring dataset needs `rubric:`/u);
  });
});

describe('row problems of datasets and imported judgments, folder hints, environment variables', () => {
  /** A file under the test folder with `body`. */
  const file = (name: string, body: string) => {
    const p = join(root, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, body);
    return p;
  };

  it('a dataset file with bad rows is said in Chinese by zhujiu eval (the loader rows, zod words too)', async () => {
    const env = setup({
      'models.yaml': models(),
      'suites/tiny.yaml': SUITE,
      'datasets/c3/d-dev.json':
        '[[["s"], [{"question": "q", "choice": ["a", "b"], "answer": "c"}, {"choice": ["a", "b"], "answer": "a"}], "d1"]]',
    });
    const zh = await inProcess(['eval', '--suite', 'tiny', '--model', 'm1'], {
      env: { ...env, ...ZH, ZJ_KEY: 'k' },
    });
    expect(zh.stderr).toContain('c3/d-dev.json:1：文档 d1 问题 0：`answer` 不在 `choice` 中');
    expect(zh.stderr).toContain('c3/d-dev.json:1：文档 d1 问题 1：`question` 缺失：应为字符串');
    const en = await inProcess(['eval', '--suite', 'tiny', '--model', 'm1'], {
      env: { ...env, ZJ_KEY: 'k' },
    });
    expect(en.stderr).toContain(
      'c3/d-dev.json:1: document d1 question 0: "answer" is not one of "choice"',
    );
    expect(en.stderr).toContain(
      'c3/d-dev.json:1: document d1 question 1: "question" is missing: give a string',
    );
  });

  it('import outputs given a folder says what its files are in Chinese', async () => {
    const dir = join(root, 'outs');
    file('outs/model_outputs.json', '[{"instruction": "a", "output": "x", "generator": "m"}]');
    const r = await inProcess(['import', 'outputs', dir, '--model', 'm'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${dir}：这是目录，不是文件；其中有 1 个 AlpacaEval 模型输出文件（不是评审）（model_outputs.json）：\`zhujiu import outputs ${join(dir, 'model_outputs.json')} --model m\`\n`,
    );
  });

  it('import outputs --format gaokao given a file, and a GAOKAO-Bench file with bad rows, in Chinese', async () => {
    const obj = (extra: string) =>
      `{"keyword": "2010-2022_Physics_MCQs", "model_name": "m", "example": [{"index": 0, "year": 2010, "question": "q", "answer": ["A"], "score": 6${extra}}]}`;
    const one = file('gk/m_2010-2022_Physics_MCQs.json', obj(', "model_output": "A"'));
    const env = { ...setup({ 'models.yaml': 'models: []\n' }), ...ZH };
    const r = await inProcess(['import', 'outputs', one, '--format', 'gaokao', '--model', 'm'], {
      env,
    });
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${one}：这是文件，不是目录；--format gaokao 读取的是 GAOKAO-Bench 结果目录（每个关键词一个 JSON 文件）；这个文件是 GAOKAO-Bench 客观题结果文件（模型答案，不是评审）：\`zhujiu import outputs ${join(root, 'gk')} --format gaokao --model m\`\n`,
    );
    const bad = file('gk2/m_2010-2022_Physics_MCQs.json', obj(''));
    const b = await inProcess(
      ['import', 'outputs', join(root, 'gk2'), '--format', 'gaokao', '--model', 'm'],
      { env },
    );
    expect(b.stderr).toBe(
      `错误 [import_invalid]：${bad}:1：示例 0：缺少 \`model_output\`；这不是模型输出的结果文件\n`,
    );
  });

  it('bad lines of AlpacaEval annotations and of a labels file are said in Chinese', async () => {
    const ann = file(
      'ann.jsonl',
      '{"instruction": "i", "generator_1": "a", "generator_2": "a", "preference": 2}\n{"instruction": "j", "generator_1": "a", "generator_2": "b", "preference": 7}\n',
    );
    const r = await inProcess(
      ['import', 'judgments', ann, '--format', 'alpaca_eval', '--judge', 'j'],
      { env: { ...setup({ 'models.yaml': 'models: []\n' }), ...ZH } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${ann}:1：generator_1 和 generator_2 都是“a”；模型不能与自己比较`);
    expect(r.stderr).toContain(`${ann}:2：\`preference\` 必须在 [1, 2] 之间`);
    const byOther = file(
      'ann2.jsonl',
      '{"instruction": "i", "generator_1": "a", "generator_2": "b", "preference": 2, "annotator": "gpt4"}\n',
    );
    const j = await inProcess(
      ['import', 'judgments', byOther, '--format', 'alpaca_eval', '--judge', 'j'],
      { env: { ...setup({ 'models.yaml': 'models: []\n' }), ...ZH } },
    );
    expect(j.stderr).toBe(
      `错误 [import_invalid]：${byOther}:1：annotator 是“gpt4”，但 --judge 是“j”；请使用 --judge gpt4\n`,
    );
    const labels = file('labels.jsonl', '{"item": "a", "label": 1}\n{"item": "a", "label": 2}\n');
    const other = file('labels2.jsonl', '{"item": "a", "label": 1}\n');
    const a = await inProcess(['judge', 'agree', labels, other], { env: { ...setup({}), ...ZH } });
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(`${labels}:2：题目“a”已在第 1 行标注过；每道题只保留一个标签`);
  });

  it('config check lists the models in full-width brackets; a bad environment variable in Chinese', async () => {
    const env = setup({
      'models.yaml': `${models()}  - name: m2\n    provider: openai\n    base_url: http://127.0.0.1:1/v1\n    model: y\n`,
    });
    const r = await inProcess(['config', 'check', '--no-connect', '--no-endpoints'], {
      env: { ...env, ...ZH, ZJ_KEY: 'k' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}模型：2（m1、m2）$/mu);
    const en = await inProcess(['config', 'check', '--no-connect', '--no-endpoints'], {
      env: { ...env, ZJ_KEY: 'k' },
    });
    expect(en.stdout).toMatch(/^ {2}models: 2 \(m1, m2\)$/mu);
    const bad = await inProcess(['config', 'check', '--no-connect'], {
      env: { ...env, ...ZH, PORT: 'abc' },
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      '错误 [env_invalid]：环境变量 PORT：应为 0 到 65535 之间的端口号，例如 8080\n',
    );
    const gone = join(root, 'no-such-config');
    const missing = await inProcess(['config', 'check', '--no-connect'], {
      env: { ...env, ...ZH, ZHUJIU_CONFIG_DIR: gone },
    });
    expect(missing.stderr).toBe(
      `错误 [config_missing]：配置目录 ${gone} 不存在（来自 ZHUJIU_CONFIG_DIR）；请修正路径，或取消设置以使用 ./config\n`,
    );
  });
});

describe('votes flagged', () => {
  it('says that no vote is flagged in Chinese', async () => {
    const r = await inProcess(['votes', 'flagged'], { env: { ...setup({ 'x.txt': '' }), ...ZH } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^没有被标记的投票/u);
  });
});

describe('files that cannot be read', () => {
  const file = (name: string, body: string | Uint8Array) => {
    const p = join(root, name);
    writeFileSync(p, body);
    return p;
  };

  it('a missing file is said in Chinese (import battles, judge agree, ratings --battles)', async () => {
    const missing = join(root, 'nosuch.jsonl');
    const imp = await inProcess(['import', 'battles', missing, '--source', 'zh-x'], {
      env: { ...setup({}), ...ZH },
    });
    expect(imp.stderr).toBe(
      `错误 [import_invalid]：${missing}：无法读取（没有这个文件）；请检查路径\n`,
    );
    const agree = await inProcess(['judge', 'agree', missing, missing], { env: ZH });
    expect(agree.stderr).toMatch(/：无法读取（没有这个文件）；请检查路径$/mu);
    const rat = await inProcess(['ratings', '--battles', missing], { env: ZH });
    expect(rat.stderr).toBe(
      `错误 [rating_input_invalid]：--battles ${missing}：无法读取（没有这个文件）；请检查路径\n`,
    );
  });

  it('a GBK file is refused in Chinese with the conversion', async () => {
    // 中文 in GBK after a first line.
    const f = file('gbk.jsonl', new Uint8Array([0x7b, 0x7d, 0x0a, 0xd6, 0xd0, 0xce, 0xc4, 0x0a]));
    const r = await inProcess(['import', 'battles', f, '--source', 'zh-x'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${f}:2：不是 UTF-8 文本：字节偏移 3（第 2 行第 1 个字节）以 0xD6 0xD0 0xCE 0xC4 开头，这不是有效的 UTF-8；没有从这个文件读取任何内容。请把它另存为 UTF-8（\`iconv -f GB18030 -t UTF-8 ${f} > converted\`：这些字节按 GBK/GB18030 读是中文）后重试。\n`,
    );
    const en = await inProcess(['import', 'battles', f, '--source', 'zh-x'], { env: setup({}) });
    expect(en.stderr).toMatch(
      /:2: not UTF-8 text: byte offset 3 \(byte 1 of line 2\) starts 0xD6/u,
    );
  });

  it('an empty battles file and a labels file without labels are said in Chinese', async () => {
    const empty = file('empty.jsonl', '\n\n');
    const r = await inProcess(['ratings', '--battles', empty], { env: ZH });
    expect(r.stderr).toMatch(
      /^错误 \[rating_input_invalid\]：\S+：输入为空（2 行，都没有数据）；请每行给出一场对战，例如 \{/u,
    );
    const none = file('none.jsonl', '\n');
    const agree = await inProcess(['judge', 'agree', none, none], { env: ZH });
    expect(agree.stderr).toMatch(/none\.jsonl:1：没有标签；应为每行一个 \{"item", "label"\}$/mu);
  });
});

describe('a YAML syntax error', () => {
  it('is one line in Chinese with the count of the errors that follow from it', async () => {
    const env = setup({
      'models.yaml':
        'models:\n  - name: m1\n    provider: openai\n   base_url: "http://x\n    model: x\n',
    });
    const r = await inProcess(['config', 'check', '--no-connect'], { env: { ...env, ...ZH } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^错误 \[config_invalid\]：\S*models\.yaml:4:1：YAML 语法错误（MISSING_CHAR：这一行的缩进与列表项相同，却不以 - 开头：请把它缩进到与所属项的键对齐，或以 - 开始新的一项）；由它引起的语法错误还有 1 处$/mu,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const en = await inProcess(['config', 'check', '--no-connect'], { env });
    expect(en.stderr).toMatch(
      /models\.yaml:4:1: YAML syntax error \(a line is indented as a list's items but does not start with -: indent it as far as its item's keys, or start a new item with -\); 1 more syntax error follows from it$/mu,
    );
  });
});

describe('the embedded database named and refused in Chinese', () => {
  it('a data folder that is a file, and a file in its path', async () => {
    const env = setup({ 'data/pg': 'x' });
    const r = await inProcess(['export', 'battles', '--source', 'nosuch'], {
      env: { ...env, ...ZH },
    });
    expect(r.stderr).toBe(
      `错误 [db_unavailable]：嵌入式数据库目录 ${env.ZHUJIU_DATA_DIR} 是文件，不是目录。请把 ZHUJIU_DATA_DIR 设为一个目录（不存在时会自动创建），或把 DATABASE_URL 设为 PostgreSQL 服务器。\n`,
    );
    const under = { ...env, ZHUJIU_DATA_DIR: join(env.ZHUJIU_DATA_DIR as string, 'pg') };
    const r2 = await inProcess(['export', 'battles', '--source', 'nosuch'], {
      env: { ...under, ...ZH },
    });
    expect(r2.stderr).toBe(
      `错误 [db_unavailable]：无法把 ${under.ZHUJIU_DATA_DIR} 用作嵌入式数据库目录：${env.ZHUJIU_DATA_DIR} 是文件，不是目录（路径中有一部分是文件，ENOTDIR）。请把 ZHUJIU_DATA_DIR 设为可写的目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。\n`,
    );
  });

  it('an unknown --source names the database in Chinese', async () => {
    const env = setup({ 'x.txt': '' });
    const r = await inProcess(['export', 'battles', '--source', 'nosuch'], {
      env: { ...env, ...ZH },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`嵌入式数据库（PGlite）${env.ZHUJIU_DATA_DIR}`);
    expect(r.stderr).not.toContain('PGlite at');
  });
});

describe('usage errors of names', () => {
  it('a bad --dataset and an unknown judge report --model are said in Chinese', async () => {
    const f = join(root, 'ds.json');
    writeFileSync(f, '[{"instruction": "a", "output": "x"}]');
    const r = await inProcess(['import', 'outputs', f, '--model', 'm', '--dataset', 'a b'], {
      env: { ...setup({}), ...ZH },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '错误 [input_invalid]：--dataset “a b”不是有效的名称：只能用字母、数字和 . _ : @ + -，并以字母或数字开头（不能有空格或 /）\n',
    );
    const j = await inProcess(['judge', 'report', '--model', 'nosuch'], {
      env: { ...setup({ 'x.txt': '' }), ...ZH },
    });
    expect(j.code).toBe(2);
    expect(j.stderr).toMatch(
      /^错误 \[input_invalid\]：--model nosuch：没有这个模型：\S+models\.yaml 和已存储的数据中都没有它；/u,
    );
  });
});

describe('a re-import whose answer changed', () => {
  it('names the kept item in Chinese all through', async () => {
    const env = { ...setup({ 'x.txt': '' }), ...ZH };
    const f = join(root, 'changed.jsonl');
    writeFileSync(f, '{"item": "q1", "prompt": "p", "output": "a"}\n');
    const args = ['import', 'outputs', f, '--model', 'm', '--format', 'jsonl'];
    expect((await inProcess(args, { env })).code).toBe(0);
    writeFileSync(f, '{"item": "q1", "prompt": "p", "output": "b"}\n');
    const r = await inProcess(args, { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('已保留存储的版本：题目“q1”（第 1 行）');
  });
});

describe('the ratings table', () => {
  it('names the Elo column in Chinese (the JSON keeps "elo")', async () => {
    const f = join(root, 'three.jsonl');
    writeFileSync(
      f,
      '{"model_a":"a","model_b":"b","winner":"model_a"}\n{"model_a":"a","model_b":"b","winner":"tie"}\n',
    );
    const r = await inProcess(['ratings', '--battles', f, '--bootstrap', '0'], { env: ZH });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^名次 +模型 +评分 +95% 置信区间 +在线 Elo +票数 +平均胜率$/mu);
    const json = await inProcess(['ratings', '--battles', f, '--bootstrap', '0', '--json'], {
      env: ZH,
    });
    expect(JSON.parse(json.stdout).models[0]).toHaveProperty('elo');
  });

  it('names why a model is not rated in Chinese', async () => {
    const f = join(root, 'unbeaten.jsonl');
    const lines = ['{"model_a":"a","model_b":"b","winner":"tie"}'];
    for (let i = 0; i < 3; i++) lines.push('{"model_a":"a","model_b":"c","winner":"model_a"}');
    writeFileSync(f, `${lines.join('\n')}\n`);
    const r = await inProcess(['ratings', '--battles', f, '--bootstrap', '0'], { env: ZH });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}c：无下界（3 票）：/mu);
    expect(r.stdout).not.toMatch(/unbounded/u);
  });
});

describe('a missing config folder', () => {
  it('is said in Chinese', async () => {
    const dir = join(root, 'no-config');
    const r = await inProcess(['config', 'check', '--no-connect'], {
      env: { ZHUJIU_CONFIG_DIR: dir, ...ZH },
    });
    expect(r.stderr).toBe(
      `错误 [config_missing]：配置目录 ${dir} 不存在（来自 ZHUJIU_CONFIG_DIR）；请修正路径，或取消设置以使用 ./config\n`,
    );
  });
});

describe('a config path that cannot be read', () => {
  it('is said in Chinese, alone or in the list of problems', async () => {
    const env = setup({ suites: 'not a folder' });
    const dir = env.ZHUJIU_CONFIG_DIR as string;
    const r = await inProcess(['config', 'check', '--no-connect'], { env: { ...env, ...ZH } });
    expect(r.stderr).toBe(
      `错误 [config_invalid]：${join(dir, 'suites')}：无法读取（路径中有一部分是文件，ENOTDIR）；请检查配置目录及其文件的权限\n`,
    );
    const en = await inProcess(['config', 'check', '--no-connect'], { env });
    expect(en.stderr).toBe(
      `error [config_invalid]: ${join(dir, 'suites')}: cannot read (ENOTDIR); check the permissions of the config folder and its files\n`,
    );
    const listed = setup({ 'models.yaml/x': '' });
    const l = await inProcess(['config', 'check', '--no-connect'], { env: { ...listed, ...ZH } });
    expect(l.stderr).toMatch(/models\.yaml：无法读取（这是目录，不是文件）；请检查路径$/mu);
  });
});

describe('import judgments file-level refusals and the labels of another kind', () => {
  const put = (name: string, body: string | Uint8Array) => {
    const p = join(root, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, body);
    return p;
  };
  const judgments = (path: string, env: Record<string, string>) =>
    inProcess(['import', 'judgments', path, '--format', 'alpaca_eval', '--judge', 'j'], { env });
  const outputsLine = '{"item": "q1", "prompt": "p", "output": "a"}\n';

  it('a file of another kind, and a folder without files of the format, in Chinese', async () => {
    const env = setup({ 'models.yaml': 'models: []\n' });
    const out = put('jk1/outputs.jsonl', outputsLine);
    const r = await judgments(out, { ...env, ...ZH });
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${out}：这看起来是 模型输出文件（{item, prompt, output}），不是 --format alpaca_eval 的评审；请用 \`zhujiu import outputs ${out} --format jsonl --model NAME\` 导入\n`,
    );
    const en = await judgments(out, env);
    expect(en.stderr).toBe(
      `error [import_invalid]: ${out}: this looks like model outputs ({item, prompt, output}), not --format alpaca_eval judgments; import it with \`zhujiu import outputs ${out} --format jsonl --model NAME\`\n`,
    );
    const dir = join(root, 'jk2');
    const mo = put('jk2/model_outputs.json', '[{"instruction": "i", "output": "o"}]');
    const hint = await judgments(dir, { ...env, ...ZH });
    expect(hint.stderr).toBe(
      `错误 [import_invalid]：${dir}：这个目录中没有这种格式的 *.jsonl 文件，但有 1 个 AlpacaEval 模型输出文件（不是评审）（model_outputs.json）：\`zhujiu import outputs ${mo} --model NAME\`\n`,
    );
    mkdirSync(join(root, 'jk3'));
    const none = await judgments(join(root, 'jk3'), { ...env, ...ZH });
    expect(none.stderr).toBe(
      `错误 [import_invalid]：${join(root, 'jk3')}：这个目录中没有 *.jsonl 文件；请给出存放评审文件的目录，或其中一个文件\n`,
    );
    const enNone = await judgments(join(root, 'jk3'), env);
    expect(enNone.stderr).toBe(
      `error [import_invalid]: ${join(root, 'jk3')}: no *.jsonl files in this folder; pass the folder that holds the judged files, or one file\n`,
    );
  });

  it('a folder that cannot be read (a dangling link in it) in Chinese', async () => {
    const dir = join(root, 'jk4');
    mkdirSync(dir);
    symlinkSync(join(dir, 'gone'), join(dir, 'a.jsonl'));
    const r = await judgments(dir, { ...setup({ 'models.yaml': 'models: []\n' }), ...ZH });
    expect(r.stderr).toBe(
      `错误 [import_invalid]：${dir}：无法读取这个目录（文件或目录不存在，ENOENT）；请检查它的权限\n`,
    );
  });

  it('judge agree given a file of battles says so in Chinese', async () => {
    const f = put('jk5/battles.jsonl', '{"model_a": "a", "model_b": "b", "winner": "tie"}\n');
    const r = await inProcess(['judge', 'agree', f, f], { env: ZH });
    expect(r.stderr).toContain(
      `${f}:1：这看起来是 竞技场对战（{model_a, model_b, winner}）；请用 \`zhujiu ratings --battles ${f}\` 计算评分，或用 \`zhujiu import battles ${f}\` 导入；judge agree 读取 {"item": ..., "label": ...} 组成的 JSON Lines`,
    );
  });

  it('a GAOKAO-Bench result file that is not UTF-8 is listed in Chinese', async () => {
    const f = put('jk6/m_2010-2022_Physics_MCQs.json', new Uint8Array([0x7b, 0xd6, 0xd0, 0x7d]));
    const r = await inProcess(
      ['import', 'outputs', join(root, 'jk6'), '--format', 'gaokao', '--model', 'm'],
      { env: { ...setup({ 'models.yaml': 'models: []\n' }), ...ZH } },
    );
    expect(r.stderr).toMatch(
      new RegExp(`^错误 \\[import_invalid\\]：${f}:1：不是 UTF-8 文本：`, 'u'),
    );
  });
});

describe('judge run with a judge the models file lacks', () => {
  it('lists the configured models closest first with a did-you-mean, in Chinese', async () => {
    const entry = (name: string) =>
      `  - name: ${name}\n    provider: openai\n    base_url: http://127.0.0.1:1/v1\n    model: x\n`;
    const env = setup({
      'models.yaml': `models:\n${entry('alpha')}${entry('gpt-judge')}${entry('gpt-judges-2')}`,
      'suites/tiny.yaml': SUITE,
    });
    const args = ['judge', 'run', '--judge', 'gpt-jugde', '--model', 'm', '--suite', 'tiny'];
    const models = join(env.ZHUJIU_CONFIG_DIR as string, 'models.yaml');
    const zh = await inProcess(args, { env: { ...env, ...ZH } });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toBe(
      `错误 [input_invalid]：--judge gpt-jugde：${models} 中没有这个模型；请把它加到那里（任何 OpenAI 兼容的端点都可以），或给出其中列出的模型之一：gpt-judge、gpt-judges-2、alpha（你是不是想写“gpt-judge”？）\n`,
    );
    const en = await inProcess(args, { env });
    expect(en.code).toBe(2);
    expect(en.stderr).toBe(
      `error [input_invalid]: --judge gpt-jugde: not in ${models}; add it there (any OpenAI-compatible endpoint), or give one of the models it lists: gpt-judge, gpt-judges-2, alpha (did you mean "gpt-judge"?)\n`,
    );
  });
});

describe('ratings --style-control', () => {
  it('a missing file and a line without a winner are said in Chinese', async () => {
    const missing = join(root, 'nosuch-style.jsonl');
    const r = await inProcess(['ratings', '--battles', missing, '--style-control'], { env: ZH });
    expect(r.stderr).toBe(
      `错误 [rating_input_invalid]：--battles ${missing}：无法读取（没有这个文件）；请检查路径\n`,
    );
    const f = join(root, 'style.jsonl');
    writeFileSync(f, '{"model_a":"a","model_b":"a","winner":"tie"}\n');
    const same = await inProcess(['ratings', '--battles', f, '--style-control'], { env: ZH });
    expect(same.stderr).toBe(
      `错误 [rating_input_invalid]：${f}:1：model_a 和 model_b 是同一个模型；一场对战需要两个模型\n`,
    );
  });
});
