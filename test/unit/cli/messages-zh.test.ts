/**
 * Command line texts said by renderers outside a command's own output, in both languages of the catalogue: the
 * English is the text the command printed before it joined the catalogue, the Chinese its translation.
 */

import { describe, expect, it } from 'vitest';
import { dbText } from '../../../src/cli/deps.ts';
import { upgradeProgressLine } from '../../../src/cli/migrate.ts';
import { parseEnv } from '../../../src/config/loader.ts';
import { modelNameProblem } from '../../../src/config/model-name.ts';
import { suiteDescription } from '../../../src/config/schema.ts';
import type { AppError, Said } from '../../../src/core/errors.ts';
import { ocnliLoader } from '../../../src/eval/datasets/choice.ts';
import { math23kLoader } from '../../../src/eval/datasets/math23k.ts';
import { cmrc2018Loader } from '../../../src/eval/datasets/span.ts';
import { failureCauseText } from '../../../src/eval/failure-cause.ts';
import { allFailedError } from '../../../src/eval/run-error.ts';
import { runErrorText } from '../../../src/eval/summary.ts';
import { sayCli } from '../../../src/i18n/cli.ts';
import { abilityText, methodText, t } from '../../../src/i18n/index.ts';
import { parseAlpacaAnnotations } from '../../../src/import/formats/alpaca-eval-annotations.ts';
import { parseGaokaoFile } from '../../../src/import/formats/gaokao.ts';
import { parseGaokaoHuman } from '../../../src/import/formats/gaokao-human.ts';
import { parseGaokaoJudged } from '../../../src/import/formats/gaokao-judged.ts';
import { parseLabels } from '../../../src/import/formats/labels.ts';
import { capProblems, groupProblems } from '../../../src/import/formats/sniff.ts';
import { staleText } from '../../../src/leaderboard/service.ts';

describe('zhujiu migrate --upgrade-data-dir progress', () => {
  it('says each copied table in the command line language', () => {
    expect(upgradeProgressLine('en', { table: 'votes', rows: 10 })).toBe('copied votes: 10 rows');
    expect(upgradeProgressLine('zh-CN', { table: 'votes', rows: 10 })).toBe('已复制 votes：10 行');
  });
});

describe('problem lists of a file', () => {
  it('group the same reason on many lines and cap the list, in both languages', () => {
    const en = ['f:1: x', 'f:2: x', 'f:3: x', 'f:4: x', 'f:5: x'];
    expect(groupProblems(en)).toEqual(['f:1: x (also on lines 2, 3, 4 and 1 more)']);
    const zh = ['f:1：缺失', 'f:2：缺失', 'f:3：缺失'];
    expect(groupProblems(zh, 'zh-CN')).toEqual(['f:1：缺失（另有 2 行也是如此：第 2、3 行）']);
    expect(capProblems(['a', 'b', 'c'], 1)).toEqual(['a', '… and 2 more problems (3 in total)']);
    expect(capProblems(['a', 'b', 'c'], 1, 'zh-CN')).toEqual(['a', '……另有 2 个问题（共 3 个）']);
  });
});

describe('suite descriptions', () => {
  it("pick the reader's language, else the other one", () => {
    const both = { en: 'A suite.', 'zh-CN': '一个评测套件。' };
    expect(suiteDescription(both, 'zh-CN')).toBe('一个评测套件。');
    expect(suiteDescription(both, 'en')).toBe('A suite.');
    expect(suiteDescription({ en: 'A suite.' }, 'zh-CN')).toBe('A suite.');
    expect(suiteDescription('One text.', 'zh-CN')).toBe('One text.');
  });
});

describe('the model-name rule', () => {
  it('says what breaks a name in both languages', () => {
    expect(modelNameProblem(' m1')).toBe('starts or ends with a space; remove it');
    expect(modelNameProblem(' m1', 'zh-CN')).toBe('首尾有空格；请删除');
    expect(modelNameProblem('m\u200b1', 'zh-CN')).toBe(
      '含有 U+200B，这是控制、格式或换行字符；请只用可打印的文字',
    );
    expect(modelNameProblem('m1', 'zh-CN')).toBeUndefined();
  });
});

