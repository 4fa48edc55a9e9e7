/**
 * bin/zhujiu.js run by a Node older than package.json's `engines` says so, and how to fix it, in the command line's
 * language (LC_ALL > LC_MESSAGES > LANG, as i18n/cli.ts localeFromPosixEnv), before any compiled module loads. An
 * older Node is imitated by a preload that changes `process.version(s)`: the check reads only those.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLEAN_ENV, ZHUJIU_BIN } from '../../helpers/run-cli.ts';

const OLD_NODE = `data:text/javascript,${encodeURIComponent(
  "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.1.0' } });" +
    "Object.defineProperty(process, 'version', { value: 'v20.1.0' });",
)}`;

/** Runs `zhujiu --help` under the imitated Node 20 with the locale variables `locale`. */
function runOld(locale: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', OLD_NODE, ZHUJIU_BIN, '--help'], {
    encoding: 'utf8',
    env: { ...process.env, ...CLEAN_ENV, ...locale },
  });
}

describe('bin/zhujiu.js on a Node older than 22.12', () => {
  it('refuses in English under the C locale', () => {
    const r = runOld({});
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: zhujiu needs Node.js 22.12 or later, or 24; this is Node v20.1.0 (${process.execPath}).\n` +
        'Run it through npm, which uses the Node the project installs (node_modules/.bin/node, from `npm ci`):\n' +
        '  npx zhujiu <command>    or    npm start\n' +
        'or install Node 22 or 24 (https://nodejs.org) and run `node bin/zhujiu.js` with it.\n',
    );
  });

  it('refuses in Chinese under a zh locale, LC_ALL first', () => {
    const locales: Record<string, string>[] = [
      { LANG: 'zh_CN.UTF-8' },
      { LANG: 'C.UTF-8', LC_ALL: 'zh_CN.UTF-8' },
    ];
    for (const locale of locales) {
      const r = runOld(locale);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `错误：zhujiu 需要 Node.js 22.12 或更高版本，或 24；当前是 Node v20.1.0（${process.execPath}）。\n` +
          '请通过 npm 运行它，npm 会使用项目安装的 Node（node_modules/.bin/node，来自 `npm ci`）：\n' +
          '  npx zhujiu <命令>    或    npm start\n' +
          '或者安装 Node 22 或 24（https://nodejs.org），再用它运行 `node bin/zhujiu.js`。\n',
      );
    }
    expect(runOld({ LANG: 'zh_CN.UTF-8', LC_MESSAGES: 'en_US.UTF-8' }).stderr).toMatch(/^error: /);
  });
});
