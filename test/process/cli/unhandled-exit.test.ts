/**
 * A one-shot `zhujiu` process (bin/zhujiu.js installs cli/unhandled.ts) that meets a promise rejection nobody
 * handled prints one redacted line and exits with status 1. A real process: the exit code is the behaviour.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLEAN_ENV } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

describe('an unhandled rejection in a one-shot command', () => {
  it('prints one redacted error line and exits with 1', () => {
    const mod = pathToFileURL(join(PROJECT_ROOT, 'dist', 'src', 'cli', 'unhandled.js')).href;
    const script = `const { installUnhandledRejectionHandler } = await import(${JSON.stringify(mod)});
installUnhandledRejectionHandler(process.env);
Promise.reject(new Error('lost postgres://zj:s3cret@db.example/zhujiu'));
setTimeout(() => process.stdout.write('still running\\n'), 2000);`;
    const run = (locale: Record<string, string>) =>
      spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: {
          ...process.env,
          ...CLEAN_ENV,
          ...locale,
          DATABASE_URL: 'postgres://zj:s3cret@db.example/zhujiu',
        },
      });
    const r = run({});
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error [unhandled_rejection]: lost [redacted] (an operation failed that nothing was waiting for; the command stopped)\n',
    );
    // The language of the command line: the locale variables of the environment the handler was given.
    const zh = run({ LANG: 'zh_CN.UTF-8' });
    expect(zh.status).toBe(1);
    expect(zh.stderr).toBe(
      '错误 [unhandled_rejection]：lost [redacted]（一个没有任何代码等待的操作失败了；命令已停止）\n',
    );
  });
});

describe('an uncaught exception in a long-lived process (fatalOnUncaughtException)', () => {
  it('a lost database connection is logged and the process goes on; anything else is one fatal line and exit 1', () => {
    const mod = pathToFileURL(join(PROJECT_ROOT, 'dist', 'src', 'cli', 'unhandled.js')).href;
    const logger = pathToFileURL(join(PROJECT_ROOT, 'dist', 'src', 'core', 'logger.js')).href;
    // The driver's 'error' event of a connection nobody listened on (pg_terminate_backend: SQLSTATE 57P01), then
    // pg's "Connection terminated unexpectedly", then a programming error.
    const script = `const { installUnhandledRejectionHandler, fatalOnUncaughtException } = await import(${JSON.stringify(mod)});
const { silentLogger } = await import(${JSON.stringify(logger)});
installUnhandledRejectionHandler(process.env);
fatalOnUncaughtException(silentLogger);
const { EventEmitter } = await import('node:events');
setTimeout(() => new EventEmitter().emit('error', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), 10);
setTimeout(() => new EventEmitter().emit('error', new Error('Connection terminated unexpectedly')), 20);
setTimeout(() => process.stdout.write('alive\\n'), 30);
setTimeout(() => { throw new TypeError('x is not a function (postgres://zj:s3cret@db.example/zhujiu)'); }, 40);
setTimeout(() => process.stdout.write('still running\\n'), 2000);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, ...CLEAN_ENV, DATABASE_URL: 'postgres://zj:s3cret@db.example/zhujiu' },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('alive\n');
    expect(r.stderr).toBe(
      'fatal: uncaught exception: x is not a function ([redacted]); exiting so that a supervisor restarts zhujiu\n',
    );
  });
});