describe('a run whose every item failed', () => {
  it('keeps the recorded English and says it in Chinese', () => {
    expect(runErrorText(allFailedError(9))).toBe('every item failed (9)');
    expect(runErrorText(allFailedError(9), 'zh-CN')).toBe('所有题目都失败了（9 道）');
    expect(runErrorText('HTTP 500 from the endpoint', 'zh-CN')).toBe('HTTP 500 from the endpoint');
  });
});

describe("a stale board's note", () => {
  const none = { votes: 0, voteChanges: 0, runs: 0, verdicts: 0, battleChanges: 0 };
  it('says what the snapshot misses in Chinese', () => {
    expect(staleText({ ...none, votes: 1 }, 'zh-CN')).toBe('构建之后又有 1 票新投票');
    expect(staleText({ ...none, votes: 10_001, runs: 2 }, 'zh-CN')).toBe(
      '构建之后又有 超过 10,000 票新投票，以及 2 次评测任务',
    );
    expect(staleText(none, 'zh-CN')).toBe('构建之后输入或设置有更改');
    expect(staleText({ ...none, votes: 1 })).toBe('built before 1 newer vote');
  });
});

describe('ability names in command line tables', () => {
  it('are the identifiers in English and the catalogue names in Chinese', () => {
    expect(abilityText('chinese_specific', 'en')).toBe('chinese_specific');
    expect(abilityText('knowledge', 'zh-CN')).toBe('知识');
    expect(abilityText('chinese_specific', 'zh-CN')).toBe(t('zh-CN', 'ability.chinese_specific'));
    expect(abilityText('custom_thing', 'zh-CN')).toBe('custom_thing');
    // The method column of `zhujiu suites` says the board's words.
    expect(methodText('metrics', 'en')).toBe('metrics');
    expect(methodText('metrics', 'zh-CN')).toBe('指标评估');
    expect(methodText('comparative', 'zh-CN')).toBe('对比评估');
  });
});

describe('the terminal arena', () => {
  it('says reactions and vote choices in Chinese', () => {
    expect(t('zh-CN', 'shell.reactions', { id: 'm1', emojis: '👈 👉' })).toBe(
      '[m1] 表情回应：👈 👉',
    );
    expect(t('zh-CN', 'shell.choice.left', { emoji: '👈' })).toBe('👈（左边更好）');
    expect(t('en', 'shell.choice.left', { emoji: '👈' })).toBe('👈 (left)');
  });
});

