/**
 * A one-shot `zhujiu` process (bin/zhujiu.js installs cli/unhandled.ts) that meets a promise rejection nobody
 * handled prints one redacted line and exits with status 1. A real process: the exit code is the behaviour.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

describe('an unhandled rejection in a one-shot command', () => {
  it('prints one redacted error line and exits with 1', () => {
    const mod = pathToFileURL(join(PROJECT_ROOT, 'dist', 'src', 'cli', 'unhandled.js')).href;
    const script = `const { installUnhandledRejectionHandler } = await import(${JSON.stringify(mod)});
installUnhandledRejectionHandler(process.env);
Promise.reject(new Error('lost postgres://zj:s3cret@db.example/zhujiu'));
setTimeout(() => process.stdout.write('still running\\n'), 2000);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: 'postgres://zj:s3cret@db.example/zhujiu' },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error [unhandled_rejection]: lost [redacted] (an operation failed that nothing was waiting for; the command stopped)\n',
    );
  });
});
