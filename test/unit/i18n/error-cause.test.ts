/**
 * A failure's cause inside a Chinese sentence is said in Chinese (i18n/error-cause.ts): an errno code or the
 * openai client's `Connection error.` becomes the catalogue's phrase, the code kept after it; English keeps the
 * text as it is. Each case here showed `（Connection error）` or `（EACCES）` in a Chinese sentence.
 */
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../src/core/errors.ts';
import { cannotWrite } from '../../../src/core/out-file.ts';
import { cannotRead } from '../../../src/core/utf8.ts';
import { failureCauseText } from '../../../src/eval/failure-cause.ts';
import { sayCli } from '../../../src/i18n/cli.ts';
import { causeSaid, causeText } from '../../../src/i18n/error-cause.ts';
import { unusableDataDir } from '../../../src/storage/db.ts';

const said = (err: AppError) => sayCli('zh-CN', err.said ?? { key: 'missing' });

describe('causeText', () => {
  it('says common errno codes and client messages in Chinese, the code kept after the phrase', () => {
    const cases: [string, string][] = [
      ['EACCES', '没有权限，EACCES'],
      ['EPERM', '没有权限，EPERM'],
      ['ENOENT', '文件或目录不存在，ENOENT'],
      ['EROFS', '文件系统只读，EROFS'],
      ['ENOSPC', '磁盘空间不足，ENOSPC'],
      ['ECONNREFUSED', '连接被拒绝，ECONNREFUSED'],
      ['ENOTFOUND', '找不到该主机名，ENOTFOUND'],
      ['ETIMEDOUT', '超时，ETIMEDOUT'],
      ['Connection error.', '连接出错'],
      ['Connection error', '连接出错'],
      ['Request timed out.', '超时'],
      ['connect ECONNREFUSED 127.0.0.1:5432', '连接被拒绝，connect ECONNREFUSED 127.0.0.1:5432'],
    ];
    for (const [detail, zh] of cases) {
      expect(causeText('zh-CN', detail)).toBe(zh);
      expect(causeText('en', detail)).toBe(detail);
    }
  });

  it('keeps a text of no known cause as it is', () => {
    expect(causeText('zh-CN', 'password authentication failed for user "x"')).toBe(
      'password authentication failed for user "x"',
    );
    expect(causeText('zh-CN', 'ERROR: bad')).toBe('ERROR: bad');
    expect(causeSaid('EACCES')).toEqual({ texts: { en: 'EACCES', 'zh-CN': '没有权限，EACCES' } });
  });
});

describe('causes inside Chinese sentences', () => {
  it("an unreachable endpoint of a run's failure cause: （连接出错）, not （Connection error）", () => {
    const stored =
      'cannot reach api.example.org after 3 attempts (Connection error); check base_url of model m1 in config/models.yaml and that the server is up';
    const zh = failureCauseText(stored, 'zh-CN');
    expect(zh).toContain('仍无法连接 api.example.org（连接出错）');
    expect(failureCauseText(stored, 'en')).toBe(stored);
  });

  it('a file, a folder or an output path refused for a system reason', () => {
    expect(said(cannotRead('data.json', 'import_invalid', { code: 'EMFILE' }))).toBe(
      'data.json：无法读取（打开的文件太多，EMFILE）；请检查路径',
    );
    expect(said(unusableDataDir('/data/pg', { code: 'EROFS', path: '/data/pg.lock' }))).toContain(
      '无法把 /data/pg 用作嵌入式数据库目录：无法在 /data 中写入（文件系统只读，EROFS），锁和新解包的数据库要放在那里',
    );
    expect(
      said(cannotWrite({ flag: '--out', path: 'x.csv', fileName: 'x.csv' }, { code: 'EBUSY' })),
    ).toBe('--out x.csv：无法写入（正在被占用，EBUSY；请选择可写的路径）');
  });
});