describe('row problems of the readers, in both languages', () => {
  const en = (ps: readonly Said[]) => ps.map((p) => sayCli('en', p));
  const zh = (ps: readonly Said[]) => ps.map((p) => sayCli('zh-CN', p));

  it('dataset loaders: OCNLI, CMRC 2018, Math23K (English as before, Chinese with full-width colons)', () => {
    const ocnli = ocnliLoader.parse(
      [
        {
          name: 'o.jsonl',
          text: '{"id": 1, "sentence1": "a", "sentence2": "b", "label": "yes"}\n{"id": 2}\n',
        },
      ],
      [],
    ).problems;
    expect(en(ocnli)[0]).toBe(
      'o.jsonl:1: "label" must be entailment, neutral, contradiction or -, got "yes"',
    );
    expect(zh(ocnli)[0]).toBe(
      'o.jsonl:1：`label` 必须是 entailment、neutral、contradiction 或 -，实际是“yes”',
    );
    expect(en(ocnli)[1]).toMatch(/^o\.jsonl:2: "sentence1" is missing: give a string/);
    expect(zh(ocnli)[1]).toMatch(/^o\.jsonl:2：`sentence1` 缺失：应为字符串/);
    const squad = JSON.stringify({
      data: [{ paragraphs: [{ context: 'c', qas: [{ id: 'q', question: 'x', answers: [] }] }] }],
    });
    const cmrc = cmrc2018Loader.parse([{ name: 'c.json', text: squad }], []).problems;
    expect(en(cmrc)).toEqual(['c.json:1: "answers" needs at least one reference answer']);
    expect(zh(cmrc)).toEqual(['c.json:1：`answers` 至少需要一个参考答案']);
    const math = math23kLoader.parse(
      [{ name: 'm.jsonl', text: '{"id": 1, "original_text": "t", "ans": "x+"}\n' }],
      [],
    ).problems;
    expect(en(math)).toEqual([
      'm.jsonl:1: "ans" "x+" is not a number, N%, ((a)/(b)) or an expression of those',
    ]);
    expect(zh(math)).toEqual([
      'm.jsonl:1：`ans` 的值“x+”不是数字、N%、((a)/(b)) 或由它们组成的算式',
    ]);
  });

  it('GAOKAO-Bench objective outputs, judged and human-graded files', () => {
    const obj = JSON.stringify({
      keyword: '2010-2022_Physics_MCQs',
      example: [{ index: 0, year: 2010, question: 'q', answer: ['A'], score: 6 }],
    });
    expect(parseGaokaoFile(obj, 'g.json', true)).toEqual({
      ok: false,
      reason: [
        'g.json:1: example 0: "model_output" is missing; this is not a result file of model outputs',
      ],
    });
    expect(parseGaokaoFile(obj, 'g.json', true, 'zh-CN')).toEqual({
      ok: false,
      reason: ['g.json:1：示例 0：缺少 `model_output`；这不是模型输出的结果文件'],
    });
    const judged = parseGaokaoJudged('{"keyword": "k"}', 'j.json', 'zh-CN');
    expect(judged.ok).toBe(false);
    expect(judged.ok ? [] : judged.reason[0]).toMatch(
      /^j\.json：model_name：.*；应为 GAOKAO-Bench 主观题评审文件 \{keyword, /u,
    );
    const human = parseGaokaoHuman('{"keyword": "k", "example": []}', 'h.json', 'zh-CN');
    expect(human).toEqual({
      ok: false,
      reason: [
        'h.json:1：没有 `model_name`，文件名也不是 <model>_k.json；请在文件中加上 `model_name`，或按上游的方式命名文件',
      ],
    });
  });

  it('labels and AlpacaEval annotations', () => {
    const labels = '{"item": "", "label": 1}\n{"item": "b"}\n';
    expect(parseLabels(labels, 'l.jsonl')).toEqual({
      ok: false,
      reason: [
        'l.jsonl:1: "item" must be a non-empty string or an integer',
        'l.jsonl:2: "label" must be a number or a non-empty string',
      ],
    });
    expect(parseLabels(labels, 'l.jsonl', 'zh-CN')).toEqual({
      ok: false,
      reason: [
        'l.jsonl:1：`item` 必须是非空字符串或整数',
        'l.jsonl:2：`label` 必须是数字或非空字符串',
      ],
    });
    const ann = '{"instruction": "i", "generator_1": "", "generator_2": "b"}\n';
    expect(parseAlpacaAnnotations(ann, 'a.jsonl')).toEqual({
      ok: false,
      reason: ['a.jsonl:1: "generator_1" must name the baseline model'],
    });
    expect(parseAlpacaAnnotations(ann, 'a.jsonl', 'zh-CN')).toEqual({
      ok: false,
      reason: ['a.jsonl:1：`generator_1` 必须写明基准模型'],
    });
  });

  it('environment variables', () => {
    expect(() => parseEnv({ ZHUJIU_VOTER_SECRET: 'short' })).toThrow(
      'environment ZHUJIU_VOTER_SECRET: must be at least 16 characters (e.g. `openssl rand -hex 32`)',
    );
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' }, 'zh-CN')).toThrow(
      /^环境变量 DATABASE_URL：必须是 postgres:\/\/ 或 postgresql:\/\/ 开头的 URL\n环境变量 LOG_LEVEL：应为 fatal、error、warn、info、debug、trace、silent 之一$/u,
    );
  });
});

