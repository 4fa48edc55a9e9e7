/**
 * core/logger `openLogDestination`: in human form, lines are written by pino-pretty, loaded at the first line
 * written (a command that logs nothing never loads it); a flush before any line calls back at once.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, openLogDestination } from '../../../src/core/logger.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-log-destination-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether pino-pretty's module is in this process's CommonJS cache. */
const prettyLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((k) =>
    k.includes(`${join('node_modules', 'pino-pretty')}${join('/', 'index.js')}`),
  );

describe('core/logger openLogDestination, human form', () => {
  it('loads pino-pretty only at the first line, then writes human lines', async () => {
    const file = join(dir, 'a.log');
    const dest = await openLogDestination({ format: 'pretty', file });
    const log = createLogger('warn', dest);
    log.info('not at this level');
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    expect(readFileSync(file, 'utf8')).toBe('');
    log.warn({ model: 'm1' }, 'a warning');
    expect(readFileSync(file, 'utf8')).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] WARN: a warning \{"model":"m1"\}\n$/u,
    );
    expect(prettyLoaded()).toBe(true);
  });

  it('leaves pino-pretty unloaded until then (a fresh process: this one shares its modules with other files)', () => {
    const logger = pathToFileURL(join(PROJECT_ROOT, 'src', 'core', 'logger.ts')).href;
    const script = `
      const { createRequire } = await import('node:module');
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('pino-pretty'));
      const { createLogger, openLogDestination } = await import(${JSON.stringify(logger)});
      const log = createLogger('warn', await openLogDestination({ format: 'pretty', file: ${JSON.stringify(join(dir, 'b.log'))} }));
      log.info('below the level');
      const before = loaded();
      log.warn('a warning');
      console.log(JSON.stringify([before, loaded()]));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([false, true]);
  });
});
