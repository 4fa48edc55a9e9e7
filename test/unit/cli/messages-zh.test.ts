/**
 * Command line texts said by renderers outside a command's own output, in both languages of the catalogue: the
 * English is the text the command printed before it joined the catalogue, the Chinese its translation.
 */

import { describe, expect, it } from 'vitest';
import { dbText } from '../../../src/cli/deps.ts';
import { upgradeProgressLine } from '../../../src/cli/migrate.ts';
import { modelNameProblem } from '../../../src/config/model-name.ts';
import { suiteDescription } from '../../../src/config/schema.ts';
import type { AppError, Said } from '../../../src/core/errors.ts';
import { failureCauseText } from '../../../src/eval/failure-cause.ts';
import { allFailedError } from '../../../src/eval/run-error.ts';
import { runErrorText } from '../../../src/eval/summary.ts';
import { abilityText, methodText, t } from '../../../src/i18n/index.ts';
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
    expect(groupProblems(zh, 'zh-CN')).toEqual(['f:1：缺失（另有 2 行也是如此：第 2, 3 行）']);
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
      '构建之后又有 超过 10,000 票新投票 和 2 次评测任务',
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

describe("an item's recorded failure cause", () => {
  it('is said in Chinese when its wording is known, kept as recorded in English', () => {
    const network =
      'cannot reach 127.0.0.1:9 after 1 attempt (Connection error); check base_url of model missing-ep in cfg/models.yaml and that the server is up';
    expect(failureCauseText(network)).toBe(network);
    expect(failureCauseText(network, 'zh-CN')).toBe(
      '尝试 1 次后仍无法连接 127.0.0.1:9（Connection error）；请检查模型 missing-ep 在 cfg/models.yaml 中的 base_url，以及服务器是否在运行',
    );
    expect(failureCauseText('no answer from h:1 within 60000 ms (after 3 attempts)', 'zh-CN')).toBe(
      'h:1 在 60000 毫秒内没有应答（共尝试 3 次）',
    );
    expect(failureCauseText('HTTP 500 from h:1 after 3 attempts: boom', 'zh-CN')).toBe(
      '尝试 3 次后 h:1 仍返回 HTTP 500：boom',
    );
    expect(failureCauseText('a scorer said no', 'zh-CN')).toBe('a scorer said no');
    expect(runErrorText('request to h:1 failed: EPIPE', 'zh-CN')).toBe('对 h:1 的请求失败：EPIPE');
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
      'the database was migrated by a newer version (it has migration 9999_future; this zhujiu knows up to 0001_a); upgrade zhujiu, or point DATABASE_URL / ZHUJIU_DATA_DIR at another database',
    );
    expect(sayCli('zh-CN', err?.said as Said)).toBe(
      '这个数据库已由更新版本的 zhujiu 迁移（它有 1 个未知的迁移 9999_future；这个 zhujiu 只认识到 0001_a）；请升级 zhujiu，或让 DATABASE_URL / ZHUJIU_DATA_DIR 指向另一个数据库',
    );
  });
});