describe("an item's recorded failure cause", () => {
  it('is said in Chinese when its wording is known, kept as recorded in English', () => {
    const network =
      'cannot reach 127.0.0.1:9 after 1 attempt (Connection error); check base_url of model missing-ep in cfg/models.yaml and that the server is up';
    expect(failureCauseText(network)).toBe(network);
    expect(failureCauseText(network, 'zh-CN')).toBe(
      '尝试 1 次后仍无法连接 127.0.0.1:9（连接出错）；请检查模型 missing-ep 在 cfg/models.yaml 中的 base_url，以及服务器是否在运行',
    );
    expect(failureCauseText('no answer from h:1 within 60000 ms (after 3 attempts)', 'zh-CN')).toBe(
      'h:1 在 60000 毫秒内没有应答（共尝试 3 次）',
    );
    expect(failureCauseText('HTTP 500 from h:1 after 3 attempts: boom', 'zh-CN')).toBe(
      '尝试 3 次后 h:1 仍返回 HTTP 500：boom',
    );
    expect(failureCauseText('a scorer said no', 'zh-CN')).toBe('a scorer said no');
    // The item runner's own wordings (eval/run-item.ts).
    expect(
      failureCauseText(
        'the prompt built from this item has 9000 characters, more than eval.max_prompt_chars (8000); not sent',
        'zh-CN',
      ),
    ).toBe('由这道题构造的提示有 9000 个字符，超过了 eval.max_prompt_chars（8000）；没有发送');
    expect(failureCauseText('scoring failed: boom', 'zh-CN')).toBe('评分失败：boom');
    expect(failureCauseText('the model client failed: Connection error.', 'zh-CN')).toBe(
      '模型客户端出错：连接出错',
    );
    expect(
      failureCauseText(
        'planned in the run but no longer in suite mini (the suite changed)',
        'zh-CN',
      ),
    ).toBe('这道题计划在这次评测中，但已不在评测套件 mini 中（套件改过了）');
    expect(failureCauseText('judge j1 stored no grade for this item', 'zh-CN')).toBe(
      '评审 j1 没有为这道题存下评分',
    );
    expect(runErrorText('request to h:1 failed: EPIPE', 'zh-CN')).toBe(
      '对 h:1 的请求失败：连接被重置，EPIPE',
    );
  });
});

describe('the database in command line sentences', () => {
  it("is named in the reader's language, never with the URL's password", () => {
    expect(dbText({ kind: 'pglite', dataDir: '/d/pg' }, 'en')).toBe('PGlite at /d/pg');
    expect(dbText({ kind: 'pglite', dataDir: '/d/pg' }, 'zh-CN')).toBe(
      '嵌入式数据库（PGlite）/d/pg',
    );
    const pg = { kind: 'postgres', url: 'postgres://u:secret@h:5432/db' } as const;
    expect(dbText(pg, 'en')).toBe('Postgres at h:5432/db');
    expect(dbText(pg, 'zh-CN')).toBe('PostgreSQL 数据库 h:5432/db');
  });
});

describe('a database a newer zhujiu migrated', () => {
  it('is refused in English for logs and said in Chinese', async () => {
    const { refuseNewer } = await import('../../../src/storage/db.ts');
    const { sayCli } = await import('../../../src/i18n/cli.ts');
    let err: AppError | undefined;
    try {
      refuseNewer({ applied: ['0001_a', '9999_future'], unknown: ['9999_future'], pending: [] });
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.message).toBe(
      'the database was migrated by a newer version (it has migration 9999_future; this zhujiu knows up to 0001_a); upgrade zhujiu, or point DATABASE_URL / ZHUJIU_DATA_DIR at another database.',
    );
    expect(sayCli('zh-CN', err?.said as Said)).toBe(
      '这个数据库已由更新版本的 zhujiu 迁移（它有 1 个未知的迁移 9999_future；这个 zhujiu 只认识到 0001_a）；请升级 zhujiu，或让 DATABASE_URL / ZHUJIU_DATA_DIR 指向另一个数据库。',
    );
  });
});

