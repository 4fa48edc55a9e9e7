/**
 * The terminal reads like a chat: `zhujiu bot` with lines piped in (no chat tokens) prints one line saying where
 * the data and logs are, then only the conversation; its logs go to a file in human form. LOG_FORMAT / LOG_FILE
 * ask for JSON lines or another place, and a bot without any input (headless) logs to stderr.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shippedDefinitionsDir } from '../../helpers/config-dir.ts';
import { pgliteDataDir } from '../../helpers/db.ts';
import { ZHUJIU_BIN } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/** Runs `zhujiu bot` with `input` piped in, stdout and stderr merged in order (as a terminal shows them). */
async function botWithInput(
  input: string,
  env: Record<string, string>,
): Promise<{ code: number | null; text: string }> {
  const child = spawn('sh', ['-c', `exec "${process.execPath}" "${ZHUJIU_BIN}" bot 2>&1`], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DISCORD_TOKEN: '',
      SLACK_BOT_TOKEN: '',
      LOG_LEVEL: '',
      LOG_FORMAT: '',
      LOG_FILE: '',
      PORT: '0',
      // The shipped suites and default settings, not the user's own config/ (test/helpers/config-dir.ts).
      ZHUJIU_CONFIG_DIR: shippedDefinitionsDir(),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (b: Buffer) => {
    text += b.toString();
  });
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, text };
}

describe.concurrent('terminal chat output', () => {
  // Concurrent tests must take onTestFinished from their own context: the global one may attach to the other test
  // and delete this test's folder while it still runs (seen as a missing log file under load).
  it('piped lines: one line on where things are, then only the chat; logs in a file, human form', async ({
    onTestFinished,
  }) => {
    const d = pgliteDataDir();
    onTestFinished(d.remove);
    const r = await botWithInput('help\n⬅️\nquit\n', { ZHUJIU_DATA_DIR: d.dataDir });
    expect(r.code, r.text).toBe(0);
    const logFile = join(dirname(d.dataDir), 'zhujiu.log');
    const lines = r.text.trimEnd().split('\n');
    expect(lines[0]).toBe(`zhujiu bot: data in PGlite at ${d.dataDir}; logs in ${logFile}`);
    // The shipped config's locale is zh-CN: the terminal speaks Chinese (the typed forms stay as they are).
    expect(lines[1]).toBe('煮酒竞技场（终端）。你是维护者。');
    expect(lines.at(-1)).toBe('再见');
    expect(r.text).toContain('vote <battle> <choice>');
    expect(r.text).toContain('请指明对战：vote <battle> left');
    // Nothing from the logs reaches the terminal.
    expect(r.text).not.toMatch(/"level"|\bINFO\b|\bWARN\b|database ready|secret/);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] INFO: database ready/m);
    expect(log).toMatch(/WARN: ZHUJIU_VOTER_SECRET is not set: generated a voter-id secret/);
    expect(log).not.toContain('"level"');
  });

  it('LOG_FORMAT=json LOG_FILE=- puts JSON lines on stderr instead', async ({ onTestFinished }) => {
    const d = pgliteDataDir();
    onTestFinished(d.remove);
    const r = await botWithInput('quit\n', {
      ZHUJIU_DATA_DIR: d.dataDir,
      LOG_FORMAT: 'json',
      LOG_FILE: '-',
    });
    expect(r.code, r.text).toBe(0);
    const json = r.text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; level: number });
    expect(json.map((j) => j.msg)).toContain('database ready');
    expect(existsSync(join(dirname(d.dataDir), 'zhujiu.log'))).toBe(false);
    expect(r.text).not.toContain('zhujiu bot: data in'); // the logs say it
  });
});
