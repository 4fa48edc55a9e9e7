/**
 * A module that cannot be loaded is told from other failures (src/core/module-load.ts) and said as an incomplete
 * installation with its fix, in the command line's two languages (src/i18n/cli.ts `installBrokenError`).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.ts';
import { unloadableModule } from '../../../src/core/module-load.ts';
import { installBrokenError, sayCli } from '../../../src/i18n/cli.ts';

const missing = '/nonexistent/zhujiu/dist/bundle/cli/chunk-ABC123.js';

async function importFailure(spec: string): Promise<unknown> {
  return import(spec).then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('a module that cannot be loaded', () => {
  it('is named from an import, a require, a missing package and a cause', async () => {
    expect(unloadableModule(await importFailure(missing))).toBe(missing);
    const required = (() => {
      try {
        createRequire(import.meta.url)(missing);
      } catch (e) {
        return e;
      }
    })();
    expect(unloadableModule(required)).toBe(missing);
    expect(unloadableModule(await importFailure('no-such-package-of-zhujiu'))).toBe(
      'no-such-package-of-zhujiu',
    );
    const wrapped = new Error('opening failed', { cause: await importFailure(missing) });
    expect(unloadableModule(wrapped)).toBe(missing);
  });

  it('is not any other failure', () => {
    expect(unloadableModule(new Error(`Cannot find module '${missing}'`))).toBeUndefined();
    expect(unloadableModule(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBeUndefined();
    expect(unloadableModule(new AppError('db_unavailable', 'down'))).toBeUndefined();
    expect(unloadableModule('text')).toBeUndefined();
    expect(installBrokenError(new Error('other'))).toBeUndefined();
  });

  it('is said as an incomplete installation with the fix, in English and Chinese', async () => {
    const err = installBrokenError(await importFailure(missing));
    expect(err?.code).toBe('install_broken');
    expect(err?.message).toBe(
      `zhujiu's installation is incomplete: ${missing} cannot be loaded. Run \`npm run build\` in the zhujiu folder (or \`npm ci\`, which also installs its dependencies again), then run the command again.`,
    );
    expect(sayCli('zh-CN', err!.said!)).toBe(
      `zhujiu 的安装不完整：无法加载 ${missing}。请在 zhujiu 目录中运行 \`npm run build\`（或运行 \`npm ci\`，它还会重新安装依赖），然后再次运行命令。`,
    );
  });
});