describe('a failed migration', () => {
  it("is refused in English for logs and said in Chinese, with the driver's detail", async () => {
    const { migrationFailed } = await import('../../../src/storage/db.ts');
    const cause = new Error('relation "votes" already exists');
    const err = migrationFailed('0007_flags', cause);
    expect(err.code).toBe('db_migration_failed');
    expect(err.cause).toBe(cause);
    expect(err.message).toBe('migration 0007_flags failed: relation "votes" already exists');
    expect(sayCli('zh-CN', err.said as Said)).toBe(
      '迁移 0007_flags 失败：relation "votes" already exists',
    );
    const unnamed = migrationFailed(undefined, 'boom');
    expect(unnamed.message).toBe('migration (unknown) failed: boom');
    expect(sayCli('zh-CN', unnamed.said as Said)).toBe('迁移 （名称未知） 失败：boom');
  });
});

describe('ratings --battles line problems', () => {
  /** The refusal of `lines` read by the arena line parser, in English and in Chinese. */
  const refusal = async (...lines: string[]) => {
    const { parseArenaLines } = await import('../../../src/import/formats/arena-battles.ts');
    try {
      parseArenaLines(lines, 'f.jsonl');
    } catch (e) {
      const err = e as AppError;
      return { en: err.message, zh: sayCli('zh-CN', err.said as Said) };
    }
    throw new Error('no refusal');
  };
  const battle = '{"model_a":"a","model_b":"b","winner":"tie"}';

  it('are refused in English for logs and said in Chinese', async () => {
    expect(await refusal('{"model_a":"a","model_b":"a","winner":"tie"}')).toEqual({
      en: 'f.jsonl:1: self-battle: "a" against itself; model_a and model_b must differ',
      zh: 'f.jsonl:1：自己对战自己：“a”对战它自己；model_a 和 model_b 必须不同',
    });
    expect(await refusal(battle, '{"model_a":"a","model_b":"b","winner":"x"}')).toEqual({
      en: 'f.jsonl:2: unknown winner "x"; use one of "model_a", "model_b", "tie", "tie (bothbad)"',
      zh: 'f.jsonl:2：未知的 `winner` “x”；请使用 `model_a`、`model_b`、`tie`、`tie (bothbad)` 之一',
    });
    expect(await refusal('{"model_b":"b","winner":"tie"}')).toEqual({
      en: 'f.jsonl:1: "model_a" must be a non-empty string (the model name), got nothing',
      zh: 'f.jsonl:1：`model_a` 必须是非空字符串（模型名称），实际是空值',
    });
    expect(await refusal('{"model_a":" a","model_b":"b","winner":"tie"}')).toEqual({
      en: 'f.jsonl:1: "model_a" " a" starts or ends with a space; remove it',
      zh: 'f.jsonl:1：`model_a` “ a”首尾有空格；请删除',
    });
    expect(await refusal(battle, '{"model_a":"a","model_b":"b","model_a_wins":1}')).toEqual({
      en: 'f.jsonl:2: a pair-count line in a file of battles (detected at line 1); put each kind in its own file',
      zh: 'f.jsonl:2：对战文件中有一行配对计数（文件类型在第 1 行确定）；请把两种记录分别放在各自的文件中',
    });
    expect(await refusal('[{"instruction": "q", "output": "a"}]')).toEqual({
      en: 'f.jsonl:1: this is a JSON array; battles are JSON Lines, one object per line like {"model_a":"gpt-4","model_b":"claude-2","winner":"model_a"} (a JSON array of {instruction, output} is model outputs: `zhujiu import outputs f.jsonl --model NAME`)',
      zh: 'f.jsonl:1：这是一个 JSON 数组；对战记录是 JSON Lines，每行一个对象，例如 {"model_a":"gpt-4","model_b":"claude-2","winner":"model_a"}（由 {instruction, output} 组成的 JSON 数组是模型输出：`zhujiu import outputs f.jsonl --model NAME`）',
    });
    const counts = await refusal(
      '{"model_a":"a","model_b":"b","model_a_wins":1,"model_b_wins":-1,"tie":0,"tie_bothbad":0}',
    );
    expect(counts.en).toBe('f.jsonl:1: "model_b_wins" must be a non-negative integer, got -1');
    expect(counts.zh).toBe('f.jsonl:1：`model_b_wins` 必须是非负整数，实际是 -1');
  });
});

