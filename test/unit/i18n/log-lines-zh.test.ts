/**
 * A warning a person reads on the terminal is in their language, its log file line in English (core/logger.ts
 * `saidLogLines`): the line carries its message as catalogue data (`said`), said again when the lines go to the
 * terminal in human form. The stale-lock takeover of the embedded database was an English log line on a Chinese
 * terminal.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Said } from '../../../src/core/errors.ts';
import { createLogger, saidLogLines } from '../../../src/core/logger.ts';
import { said, sayCli } from '../../../src/i18n/cli.ts';
import { lockDataDir } from '../../../src/storage/data-dir-lock.ts';

/** The JSON lines a logger writes through {@link saidLogLines} to the terminal or not. */
function lines(toTerminal: boolean, log: (l: ReturnType<typeof createLogger>) => void) {
  const out: Record<string, unknown>[] = [];
  const dest = { write: (s: string) => out.push(JSON.parse(s) as Record<string, unknown>) };
  log(createLogger('info', saidLogLines(dest, 'zh-CN', toTerminal)));
  return out;
}

describe('warnings on the terminal in the reader language', () => {
  it('a line carrying `said` is said in Chinese on the terminal, in English elsewhere; `said` is dropped', () => {
    const message = said('cli.start.voterSecretGenerated');
    const warn = (l: ReturnType<typeof createLogger>) =>
      l.warn({ file: 'x', said: message }, sayCli('en', message));
    const [terminal] = lines(true, warn);
    expect(terminal?.msg).toBe('未设置 ZHUJIU_VOTER_SECRET：已为这个数据目录生成投票者 id 的密钥');
    expect(terminal?.file).toBe('x');
    expect(terminal).not.toHaveProperty('said');
    const [file] = lines(false, warn);
    expect(file?.msg).toBe(
      'ZHUJIU_VOTER_SECRET is not set: generated a voter-id secret for this data folder',
    );
    expect(file).not.toHaveProperty('said');
    // A line without catalogue data is left as it is.
    const [plain] = lines(true, (l) => l.info({ n: 1 }, 'database ready'));
    expect(plain?.msg).toBe('database ready');
  });

  it('the stale-lock takeover carries its message as catalogue data', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'zhujiu-lock-zh-')), 'pg');
    // A lock as a crashed holder leaves it, naming this process's own pid (a restarted container).
    mkdirSync(`${dir}.lock`, { recursive: true });
    writeFileSync(
      join(`${dir}.lock`, 'owner.json'),
      JSON.stringify({ pid: process.pid, host: hostname(), start: '1', since: 'earlier' }),
    );
    const seen: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = {
      warn: (obj: Record<string, unknown>, msg: string) => seen.push({ obj, msg }),
      error: (obj: Record<string, unknown>, msg: string) => seen.push({ obj, msg }),
    };
    const release = await lockDataDir(dir, log);
    release();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.msg).toMatch(/^took over a stale lock of the embedded database \(it names/u);
    const zh = sayCli('zh-CN', seen[0]?.obj.said as Said);
    expect(zh).toBe(
      `已接管嵌入式数据库的过期锁（它记录的是本进程自己的 pid，重启的容器会复用 pid；此前由进程 ${process.pid}，主机 ${hostname()}，自 earlier 起持有）`,
    );
  });
});
