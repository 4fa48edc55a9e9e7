/**
 * What is at a path meant to be a folder (core/folder-state.ts), and the refusals built on it: a path under a regular
 * file (ENOTDIR, `/etc/hostname/x`) names that file instead of "does not exist", for ZHUJIU_CONFIG_DIR and for the
 * folder of an `--out` file, as the data folder check does (storage/db.ts `unusableDataDir`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { folderState } from '../../../src/core/folder-state.ts';
import { makeDirs } from '../../../src/core/make-dirs.ts';
import { checkOutputPath } from '../../../src/core/out-file.ts';
import { sayCli } from '../../../src/i18n/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-folder-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const file = join(root, 'hostname');
writeFileSync(file, 'x\n');
mkdirSync(join(root, 'dir'));

/** The error `fn` throws (or its rejection). */
async function errorOf(fn: () => unknown): Promise<Error & { said?: never; code?: string }> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('folderState', () => {
  it('tells a folder, nothing, a file and a path under a file apart', () => {
    expect(folderState(join(root, 'dir'))).toEqual({ kind: 'folder' });
    expect(folderState(join(root, 'none', 'deeper'))).toEqual({ kind: 'missing' });
    expect(folderState(file)).toEqual({ kind: 'file' });
    expect(folderState(join(file, 'x'))).toEqual({ kind: 'underFile', file });
    expect(folderState(join(file, 'x', 'y', 'z'))).toEqual({ kind: 'underFile', file });
  });

  it('makeDirs under a file fails with ENOTDIR naming the file, not a raw stat error', async () => {
    const e = (await errorOf(() => makeDirs(join(file, 'a', 'b')))) as NodeJS.ErrnoException;
    expect(e.code).toBe('ENOTDIR');
    expect(e.path).toBe(file);
  });
});

describe('a path under a file is said as such', () => {
  it('ZHUJIU_CONFIG_DIR under a file names the file, in both languages', async () => {
    const dir = join(file, 'config');
    const e = await errorOf(() => loadConfig({ env: { ZHUJIU_CONFIG_DIR: dir } }));
    expect(e.message).toBe(
      `config folder ${dir} is under a file (${file} is a file, not a folder: ENOTDIR; from ZHUJIU_CONFIG_DIR); point it at the folder that holds default.yaml, or unset it to use ./config`,
    );
    expect(sayCli('zh-CN', (e as unknown as { said: Parameters<typeof sayCli>[1] }).said)).toBe(
      `配置目录 ${dir} 位于一个文件之下（${file} 是文件，不是目录：ENOTDIR；来自 ZHUJIU_CONFIG_DIR）；请让它指向存放 default.yaml 的目录，或取消设置以使用 ./config`,
    );
  });

  it('an --out file under a file names the file in the way', async () => {
    const e = await errorOf(() =>
      checkOutputPath({ flag: '--out', path: join(file, 'x', 'y.jsonl'), fileName: 'y.jsonl' }),
    );
    expect(e.message).toBe(
      `--out ${join(file, 'x', 'y.jsonl')}: cannot write (${file} is a file, not a folder; pick another path)`,
    );
  });
});