describe('ratings --style-control line problems', () => {
  it('are refused in English for logs and said in Chinese', async () => {
    const { parseStyleLines } = await import('../../../src/import/formats/arena-style.ts');
    const refusal = (lines: string[]) => {
      try {
        parseStyleLines(lines, 'f.jsonl');
      } catch (e) {
        const err = e as AppError;
        return { en: err.message, zh: sayCli('zh-CN', err.said as Said) };
      }
      throw new Error('no refusal');
    };
    expect(refusal(['{"model_a":"a","model_b":"b","winner":"x"}'])).toEqual({
      en: 'f.jsonl:1: "winner" must be one of "model_a", "model_b", "tie", "tie (bothbad)"',
      zh: 'f.jsonl:1：`winner` 必须是 `model_a`、`model_b`、`tie`、`tie (bothbad)` 之一',
    });
    expect(refusal(['{"model_a":"a","model_b":"b","winner":"tie"}'])).toEqual({
      en: "f.jsonl: no battle line has conv_metadata (the answers' style counts), so style control has nothing to fit; export battles whose answers are stored with `zhujiu export battles --format fastchat`, or rate without --style-control",
      zh: 'f.jsonl：没有一行对战带有 conv_metadata（回答的风格统计），风格控制无从拟合；请用 `zhujiu export battles --format fastchat` 导出回答已存储的对战，或去掉 --style-control 计算评分',
    });
  });
});

describe('a rubric the config lacks', () => {
  it('is refused in English for logs and said in Chinese', async () => {
    const { loadRubric } = await import('../../../src/eval/judge/rubrics.ts');
    let err: AppError | undefined;
    try {
      loadRubric('/nonexistent-config', 'nosuch');
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.message).toBe(
      'rubric "nosuch": /nonexistent-config/rubrics/nosuch.yaml does not exist; add it or use ten_point / industry_0_3',
    );
    expect(sayCli('zh-CN', err?.said as Said)).toBe(
      '评分细则“nosuch”：/nonexistent-config/rubrics/nosuch.yaml 不存在；请添加它，或使用 ten_point / industry_0_3',
    );
  });
});

describe('a YAML syntax error', () => {
  /** What the parser says of `text`'s first error, in `locale`. */
  const detail = async (text: string, locale: 'en' | 'zh-CN') => {
    const { parseDocument } = await import('yaml');
    const { yamlErrorDetail } = await import('../../../src/config/loader.ts');
    const first = parseDocument(text, { prettyErrors: false }).errors[0];
    if (!first) throw new Error('no YAML error');
    return yamlErrorDetail(first, locale);
  };

  it('keeps the code and says a Chinese sentence of it; English keeps the parser message', async () => {
    expect(await detail('a: 1\na: 2\n', 'zh-CN')).toBe(
      'DUPLICATE_KEY：同一映射中有重复的键；请只保留一个',
    );
    expect(await detail('a: 1\na: 2\n', 'en')).toBe('Map keys must be unique');
    expect(await detail('a:\n\tb: 1\n', 'zh-CN')).toBe(
      'TAB_AS_INDENT：用了制表符缩进；请用空格缩进',
    );
    expect(await detail('"a\nb": 1\n', 'zh-CN')).toBe(
      'MULTILINE_IMPLICIT_KEY：键跨了多行；请检查缩进和引号',
    );
    expect(await detail('a: ]\n', 'zh-CN')).toBe('UNEXPECTED_TOKEN：此处有意外的字符或标记');
    const { yamlErrorDetail } = await import('../../../src/config/loader.ts');
    expect(yamlErrorDetail({ code: 'SOME_NEW_CODE', message: 'x' }, 'zh-CN')).toBe('SOME_NEW_CODE');
  });

  it("keeps the hint of a parser message that says more than its code, in both languages (an unclosed [ is not just BAD_INDENT's indentation)", async () => {
    const cases: [string, string, string][] = [
      [
        'models: [\n',
        'a [ is never closed: add the ] that ends it; a [ … ] over several lines needs each line indented more than its key',
        'BAD_INDENT：[ 没有闭合：请补上与它配对的 ]；[ … ] 跨多行时，每行都要比它所属的键缩进更多',
      ],
      [
        'a:\n  b: {x: 1\n',
        'a { is never closed: add the } that ends it; a { … } over several lines needs each line indented more than its key',
        'BAD_INDENT：{ 没有闭合：请补上与它配对的 }；{ … } 跨多行时，每行都要比它所属的键缩进更多',
      ],
      [
        'a: "x\n',
        'a quoted text is never closed: add the closing "',
        'MISSING_CHAR：引号中的文本没有闭合：请补上右引号 "',
      ],
      [
        'a: @x\n',
        'a value without quotes cannot start with @: put the value in quotes',
        'BAD_SCALAR_START：不加引号的值不能以 @ 开头；请给值加上引号',
      ],
      [
        'a:\n  b: 1\n c: 2\n',
        'the keys of one mapping must start at the same column',
        'BAD_INDENT：同一映射的键必须从同一列开始',
      ],
      [
        'a: "\\q"\n',
        '\\q is not an escape sequence of double-quoted text: write \\\\ for a backslash, or use single quotes',
        'BAD_DQ_ESCAPE：\\q 不是双引号文本中有效的转义序列：反斜杠请写成 \\\\，或改用单引号',
      ],
    ];
    for (const [text, en, zh] of cases) {
      expect(await detail(text, 'en'), text).toBe(en);
      expect(await detail(text, 'zh-CN'), text).toBe(zh);
    }
  });

  it('every code of the yaml package has a sentence in both languages', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { PROJECT_ROOT } = await import('../../helpers/shared-data.ts');
    const { yamlErrorDetail } = await import('../../../src/config/loader.ts');
    const dts = join(PROJECT_ROOT, 'node_modules', 'yaml', 'dist', 'errors.d.ts');
    const union = /export type ErrorCode = ([^;]+);/.exec(readFileSync(dts, 'utf8'))?.[1] ?? '';
    const codes = [...union.matchAll(/'([A-Z_0-9]+)'/g)].map((m) => m[1] as string);
    expect(codes.length).toBeGreaterThan(20);
    for (const code of codes) {
      expect(yamlErrorDetail({ code, message: 'm' }, 'zh-CN')).toMatch(
        new RegExp(`^${code}：\\p{Script=Han}`, 'u'),
      );
      expect(sayCli('en', { key: `cli.config.yamlCode.${code}` })).toMatch(/^[a-z%]/u);
    }
  });
});

describe('a rubric file with bad content', () => {
  /** loadRubric of `text` written as rubrics/`name`.yaml: its English message and the Chinese of its `said`. */
  const refusal = async (name: string, text: string) => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadRubric } = await import('../../../src/eval/judge/rubrics.ts');
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-rubric-'));
    mkdirSync(join(dir, 'rubrics'));
    writeFileSync(join(dir, 'rubrics', `${name}.yaml`), text);
    try {
      loadRubric(dir, name);
    } catch (e) {
      const err = e as AppError;
      return { en: err.message, zh: sayCli('zh-CN', err.said as Said), code: err.code };
    }
    throw new Error('the rubric loaded');
  };

  it('says its schema errors in Chinese as a config file does (the schema’s own and zod’s)', async () => {
    const r = await refusal(
      'bad',
      'name: Bad\nversion: 1\nkind: single\nscale: {min: 0, max: 0}\nsystem: s\ntemplate: t\ncolour: red\n',
    );
    expect(r.code).toBe('config_invalid');
    expect(r.en).toMatch(
      /bad\.yaml:1:7 name: lower-case letters, digits and _ only, e\.g\. ten_point$/mu,
    );
    expect(r.en).toMatch(/bad\.yaml:4:8 scale: max must be greater than min$/mu);
    expect(r.zh).toMatch(/bad\.yaml:1:7 name：只能用小写字母、数字和 _，例如 ten_point$/mu);
    expect(r.zh).toMatch(/bad\.yaml:4:8 scale：max 必须大于 min$/mu);
    expect(r.zh).toMatch(/bad\.yaml:7:1 colour：未知的键/mu);
    expect(r.zh).not.toMatch(/unknown key|must be/u);
  });

  it('says its YAML syntax error in Chinese with the code, English with the parser message', async () => {
    const r = await refusal('syn', 'name: syn\nversion: 1\n  kind: single\n');
    expect(r.en).toMatch(/syn\.yaml:\d+:\d+: YAML syntax error \([A-Z]/u);
    expect(r.zh).toMatch(/syn\.yaml:\d+:\d+：YAML 语法错误（[A-Z_]+：\p{Script=Han}/u);
  });
});

describe('a score filter of item-level results', () => {
  it('is refused in English for logs and said in Chinese', async () => {
    const { parseScoreFilter } = await import('../../../src/eval/item-results.ts');
    let err: AppError | undefined;
    try {
      parseScoreFilter('--score', '0.9-0.1');
    } catch (e) {
      err = e as AppError;
    }
    expect([err?.code, err?.message]).toEqual([
      'input_invalid',
      '--score "0.9-0.1": use correct, wrong, or a range of the score fraction between 0 and 1 such as 0.5-1',
    ]);
    expect(sayCli('zh-CN', err?.said as Said)).toBe(
      '--score“0.9-0.1”：请用 correct、wrong，或 0 到 1 之间的得分比例范围，例如 0.5-1',
    );
  });
});

describe("the LLM client's other recorded failure causes", () => {
  it('are said in Chinese with their parts kept', () => {
    const zh = (m: string) => failureCauseText(m, 'zh-CN');
    expect(
      zh(
        'HTTP 404 from h:1: base_url http://h:1 of model m does not end in /v1; add it (e.g. http://h:1/v1) in cfg/models.yaml (404 Not Found)',
      ),
    ).toBe(
      'h:1 返回 HTTP 404（404 Not Found）：模型 m 的 base_url http://h:1 不以 /v1 结尾；请在 cfg/models.yaml 中补上，例如 http://h:1/v1',
    );
    expect(zh('HTTP 400 from h:1: 400 bad request')).toBe('h:1 返回 HTTP 400：400 bad request');
    expect(
      zh(
        'model m: the endpoint h:1 refused the request without an API key (HTTP 401); set api_key_env of model m in cfg/models.yaml to the variable that holds its key, and export that variable',
      ),
    ).toBe(
      '模型 m：端点 h:1 拒绝了不带 API 密钥的请求（HTTP 401）；请在 cfg/models.yaml 中把模型 m 的 api_key_env 设为存放其密钥的环境变量，并导出该变量',
    );
    expect(zh('HTTP 429: h:1 asked to wait 120 s, more than max_retry_after_ms (60000 ms)')).toBe(
      'HTTP 429：h:1 要求等待 120 秒，超过了 max_retry_after_ms（60000 毫秒）',
    );
    expect(zh('empty reply (finish_reason stop)')).toBe('空回复（finish_reason stop）');
    expect(zh('the stored answer holds reasoning but no answer')).toBe(
      '存储的回答只有推理，没有回答',
    );
    expect(zh('cancelled before the call')).toBe('调用前已取消');
    expect(zh('unexpected reply shape: no choices')).toBe('回复的结构不对：no choices');
  });
});
